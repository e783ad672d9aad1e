// Kubeconfig resolution exactly as kubectl does it (k8s.io/client-go/tools/clientcmd/loader.go), not as
// the client library does: --kubeconfig alone; else every file of $KUBECONFIG merged with the first file
// to set a value winning (current-context included) and duplicate names tolerated; else ~/.kube/config;
// else the in-cluster service account. Relative paths resolve against the file that names them.
import {existsSync, readFileSync} from 'node:fs'
import {homedir} from 'node:os'
import {delimiter, dirname, isAbsolute, join, resolve} from 'node:path'
import {UserError} from '../../errors.js'
import {yamlLib} from '../../util/yaml-lib.js'
import {parseSimpleYaml} from './simple-yaml.js'

type Named = {name?: string; [k: string]: unknown}
interface KubeconfigFile {
  clusters?: Named[]
  users?: Named[]
  contexts?: Named[]
  'current-context'?: string
}

export interface ResolvedConfig {
  /** A single kubeconfig document, paths absolute, for the client library's loadFromString. */
  merged: {clusters: Named[]; users: Named[]; contexts: Named[]; 'current-context': string}
  context: string
  namespace: string
  server: string
  /** The context's cluster entry (server, certificate-authority[-data], tls-server-name, insecure-skip-tls-verify, proxy-url). */
  cluster: ClusterEntry
  /** The context's user entry; undefined when the context names none (requests are then anonymous). */
  user?: UserEntry
  userName?: string
  /** Where the configuration came from, for messages. */
  origin: string
}

export interface ClusterEntry {
  server: string
  'certificate-authority'?: string
  'certificate-authority-data'?: string
  'tls-server-name'?: string
  'insecure-skip-tls-verify'?: boolean
  'proxy-url'?: string
  'disable-compression'?: boolean
  extensions?: {name?: string; extension?: unknown}[]
  [field: string]: unknown
}

export interface ExecConfig {
  apiVersion?: string
  command?: string
  args?: string[]
  env?: {name: string; value: string}[] | null
  installHint?: string
  provideClusterInfo?: boolean
  interactiveMode?: string
}

export interface UserEntry {
  token?: string
  tokenFile?: string
  'client-certificate'?: string
  'client-certificate-data'?: string
  'client-key'?: string
  'client-key-data'?: string
  username?: string
  password?: string
  exec?: ExecConfig
  'auth-provider'?: {name?: string; config?: Record<string, string>}
  /** Impersonation (clientcmd api/v1 AuthInfo: Impersonate, ImpersonateUID, ImpersonateGroups, ImpersonateUserExtra). */
  as?: string
  'as-uid'?: string
  'as-groups'?: string[]
  'as-user-extra'?: Record<string, string[]>
  [field: string]: unknown
}

/** Service-account files of the in-cluster configuration (rest.InClusterConfig). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'

function readKubeconfig(path: string): KubeconfigFile {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new UserError(
      `cannot read kubeconfig ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      'check --kubeconfig / $KUBECONFIG',
    )
  }
  let doc: unknown
  try {
    // The common kubeconfig is read without the library (loading it and its parser, measured again: 13-19 ms of a
    // live run, over the README's 10 ms threshold, see "What is hand-written and why"); the rest, and broken files,
    // by it.
    doc = parseSimpleYaml(text) ?? yamlLib().parse(text)
  } catch (err) {
    throw new UserError(`kubeconfig ${path} is not valid YAML: ${(err as Error).message.split('\n')[0]}`, 'fix the file or point --kubeconfig elsewhere')
  }
  if (doc === null || doc === undefined) return {}
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new UserError(`kubeconfig ${path} is not a kubeconfig (not a mapping)`, 'fix the file or point --kubeconfig elsewhere')
  // clusters, users and contexts are lists of named entries (clientcmd api/v1 Config: []NamedCluster...); anything
  // else is refused as kubectl's decoder refuses it (loader.go: error loading config file "...": json: cannot
  // unmarshal object into Go struct field Config.clusters of type []v1.NamedCluster).
  for (const [kind, go] of [
    ['clusters', 'NamedCluster'],
    ['users', 'NamedAuthInfo'],
    ['contexts', 'NamedContext'],
  ] as const) {
    const v = (doc as Record<string, unknown>)[kind]
    if (v !== undefined && v !== null && !Array.isArray(v))
      throw new UserError(
        `error loading config file "${path}": ${kind} is ${typeof v === 'object' ? 'a mapping' : `a ${typeof v}`}, not a list of []v1.${go} (- name: ... entries)`,
        'write each entry as a list item: "- name: NAME" then its fields',
      )
  }
  return doc as KubeconfigFile
}

const PATH_FIELDS: Record<'clusters' | 'users', {section: string; fields: string[]}> = {
  clusters: {section: 'cluster', fields: ['certificate-authority']},
  users: {section: 'user', fields: ['client-certificate', 'client-key', 'tokenFile']},
}

/** ResolveLocalPaths: relative file references are relative to the kubeconfig that holds them. */
function resolvePaths(entry: Named, kind: 'clusters' | 'users', base: string): Named {
  const {section, fields} = PATH_FIELDS[kind]
  const body = entry[section] as Record<string, unknown> | undefined
  if (!body || typeof body !== 'object') return entry
  const copy: Record<string, unknown> = {...body}
  for (const f of fields) {
    const v = copy[f]
    if (typeof v === 'string' && v !== '' && !isAbsolute(v)) copy[f] = resolve(base, v)
  }
  const exec = copy.exec as {command?: string} | undefined
  if (exec?.command?.includes('/') && !isAbsolute(exec.command)) copy.exec = {...exec, command: resolve(base, exec.command)}
  return {...entry, [section]: copy}
}

