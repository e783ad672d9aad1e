// What a run keeps of each object it reads: the fields its replays name (each replay's descriptor lists its reads and,
// per read, the fields it reads: src/replay.ts), nothing else, so that 150,000 pods fit in memory next to the garbage
// collector's graph. Generic: a projection is compiled from field paths, never written per kind. managedFields and the
// last-applied annotation (often the largest parts of an object) are never kept.
//
// A field path names what is kept:
//   spec.nodeName                          a field, whole (an object or array below it too)
//   spec.initContainers[].name             in an array, that field of each element
//   status.conditions[type=Ready|PodScheduled].status
//                                          only the elements whose `type` is one of those: an element no path selects
//                                          is left out (the others keep their order)
//   metadata.annotations[controller.kubernetes.io/pod-deletion-cost]
//                                          one key of a map (a key with dots)
//   status.conditions[type=Ready].{type,status,lastTransitionTime}
//                                          several fields at the end of one path
//   *                                      the whole object
import type {KubeObject, ObjectMeta} from './kube-types.js'

export type FieldPath = string

/** A read's fields: paths, or '*' for the whole object. */
export type Fields = readonly FieldPath[] | '*'

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

type Obj = Record<string, unknown>

/**
 * One copy of each repeated string (namespaces, node names, label values, owner kinds, condition types): JSON.parse
 * gives every occurrence its own string, and 150,000 pods repeat the same few thousand values. Per gathering run.
 */
export class Interner {
  private readonly strings = new Map<string, string>()
  private readonly shared = new Map<string, unknown>()
  s<T>(v: T): T {
    if (typeof v !== 'string' || v.length > 96) return v
    const seen = this.strings.get(v)
    if (seen !== undefined) return seen as T
    this.strings.set(v, v)
    return v
  }
  /** Identical small structures (a workload's tolerations, its pods' labels) shared by reference; read-only after. */
  same<T>(v: T): T {
    if (v === undefined || v === null) return v
    let key: string
    try {
      key = JSON.stringify(v)
    } catch {
      // An integer beyond 2^53, read exactly (a bigint), has no JSON text here: that structure is not shared.
      return v
    }
    if (key === undefined || key.length > 2048) return v
    // A structure that carries a time (a condition's transition, a taint's timeAdded) is its object's own: sharing it
    // would only hold its text a second time.
    if (/(?:Time|Timestamp|timeAdded)":/.test(key)) return v
    const seen = this.shared.get(key)
    if (seen !== undefined) return seen as T
    this.shared.set(key, v)
    return v
  }

  /** Canonical structures of deep(), by a key of their primitives and their children's ids. */
  private readonly nodes = new Map<string, object>()
  /** Each canonical structure's id; an object's own (not shareable) structure is marked UNSHARED. */
  private readonly ids = new WeakMap<object, number>()

  /**
   * A structure read whole (a ReplicaSet's pod template, a node's labels) with every part shared that another object
   * already has: the ReplicaSets of one Deployment differ in an image, a hash label and a restart time, and same() —
   * all or nothing — shares none of their templates. Parts are made canonical bottom-up, each keyed by its primitives
   * and its children's ids, so a level costs its own size, not its subtree's (same() stringifies the whole). A part
   * that carries a time stays its object's own (sharing it would only hold its text a second time), and so
   * do the parts above it; the parts under it are still shared. Read-only after, as same()'s.
   */
  deep<T>(v: T): T {
    if (typeof v === 'object' && v !== null) return this.canonical(v as object) as T
    return this.s(v)
  }

  /** The shared copy of a plain object or array, its parts shared in place; `v` itself when it is its own. */
  private canonical(v: object): object {
    // Already seen (an object made canonical before, or known to be its own): as it is.
    if (this.ids.has(v)) return v
    const array = Array.isArray(v)
    const proto = Object.getPrototypeOf(v)
    if (!array && proto !== Object.prototype && proto !== null) {
      this.ids.set(v, UNSHARED)
      return v
    }
    const o = v as Record<string, unknown>
    const keys = array ? undefined : Object.keys(o)
    const n = array ? (v as unknown[]).length : keys!.length
    let key = array ? '[' : '{'
    let own = false
    for (let i = 0; i < n; i++) {
      const k = array ? String(i) : keys![i]
      const c = o[k]
      let token: string
      if (typeof c === 'string') {
        if (!array && TIMED.test(k)) own = true
        const shared = this.s(c)
        if (shared !== c) o[k] = shared
        token = JSON.stringify(c)
      } else if (typeof c === 'object' && c !== null) {
        const shared = this.canonical(c)
        if (shared !== c) o[k] = shared
        const id = this.ids.get(shared)!
        if (id === UNSHARED) own = true
        token = `#${id}`
      } else token = typeof c === 'bigint' ? `${c}n` : String(c)
      key += array ? `${token},` : `${JSON.stringify(k)}:${token},`
    }
    if (own) {
      this.ids.set(v, UNSHARED)
      return v
    }
    const seen = this.nodes.get(key)
    if (seen !== undefined) return seen
    this.nodes.set(key, v)
    this.ids.set(v, this.nodes.size)
    return v
  }
}

/**
 * An interner that shares nothing: for objects held only while one check runs (src/audit/gather.ts forCheck), where
 * finding the shared parts cost more than they save (at 2,000 nodes, 11 of the 46 CPU-seconds of an audit that took
 * every list back this way were deep()'s canonical keys).
 */
export class NoInterner extends Interner {
  override s<T>(v: T): T {
    return v
  }
  override same<T>(v: T): T {
    return v
  }
  override deep<T>(v: T): T {
    return v
  }
}

/**
 * An interner that shares strings only: for one check's view of the lists kept compressed (src/audit/gather.ts
 * forCheck). Each view object is made afresh from text, so without it every namespace, node name, owner and
 * condition type of 150,000 pods is a string of its own; finding shared structures (same, deep) is what cost the
 * time (above), a lookup per string does not.
 */
export class StringInterner extends Interner {
  override same<T>(v: T): T {
    return this.deep(v)
  }
  /** The strings of `v`, at any depth, shared in place; no structure is. */
  override deep<T>(v: T): T {
    if (typeof v === 'string') return this.s(v)
    if (typeof v !== 'object' || v === null) return v
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c = v[i]
        if (typeof c === 'string') v[i] = this.s(c)
        else if (typeof c === 'object' && c !== null) this.deep(c)
      }
      return v
    }
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) return v
    const o = v as Record<string, unknown>
    for (const k in o) {
      const c = o[k]
      if (typeof c === 'string') o[k] = this.s(c)
      else if (typeof c === 'object' && c !== null) this.deep(c)
    }
    return v
  }
}

