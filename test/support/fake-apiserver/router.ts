// Request paths to request attributes, as k8s.io/apiserver/pkg/endpoints/request RequestInfoFactory
// reads them: /api/v1/... and /apis/G/V/..., an optional /watch/ prefix, then
// [namespaces/NS/]RESOURCE[/NAME[/SUBRESOURCE]]; "namespaces/NS" alone is the namespace itself.

export interface RequestInfo {
  /** get, list, watch, create, update, patch, delete, deletecollection (the authorizer's verb). */
  verb: string
  group: string
  version: string
  namespace: string
  resource: string
  name?: string
  subresource?: string
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize'])

/** undefined for a non-resource path (/version, /api, /apis, /apis/G, /apis/G/V, /healthz ...). */
export function parseResourcePath(method: string, pathname: string, query: URLSearchParams): RequestInfo | undefined {
  let parts = pathname
    .split('/')
    .filter((p) => p !== '')
    .map((p) => decodeURIComponent(p))
  let group: string
  let version: string
  if (parts[0] === 'api') {
    if (parts.length < 3) return undefined
    group = ''
    version = parts[1]
    parts = parts.slice(2)
  } else if (parts[0] === 'apis') {
    if (parts.length < 4) return undefined
    group = parts[1]
    version = parts[2]
    parts = parts.slice(3)
  } else {
    return undefined
  }
  let watchPath = false
  if (parts[0] === 'watch') {
    watchPath = true
    parts = parts.slice(1)
  }
  let namespace = ''
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2)
  }
  if (parts.length === 0) return undefined
  const info: RequestInfo = {verb: '', group, version, namespace, resource: parts[0]}
  if (parts.length > 1) info.name = parts[1]
  if (parts.length > 2) info.subresource = parts[2]
  // "namespaces/NS" keeps NS as the request's namespace too (upstream does; RBAC messages show it)
  const watchParam = ['true', '1'].includes(query.get('watch') ?? '')
  switch (method) {
    case 'GET':
    case 'HEAD':
      info.verb = watchPath || watchParam ? 'watch' : info.name === undefined ? 'list' : 'get'
      break
    case 'POST':
      info.verb = 'create'
      break
    case 'PUT':
      info.verb = 'update'
      break
    case 'PATCH':
      info.verb = 'patch'
      break
    case 'DELETE':
      info.verb = info.name === undefined ? 'deletecollection' : 'delete'
      break
    default:
      info.verb = method.toLowerCase()
  }
  return info
}
