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
  /** Another server address than the fake's (a name its certificate holds, reached through a proxy). */
  server?: string
  /** More fields of the cluster entry (proxy-url, tls-server-name, insecure-skip-tls-verify, …). */
  clusterFields?: Record<string, unknown>
  /** Leave certificate-authority out. */
  noCa?: boolean
  /** The user entry's fields instead of the token (exec, tokenFile, auth-provider, …); null: the context names no user. */
  userFields?: Record<string, unknown> | null
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
    `    server: ${q(o.server ?? server)}`,
    ...(o.noCa ? [] : [`    certificate-authority: ${q(caFile)}`]),
    ...Object.entries(o.clusterFields ?? {}).map(([k, v]) => `    ${k}: ${q(v)}`),
    'contexts:',
    `- name: ${q(context)}`,
    '  context:',
    `    cluster: ${q(context)}`,
    ...(o.userFields === null ? [] : [`    user: ${q(user)}`]),
    ...(o.namespace ? [`    namespace: ${q(o.namespace)}`] : []),
    `current-context: ${q(context)}`,
    'preferences: {}',
    ...(o.userFields === null
      ? ['users: []']
      : ['users:', `- name: ${q(user)}`, '  user:', ...Object.entries(o.userFields ?? {token: o.token ?? token}).map(([k, v]) => `    ${k}: ${q(v)}`)]),
    '',
  ].join('\n')
}

export function writeKubeconfig(dir: string, server: string, caFile: string, token: string, o: KubeconfigOptions = {}): string {
  const file = join(dir, o.fileName ?? 'kubeconfig')
  writeFileSync(file, kubeconfigText(server, caFile, token, o), {mode: 0o600})
  return file
}
