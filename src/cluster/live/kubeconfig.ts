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
  /** The cluster entry's name (--cluster, else the context's), for messages. */
  clusterName?: string
  /** The context's user entry; undefined when the context names none (requests are then anonymous). */
  user?: UserEntry
  userName?: string
  /** Where the configuration came from, for messages. */
  origin: string
  /** The kubeconfig files read (none for the in-cluster configuration or flags alone). */
  files?: string[]
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

/**
 * kubectl's connection flags (clientcmd overrides.go RecommendedConfigOverrideFlags, as kubectl v1.32 lists them in
 * `kubectl options`): the context's user and cluster by name, and fields of the cluster and user entries. What each
 * does is clientcmd's DirectClientConfig with ConfigOverrides (client_config.go, applyConnectionOverrides).
 */
export interface ConnectionOverrides {
  /** --user: the kubeconfig user to use (ConfigOverrides.Context.AuthInfo). */
  user?: string
  /** --cluster: the kubeconfig cluster to use (ConfigOverrides.Context.Cluster). */
  cluster?: string
  /** -s/--server (ConfigOverrides.ClusterInfo.Server). */
  server?: string
  'certificate-authority'?: string
  'insecure-skip-tls-verify'?: boolean
  'tls-server-name'?: string
  /** --token, --client-certificate, --client-key, --username, --password (ConfigOverrides.AuthInfo). */
  token?: string
  'client-certificate'?: string
  'client-key'?: string
  username?: string
  password?: string
}

const USER_OVERRIDES = ['token', 'client-certificate', 'client-key', 'username', 'password'] as const

/**
 * The context's cluster and user entries with the flags over them, as client-go v0.32.4 tools/clientcmd/client_config.go
 * merges them: getCluster:542-587 (the kubeconfig's entry, then every non-empty flag over it, mergo.WithOverride;
 * then --insecure-skip-tls-verify or --certificate-authority replaces the entry's insecure, CA file and CA data as one,
 * so a kubeconfig CA does not clash with --insecure-skip-tls-verify and --certificate-authority beats
 * certificate-authority-data; and --tls-server-name, or --server alone, replaces tls-server-name) and getAuthInfo:520-539
 * (non-empty --token, --client-certificate, --client-key, --username, --password over the entry's fields, the others
 * kept: a kubeconfig tokenFile stays beside --token, and bearerAuthRoundTripper then sends the file's token while the
 * file can be read, exactly as kubectl does).
 */
export function applyConnectionOverrides(
  cluster: ClusterEntry,
  user: UserEntry | undefined,
  o: ConnectionOverrides,
): {cluster: ClusterEntry; user: UserEntry | undefined} {
  const c: ClusterEntry = {...cluster}
  if (o.server) c.server = o.server
  if (o['certificate-authority'] || o['insecure-skip-tls-verify']) {
    c['insecure-skip-tls-verify'] = o['insecure-skip-tls-verify'] === true
    if (o['certificate-authority']) c['certificate-authority'] = resolve(o['certificate-authority'])
    else delete c['certificate-authority']
    delete c['certificate-authority-data']
  }
  if (o['tls-server-name'] || o.server) {
    if (o['tls-server-name']) c['tls-server-name'] = o['tls-server-name']
    else delete c['tls-server-name']
  }
  const given = USER_OVERRIDES.filter((k) => o[k])
  if (given.length === 0) return {cluster: c, user}
  const u: UserEntry = {...user}
  // Flag paths are the shell's, relative to the working directory (kubeconfig paths are relative to their file).
  for (const k of given) u[k] = k === 'client-certificate' || k === 'client-key' ? resolve(o[k] as string) : o[k]
  return {cluster: c, user: u}
}