const UNSHARED = -1
/** Fields that hold a time: what carries one is its object's own. */
const TIMED = /(?:Time|Timestamp|timeAdded)$/

/** metadata without managedFields and the last-applied annotation; `annotations` limits which are kept. */
export function projectMeta(m: ObjectMeta | undefined, annotations?: readonly string[]): ObjectMeta {
  if (!m) return {}
  // Nothing to leave out: a spread copy keeps the parsed object's layout, its keys in the object itself (one built a
  // key at a time keeps those past the fourth in an array of their own: ~30 bytes more on each of 150,000 pods).
  if (!('managedFields' in m) && !('annotations' in m)) return {...m}
  const out: ObjectMeta = {}
  for (const k of Object.keys(m)) {
    if (k === 'managedFields' || k === 'annotations') continue
    out[k] = m[k]
  }
  if (m.annotations) {
    let kept: Record<string, string> | undefined
    for (const [k, v] of Object.entries(m.annotations)) {
      if (k === LAST_APPLIED || (annotations && !annotations.includes(k))) continue
      kept ??= {}
      kept[k] = v
    }
    if (kept) out.annotations = kept
  }
  return out
}

/** Any object whole, without managedFields and the last-applied annotation. */
export function projectWhole(o: KubeObject): KubeObject {
  if (MADE.get(o) === WHOLE) return o
  const out: KubeObject = {...o}
  out.metadata = projectMeta(o.metadata)
  MADE.set(out, WHOLE)
  return out
}

/**
 * projectWhole, with the parts another object has shared (Interner.deep): the ReplicaSets of one Deployment, read
 * whole for the hash check, hold one copy of what their templates have in common.
 */
export function projectWholeShared(o: KubeObject, intern: Interner): KubeObject {
  if (MADE.get(o) === WHOLE) return o
  const out = projectWhole(o) as Record<string, unknown>
  for (const k of Object.keys(out)) {
    const v = out[k]
    if (k !== 'metadata') out[k] = intern.deep(v)
  }
  const meta = out.metadata as Record<string, unknown>
  for (const k of Object.keys(meta)) {
    const v = meta[k]
    if (k === 'name' || k === 'uid' || k === 'resourceVersion') continue
    meta[k] = intern.deep(v)
  }
  return out as KubeObject
}

