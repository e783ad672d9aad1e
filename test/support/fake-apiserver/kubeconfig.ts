// A plain kubeconfig for the fake server: the committed test CA as certificate-authority (a file
// path, as most real kubeconfigs have it) and a bearer token. Written as YAML with every string
// JSON-quoted, which YAML reads as the same string.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

export interface KubeconfigOptions {
  /** Context and cluster name (default "fake-apiserver"). */
  context?: string
  /** The context's default namespace (none by default, i.e. "default"). */
  namespace?: string
  /** The kubeconfig user entry's name (default "fake-apiserver-user"). */
  user?: string
  /** File name within dir (default "kubeconfig"). */
  fileName?: string
  /** Another token than the server's (e.g. a wrong one, to see 401). */
  token?: string
}

export function kubeconfigText(server: string, caFile: string, token: string, o: KubeconfigOptions = {}): string {
  const q = JSON.stringify
  const context = o.context ?? 'fake-apiserver'
  const user = o.user ?? 'fake-apiserver-user'
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${q(context)}`,
    '  cluster:',
    `    server: ${q(server)}`,
    `    certificate-authority: ${q(caFile)}`,
    'contexts:',
    `- name: ${q(context)}`,
    '  context:',
    `    cluster: ${q(context)}`,
    `    user: ${q(user)}`,
    ...(o.namespace ? [`    namespace: ${q(o.namespace)}`] : []),
    `current-context: ${q(context)}`,
    'preferences: {}',
    'users:',
    `- name: ${q(user)}`,
    '  user:',
    `    token: ${q(o.token ?? token)}`,
    '',
  ].join('\n')
}

export function writeKubeconfig(dir: string, server: string, caFile: string, token: string, o: KubeconfigOptions = {}): string {
  const file = join(dir, o.fileName ?? 'kubeconfig')
  writeFileSync(file, kubeconfigText(server, caFile, token, o), {mode: 0o600})
  return file
}