/** The files kubectl would read, in precedence order. */
export function kubeconfigFiles(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): {files: string[]; origin: string; missing?: string[]} {
  if (explicit) {
    if (!existsSync(explicit)) throw new UserError(`cannot read kubeconfig ${explicit}: no such file`, 'check the --kubeconfig path')
    return {files: [explicit], origin: explicit}
  }
  const list = env.KUBECONFIG
  if (list !== undefined && list !== '') {
    const named = [...new Set(list.split(delimiter).filter((f) => f !== ''))]
    const files = named.filter((f) => existsSync(f))
    // loader.go skips a $KUBECONFIG file that does not exist (klog V(6) "Config not found: FILE"); which ones were
    // skipped is kept for the message when none is left.
    return {files, origin: `$KUBECONFIG (${list})`, missing: named.filter((f) => !files.includes(f))}
  }
  const home = join(env.HOME ?? homedir(), '.kube', 'config')
  return {files: existsSync(home) ? [home] : [], origin: home}
}

/** Why no kubeconfig was read, for the one line when there is no in-cluster configuration either. */
export function noKubeconfigReason(env: NodeJS.ProcessEnv = process.env): string {
  const list = env.KUBECONFIG
  if (list === undefined || list === '') return `$KUBECONFIG is unset and ${join(env.HOME ?? homedir(), '.kube', 'config')} does not exist`
  const {missing = []} = kubeconfigFiles(undefined, env)
  return missing.length === 1 ? `$KUBECONFIG names ${missing[0]}, which does not exist` : `$KUBECONFIG names ${missing.join(', ')}, none of which exists`
}

export function mergeKubeconfigs(files: string[]): ResolvedConfig['merged'] {
  const merged: ResolvedConfig['merged'] = {clusters: [], users: [], contexts: [], 'current-context': ''}
  const names = {clusters: new Set<string>(), users: new Set<string>(), contexts: new Set<string>()}
  for (const file of files) {
    const doc = readKubeconfig(file)
    const base = dirname(resolve(file))
    if (!merged['current-context'] && typeof doc['current-context'] === 'string') merged['current-context'] = doc['current-context']
    for (const kind of ['clusters', 'users', 'contexts'] as const) {
      for (const entry of doc[kind] ?? []) {
        if (!entry || typeof entry.name !== 'string' || names[kind].has(entry.name)) continue
        names[kind].add(entry.name)
        merged[kind].push(kind === 'contexts' ? entry : resolvePaths(entry, kind, base))
      }
    }
  }
  return merged
}

export function resolveKubeconfig(options: {kubeconfig?: string; context?: string}, env: NodeJS.ProcessEnv = process.env): ResolvedConfig | undefined {
  const {files, origin} = kubeconfigFiles(options.kubeconfig, env)
  if (files.length === 0) return undefined
  const merged = mergeKubeconfigs(files)
  const contextName = options.context ?? merged['current-context']
  if (!contextName) {
    throw new UserError(`no current context is set in ${origin}`, `pass --context (known: ${merged.contexts.map((c) => c.name).join(', ') || 'none'})`)
  }
  const ctx = merged.contexts.find((c) => c.name === contextName)?.context as {cluster?: string; user?: string; namespace?: string} | undefined
  if (!ctx) {
    throw new UserError(`context "${contextName}" not found in ${origin}`, `known contexts: ${merged.contexts.map((c) => c.name).join(', ') || 'none'}`)
  }
  const cluster = merged.clusters.find((c) => c.name === ctx.cluster)?.cluster as ClusterEntry | undefined
  if (!cluster)
    throw new UserError(
      `context "${contextName}" names cluster "${ctx.cluster ?? ''}", which is not in ${origin}`,
      'fix the kubeconfig or pick another --context',
    )
  if (!cluster.server) throw new UserError(`cluster "${ctx.cluster}" in ${origin} has no server address`, 'fix the kubeconfig or pick another --context')
  if (ctx.user !== undefined && ctx.user !== '' && !merged.users.some((u) => u.name === ctx.user)) {
    throw new UserError(`context "${contextName}" names user "${ctx.user}", which is not in ${origin}`, 'fix the kubeconfig or pick another --context')
  }
  merged['current-context'] = contextName
  const user = ctx.user ? ((merged.users.find((u) => u.name === ctx.user)?.user as UserEntry | undefined) ?? {}) : undefined
  return {merged, context: contextName, namespace: ctx.namespace || 'default', server: cluster.server, cluster, user, userName: ctx.user || undefined, origin}
}

/** rest.InClusterConfig: KUBERNETES_SERVICE_HOST/PORT and the mounted service-account token and CA. */
export function inClusterConfig(env: NodeJS.ProcessEnv = process.env, dir = SERVICE_ACCOUNT_DIR): ResolvedConfig | undefined {
  const host = env.KUBERNETES_SERVICE_HOST
  const port = env.KUBERNETES_SERVICE_PORT
  if (!host || !port || !existsSync(join(dir, 'token'))) return undefined
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`
  const namespaceFile = join(dir, 'namespace')
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : 'default'
  const cluster: ClusterEntry = {server, 'certificate-authority': join(dir, 'ca.crt')}
  const user: UserEntry = {tokenFile: join(dir, 'token')}
  return {
    merged: {
      clusters: [{name: 'in-cluster', cluster}],
      users: [{name: 'in-cluster', user}],
      contexts: [{name: 'in-cluster', context: {cluster: 'in-cluster', user: 'in-cluster', namespace}}],
      'current-context': 'in-cluster',
    },
    context: 'in-cluster',
    namespace,
    server,
    cluster,
    user,
    userName: 'in-cluster',
    origin: 'in-cluster service account',
  }
}