/**
 * An object as a metadata-only read returns it: type and metadata (without managedFields and the last-applied
 * annotation). With an interner, its repeated strings are shared: a Job's labels repeat its uid and name twice each
 * (controller-uid, job-name, with and without the batch.kubernetes.io/ prefix), its scheduled-timestamp annotation its
 * creation time, and the Jobs of one CronJob have the same owner reference — a third of what 33,000 Jobs hold at 5,000
 * nodes.
 */
export function projectMetadata(o: KubeObject, intern?: Interner): KubeObject {
  const meta = projectMeta(o.metadata)
  if (intern) {
    if (typeof meta.namespace === 'string') meta.namespace = intern.s(meta.namespace)
    if (typeof meta.name === 'string') meta.name = intern.s(meta.name)
    if (typeof meta.uid === 'string') meta.uid = intern.s(meta.uid)
    if (meta.creationTimestamp) meta.creationTimestamp = intern.s(meta.creationTimestamp)
    for (const field of ['labels', 'annotations'] as const) {
      const map = meta[field]
      if (!map || typeof map !== 'object') continue
      const shared = {...map}
      for (const k of Object.keys(shared)) shared[k] = intern.s(shared[k])
      meta[field] = shared
    }
    if (meta.ownerReferences) meta.ownerReferences = intern.same(meta.ownerReferences)
  }
  return {apiVersion: intern ? intern.s(o.apiVersion) : o.apiVersion, kind: intern ? intern.s(o.kind) : o.kind, metadata: meta}
}

// ---- compiled field paths ----

/** What is kept of a value: all of it, or some of its fields, or (an array) some of its elements. */
type Tree = {whole: true} | {whole?: false; fields: Map<string, Tree>; elements?: Branch[]}
/** Elements whose `key` is (or, negated, is not) one of `values`; no filter: every element. */
interface Branch {
  filter?: {key: string; values: ReadonlySet<string>; negate: boolean}
  tree: Tree
}

const WHOLE: Tree = {whole: true}

/**
 * What each projection here returned, with the tree that made it. Projecting such an object again with a tree it
 * covers keeps all that tree asks for, so it is returned as it is instead of copied: the snapshot source applies a
 * projection as objects arrive (cluster/snapshot/slim.ts, the union of every replay's reads) and the audit's gathering
 * (the union of the checks it runs) would otherwise hold a second copy of every pod and node. Only objects made here
 * are recorded: an object read from a source that did not project it (live, a snapshot read whole, one kept whole
 * because it is malformed) is projected.
 */
const MADE = new WeakMap<object, Tree>()

const coverCache = new WeakMap<Tree, WeakMap<Tree, boolean>>()
/** Whether what `a` keeps includes all `b` keeps. */
function covers(a: Tree, b: Tree): boolean {
  if (a === b || a.whole) return true
  if (b.whole) return false
  let seen = coverCache.get(a)
  const hit = seen?.get(b)
  if (hit !== undefined) return hit
  let ok = true
  for (const [k, t] of b.fields) {
    const ta = a.fields.get(k)
    if (!ta || !covers(ta, t)) {
      ok = false
      break
    }
  }
  if (ok)
    for (const br of b.elements ?? []) {
      const same = (a.elements ?? []).find((x) => sameFilter(x.filter, br.filter))
      if (!same || !covers(same.tree, br.tree)) {
        ok = false
        break
      }
    }
  if (!seen) {
    seen = new WeakMap()
    coverCache.set(a, seen)
  }
  seen.set(b, ok)
  return ok
}

function sameFilter(a: Branch['filter'], b: Branch['filter']): boolean {
  if (!a || !b) return a === b
  return a.key === b.key && a.negate === b.negate && [...a.values].join('|') === [...b.values].join('|')
}

/** Splits `a.b[x.y].{c,d}` at the dots outside brackets and braces. */
function segments(path: FieldPath): string[] {
  const out: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < path.length; i++) {
    const c = path[i]
    if (c === '[' || c === '{') depth++
    else if (c === ']' || c === '}') depth--
    else if (c === '.' && depth === 0) {
      out.push(path.slice(start, i))
      start = i + 1
    }
  }
  out.push(path.slice(start))
  return out
}

function child(tree: Tree, name: string): Tree {
  if (tree.whole) return tree
  const seen = tree.fields.get(name)
  if (seen) return seen
  const made: Tree = {fields: new Map()}
  tree.fields.set(name, made)
  return made
}

function keepWhole(tree: Tree, name: string): void {
  if (!tree.whole) tree.fields.set(name, WHOLE)
}