export function resolveKubeconfig(
  options: {kubeconfig?: string; context?: string; overrides?: ConnectionOverrides},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig | undefined {
  const o = options.overrides ?? {}
  const {files, origin} = kubeconfigFiles(options.kubeconfig, env)
  // With --server, kubectl needs no kubeconfig at all (DirectClientConfig over an empty Config, the flags its only
  // fields); without one, nothing to read here (the caller tries the in-cluster configuration).
  if (files.length === 0 && !o.server) return undefined
  const merged = files.length > 0 ? mergeKubeconfigs(files) : {clusters: [], users: [], contexts: [], 'current-context': ''}
  const where = files.length > 0 ? origin : 'the command-line flags (no kubeconfig file)'
  const contextName = options.context ?? merged['current-context']
  let ctx: {cluster?: string; user?: string; namespace?: string} | undefined
  if (contextName) {
    ctx = merged.contexts.find((c) => c.name === contextName)?.context as typeof ctx
    if (!ctx)
      throw new UserError(`context "${contextName}" not found in ${origin}`, `known contexts: ${merged.contexts.map((c) => c.name).join(', ') || 'none'}`)
  } else if (o.server || o.cluster) {
    // getContext:498: no context named and none required: an empty one, the flags' cluster and user in it.
    ctx = {}
  } else {
    throw new UserError(`no current context is set in ${origin}`, `pass --context (known: ${merged.contexts.map((c) => c.name).join(', ') || 'none'})`)
  }
  // getClusterName:489 and getAuthInfoName:478: the flag's name over the context's; a name given by flag must exist
  // (getCluster:556 `cluster %q does not exist`, getAuthInfo:529 `auth info %q does not exist`).
  const clusterName = o.cluster || ctx.cluster
  const found = merged.clusters.find((c) => c.name === clusterName)?.cluster as ClusterEntry | undefined
  // kubectl checks the merged entries first (ConfirmUsable:451, validation.go validateClusterInfo:238): a --cluster
  // the kubeconfig lacks has no server unless --server gives one, and only then does getCluster:557 name it missing.
  if (!found && o.cluster)
    throw new UserError(
      o.server ? `cluster "${o.cluster}" does not exist in ${where}` : `no server found for cluster "${o.cluster}" (no such cluster in ${where})`,
      `known clusters: ${names(merged.clusters)}`,
    )
  if (!found && !o.server)
    throw new UserError(
      `context "${contextName}" names cluster "${ctx.cluster ?? ''}", which is not in ${origin}`,
      'fix the kubeconfig or pick another --context',
    )
  const userName = o.user || ctx.user || undefined
  const entry = userName === undefined ? undefined : (merged.users.find((u) => u.name === userName)?.user as UserEntry | undefined)
  if (userName !== undefined && !merged.users.some((u) => u.name === userName)) {
    if (o.user) throw new UserError(`auth info "${o.user}" does not exist in ${where}`, `known users: ${names(merged.users)}`)
    throw new UserError(`context "${contextName}" names user "${ctx.user}", which is not in ${origin}`, 'fix the kubeconfig or pick another --context')
  }
  // getAuthInfo:524: the flags' fields are merged into an empty AuthInfo when the context names no user.
  const base = userName === undefined ? (USER_OVERRIDES.some((k) => o[k]) ? {} : undefined) : (entry ?? {})
  const {cluster, user} = applyConnectionOverrides(found ?? {server: ''}, base, o)
  if (!cluster.server)
    throw new UserError(`cluster "${clusterName}" in ${origin} has no server address`, 'fix the kubeconfig, pass --server, or pick another --context')
  merged['current-context'] = contextName
  return {
    merged,
    context: contextName || '',
    namespace: ctx.namespace || 'default',
    server: cluster.server,
    cluster,
    clusterName: clusterName ?? '',
    user,
    userName: userName ?? (user ? '' : undefined),
    origin: where,
    files,
  }
}

const names = (list: Named[]) => list.map((x) => x.name).join(', ') || 'none'

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
    clusterName: 'in-cluster',
    user,
    userName: 'in-cluster',
    origin: 'in-cluster service account',
  }
}

/**
 * The flags an in-cluster configuration takes (client-go v0.32.4 tools/clientcmd/client_config.go
 * inClusterClientConfig.ClientConfig:613-626: "in-cluster configs only takes a host, token, or CA file"): --server,
 * --token (the mounted token file then unused) and --certificate-authority; the others leave it as it is.
 */
export function inClusterOverrides(config: ResolvedConfig, o: ConnectionOverrides): ResolvedConfig {
  const cluster: ClusterEntry = {...config.cluster}
  if (o.server) cluster.server = o.server
  if (o['certificate-authority']) cluster['certificate-authority'] = resolve(o['certificate-authority'])
  const user: UserEntry = o.token ? {token: o.token} : {...config.user}
  return {...config, server: cluster.server, cluster, user}
}
