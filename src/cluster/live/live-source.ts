// The live source: reads a cluster through the API server, GETs only. Built-in kinds map to URLs
// without a discovery round trip; other kinds (CRDs) trigger discovery once. Authentication, TLS and proxies are
// done here (credentials.ts, connect.ts, proxy.ts), without the client library: loading it cost ~1.3 s per run.
import {isatty} from 'node:tty'
import {ReadError, UserError} from '../../errors.js'
import type {Problem, SourceDescription} from '../../explanation.js'
import {apiVersionOf, BUILTIN_KINDS} from '../builtin-kinds.js'
import {resolveKind} from '../resolve.js'
import {
  type ClusterSource,
  DEFAULT_UNATTENDED_TIMEOUT_MS,
  type GetRequest,
  type KubeObject,
  type ListRequest,
  type ListResult,
  type ResourceType,
  type ServerVersion,
  type SourceOptions,
  type TableResult,
  type TableRow,
  type TypeRef,
} from '../source.js'
import {ApiClient, ApiHttpError, readIdleFromEnv} from './api-client.js'
import {type Credentials, credentialsFor, impersonationHeaders, tlsSettings} from './credentials.js'
import {discover} from './discovery.js'
import {inClusterConfig, inClusterOverrides, noKubeconfigReason, type ResolvedConfig, resolveKubeconfig, SERVICE_ACCOUNT_DIR} from './kubeconfig.js'
import {chooseProxy, parseProxyUrl} from './proxy.js'
import {klogHeader, klogNow} from './request-log.js'

const DEFAULT_PAGE = 500
/** What client-go's metadata client asks for, with plain JSON as a fallback for servers that lack it. */
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json'
const METADATA_ONE = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json'
/**
 * The server-side Table as kubectl get asks for it (kubectl/pkg/cmd/get/get.go transformRequests: v1, then v1beta1),
 * without kubectl's final application/json: a server that has no Table for the kind answers 406 rather than the
 * whole list, so the caller chooses its own fallback (a plain list read through the validation boundary).
 */
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io'

interface RawTable {
  kind?: string
  metadata?: {resourceVersion?: string; continue?: string}
  columnDefinitions?: {name?: string}[]
  rows?: {cells?: unknown[]; object?: KubeObject | null}[]
}

interface RawList {
  metadata?: {resourceVersion?: string; continue?: string; remainingItemCount?: number}
  items?: KubeObject[]
}

const anonymous: Credentials = {
  current: async () => ({headers: {}, generation: 0}),
  refresh: async () => false,
  describe: 'no credentials (kubectl sends none over http)',
}

/** Whether a person is at a terminal: stdin or stdout is a TTY. */
export function isInteractive(): boolean {
  return stdinIsTerminal() || Boolean(process.stdout.isTTY)
}

/** process.stdin.isTTY without making process.stdin (a stream over fd 0 that a run reading no input need not open). */
const stdinIsTerminal = () => isatty(0)

/** --request-timeout when given; else none at a terminal and DEFAULT_UNATTENDED_TIMEOUT_MS in a CronJob or CI. */
export function effectiveTimeout(requested: number | undefined, interactive: boolean): number {
  return requested ?? (interactive ? 0 : DEFAULT_UNATTENDED_TIMEOUT_MS)
}

const isLoopback = (host: string) => host === 'localhost' || /^127\./.test(host) || host === '[::1]' || host === '::1'

/** The etcd key order paginated lists come in: namespace/name, compared as bytes. */
const keyOf = (o: KubeObject) => Buffer.from(`${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`)

export class LiveSource implements ClusterSource {
  private version: ServerVersion | undefined
  private versionRead = false
  private types: ResourceType[] | undefined
  private readonly issues: Problem[] = []
  private readonly clock: Date

  private constructor(
    private readonly client: ApiClient,
    private readonly config: ResolvedConfig,
    now: Date | undefined,
  ) {
    this.clock = now ?? new Date()
  }

