// What the audit keeps of each listed object: the fields the engines read, nothing else, so that 150,000 pods fit
// in memory next to the garbage collector's graph. The engines' input types (engine/replicaset/types.ts,
// engine/tainteviction/types.ts, engine/nodelifecycle/types.ts) name every field they read; these projections keep
// exactly those. managedFields and the last-applied annotation (often the largest parts of an object) never are.
import type {KubeObject, ObjectMeta} from '../cluster/source.js'
import {slimObject} from '../engine/garbagecollector/model.js'
import {isControllerManagerPod} from '../settings/kcm.js'

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'
/** The only pod annotation an engine reads (ranking.ts deletionCost). */
const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost'

type Obj = Record<string, unknown>

/**
 * Pod condition types no engine reads: the ReplicaSet replay reads Ready (pod-util.ts), the taint-eviction replay
 * PodScheduled (process.ts) and DisruptionTarget (evidence.ts, drive.ts). A type outside this list (one a newer
 * kubelet sets) is kept: dropping only what is known unread cannot hide what a future reader needs.
 */
const POD_CONDITIONS_UNREAD = new Set(['Initialized', 'ContainersReady', 'PodReadyToStartContainers'])

/**
 * What each projection here returned, by the projection that made it. Projecting such an object again with the same
 * projection keeps exactly what it holds (each is idempotent), so it is returned as it is instead of copied: the
 * snapshot source applies these projections as objects arrive (cluster/snapshot/slim.ts), and the audit's gathering
 * would otherwise hold a second copy of every pod and node. Only objects made here are recorded: an object read from
 * a source that did not project it (live, a snapshot read whole, one kept whole because it is malformed) is projected.
 */
const projected = new WeakMap<object, 'pod' | 'node' | 'object' | 'replicaset'>()

function made<T extends object>(o: T, by: 'pod' | 'node' | 'object' | 'replicaset'): T {
  projected.set(o, by)
  return o
}

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
    const seen = this.shared.get(key)
    if (seen !== undefined) return seen as T
    this.shared.set(key, v)
    return v
  }
}

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

function pick(o: Obj | undefined, keys: readonly string[]): Obj | undefined {
  if (!o || typeof o !== 'object') return undefined
  const out: Obj = {}
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k]
  return out
}

function pickEach(list: unknown, keys: readonly string[]): Obj[] | undefined {
  if (!Array.isArray(list)) return undefined
  return list.map((x) => pick(x as Obj, keys) ?? {})
}

/**
 * A pod as the ReplicaSet replay (claims, active pods, ranking), the taint-eviction replay (tolerations, binding,
 * DisruptionTarget) and the collector (metadata) read it. The kube-controller-manager's mirror pod keeps its
 * containers: its command line is where the node lifecycle settings come from.
 */
export function projectPod(o: KubeObject, intern = new Interner()): KubeObject {
  if (projected.get(o) === 'pod') return o
  if (o.metadata?.namespace === 'kube-system' && isControllerManagerPod(o)) return projectObject(o)
  const spec = o.spec as Obj | undefined
  const status = o.status as Obj | undefined
  const meta = projectMeta(o.metadata, [POD_DELETION_COST])
  meta.namespace = intern.s(meta.namespace)
  if (meta.generateName) meta.generateName = intern.s(meta.generateName)
  // Pods made in the same second share it, and it is often their PodScheduled transition too (interned below).
  if (meta.creationTimestamp) meta.creationTimestamp = intern.s(meta.creationTimestamp)
  if (meta.labels) meta.labels = intern.same(meta.labels)
  if (meta.ownerReferences) meta.ownerReferences = intern.same(meta.ownerReferences)
  let podSpec: Obj | undefined
  let podStatus: Obj | undefined
  if (spec) {
    const s: Obj = {}
    if (spec.nodeName !== undefined) s.nodeName = intern.s(spec.nodeName)
    if (spec.tolerations !== undefined) s.tolerations = intern.same(spec.tolerations)
    const init = pickEach(spec.initContainers, ['name', 'restartPolicy'])
    if (init) s.initContainers = intern.same(init)
    podSpec = s
  }
  if (status) {
    const s: Obj = {}
    if (status.phase !== undefined) s.phase = intern.s(status.phase)
    if (Array.isArray(status.conditions)) {
      // The message is read only on DisruptionTarget (the taint-eviction evidence); other conditions' messages go, and
      // so do the conditions of types no engine reads (Initialized, ContainersReady, PodReadyToStartContainers): three
      // of a running pod's five. The engines find a condition by its type, so the order of the others stays.
      s.conditions = (status.conditions as Obj[])
        .filter((c) => !POD_CONDITIONS_UNREAD.has(c?.type as string))
        .map((c) => {
          const kept = pick(
            c,
            c?.type === 'DisruptionTarget' ? ['type', 'status', 'reason', 'message', 'lastTransitionTime'] : ['type', 'status', 'reason', 'lastTransitionTime'],
          )!
          for (const k of ['type', 'status', 'reason', 'lastTransitionTime']) if (kept[k] !== undefined) kept[k] = intern.s(kept[k])
          return kept
        })
    }
    const cs = pickEach(status.containerStatuses, ['name', 'restartCount'])
    if (cs) s.containerStatuses = intern.same(cs)
    const ics = pickEach(status.initContainerStatuses, ['name', 'restartCount'])
    if (ics) s.initContainerStatuses = intern.same(ics)
    podStatus = s
  }
  // Each shape as one literal, for the same reason as in projectMeta: five keys added one by one would put the fifth apart.
  const apiVersion = intern.s(o.apiVersion)
  const kind = intern.s(o.kind)
  const out: KubeObject =
    podSpec && podStatus
      ? {apiVersion, kind, metadata: meta, spec: podSpec, status: podStatus}
      : podSpec
        ? {apiVersion, kind, metadata: meta, spec: podSpec}
        : podStatus
          ? {apiVersion, kind, metadata: meta, status: podStatus}
          : {apiVersion, kind, metadata: meta}
  return made(out, 'pod')
}

