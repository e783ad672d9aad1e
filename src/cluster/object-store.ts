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

/** Newer of two copies of one object (several files of a dump may hold it): higher resourceVersion wins. */
function newer(a: KubeObject, b: KubeObject): KubeObject {
  const ra = Number(a.metadata?.resourceVersion)
  const rb = Number(b.metadata?.resourceVersion)
  return Number.isFinite(ra) && Number.isFinite(rb) && rb > ra ? b : a
}

/**
 * etcd key order: "namespace/name" as strings. Neither part holds a "/", so that is the order of namespace + "/" and,
 * within a namespace, of names — kept as two levels of maps, so that no object needs a key string of its own (150,000
 * pods would hold 150,000 of them, each with a copy of "namespace/").
 */
function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** A namespace or name as a map key: unchecked objects come here (a number where a string belongs keys as its text). */
function part(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)
}

type Names = Map<string, KubeObject>

export class ObjectStore {
  /** Per kind, per namespace ("" for cluster-scoped), objects by name. */
  private readonly byKind = new Map<string, Map<string, Names>>()
  private readonly sizes = new Map<string, number>()
  private sorted = new Map<string, KubeObject[]>()

  private names(key: string, namespace: string, create: boolean): Names | undefined {
    let namespaces = this.byKind.get(key)
    if (!namespaces) {
      if (!create) return undefined
      namespaces = new Map()
      this.byKind.set(key, namespaces)
    }
    let names = namespaces.get(namespace)
    if (!names && create) {
      names = new Map()
      namespaces.set(namespace, names)
    }
    return names
  }

  add(o: KubeObject): void {
    const key = groupKindKey(o.apiVersion, o.kind!)
    const names = this.names(key, part(o.metadata?.namespace), true)!
    const name = part(o.metadata?.name)
    const existing = names.get(name)
    names.set(name, existing === undefined ? o : newer(existing, o))
    if (existing === undefined) this.sizes.set(key, (this.sizes.get(key) ?? 0) + 1)
    this.sorted.delete(key)
  }

  /**
   * Puts `o` in place of the object of the same kind and name when that one is the same version with the same content:
   * two views that recorded one object state (a watch cache that had caught up) then hold one object, not two copies.
   */
  share(o: KubeObject): void {
    if (this.byKind.size === 0) return
    const key = groupKindKey(o.apiVersion, o.kind!)
    const names = this.names(key, part(o.metadata?.namespace), false)
    if (!names) return
    const name = part(o.metadata?.name)
    const existing = names.get(name)
    if (existing === undefined || existing === o || existing.metadata?.resourceVersion !== o.metadata?.resourceVersion || !isDeepStrictEqual(existing, o))
      return
    names.set(name, o)
    this.sorted.delete(key)
  }

  kinds(): string[] {
    return [...this.byKind.keys()]
  }

  count(): number {
    let n = 0
    for (const size of this.sizes.values()) n += size
    return n
  }

  /** How many objects of a kind, and in which namespaces (empty for a cluster-scoped kind). */
  spread(groupKind: string): {count: number; namespaces: Set<string>} {
    const namespaces = new Set<string>()
    for (const ns of this.byKind.get(groupKind)?.keys() ?? []) if (ns !== '') namespaces.add(ns)
    return {count: this.sizes.get(groupKind) ?? 0, namespaces}
  }

  get(groupKind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.byKind
      .get(groupKind)
      ?.get(namespace ?? '')
      ?.get(name)
  }

  all(groupKind: string): KubeObject[] {
    let list = this.sorted.get(groupKind)
    if (!list) {
      list = []
      const namespaces = this.byKind.get(groupKind)
      for (const ns of [...(namespaces?.keys() ?? [])].sort((a, b) => byKey(`${a}/`, `${b}/`))) {
        const names = namespaces!.get(ns)!
        for (const name of [...names.keys()].sort(byKey)) list.push(names.get(name)!)
      }
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