  static async open(options: SourceOptions, env: NodeJS.ProcessEnv = process.env): Promise<LiveSource> {
    const overrides = options.connection ?? {}
    const inCluster = () => {
      const c = inClusterConfig(env, options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR)
      return c && inClusterOverrides(c, overrides)
    }
    const config = resolveKubeconfig({kubeconfig: options.kubeconfig, context: options.context, overrides}, env) ?? inCluster()
    if (!config) {
      throw new UserError(
        `no kubeconfig found (${noKubeconfigReason(env)}) and not running in a cluster`,
        'pass --kubeconfig, set KUBECONFIG, or read a snapshot with -f',
      )
    }
    const warn = options.warn ?? ((line: string) => process.stderr.write(`warning: ${line}\n`))
    const interactive = options.interactive ?? isInteractive()
    let server: URL
    try {
      server = new URL(config.server)
    } catch {
      throw new UserError(`the server address "${config.server}" in ${config.origin} is not a URL`, 'fix the kubeconfig or pick another --context')
    }
    if (server.protocol !== 'https:' && server.protocol !== 'http:') {
      throw new UserError(
        `the server address ${config.server} in ${config.origin} is neither https:// nor http://`,
        'fix the kubeconfig or pick another --context',
      )
    }
    // Everything that can be known wrong before a request is found here: files, combinations, auth providers.
    // Over http, kubectl sends no credentials at all (clientcmd reads the user only when IsConfigTransportTLS): a
    // `kubectl proxy` adds its own, and a token must not cross the network in clear.
    const secure = server.protocol === 'https:'
    const tls = secure ? tlsSettings(config, config.user) : {rejectUnauthorized: true}
    // client-go's exec authenticator hands the plugin stdin only when stdin itself is a terminal.
    const credentials = secure ? credentialsFor(config, tls, {interactive: options.interactive ?? stdinIsTerminal(), env}) : anonymous
    // Impersonation, unlike the credentials, goes over http too (client_config.go sets it before the TLS check).
    const impersonation = impersonationHeaders(config, options.impersonate)
    const proxyUrl = config.cluster['proxy-url'] ? parseProxyUrl(config.cluster['proxy-url'], `the cluster of context "${config.context}"`) : undefined
    const proxy = chooseProxy(server, proxyUrl, env)
    if (!secure && !isLoopback(server.hostname))
      warn(`the API server ${server.origin} is plain http: what it answers travels unencrypted (no credentials are sent over http, as kubectl sends none)`)
    if (!config.user && secure)
      warn(
        `${config.context ? `context "${config.context}"` : 'no context: the flags'} name${config.context ? 's' : ''} no user: requests are sent without credentials (anonymous)`,
      )
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
    const debug = options.debug ? (line: string) => log(`[debug] ${line}`) : undefined
    if (proxy) debug?.(`proxy ${proxy.url.protocol}//${proxy.url.host} (from ${proxy.source})`)
    const timeout = effectiveTimeout(options.requestTimeout, interactive)
    debug?.(
      `request timeout ${timeout ? `${timeout / 1000}s` : 'none'}${options.requestTimeout === undefined ? ` (default ${interactive ? 'at a terminal' : 'when unattended'})` : ''}`,
    )
    // -v 6: loader.go:402 says which kubeconfig files were read, as kubectl does at that level.
    const verbosity = options.verbosity ?? 0
    if (verbosity >= 6 && config.files)
      for (const f of config.files) log(`${klogHeader(klogNow(), process.pid, 'kubeconfig.ts')}Config loaded from file:  ${f}`)
    const client = new ApiClient(config.server, tls, credentials, {
      timeout,
      // The default deadline bounds the wait for an answer, not a long list's body (api-client.ts timeoutCoversBody).
      timeoutCoversBody: options.requestTimeout !== undefined,
      debug,
      proxy: proxy?.url,
      headers: impersonation,
      readIdleMs: readIdleFromEnv(env),
      verbosity,
      log,
    })
    return new LiveSource(client, config, options.now)
  }

  describe(): SourceDescription {
    return {mode: 'live', context: this.config.context, serverVersion: this.version?.gitVersion, partial: this.problems()}
  }

  async serverVersion(): Promise<ServerVersion | undefined> {
    if (!this.versionRead) {
      this.version = (await this.client.get('/version')) as ServerVersion
      this.versionRead = true
    }
    return this.version
  }

