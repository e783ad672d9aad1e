// The objects, kept the way etcd keeps them: one key space per group/resource, keys
// "namespace/name" (or "name") in byte order, every write stamped with the next cluster-wide
// revision, and old revisions readable until compacted. That history gives both views the API
// server has: the fresh (quorum) one at the latest revision, and the watch cache, which a test can
// freeze at an older revision. Lists at a continue token's revision read the same history.
import {hash} from 'node:crypto'
import {apiVersionOf} from '../../../src/cluster/builtin-kinds.js'
import type {KubeObject} from '../../../src/cluster/source.js'
import {parseJson} from '../../../src/util/json.js'
import type {ResourceRegistry, ServedResource} from './resources.js'
import {toJson} from './serialize.js'

/**
 * One stored object. Only its serialized form is kept, plus the fields selectors and indexes read:
 * 150,000 object graphs kept alive make every garbage collection crawl, 150,000 strings do not.
 */
export class Entry {
  constructor(
    readonly type: ServedResource,
    /** "namespace/name" for namespaced kinds, "name" for cluster-scoped ones: etcd's key order. */
    readonly key: string,
    readonly namespace: string,
    readonly name: string,
    readonly rev: number,
    readonly labels: Record<string, string> | undefined,
    /** spec.nodeName, for the pod index (undefined for other kinds). */
    readonly nodeName: string | undefined,
    /** The object as a list item carries it: built-in kinds without apiVersion and kind (see serialize.ts). */
    readonly body: string,
    /** Its metadata's JSON, for the metadata-only forms (the same characters as inside body). */
    readonly metaJson: string,
  ) {}

  /** The stored object, parsed again (int64 beyond 2^53 as bigint). */
  object(): KubeObject {
    const parsed = parseJson(this.body) as KubeObject
    if (this.type.custom) return parsed
    return {apiVersion: apiVersionOf(this.type), kind: this.type.kind, ...parsed}
  }
}

interface Change {
  rev: number
  key: string
  /** The entry the change replaced; undefined when it created the key. */
  prev: Entry | undefined
}

/** ObjectMeta's fields in Go struct order, the order the real server writes them. */
const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]
const META_FIELDS = new Set(META_ORDER)

const member = (k: string, v: unknown) => `${JSON.stringify(k)}:${toJson(v)}`

/**
 * The stored object's JSON, written member by member rather than by copying the object first:
 * loading 150,000 objects should cost one serialization each and no garbage. `set` overrides
 * metadata fields; metadata comes out in Go order; built-in kinds leave out apiVersion and kind.
 */
function storedJson(obj: KubeObject, set: Record<string, string>, dropTypeMeta: boolean): {body: string; meta: string} {
  const meta = obj.metadata ?? {}
  const m: string[] = []
  for (const k of META_ORDER) {
    const v = set[k] ?? meta[k]
    if (v !== undefined) m.push(member(k, v))
  }
  for (const k of Object.keys(meta)) if (!META_FIELDS.has(k) && meta[k] !== undefined) m.push(member(k, meta[k]))
  const metaBody = `{${m.join(',')}}`
  const metadata = `"metadata":${metaBody}`
  const out: string[] = []
  let wroteMeta = false
  for (const k of Object.keys(obj)) {
    if (dropTypeMeta && (k === 'apiVersion' || k === 'kind')) continue
    if (k === 'metadata') {
      out.push(metadata)
      wroteMeta = true
    } else if (obj[k] !== undefined && typeof obj[k] !== 'function') {
      out.push(member(k, obj[k]))
    }
  }
  if (!wroteMeta) out.unshift(metadata)
  return {body: `{${out.join(',')}}`, meta: metaBody}
}

