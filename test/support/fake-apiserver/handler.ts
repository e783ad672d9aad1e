// One request, start to end, in the order kube-apiserver's filter chain takes it: authentication
// (401), then the injected faults (where priority-and-fairness would throttle), then
// authorization (403), then the handler: discovery, GET, LIST. Only GET (and HEAD) is served; any
// other verb gets 405, because a reader must never send one.
import type {IncomingMessage, ServerResponse} from 'node:http'
import {aggregatedDiscovery, apiGroupList, apiResourceList, apiVersions} from './discovery.js'
import {forbiddenError, injectedError, type Faults} from './faults.js'
import {ACCEPTED_MEDIA_TYPES, negotiate} from './negotiation.js'
import {get, list} from './reads.js'
import {sendJson, sendStatus, sendText, streamList} from './respond.js'
import {parseResourcePath, type RequestInfo} from './router.js'
import {parseFieldSelector, parseLabelSelector} from './selectors.js'
import {itemJson, LIST_TAIL, listHead, metadataJson, objectJson} from './serialize.js'
import * as status from './status.js'
import {includeObjectOf, tableJson, tableServed} from './table.js'
import type {ServedResource} from './resources.js'
import type {Store} from './store.js'

export interface Context {
  store: Store
  faults: Faults
  token: string
  user: string
  version: Record<string, string>
  delayMs: number
  aggregatedDiscovery: boolean
  /** Requests need no token: what `kubectl proxy` serves (it adds its own credentials upstream). */
  anonymous?: boolean
  serverAddress: string
  /** What each node's kubelet answers on /configz (GET /api/v1/nodes/NAME/proxy/configz); absent: the kubelet 404s. */
  configz?: Map<string, unknown>
  /** Whether the Node Table is served (table.ts). */
  tables?: boolean
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Go's %T of what the handler holds, for NotAcceptable messages. */
function goType(type: ServedResource, listType: boolean): string {
  if (type.custom) return listType ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured'
  const pkg = type.group === '' ? 'core' : type.group.split('.')[0]
  return `*${pkg}.${type.kind}${listType ? 'List' : ''}`
}

function json(value: unknown): string {
  return `${JSON.stringify(value)}\n`
}

export async function handle(ctx: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://fake-apiserver')
  const method = (req.method ?? 'GET').toUpperCase()
  const auth = req.headers.authorization
  if (!ctx.anonymous && auth !== `Bearer ${ctx.token}`) return sendStatus(res, status.unauthorized().status)

  const info = parseResourcePath(method, url.pathname, url.searchParams)
  const query = Object.fromEntries(url.searchParams)
  const fault = ctx.faults.takeInjected(method, url.pathname, query)
  const delay = ctx.delayMs + (fault?.delayMs ?? 0)
  if (delay > 0) await sleep(delay)
  if (res.destroyed) return
  if (fault?.status !== undefined && (fault.status < 200 || fault.status > 299)) {
    if (fault.status === 429 && fault.body !== 'status') {
      return sendText(res, 429, 'Too many requests, please try again later.\n', {'Retry-After': String(fault.retryAfterSeconds ?? 1)})
    }
    return sendStatus(res, injectedError(fault, info, ctx.user, query).status)
  }

  try {
    if (method !== 'GET' && method !== 'HEAD') {
      throw info
        ? status.methodNotSupported({group: info.group, resource: info.resource}, info.verb)
        : status.generic(405, 'the server does not allow this method on the requested resource')
    }
    const configz = /^\/api\/v1\/nodes\/([^/]+)\/proxy\/configz$/.exec(url.pathname)
    if (configz && info) return nodeConfigz(ctx, info, decodeURIComponent(configz[1]), res)
    if (info) return await resource(ctx, info, url.searchParams, req.headers.accept, res)
    return nonResource(ctx, url.pathname, req.headers.accept, res)
  } catch (e) {
    if (e instanceof status.StatusError) return sendStatus(res, e.status)
    const message = e instanceof Error ? e.message : String(e)
    return sendStatus(res, status.internalError(message).status)
  }
}

/**
 * The kubelet's /configz through the node proxy: get on nodes/proxy (a forbid on nodes answers 403 as RBAC would),
 * NotFound for a node that does not exist, the kubelet's own plain 404 when it serves no configz, else its JSON
 * ({"kubeletconfig": {...}}, cmd/kubelet/app/server.go setConfigz).
 */
function nodeConfigz(ctx: Context, info: RequestInfo, node: string, res: ServerResponse): void {
  if (ctx.faults.isForbidden(info)) throw forbiddenError(ctx.user, info)
  if (!ctx.store.get({apiVersion: 'v1', kind: 'Node', name: node})) throw status.notFound({group: '', resource: 'nodes'}, node)
  const body = ctx.configz?.get(node)
  if (body === undefined) sendText(res, 404, '404 page not found\n')
  else sendJson(res, 200, json(body))
}

function nonResource(ctx: Context, path: string, accept: string | undefined, res: ServerResponse): void {
  const p = path.replace(/\/+$/, '') || '/'
  if (p === '/version') {
    // the version handler writes indented JSON without a trailing newline (responsewriters.WriteRawJSON)
    sendJson(res, 200, JSON.stringify(ctx.version, null, 2))
    return
  }
  if (p === '/healthz' || p === '/livez' || p === '/readyz') {
    sendText(res, 200, 'ok')
    return
  }
  if (p === '/api' || p === '/apis') {
    const target = negotiate(accept, {discovery: ctx.aggregatedDiscovery})
    if (!target) throw status.notAcceptable(ACCEPTED_MEDIA_TYPES)
    const root = p === '/api' ? 'api' : 'apis'
    if (target.kind === 'APIGroupDiscoveryList') {
      sendJson(
        res,
        200,
        json(aggregatedDiscovery(ctx.store.registry, root, target.version)),
        `application/json;g=apidiscovery.k8s.io;v=${target.version};as=APIGroupDiscoveryList`,
      )
      return
    }
    sendJson(res, 200, json(root === 'api' ? apiVersions(ctx.serverAddress) : apiGroupList(ctx.store.registry)))
    return
  }
  const parts = p.split('/').filter((x) => x !== '')
  const registry = ctx.store.registry
  if (parts.length === 2 && parts[0] === 'api' && parts[1] === 'v1') {
    sendJson(res, 200, json(apiResourceList(registry, '', 'v1')))
    return
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const g = registry.groups().find((x) => x.name === parts[1])
    if (g) {
      const versions = g.versions.map((version) => ({groupVersion: `${g.name}/${version}`, version}))
      sendJson(res, 200, json({kind: 'APIGroup', apiVersion: 'v1', name: g.name, versions, preferredVersion: versions[0]}))
      return
    }
  }
  if (parts[0] === 'apis' && parts.length === 3 && registry.servesGroupVersion(parts[1], parts[2])) {
    sendJson(res, 200, json(apiResourceList(registry, parts[1], parts[2])))
    return
  }
  throw status.noSuchResource()
}

function intParam(query: URLSearchParams, name: string): number {
  const raw = query.get(name)
  if (raw === null || raw === '') return 0
  if (!/^-?\d+$/.test(raw))
    throw status.badRequest(`${name}: Invalid value: ${status.quote(raw)}: strconv.ParseInt: parsing ${status.quote(raw)}: invalid syntax`)
  return Math.max(0, Number(raw))
}

async function resource(ctx: Context, info: RequestInfo, query: URLSearchParams, accept: string | undefined, res: ServerResponse): Promise<void> {
  if (ctx.faults.isForbidden(info)) throw forbiddenError(ctx.user, info)
  const registry = ctx.store.registry
  const type = registry.find(info.group, info.version, info.resource)
  if (!type) throw status.noSuchResource()
  const namespaceInPath = info.namespace !== '' && info.resource !== 'namespaces'
  if (namespaceInPath && !type.namespaced) throw status.noSuchResource()
  if (info.subresource !== undefined && info.subresource !== 'status') throw status.noSuchResource()
  const gr = {group: type.group, resource: type.resource}
  if (!type.verbs.includes(info.verb)) throw status.methodNotSupported(gr, info.verb)
  if (info.verb === 'watch') throw status.methodNotSupported(gr, 'watch') // not served by this fake; readers do not watch

  const apiVersion = type.group === '' ? type.version : `${type.group}/${type.version}`
  const s = ctx.store.storeFor(type)
  // Every built-in kind has a TableConvertor on a real server; here only the Node printer is modelled (table.ts).
  const target = negotiate(accept, {tables: ctx.tables === true && tableServed(type)})
  if (!target || target.kind === 'APIGroupDiscoveryList') throw status.notAcceptable(ACCEPTED_MEDIA_TYPES)
  const include = target.kind === 'Table' ? includeObjectOf(query.get('includeObject')) : 'Metadata'

  if (info.verb === 'get') {
    if (type.namespaced && !namespaceInPath) throw status.noSuchResource()
    if (target.kind === 'PartialObjectMetadataList') {
      throw status.notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${goType(type, false)})`)
    }
    const entry = get(ctx.store, s, info.namespace, info.name!, query.get('resourceVersion') ?? undefined)
    if (target.kind === 'Table')
      return sendJson(
        res,
        200,
        tableJson(type, [entry], {resourceVersion: String(entry.rev)}, target.version, include, (e) => objectJson(e, apiVersion)),
      )
    return sendJson(res, 200, `${target.kind === 'PartialObjectMetadata' ? metadataJson(entry, target.version) : objectJson(entry, apiVersion)}\n`)
  }

  if (target.kind === 'PartialObjectMetadata') {
    throw status.notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${goType(type, true)})`)
  }
  const result = list(ctx.store, s, {
    namespace: namespaceInPath ? info.namespace : undefined,
    labelSelector: parseLabelSelector(query.get('labelSelector')),
    fieldSelector: parseFieldSelector(query.get('fieldSelector'), type.group, type.resource),
    limit: intParam(query, 'limit'),
    continueToken: query.get('continue') || undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') || undefined,
  })
  if (target.kind === 'Table')
    return sendJson(
      res,
      200,
      tableJson(type, result.items, result.meta, target.version, include, (e) => objectJson(e, apiVersion)),
    )
  if (target.kind === 'PartialObjectMetadataList') {
    const v = target.version
    return streamList(res, listHead('PartialObjectMetadataList', `meta.k8s.io/${v}`, result.meta), result.items, (e) => metadataJson(e, v), LIST_TAIL)
  }
  return streamList(res, listHead(`${type.kind}List`, apiVersion, result.meta), result.items, (e) => itemJson(e, apiVersion), LIST_TAIL)
}