function branchOf(tree: Tree, selector: string): Tree {
  if (tree.whole) return tree
  const eq = selector.indexOf('=')
  const negate = eq > 0 && selector[eq - 1] === '!'
  const filter = eq === -1 ? undefined : {key: selector.slice(0, negate ? eq - 1 : eq), values: new Set(selector.slice(eq + 1).split('|')), negate}
  tree.elements ??= []
  const same = tree.elements.find(
    (b) =>
      (b.filter === undefined && filter === undefined) ||
      (b.filter &&
        filter &&
        b.filter.key === filter.key &&
        b.filter.negate === filter.negate &&
        [...b.filter.values].join('|') === [...filter.values].join('|')),
  )
  if (same) return same.tree
  const made: Tree = {fields: new Map()}
  tree.elements.push({...(filter ? {filter} : {}), tree: made})
  return made
}

/** Adds one path to a tree. */
function addPath(root: Tree, path: FieldPath): void {
  const parts = segments(path)
  let at = root
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]
    const last = i === parts.length - 1
    if (part.startsWith('{') && part.endsWith('}')) {
      if (!last) throw new Error(`field path ${path}: {…} ends a path`)
      for (const f of part.slice(1, -1).split(',')) keepWhole(at, f.trim())
      return
    }
    const bracket = part.indexOf('[')
    const name = bracket === -1 ? part : part.slice(0, bracket)
    const selector = bracket === -1 ? undefined : part.slice(bracket + 1, -1)
    if (selector === undefined) {
      if (last) keepWhole(at, name)
      else at = child(at, name)
      continue
    }
    const holder = child(at, name)
    if (selector !== '' && !selector.includes('=')) {
      // A map's key (one that may hold dots): the key is a field of the map.
      if (last) keepWhole(holder, selector)
      else at = child(holder, selector)
      continue
    }
    const element = branchOf(holder, selector)
    if (last) {
      // Every selected element whole.
      if (!element.whole) (element as {whole: boolean}).whole = true
    } else at = element
  }
}

function merge(a: Tree, b: Tree): Tree {
  if (a.whole || b.whole) return WHOLE
  const fields = new Map(a.fields)
  for (const [k, t] of b.fields) fields.set(k, fields.has(k) ? merge(fields.get(k)!, t) : t)
  const elements = [...(a.elements ?? [])]
  for (const br of b.elements ?? []) {
    const i = elements.findIndex((x) => sameFilter(x.filter, br.filter))
    if (i === -1) elements.push(br)
    else elements[i] = {...elements[i], tree: merge(elements[i].tree, br.tree)}
  }
  return elements.length > 0 ? {fields, elements} : {fields}
}

/** The tree of a set of paths. */
export function compileFields(fields: Fields): Tree {
  if (fields === '*') return WHOLE
  const root: Tree = {fields: new Map()}
  for (const p of fields) addPath(root, p)
  return root
}

/**
 * Objects built as literals of their keys, one maker per key sequence: an object given its keys one by one keeps
 * those past the fourth outside itself (~30 bytes more on each of 150,000 pods); a literal holds them all inside.
 */
const makers = new Map<string, (values: unknown[]) => Obj>()
function build(keys: readonly string[], values: unknown[]): Obj {
  const sig = keys.join('\u0000')
  let make = makers.get(sig)
  if (!make) {
    if (makers.size > 4096) makers.clear()
    // The keys are JSON-quoted: no key can be code.
    make = new Function('v', `return {${keys.map((k, i) => `${JSON.stringify(k)}: v[${i}]`).join(', ')}}`) as (values: unknown[]) => Obj
    makers.set(sig, make)
  }
  return make(values)
}

/** Fields of a structure never worth a shared copy: each object's own. */
const UNIQUE = new Set(['name', 'uid', 'resourceVersion'])

