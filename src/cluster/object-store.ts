// An in-memory index of objects by group/kind, namespace and name, answering GET and LIST the way the
// API server would (namespace scoping, selectors, etcd's namespace/name order). The snapshot source
// keeps one per view (fresh, cached); a large audit's is packed, a namespace of a kind at a time (PackedNames).
import {isDeepStrictEqual} from 'node:util'
import {splitApiVersion} from './builtin-kinds.js'
import {parseFieldSelector, parseLabelSelector} from './selectors.js'
import {SpilledObjects} from './spill.js'
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

/**
 * One namespace's objects of one kind deflated as JSON, as the audit keeps its largest lists (spill.ts; an object JSON
 * cannot write, an int64 kept as a bigint, is kept as it is): what a snapshot audit holds to the end (its checks' GETs
 * are answered from it) is then a few dozen bytes an object instead of about a kilobyte, and each check's projection
 * of the lists it read is what the heap holds, as in a live audit (issue 29).
 */
class PackedNames {
  private constructor(private readonly objects: SpilledObjects) {}

  static of(names: Names): PackedNames {
    const objects = new SpilledObjects()
    for (const o of names.values()) objects.add(o)
    objects.flush()
    return new PackedNames(objects)
  }

  unpack(): Names {
    const names: Names = new Map()
    for (const chunk of this.objects.chunksOf()) for (const o of chunk) names.set(part(o.metadata?.name), o)
    return names
  }
}

/** Namespaces taken back from their packed form lately, kept for the next GET (owner lookups come a namespace at a time). */
const UNPACKED_KEPT = 4

export class ObjectStore {
  /** Per kind, per namespace ("" for cluster-scoped), objects by name; packed once compact() has run. */
  private readonly byKind = new Map<string, Map<string, Names | PackedNames>>()
  private readonly sizes = new Map<string, number>()
  private sorted = new Map<string, KubeObject[]>()
  private packed = false
  /** The namespaces a GET took back lately, newest last. */
  private readonly recent: {packed: PackedNames; names: Names}[] = []

  /**
   * A namespace's objects of a kind: to read (a packed one taken back for a while), to write to (unpacked for good), or
   * to add to (made when absent).
   */
  private names(key: string, namespace: string, use: 'read' | 'write' | 'create'): Names | undefined {
    const create = use === 'create'
    let namespaces = this.byKind.get(key)
    if (!namespaces) {
      if (!create) return undefined
      namespaces = new Map()
      this.byKind.set(key, namespaces)
    }
    let names = namespaces.get(namespace)
    if (names instanceof PackedNames) {
      if (use === 'read') return this.unpacked(names)
      names = names.unpack()
      namespaces.set(namespace, names)
    }
    if (!names && create) {
      names = new Map()
      namespaces.set(namespace, names)
    }
    return names
  }

  private unpacked(packed: PackedNames): Names {
    const hit = this.recent.find((r) => r.packed === packed)
    if (hit) return hit.names
    const names = packed.unpack()
    this.recent.push({packed, names})
    if (this.recent.length > UNPACKED_KEPT) this.recent.shift()
    return names
  }

  /** While the store packs as it is filled (packBehind): the kinds' namespaces objects were added to lately. */
  private touched = new Set<Names>()
  private sinceSweep = 0

  /**
   * Packs, every `every` objects added, each kind's namespace that no object was added to since the last time: a
   * dump's lists come in the API's order (kind by kind, namespace by namespace), so each is packed soon after it is
   * complete. In another order (several files, or a generator's), a namespace objects keep coming to stays unpacked
   * to the end (compact): an object that comes for a packed one unpacks it for good (add), which is done at most once
   * a sweep, never for every object.
   */
  packBehind(o: KubeObject, every = 8192): void {
    const names = this.names(groupKindKey(o.apiVersion, o.kind!), part(o.metadata?.namespace), 'write')
    if (names) this.touched.add(names)
    if (++this.sinceSweep < every) return
    this.sinceSweep = 0
    for (const namespaces of this.byKind.values())
      for (const [ns, held] of namespaces) if (!(held instanceof PackedNames) && !this.touched.has(held)) this.pack(namespaces, ns)
    this.touched = new Set()
  }

