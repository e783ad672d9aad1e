// The in-cluster configuration with the service-account directory somewhere else than where a pod has it
// (/var/run/secrets/kubernetes.io/serviceaccount): for tests, and for running the CronJob's command outside a pod.
// KUBECTL_WHY_SERVICE_ACCOUNT_DIR names the directory; with it set, and no kubeconfig in the way (kubectl's order:
// --kubeconfig, $KUBECONFIG, ~/.kube/config, then in-cluster), the live source's own inClusterConfig() reads the
// token, CA and namespace from it, and the configuration it builds is handed to the source as a kubeconfig file
// (LiveSource.open takes no configuration, only a kubeconfig path; the file holds paths, never the token itself).
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {UserError} from '../errors.js'

export const SERVICE_ACCOUNT_DIR_ENV = 'KUBECTL_WHY_SERVICE_ACCOUNT_DIR'

export interface InClusterKubeconfig {
  path: string
  remove(): void
}

export async function serviceAccountKubeconfig(
  flags: {kubeconfig?: string; context?: string; snapshot?: string},
  env: NodeJS.ProcessEnv = process.env,
): Promise<InClusterKubeconfig | undefined> {
  const dir = env[SERVICE_ACCOUNT_DIR_ENV]
  if (!dir || flags.snapshot !== undefined || flags.kubeconfig) return undefined
  // Loaded only here: a snapshot audit, or one without the variable, never loads the live source's code.
  const {inClusterConfig, resolveKubeconfig} = await import('../cluster/live/kubeconfig.js')
  if (resolveKubeconfig({context: flags.context}, env)) return undefined
  const config = inClusterConfig(env, dir)
  if (!config) {
    throw new UserError(
      `${SERVICE_ACCOUNT_DIR_ENV}=${dir} gives no in-cluster configuration`,
      `set KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT, and put the token in ${join(dir, 'token')}`,
    )
  }
  const tmp = mkdtempSync(join(tmpdir(), 'kubectl-why-in-cluster-'))
  const path = join(tmp, 'kubeconfig')
  writeFileSync(path, JSON.stringify({apiVersion: 'v1', kind: 'Config', ...config.merged}), {mode: 0o600})
  return {path, remove: () => rmSync(tmp, {recursive: true, force: true})}
}