  async discovery(): Promise<ResourceType[]> {
    this.types ??= await discover(this.client, this.issues)
    return this.types
  }

  /** Built-in kinds need no discovery; anything else is looked up in what the server serves. */
  private async typeOf(ref: TypeRef): Promise<ResourceType> {
    const builtin = resolveKind(BUILTIN_KINDS, ref)
    const t = builtin ?? resolveKind(await this.discovery(), ref)
    if (!t)
      throw new ReadError('NotServed', `the API server does not serve ${ref.apiVersion ? `${ref.apiVersion} ` : ''}${ref.kind}`, {
        status: 404,
        hint: 'check the kind and apiVersion (kubectl api-resources)',
      })
    return t
  }

  private path(t: ResourceType, namespace: string | undefined, name?: string): string {
    const base = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`
    const ns = t.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : ''
    return `${base}${ns}/${t.resource}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`
  }

  async nodeProxyGet(node: string, path: 'configz'): Promise<unknown> {
    return this.client.get(`/api/v1/nodes/${encodeURIComponent(node)}/proxy/${path}`)
  }

  async get(request: GetRequest): Promise<KubeObject | undefined> {
    const t = await this.typeOf(request)
    const metadataOnly = request.metadataOnly === true || (t.kind === 'Secret' && t.group === '')
    try {
      const o = (await this.client.get(
        this.path(t, request.namespace, request.name),
        {resourceVersion: request.view === 'cached' ? '0' : undefined},
        metadataOnly ? METADATA_ONE : 'application/json',
      )) as KubeObject
      return metadataOnly ? realType(o, t) : o
    } catch (err) {
      // A 404 whose Status names this object means "no such object"; any other 404 means the path is not served.
      if (err instanceof ApiHttpError && err.status === 404 && (err.statusBody?.details?.name === request.name || err.statusBody?.reason === 'NotFound'))
        return undefined
      throw err
    }
  }

  /** Every page; a continue token that expired mid-list (410) falls back to one full list, as client-go's pager does. */
  async list(request: ListRequest): Promise<ListResult> {
    const t = await this.typeOf(request)
    const items: KubeObject[] = []
    let resourceVersion: string | undefined
    let token: string | undefined
    for (;;) {
      let page: ListResult & {continue?: string; remaining?: number}
      try {
        page = await this.page(t, request, token)
      } catch (err) {
        // tools/pager ListPager.List with FullListIfExpired: only on page 2 or later, once, without limit.
        if (!(isExpired(err) && token !== undefined)) throw err
        this.client.debug(`list ${t.resource}: continue token expired (410); reading the whole list at once`)
        return this.page(t, {...request, pageSize: 0}, undefined)
      }
      for (const o of page.items) items.push(o)
      resourceVersion = page.resourceVersion
      token = page.continue
      if (token === undefined) return {items, resourceVersion}
    }
  }

  /**
   * The server-side Table of a list (includeObject=Metadata, what kubectl get asks for by default, or None: the cells
   * only): each row's cells and its object's metadata, typed back to the kind. Paged with limit/continue like list(); a continue token that
   * expires reads the whole Table at once. A server without a Table for the kind answers 406 (thrown).
   */
  async listTable(request: ListRequest): Promise<TableResult> {
    const t = await this.typeOf(request)
    const pageSize = request.pageSize ?? DEFAULT_PAGE
    const rows: TableRow[] = []
    let columns: string[] = []
    let token: string | undefined
    for (;;) {
      const query = {
        labelSelector: request.labelSelector,
        fieldSelector: request.fieldSelector,
        includeObject: request.includeObject ?? 'Metadata',
        limit: pageSize > 0 && token !== '' ? String(pageSize) : undefined,
        continue: token || undefined,
        resourceVersion: request.view === 'cached' && token === undefined ? '0' : undefined,
      }
      let raw: RawTable
      try {
        raw = (await this.client.get(this.path(t, request.namespace), query, TABLE)) as RawTable
      } catch (err) {
        if (!(isExpired(err) && token)) throw err
        this.client.debug(`table ${t.resource}: continue token expired (410); reading the whole table at once`)
        rows.length = 0
        token = ''
        continue
      }
      if (raw.kind !== 'Table')
        throw new ReadError('NotServed', `the API server answered ${raw.kind ?? 'something else'} for a Table of ${t.resource}`, {status: 406})
      columns = (raw.columnDefinitions ?? []).map((c) => c.name ?? '')
      for (const r of raw.rows ?? []) rows.push({cells: r.cells ?? [], object: r.object?.metadata ? realType(r.object, t) : undefined})
      const next = raw.metadata?.continue || undefined
      if (next === undefined || token === '') return {columns, rows, resourceVersion: raw.metadata?.resourceVersion}
      token = next
    }
  }

  /** The list a page at a time; on 410 mid-list, restarts once (ListRequest.onRestart says how). */
  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    const t = await this.typeOf(request)
    let token: string | undefined
    let last: Buffer | undefined
    let restarted = false
    for (;;) {
      let page: ListResult & {continue?: string; remaining?: number}
      try {
        page = await this.page(t, request, token)
      } catch (err) {
        if (!(isExpired(err) && token !== undefined && !restarted)) throw err
        restarted = true
        token = undefined
        this.client.debug(`list ${t.resource}: continue token expired (410); listing again from the start`)
        if (request.onRestart) {
          request.onRestart()
          last = undefined
        }
        continue
      }
      let items = page.items
      if (last) {
        const after = last
        items = items.filter((o) => Buffer.compare(keyOf(o), after) > 0)
      }
      if (!request.onRestart && !restarted && items.length) last = keyOf(items[items.length - 1])
      if (page.continue === undefined) request.onRemaining?.(items.length)
      else if (page.remaining !== undefined) request.onRemaining?.(items.length + page.remaining)
      if (items.length) yield items
      token = page.continue
      if (token === undefined) return
    }
  }

  /** One limit/continue page. Secrets are only ever read as metadata: kubectl-why never reads secret data. */
  private async page(t: ResourceType, request: ListRequest, token: string | undefined): Promise<ListResult & {continue?: string; remaining?: number}> {
    const metadataOnly = request.metadataOnly === true || (t.kind === 'Secret' && t.group === '')
    const pageSize = request.pageSize ?? DEFAULT_PAGE
    const typed = (o: KubeObject): KubeObject => {
      if (metadataOnly) return realType(o, t)
      o.apiVersion ??= apiVersionOf(t)
      o.kind ??= t.kind
      return o
    }
    const project = request.project
    const raw = (await this.client.get(
      this.path(t, request.namespace),
      {
        labelSelector: request.labelSelector,
        fieldSelector: request.fieldSelector,
        limit: pageSize > 0 ? String(pageSize) : undefined,
        continue: token,
        resourceVersion: request.view === 'cached' && token === undefined ? '0' : undefined,
      },
      metadataOnly ? METADATA_LIST : 'application/json',
      // Each item typed, and kept as the caller keeps it, as it is read.
      (o) => (project ? project(typed(o as KubeObject)) : typed(o as KubeObject)),
    )) as RawList
    const remaining = raw.metadata?.remainingItemCount
    return {
      items: raw.items ?? [],
      resourceVersion: raw.metadata?.resourceVersion,
      continue: raw.metadata?.continue || undefined,
      ...(typeof remaining === 'number' && remaining >= 0 ? {remaining} : {}),
    }
  }

  now(): Date {
    return this.clock
  }

  defaultNamespace(): string {
    return this.config.namespace
  }

  problems(): Problem[] {
    return [...this.issues]
  }

  async close(): Promise<void> {
    this.client.close()
  }

  get requestCount(): number {
    return this.client.requestCount
  }
}

const isExpired = (err: unknown) => err instanceof ApiHttpError && err.status === 410

/** Metadata-only items say PartialObjectMetadata; engines want the real apiVersion and kind. */
function realType(o: KubeObject, t: ResourceType): KubeObject {
  return {apiVersion: apiVersionOf(t), kind: t.kind, metadata: o.metadata}
}