  private pack(namespaces: Map<string, Names | PackedNames>, ns: string): void {
    const names = namespaces.get(ns)
    if (names !== undefined && !(names instanceof PackedNames)) namespaces.set(ns, PackedNames.of(names))
  }

  /**
   * Packs every namespace's objects of every kind (PackedNames): for a store that is read by name and listed once
   * more, not written to (a snapshot audit's, once its objects are read). Reads give the same objects by value, no
   * longer shared with anything (but an object JSON cannot write, kept as it is).
   */
  compact(): void {
    for (const namespaces of this.byKind.values()) for (const ns of [...namespaces.keys()]) this.pack(namespaces, ns)
    this.touched = new Set()
    this.sorted = new Map()
    this.recent.length = 0
    this.packed = true
  }

  add(o: KubeObject): void {
    const key = groupKindKey(o.apiVersion, o.kind!)
    const names = this.names(key, part(o.metadata?.namespace), 'create')!
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
    const names = this.names(key, part(o.metadata?.namespace), 'write')
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
    return this.names(groupKind, namespace ?? '', 'read')?.get(name)
  }

  all(groupKind: string): KubeObject[] {
    let list = this.sorted.get(groupKind)
    if (!list) {
      list = []
      for (const [, objects] of this.byNamespace(groupKind)) for (const o of objects) list.push(o)
      // A packed store keeps no list of its objects: that would be every object again, whole.
      if (!this.packed) this.sorted.set(groupKind, list)
    }
    return list
  }

  /** Each namespace of a kind and its objects, in etcd key order; a packed one taken back for the caller alone. */
  private *byNamespace(groupKind: string, only?: string): Generator<[string, KubeObject[]]> {
    const namespaces = this.byKind.get(groupKind)
    if (!namespaces) return
    for (const ns of [...namespaces.keys()].sort((a, b) => byKey(`${a}/`, `${b}/`))) {
      if (only !== undefined && ns !== only) continue
      const held = namespaces.get(ns)!
      const names = held instanceof PackedNames ? held.unpack() : held
      yield [ns, [...names.keys()].sort(byKey).map((name) => names.get(name)!)]
    }
  }

  /**
   * Objects matching a LIST request, in etcd key order, a namespace at a time: a packed store takes back one namespace
   * at once, never the whole kind (each array new, the caller's to keep or drop).
   */
  *pagesOf(groupKind: string, request: Pick<ListRequest, 'namespace' | 'labelSelector' | 'fieldSelector'>): Generator<KubeObject[]> {
    const selected = selects({...request, namespace: undefined})
    for (const [, objects] of this.byNamespace(groupKind, request.namespace)) {
      const page = objects.filter(selected)
      if (page.length > 0) yield page
    }
  }

  /** Objects matching a LIST request's namespace and selectors, in etcd key order. */
  list(groupKind: string, request: Pick<ListRequest, 'namespace' | 'labelSelector' | 'fieldSelector'>): KubeObject[] {
    return this.all(groupKind).filter(selects(request))
  }
}

/** Whether an object is in a LIST request's namespace and matches its selectors. */
function selects(request: Pick<ListRequest, 'namespace' | 'labelSelector' | 'fieldSelector'>): (o: KubeObject) => boolean {
  const labels = request.labelSelector ? parseLabelSelector(request.labelSelector) : undefined
  const fields = request.fieldSelector ? parseFieldSelector(request.fieldSelector) : undefined
  return (o) =>
    (request.namespace === undefined || (o.metadata?.namespace ?? '') === request.namespace) &&
    (!labels || labels(o.metadata?.labels)) &&
    (!fields || fields(o))
}