/** A node without its image list and addresses (the node lifecycle replay reads conditions, taints, labels). */
export function projectNode(o: KubeObject): KubeObject {
  if (projected.get(o) === 'node') return o
  const status = o.status as Obj | undefined
  return made(
    {
      apiVersion: o.apiVersion,
      kind: o.kind,
      metadata: projectMeta(o.metadata),
      spec: o.spec,
      ...(status ? {status: pick(status, ['conditions', 'phase'])} : {}),
    },
    'node',
  )
}

/** Any other object: whole, without managedFields and the last-applied annotation. */
export function projectObject(o: KubeObject): KubeObject {
  if (projected.get(o) === 'object') return o
  const out: KubeObject = {...o}
  out.metadata = projectMeta(o.metadata)
  return made(out, 'object')
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

/**
 * A metadata-only item as the collector's graph holds it (slimObject: name, namespace, uid, resourceVersion,
 * deletionTimestamp, finalizers, ownerReferences), so that the gc check adds it to its graph as it is. The other check
 * that reads metadata only (replicas: whether a Namespace is terminating) reads deletionTimestamp.
 */
export function projectMetadataOnly(o: KubeObject, intern = new Interner(), keep: {labels?: boolean; creationTimestamp?: boolean} = {}): KubeObject {
  const slim = slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, {apiVersion: o.apiVersion ?? '', kind: o.kind ?? ''})
  if (!slim) return {apiVersion: o.apiVersion, kind: o.kind, metadata: projectMeta(o.metadata)}
  // -l and --sort age read what the collector does not: kept only when asked for.
  const meta = slim.metadata as Record<string, unknown>
  if (keep.labels && o.metadata?.labels) meta.labels = intern.same(o.metadata.labels)
  if (keep.creationTimestamp && o.metadata?.creationTimestamp) meta.creationTimestamp = o.metadata.creationTimestamp
  slim.apiVersion = intern.s(slim.apiVersion)
  slim.kind = intern.s(slim.kind)
  if (slim.metadata.namespace) slim.metadata.namespace = intern.s(slim.metadata.namespace)
  if (slim.metadata.ownerReferences) slim.metadata.ownerReferences = intern.same(slim.metadata.ownerReferences)
  return slim as unknown as KubeObject
}

/**
 * A ReplicaSet as the ReplicaSet replay reads it: the pod template's labels, not its spec (the largest part). The hash
 * check, when it runs, recomputes pod-template-hash from the whole template and gets the whole object.
 */
export function projectReplicaSet(o: KubeObject): KubeObject {
  if (projected.get(o) === 'replicaset') return o
  const spec = o.spec as Obj | undefined
  const template = spec?.template as Obj | undefined
  // A copy, not projectObject's answer: that one may be the caller's own object, passed through.
  const out: KubeObject = {...o, metadata: projectMeta(o.metadata)}
  if (spec && template) out.spec = {...spec, template: template.metadata === undefined ? {} : {metadata: template.metadata}}
  return made(out, 'replicaset')
}

/** The projection of a list's items, from its kind, whether it is metadata-only and which checks read it. */
export function projector(
  kindKey: string,
  metadataOnly: boolean,
  checks: readonly string[] = [],
  intern = new Interner(),
  keep: {labels?: boolean; creationTimestamp?: boolean} = {},
): (o: KubeObject) => KubeObject {
  if (metadataOnly) return (o) => projectMetadataOnly(o, intern, keep)
  if (kindKey === '/pods') return (o) => projectPod(o, intern)
  if (kindKey === '/nodes') return projectNode
  if (kindKey === 'apps/replicasets' && !checks.includes('hash')) return projectReplicaSet
  return projectObject
}
