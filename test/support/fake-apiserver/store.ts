// The objects, kept the way etcd keeps them: one key space per group/resource, keys
// "namespace/name" (or "name") in byte order, every write stamped with the next cluster-wide
// revision, and old revisions readable until compacted. That history gives both views the API
// server has: the fresh (quorum) one at the latest revision, and the watch cache, which a test can
// freeze at an older revision. Lists at a continue token's revision read the same history.
import {createHash} from 'node:crypto'
import type {KubeObject, ObjectMeta} from '../../../src/cluster/source.js'
import type {ResourceRegistry, ServedResource} from './resources.js'

export interface Entry {
  /** "namespace/name" for namespaced kinds, "name" for cluster-scoped ones: etcd's key order. */
  readonly key: string
  readonly namespace: string
  readonly name: string
  /** The object as stored, metadata.resourceVersion and uid filled in. */
  readonly obj: KubeObject
  readonly rev: number
  /** Serializations, made on first use (a large cluster is mostly never read whole). */
  json?: string
  itemJson?: string
  metaJson?: string
}

interface Change {
  rev: number
  key: string
  /** The entry the change replaced; undefined when it created the key. */
  prev: Entry | undefined
}

/** ObjectMeta's fields in Go struct order, the order the real server writes them. */
const META_ORDER = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields']

function orderedMeta(meta: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = {}
  for (const k of META_ORDER) if (meta[k] !== undefined) out[k] = meta[k]
  for (const k of Object.keys(meta)) if (!(k in out) && meta[k] !== undefined) out[k] = meta[k]
  return out
}

