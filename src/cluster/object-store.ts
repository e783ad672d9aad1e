// An in-memory index of objects by group/kind, namespace and name, answering GET and LIST the way the
// API server would (namespace scoping, selectors, etcd's namespace/name order). The snapshot source
// keeps one per view (fresh, cached).
import {isDeepStrictEqual} from 'node:util'
import {splitApiVersion} from './builtin-kinds.js'
import {parseFieldSelector, parseLabelSelector} from './selectors.js'
import type {KubeObject, ListRequest} from './source.js'

/**
 * Legacy groups the API server serves the same objects under: a dump made through extensions/v1beta1
 * holds Deployments an apps/v1 reader must find (and core Events are events.k8s.io Events).
 */
const GROUP_ALIASES: Record<string, string> = {
  'extensions/Deployment': 'apps',
  'extensions/ReplicaSet': 'apps',
  'extensions/DaemonSet': 'apps',
  'events.k8s.io/Event': '',
}

export function groupKindKey(apiVersion: string | undefined, kind: string): string {
  // Unchecked objects come here (the validation is at the source's boundary, after the store): never crash on one.
  const group = splitApiVersion(typeof apiVersion === 'string' ? apiVersion : 'v1').group
  const canonical = GROUP_ALIASES[`${group}/${kind}`] ?? group
  return `${canonical}/${kind}`
}

function objectKey(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`
}

/** Newer of two copies of one object (several files of a dump may hold it): higher resourceVersion wins. */
function newer(a: KubeObject, b: KubeObject): KubeObject {
  const ra = Number(a.metadata?.resourceVersion)
  const rb = Number(b.metadata?.resourceVersion)
  return Number.isFinite(ra) && Number.isFinite(rb) && rb > ra ? b : a
}

export class ObjectStore {
  private readonly byKind = new Map<string, Map<string, KubeObject>>()
  private sorted = new Map<string, KubeObject[]>()
  /** Per kind, objects per namespace ("" for cluster-scoped), kept as objects arrive. */
  private readonly perNamespace = new Map<string, Map<string, number>>()

  add(o: KubeObject): void {
    const key = groupKindKey(o.apiVersion, o.kind!)
    let objects = this.byKind.get(key)
    if (!objects) {
      objects = new Map()
      this.byKind.set(key, objects)
    }
    const k = objectKey(o)
    const existing = objects.get(k)
    objects.set(k, existing === undefined ? o : newer(existing, o))
    if (existing === undefined) {
      const counts = this.perNamespace.get(key) ?? new Map<string, number>()
      this.perNamespace.set(key, counts)
      const ns = o.metadata?.namespace ?? ''
      counts.set(ns, (counts.get(ns) ?? 0) + 1)
    }
    this.sorted.delete(key)
  }

  /**
   * Puts `o` in place of the object of the same kind and name when that one is the same version with the same content:
   * two views that recorded one object state (a watch cache that had caught up) then hold one object, not two copies.
   */
  share(o: KubeObject): void {
    if (this.byKind.size === 0) return
    const key = groupKindKey(o.apiVersion, o.kind!)
    const objects = this.byKind.get(key)
    if (!objects) return
    const k = objectKey(o)
    const existing = objects.get(k)
    if (existing === undefined || existing === o || existing.metadata?.resourceVersion !== o.metadata?.resourceVersion || !isDeepStrictEqual(existing, o))
      return
    objects.set(k, o)
    this.sorted.delete(key)
  }

  kinds(): string[] {
    return [...this.byKind.keys()]
  }

  count(): number {
    let n = 0
    for (const m of this.byKind.values()) n += m.size
    return n
  }

  /** How many objects of a kind, and in which namespaces (empty for a cluster-scoped kind). */
  spread(groupKind: string): {count: number; namespaces: Set<string>} {
    const namespaces = new Set<string>()
    for (const ns of this.perNamespace.get(groupKind)?.keys() ?? []) if (ns !== '') namespaces.add(ns)
    return {count: this.byKind.get(groupKind)?.size ?? 0, namespaces}
  }

  get(groupKind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.byKind.get(groupKind)?.get(`${namespace ?? ''}/${name}`)
  }

  all(groupKind: string): KubeObject[] {
    let list = this.sorted.get(groupKind)
    if (!list) {
      const m = this.byKind.get(groupKind)
      list = m ? [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]) : []
      this.sorted.set(groupKind, list)
    }
    return list
  }

  /** Objects matching a LIST request's namespace and selectors, in etcd key order. */
  list(groupKind: string, request: Pick<ListRequest, 'namespace' | 'labelSelector' | 'fieldSelector'>): KubeObject[] {
    const labels = request.labelSelector ? parseLabelSelector(request.labelSelector) : undefined
    const fields = request.fieldSelector ? parseFieldSelector(request.fieldSelector) : undefined
    return this.all(groupKind).filter(
      (o) =>
        (request.namespace === undefined || (o.metadata?.namespace ?? '') === request.namespace) &&
        (!labels || labels(o.metadata?.labels)) &&
        (!fields || fields(o)),
    )
  }
}
