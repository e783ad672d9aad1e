// Discovery documents, in both forms kube-apiserver serves:
// - legacy: /api (APIVersions), /apis (APIGroupList), /api/v1 and /apis/G/V (APIResourceList);
// - aggregated (apidiscovery.k8s.io v2 and v2beta1): /api and /apis answer with an
//   APIGroupDiscoveryList when the Accept header asks for it, which kubectl 1.30+ does first.
// Shapes and field order follow the Go types (metav1.APIResourceList, apidiscovery/v2 types.go).
import type {ResourceRegistry, ServedResource} from './resources.js'

const byResource = (a: ServedResource, b: ServedResource) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0)

/** /api: note there is no apiVersion in it, as the real server writes it. */
export function apiVersions(serverAddress: string): unknown {
  return {kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{clientCIDR: '0.0.0.0/0', serverAddress}]}
}

export function apiGroupList(registry: ResourceRegistry): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry.groups().map((g) => {
      const versions = g.versions.map((version) => ({groupVersion: `${g.name}/${version}`, version}))
      return {name: g.name, versions, preferredVersion: versions[0]}
    }),
  }
}

/** metav1.APIResource: name, singularName, namespaced, kind, verbs, shortNames, categories. */
function apiResource(t: ServedResource): Record<string, unknown> {
  const r: Record<string, unknown> = {
    name: t.resource,
    singularName: t.singularName ?? t.kind.toLowerCase(),
    namespaced: t.namespaced,
    kind: t.kind,
    verbs: t.verbs,
  }
  if (t.shortNames && t.shortNames.length > 0) r.shortNames = t.shortNames
  if (t.categories && t.categories.length > 0) r.categories = t.categories
  return r
}

/** /api/v1 has no apiVersion; /apis/G/V has "v1" (what the real server writes). */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): unknown {
  const resources = registry.inGroupVersion(group, version).sort(byResource).map(apiResource)
  return group === ''
    ? {kind: 'APIResourceList', groupVersion: version, resources}
    : {kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources}
}

function resourceDiscovery(t: ServedResource): Record<string, unknown> {
  const r: Record<string, unknown> = {
    resource: t.resource,
    responseKind: {group: t.group, version: t.version, kind: t.kind},
    scope: t.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: t.singularName ?? t.kind.toLowerCase(),
    verbs: t.verbs,
  }
  if (t.shortNames && t.shortNames.length > 0) r.shortNames = t.shortNames
  if (t.categories && t.categories.length > 0) r.categories = t.categories
  return r
}

/**
 * APIGroupDiscoveryList for /api (core group only) or /apis (every named group). Each item's
 * metadata is an ObjectMeta whose zero creationTimestamp Go writes as null.
 */
export function aggregatedDiscovery(registry: ResourceRegistry, root: 'api' | 'apis', version: 'v2' | 'v2beta1'): unknown {
  const groups = root === 'api' ? [{name: '', versions: ['v1']}] : registry.groups()
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.name === '' ? {creationTimestamp: null} : {name: g.name, creationTimestamp: null},
      versions: g.versions.map((v) => ({
        version: v,
        resources: registry.inGroupVersion(g.name, v).sort(byResource).map(resourceDiscovery),
        freshness: 'Current',
      })),
    })),
  }
}