/** A stable UID (RFC 4122 layout, version 5 style) so test expectations can name it. */
export function deterministicUid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex')
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** First index in a key-sorted array whose key is >= key. */
export function lowerBound(entries: readonly Entry[], key: string): number {
  let lo = 0
  let hi = entries.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (entries[mid].key < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

export class ResourceStore {
  private current: Entry[] = []
  private byKey = new Map<string, Entry>()
  private history: Change[] = []
  private unsorted = false
  private memo?: {rev: number; entries: Entry[]}
  private nodes?: Map<string, Entry[]>

  constructor(readonly type: ServedResource) {}

  get size(): number {
    return this.byKey.size
  }

  keyOf(namespace: string, name: string): string {
    return this.type.namespaced ? `${namespace}/${name}` : name
  }

  /** Initial objects: no history (they exist "since the beginning"); sorted once at the end. */
  load(entry: Entry): void {
    const old = this.byKey.get(entry.key)
    this.byKey.set(entry.key, entry)
    if (old) this.current[this.current.indexOf(old)] = entry
    else {
      this.current.push(entry)
      this.unsorted = true
    }
  }

  finishLoad(): void {
    if (this.unsorted) this.current.sort((a, b) => cmp(a.key, b.key))
    this.unsorted = false
    this.invalidate()
  }

  write(key: string, entry: Entry | undefined, rev: number): boolean {
    const prev = this.byKey.get(key)
    if (!prev && !entry) return false
    this.history.push({rev, key, prev})
    const i = lowerBound(this.current, key)
    if (entry) {
      this.byKey.set(key, entry)
      if (prev) this.current[i] = entry
      else this.current.splice(i, 0, entry)
    } else {
      this.byKey.delete(key)
      this.current.splice(i, 1)
    }
    this.invalidate()
    return true
  }

  private invalidate(): void {
    this.memo = undefined
    this.nodes = undefined
  }

  /** Index of the first change after rev (history is in revision order). */
  private firstChangeAfter(rev: number): number {
    let lo = 0
    let hi = this.history.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.history[mid].rev <= rev) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Every entry as of a revision, in key order. The latest revision costs nothing. */
  entriesAt(rev: number): readonly Entry[] {
    const from = this.firstChangeAfter(rev)
    if (from === this.history.length) return this.current
    if (this.memo?.rev === rev) return this.memo.entries
    // undo, newest first, every change made after rev: the earliest change's "prev" wins
    const undo = new Map<string, Entry | undefined>()
    for (let i = this.history.length - 1; i >= from; i--) undo.set(this.history[i].key, this.history[i].prev)
    const entries = this.current.filter((e) => !undo.has(e.key))
    for (const e of undo.values()) if (e) entries.push(e)
    entries.sort((a, b) => cmp(a.key, b.key))
    this.memo = {rev, entries}
    return entries
  }

  getAt(key: string, rev: number): Entry | undefined {
    for (let i = this.firstChangeAfter(rev); i < this.history.length; i++) {
      if (this.history[i].key === key) return this.history[i].prev
    }
    return this.byKey.get(key)
  }

  /** Current pods by spec.nodeName, key-sorted: the index the real watch cache keeps for pods. */
  onNode(nodeName: string): readonly Entry[] {
    if (!this.nodes) {
      this.nodes = new Map()
      for (const e of this.current) {
        const node = (e.obj.spec as {nodeName?: unknown} | undefined)?.nodeName
        const k = typeof node === 'string' ? node : ''
        let list = this.nodes.get(k)
        if (!list) this.nodes.set(k, (list = []))
        list.push(e)
      }
    }
    return this.nodes.get(nodeName) ?? []
  }

  /** Drops history no reader can reach any more (below both the compaction and the cache's revision). */
  trimHistory(keepAfter: number): void {
    const from = this.firstChangeAfter(keepAfter)
    if (from > 0) this.history.splice(0, from)
  }
}

export interface ObjectRef {
  apiVersion: string
  kind: string
  namespace?: string
  name: string
}

export class Store {
  /** etcd's revision: the resourceVersion of the latest write anywhere. */
  rev = 0
  /** Reads at a revision below this fail with 410 (etcd compaction). */
  compactedRev = 0
  /** The watch cache's revision while it lags; undefined when it follows every write. */
  private frozenCacheRev: number | undefined
  private readonly stores = new Map<string, ResourceStore>()

  constructor(readonly registry: ResourceRegistry, private readonly autoNamespaces: boolean) {}

  get cacheRev(): number {
    return this.frozenCacheRev ?? this.rev
  }

  get cacheLagging(): boolean {
    return this.frozenCacheRev !== undefined
  }

  storeFor(type: ServedResource): ResourceStore {
    const id = `${type.group}/${type.resource}`
    let s = this.stores.get(id)
    if (!s) this.stores.set(id, (s = new ResourceStore(type)))
    return s
  }

  private typeOf(apiVersion: unknown, kind: unknown): ServedResource {
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') throw new Error('fake-apiserver: every object needs apiVersion and kind')
    const type = this.registry.forObject(apiVersion, kind)
    if (!type) throw new Error(`fake-apiserver: no resource type serves ${apiVersion} ${kind}; pass it in extraResources`)
    return type
  }

  private entryFor(type: ServedResource, obj: KubeObject, rev: number, keepRv: boolean): Entry {
    const meta = obj.metadata ?? {}
    const name = meta.name
    if (typeof name !== 'string' || name === '') throw new Error(`fake-apiserver: a ${type.kind} without metadata.name`)
    const namespace = type.namespaced ? (typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default') : ''
    const key = type.namespaced ? `${namespace}/${name}` : name
    const resourceVersion = keepRv && typeof meta.resourceVersion === 'string' && /^\d+$/.test(meta.resourceVersion) ? meta.resourceVersion : String(rev)
    const metadata = orderedMeta({
      ...meta,
      ...(type.namespaced ? {namespace} : {}),
      uid: typeof meta.uid === 'string' && meta.uid !== '' ? meta.uid : deterministicUid(`${type.group}/${type.resource}/${key}`),
      resourceVersion,
    })
    return {key, namespace, name, obj: {...obj, metadata}, rev: Number(resourceVersion)}
  }

  /** The initial objects. Those with a numeric resourceVersion keep it; the rest are numbered after the highest. */
  load(objects: Iterable<KubeObject>): void {
    const list = [...objects]
    for (const o of list) {
      const rv = o.metadata?.resourceVersion
      if (typeof rv === 'string' && /^\d+$/.test(rv)) this.rev = Math.max(this.rev, Number(rv))
    }
    const touched = new Set<ResourceStore>()
    const namespaces = new Set<string>()
    for (const o of list) {
      const type = this.typeOf(o.apiVersion, o.kind)
      const hasRv = typeof o.metadata?.resourceVersion === 'string' && /^\d+$/.test(o.metadata.resourceVersion)
      const entry = this.entryFor(type, o, hasRv ? 0 : ++this.rev, true)
      const s = this.storeFor(type)
      s.load(entry)
      touched.add(s)
      if (type.namespaced) namespaces.add(entry.namespace)
    }
    if (this.autoNamespaces) {
      const nsType = this.typeOf('v1', 'Namespace')
      const s = this.storeFor(nsType)
      // every cluster has these four; and a namespaced object implies its namespace exists
      for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system', ...namespaces]) {
        if (s.getAt(ns, this.rev) === undefined) s.load(this.entryFor(nsType, namespaceObject(ns), ++this.rev, false))
      }
      touched.add(s)
    }
    for (const s of touched) s.finishLoad()
  }

  /** A write: stamped with the next revision, whatever resourceVersion the object carried. */
  put(obj: KubeObject): KubeObject {
    const type = this.typeOf(obj.apiVersion, obj.kind)
    const entry = this.entryFor(type, obj, ++this.rev, false)
    this.storeFor(type).write(entry.key, entry, this.rev)
    if (this.autoNamespaces && type.namespaced) {
      const nsType = this.typeOf('v1', 'Namespace')
      const s = this.storeFor(nsType)
      if (s.getAt(entry.namespace, this.rev) === undefined) {
        const ns = this.entryFor(nsType, namespaceObject(entry.namespace), ++this.rev, false)
        s.write(ns.key, ns, this.rev)
      }
    }
    return entry.obj
  }

  remove(ref: ObjectRef): boolean {
    const type = this.typeOf(ref.apiVersion, ref.kind)
    const s = this.storeFor(type)
    const key = s.keyOf(ref.namespace ?? 'default', ref.name)
    if (s.getAt(key, this.rev) === undefined) return false
    return s.write(key, undefined, ++this.rev)
  }

  lagCache(): void {
    this.frozenCacheRev ??= this.rev
  }

  syncCache(): void {
    this.frozenCacheRev = undefined
    this.trim()
  }

  /**
   * Compaction up to now: every continue token handed out so far refers to a revision below the
   * compacted one. The revision then moves on by one, as it does in a live cluster where leases
   * and events are written all the time, so that new lists are readable.
   */
  compact(): void {
    this.compactedRev = this.rev + 1
    this.rev++
    this.trim()
  }

  private trim(): void {
    const keepAfter = Math.min(this.compactedRev - 1, this.cacheRev)
    for (const s of this.stores.values()) s.trimHistory(keepAfter)
  }
}

/** A namespace as the API server stores one: the name label, the kubernetes finalizer, Active. */
function namespaceObject(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {name, labels: {'kubernetes.io/metadata.name': name}},
    spec: {finalizers: ['kubernetes']},
    status: {phase: 'Active'},
  }
}