function projectValue(v: unknown, tree: Tree, intern: Interner | undefined, field: string): unknown {
  if (tree.whole) {
    if (!intern) return v
    if (typeof v === 'string') return UNIQUE.has(field) ? v : intern.s(v)
    return typeof v === 'object' && v !== null ? intern.deep(v) : v
  }
  if (Array.isArray(v)) {
    if (!tree.elements) return undefined
    const out: unknown[] = []
    for (const el of v) {
      const chosen = tree.elements.filter((b) => matches(b, el))
      if (chosen.length === 0) continue
      const t = chosen.length === 1 ? chosen[0].tree : chosen.map((b) => b.tree).reduce(merge)
      out.push(t.whole ? el : (projectValue(el, t, intern, '') ?? {}))
    }
    return intern ? intern.same(out) : out
  }
  if (typeof v !== 'object' || v === null) return undefined
  const keys: string[] = []
  const values: unknown[] = []
  const o = v as Obj
  for (const k of Object.keys(o)) {
    const t = tree.fields.get(k)
    if (!t || o[k] === undefined) continue
    const kept = projectValue(o[k], t, intern, k)
    if (kept === undefined) continue
    keys.push(k)
    values.push(kept)
  }
  // A structure none of whose named fields is there (a map without the one key read) is left out, as it would be absent.
  return keys.length === 0 && field !== '' ? undefined : build(keys, values)
}

function matches(b: Branch, el: unknown): boolean {
  if (!b.filter) return true
  const v = (el as Obj | null)?.[b.filter.key]
  const hit = typeof v === 'string' && b.filter.values.has(v)
  return b.filter.negate ? !hit : hit
}

/** Where a read's fields apply: the objects of one namespace and label selector, or every object read. */
export interface FieldScope {
  namespace?: string
  /** The label selector's own test (src/cluster/selectors.ts parseLabelSelector). */
  labels?: (labels: Record<string, string> | undefined) => boolean
}

export interface ScopedFields {
  fields: Fields
  where?: FieldScope
}

/** What a run reads of each kind, by the object store's group/kind key (object-store.ts groupKindKey). */
export interface ProjectionPlan {
  byKind: ReadonlyMap<string, readonly ScopedFields[]>
  /** Applied to each projected object with its original: what a plan keeps beyond field paths (src/audit/project.ts). */
  finish?: (original: KubeObject, projected: KubeObject) => KubeObject
}

/**
 * The projection of a kind's objects from the fields its reads name: the union of every read's paths, those of a read
 * confined to some objects (the controller-manager's mirror pod) applied to those objects alone. metadata is always
 * projected as projectMeta does (managedFields and the last-applied annotation go) before the paths apply.
 */
export function fieldProjection(reads: readonly ScopedFields[], intern?: Interner): (o: KubeObject) => KubeObject {
  const everywhere = reads.filter((r) => !r.where)
  const confined = reads.filter((r) => r.where)
  // Every object keeps its type.
  const base = [...everywhere.map((r) => r.fields), ['apiVersion', 'kind']].map((f) => compileFields(f)).reduce(merge)
  const byMatch = new Map<string, Tree>()
  const treeOf = (o: KubeObject): Tree => {
    if (confined.length === 0) return base
    let sig = ''
    for (const r of confined) {
      const w = r.where!
      sig += (w.namespace === undefined || o.metadata?.namespace === w.namespace) && (!w.labels || w.labels(o.metadata?.labels)) ? '1' : '0'
    }
    let t = byMatch.get(sig)
    if (!t) {
      t = confined.filter((_, i) => sig[i] === '1').reduce((acc, r) => merge(acc, compileFields(r.fields)), base)
      byMatch.set(sig, t)
    }
    return t
  }
  return (o) => {
    const tree = treeOf(o)
    if (tree.whole) return intern ? projectWholeShared(o, intern) : projectWhole(o)
    const made = MADE.get(o)
    if (made && covers(made, tree)) return o
    const out = (projectValue(o.metadata ? {...o, metadata: projectMeta(o.metadata)} : o, tree, intern, '') ?? {}) as KubeObject
    MADE.set(out, tree)
    return out
  }
}

/** One step to a kept field: a field name, or an element of a list (with the filter that selects it, if any). */
export type LeafStep = {field: string} | {element: true; where?: {key: string; value: string}}

/**
 * Every field a set of paths keeps, as the steps that reach it (a whole subtree is one leaf): what a test builds an
 * object from, to see that the input shapes (cluster/validate/kinds.ts) check each field a replay reads.
 */
export function fieldLeaves(fields: Fields): LeafStep[][] {
  const out: LeafStep[][] = []
  const walk = (t: Tree, at: LeafStep[]): void => {
    if (t.whole) {
      if (at.length > 0) out.push(at)
      return
    }
    for (const [k, c] of t.fields) walk(c, [...at, {field: k}])
    for (const b of t.elements ?? []) {
      const where = b.filter && !b.filter.negate ? {key: b.filter.key, value: [...b.filter.values][0]} : undefined
      walk(b.tree, [...at, {element: true, ...(where ? {where} : {})}])
    }
  }
  walk(compileFields(fields), [])
  return out
}
