// The live source: reads a cluster through the API server, GETs only. Built-in kinds map to URLs
// without a discovery round trip; other kinds (CRDs) trigger discovery once.
import type {KubeConfig} from '@kubernetes/client-node/dist/config.js'
import {ReadError, UserError} from '../../errors.js'
import type {Problem, SourceDescription} from '../../explanation.js'
import {apiVersionOf, BUILTIN_KINDS} from '../builtin-kinds.js'
import type {SourceOptions} from '../open.js'
import {resolveKind} from '../resolve.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult, ResourceType, ServerVersion, TypeRef} from '../source.js'
import {ApiClient, ApiHttpError} from './api-client.js'
import {discover} from './discovery.js'
import {inClusterConfig, type ResolvedConfig, resolveKubeconfig} from './kubeconfig.js'

const DEFAULT_PAGE = 500
/** What client-go's metadata client asks for, with plain JSON as a fallback for servers that lack it. */
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json'
const METADATA_ONE = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json'

interface RawList {
  metadata?: {resourceVersion?: string; continue?: string}
  items?: KubeObject[]
}

/** The client library's user entry reads `token-file`; kubeconfigs write `tokenFile`. */
function forClientLibrary(merged: ResolvedConfig['merged']): string {
  const users = merged.users.map((u) => {
    const user = u.user as Record<string, unknown> | undefined
    return user?.tokenFile ? {...u, user: {...user, 'token-file': user.tokenFile}} : u
  })
  return JSON.stringify({...merged, users})
}

export class LiveSource implements ClusterSource {
  private version: ServerVersion | undefined
  private versionRead = false
  private types: ResourceType[] | undefined
  private readonly issues: Problem[] = []
  private readonly clock: Date

  private constructor(private readonly client: ApiClient, private readonly config: ResolvedConfig, now: Date | undefined) {
    this.clock = now ?? new Date()
  }

  static async open(options: SourceOptions): Promise<LiveSource> {
    const config = resolveKubeconfig(options) ?? inClusterConfig()
    if (!config) {
      throw new UserError('no kubeconfig found ($KUBECONFIG is unset and ~/.kube/config does not exist) and not running in a cluster',
        'pass --kubeconfig, set KUBECONFIG, or read a snapshot with -f')
    }
    // Imported here, not at the top: the client library costs close to a second to load. Its config
    // module alone (authentication: tokens, certificates, exec and auth-provider plugins) costs about
    // two thirds of the package index, which also loads every generated API client.
    const {KubeConfig} = await import('@kubernetes/client-node/dist/config.js')
    const kc: KubeConfig = new KubeConfig()
    try {
      kc.loadFromString(forClientLibrary(config.merged))
    } catch (err) {
      throw new UserError(`the kubeconfig from ${config.origin} cannot be used: ${(err as Error).message}`, 'fix the kubeconfig or pick another --context')
    }
    const debug = options.debug ? (line: string) => process.stderr.write(`[debug] ${line}\n`) : undefined
    return new LiveSource(new ApiClient(kc, config.server, {timeout: options.requestTimeout, debug}), config, options.now)
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
    if (!t) throw new ReadError('NotServed', `the API server does not serve ${ref.apiVersion ? `${ref.apiVersion} ` : ''}${ref.kind}`, {status: 404, hint: 'check the kind and apiVersion (kubectl api-resources)'})
    return t
  }

  private path(t: ResourceType, namespace: string | undefined, name?: string): string {
    const base = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`
    const ns = t.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : ''
    return `${base}${ns}/${t.resource}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`
  }

  async get(request: GetRequest): Promise<KubeObject | undefined> {
    const t = await this.typeOf(request)
    const metadataOnly = request.metadataOnly === true || (t.kind === 'Secret' && t.group === '')
    try {
      const o = (await this.client.get(this.path(t, request.namespace, request.name), {resourceVersion: request.view === 'cached' ? '0' : undefined},
        metadataOnly ? METADATA_ONE : 'application/json')) as KubeObject
      return metadataOnly ? realType(o, t) : o
    } catch (err) {
      // A 404 whose Status names this object means "no such object"; any other 404 means the path is not served.
      if (err instanceof ApiHttpError && err.status === 404 && (err.statusBody?.details?.name === request.name || err.statusBody?.reason === 'NotFound')) return undefined
      throw err
    }
  }

  async list(request: ListRequest): Promise<ListResult> {
    const items: KubeObject[] = []
    let resourceVersion: string | undefined
    for await (const page of this.pageLists(request, true)) {
      if (page.restarted) items.length = 0
      for (const o of page.items) items.push(o)
      resourceVersion = page.resourceVersion
    }
    return {items, resourceVersion}
  }

  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    // Pages already handed out cannot be taken back, so a streamed list does not restart on 410.
    for await (const page of this.pageLists(request, false)) yield page.items
  }

  /**
   * limit/continue pagination. An expired continue token (410 Gone) restarts the list from the start
   * once when `restart` allows (the caller then drops what it collected); a second expiry fails the read.
   */
  private async *pageLists(request: ListRequest, restart: boolean): AsyncGenerator<ListResult & {restarted?: boolean}> {
    const t = await this.typeOf(request)
    // Secrets are only ever read as metadata: kubectl-why never reads secret data.
    const metadataOnly = request.metadataOnly === true || (t.kind === 'Secret' && t.group === '')
    const path = this.path(t, request.namespace)
    let restarted = false
    let token: string | undefined
    for (;;) {
      let raw: RawList
      try {
        raw = (await this.client.get(path, {
          labelSelector: request.labelSelector, fieldSelector: request.fieldSelector,
          limit: String(request.pageSize ?? DEFAULT_PAGE), continue: token,
          resourceVersion: request.view === 'cached' && token === undefined ? '0' : undefined,
        }, metadataOnly ? METADATA_LIST : 'application/json')) as RawList
      } catch (err) {
        if (err instanceof ApiHttpError && err.status === 410 && token !== undefined && restart && !restarted) {
          restarted = true
          token = undefined
          yield {items: [], restarted: true}
          continue
        }
        throw err
      }
      const items = metadataOnly ? (raw.items ?? []).map((o) => realType(o, t)) : (raw.items ?? [])
      if (!metadataOnly) for (const o of items) {
        o.apiVersion ??= apiVersionOf(t)
        o.kind ??= t.kind
      }
      yield {items, resourceVersion: raw.metadata?.resourceVersion}
      token = raw.metadata?.continue || undefined
      if (token === undefined) return
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

/** Metadata-only items say PartialObjectMetadata; engines want the real apiVersion and kind. */
function realType(o: KubeObject, t: ResourceType): KubeObject {
  return {apiVersion: apiVersionOf(t), kind: t.kind, metadata: o.metadata}
}