/** A stable UID (RFC 4122 layout, version 5 style) so test expectations can name it. */
export function deterministicUid(seed: string): string {
  const h = hash('sha1', seed, 'hex')
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
        const k = e.nodeName ?? ''
        const list = this.nodes.get(k)
        if (list) list.push(e)
        else this.nodes.set(k, [e])
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

  constructor(
    readonly registry: ResourceRegistry,
    private readonly autoNamespaces: boolean,
  ) {}

  get cacheRev(): number {
    return this.frozenCacheRev ?? this.rev
  }

  get cacheLagging(): boolean {
    return this.frozenCacheRev !== undefined
  }

  storeFor(type: ServedResource): ResourceStore {
    const id = `${type.group}/${type.resource}`
    const known = this.stores.get(id)
    if (known) return known
    const s = new ResourceStore(type)
    this.stores.set(id, s)
    return s
  }

  private readonly types = new Map<string, ServedResource>()

  private typeOf(apiVersion: unknown, kind: unknown): ServedResource {
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') throw new Error('fake-apiserver: every object needs apiVersion and kind')
    const id = `${apiVersion} ${kind}`
    let type = this.types.get(id)
    if (!type) {
      type = this.registry.forObject(apiVersion, kind)
      if (!type) throw new Error(`fake-apiserver: no resource type serves ${apiVersion} ${kind}; pass it in extraResources`)
      this.types.set(id, type)
    }
    return type
  }

  /** The object as stored: its namespace defaulted, uid and resourceVersion filled in, metadata in Go order. */
  private stamp(type: ServedResource, obj: KubeObject, rev: number, keepRv: boolean): Entry {
    const meta = obj.metadata ?? {}
    const name = meta.name
    if (typeof name !== 'string' || name === '') throw new Error(`fake-apiserver: a ${type.kind} without metadata.name`)
    const namespace = type.namespaced ? (typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default') : ''
    const key = type.namespaced ? `${namespace}/${name}` : name
    const resourceVersion = keepRv && typeof meta.resourceVersion === 'string' && /^\d+$/.test(meta.resourceVersion) ? meta.resourceVersion : String(rev)
    const uid = typeof meta.uid === 'string' && meta.uid !== '' ? meta.uid : deterministicUid(`${type.group}/${type.resource}/${key}`)
    const set: Record<string, string> = type.namespaced ? {namespace, uid, resourceVersion} : {uid, resourceVersion}
    const node = type.group === '' && type.resource === 'pods' ? (obj.spec as {nodeName?: unknown} | undefined)?.nodeName : undefined
    const labels = meta.labels !== null && typeof meta.labels === 'object' ? meta.labels : undefined
    const {body, meta: metaJson} = storedJson(obj, set, !type.custom)
    return new Entry(type, key, namespace, name, Number(resourceVersion), labels, typeof node === 'string' ? node : undefined, body, metaJson)
  }

  /**
   * The initial objects, read once (a generator is never held whole). Those with a numeric
   * resourceVersion keep it; the rest are numbered after the highest one an array holds (for
   * another iterable, after the highest seen so far).
   */
  load(objects: Iterable<KubeObject>): void {
    if (Array.isArray(objects)) {
      for (const o of objects as KubeObject[]) {
        const rv = o.metadata?.resourceVersion
        if (typeof rv === 'string' && /^\d+$/.test(rv)) this.rev = Math.max(this.rev, Number(rv))
      }
    }
    const touched = new Set<ResourceStore>()
    const namespaces = new Set<string>()
    for (const o of objects) {
      const type = this.typeOf(o.apiVersion, o.kind)
      const rv = o.metadata?.resourceVersion
      const hasRv = typeof rv === 'string' && /^\d+$/.test(rv)
      if (hasRv) this.rev = Math.max(this.rev, Number(rv))
      const entry = this.stamp(type, o, hasRv ? 0 : ++this.rev, true)
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
        if (s.getAt(ns, this.rev) === undefined) s.load(this.stamp(nsType, namespaceObject(ns), ++this.rev, false))
      }
      touched.add(s)
    }
    for (const s of touched) s.finishLoad()
  }

  /** A write: stamped with the next revision, whatever resourceVersion the object carried. Returns the object as stored. */
  put(obj: KubeObject): KubeObject {
    const type = this.typeOf(obj.apiVersion, obj.kind)
    const entry = this.stamp(type, obj, ++this.rev, false)
    this.storeFor(type).write(entry.key, entry, this.rev)
    if (this.autoNamespaces && type.namespaced) {
      const nsType = this.typeOf('v1', 'Namespace')
      const s = this.storeFor(nsType)
      if (s.getAt(entry.namespace, this.rev) === undefined) {
        const ns = this.stamp(nsType, namespaceObject(entry.namespace), ++this.rev, false)
        s.write(ns.key, ns, this.rev)
      }
    }
    return entry.object()
  }

  remove(ref: ObjectRef): boolean {
    const type = this.typeOf(ref.apiVersion, ref.kind)
    const s = this.storeFor(type)
    const key = s.keyOf(ref.namespace ?? 'default', ref.name)
    if (s.getAt(key, this.rev) === undefined) return false
    return s.write(key, undefined, ++this.rev)
  }

  /** The latest stored version of an object, as a GET returns it. */
  get(ref: ObjectRef): KubeObject | undefined {
    const type = this.typeOf(ref.apiVersion, ref.kind)
    const s = this.storeFor(type)
    return s.getAt(s.keyOf(ref.namespace ?? 'default', ref.name), this.rev)?.object()
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
