// What the audit keeps of each listed object: the fields the engines read, nothing else, so that 150,000 pods fit
// in memory next to the garbage collector's graph. The engines' input types (engine/replicaset/types.ts,
// engine/tainteviction/types.ts, engine/nodelifecycle/types.ts) name every field they read; these projections keep
// exactly those. managedFields and the last-applied annotation (often the largest parts of an object) never are.
import type {KubeObject, ObjectMeta} from '../cluster/source.js'
import {isControllerManagerPod} from '../settings/kcm.js'

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'
/** The only pod annotation an engine reads (ranking.ts deletionCost). */
const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost'

type Obj = Record<string, unknown>

/** metadata without managedFields and the last-applied annotation; `annotations` limits which are kept. */
export function projectMeta(m: ObjectMeta | undefined, annotations?: readonly string[]): ObjectMeta {
  if (!m) return {}
  const out: ObjectMeta = {}
  for (const k of Object.keys(m)) {
    if (k === 'managedFields' || k === 'annotations') continue
    out[k] = m[k]
  }
  if (m.annotations) {
    let kept: Record<string, string> | undefined
    for (const [k, v] of Object.entries(m.annotations)) {
      if (k === LAST_APPLIED || (annotations && !annotations.includes(k))) continue
      ;(kept ??= {})[k] = v
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
export function projectPod(o: KubeObject): KubeObject {
  if (o.metadata?.namespace === 'kube-system' && isControllerManagerPod(o)) return projectObject(o)
  const spec = o.spec as Obj | undefined
  const status = o.status as Obj | undefined
  const out: KubeObject = {apiVersion: o.apiVersion, kind: o.kind, metadata: projectMeta(o.metadata, [POD_DELETION_COST])}
  if (spec) {
    const s: Obj = {}
    if (spec.nodeName !== undefined) s.nodeName = spec.nodeName
    if (spec.tolerations !== undefined) s.tolerations = spec.tolerations
    const init = pickEach(spec.initContainers, ['name', 'restartPolicy'])
    if (init) s.initContainers = init
    out.spec = s
  }
  if (status) {
    const s: Obj = {}
    if (status.phase !== undefined) s.phase = status.phase
    if (Array.isArray(status.conditions)) {
      // The message is read only on DisruptionTarget (the taint-eviction evidence); other conditions' messages go.
      s.conditions = (status.conditions as Obj[]).map((c) => pick(c, c?.type === 'DisruptionTarget' ? ['type', 'status', 'reason', 'message', 'lastTransitionTime'] : ['type', 'status', 'reason', 'lastTransitionTime']))
    }
    const cs = pickEach(status.containerStatuses, ['name', 'restartCount'])
    if (cs) s.containerStatuses = cs
    const ics = pickEach(status.initContainerStatuses, ['name', 'restartCount'])
    if (ics) s.initContainerStatuses = ics
    out.status = s
  }
  return out
}

/** A node without its image list and addresses (the node lifecycle replay reads conditions, taints, labels). */
export function projectNode(o: KubeObject): KubeObject {
  const status = o.status as Obj | undefined
  return {apiVersion: o.apiVersion, kind: o.kind, metadata: projectMeta(o.metadata), spec: o.spec,
    ...(status ? {status: pick(status, ['conditions', 'phase'])} : {})}
}

/** Any other object: whole, without managedFields and the last-applied annotation. */
export function projectObject(o: KubeObject): KubeObject {
  const out: KubeObject = {...o}
  out.metadata = projectMeta(o.metadata)
  return out
}

/** A metadata-only item: apiVersion, kind and the metadata the collector reads. */
export function projectMetadataOnly(o: KubeObject): KubeObject {
  return {apiVersion: o.apiVersion, kind: o.kind, metadata: projectMeta(o.metadata)}
}

export function projector(kindKey: string, metadataOnly: boolean): (o: KubeObject) => KubeObject {
  if (metadataOnly) return projectMetadataOnly
  if (kindKey === '/pods') return projectPod
  if (kindKey === '/nodes') return projectNode
  return projectObject
}
