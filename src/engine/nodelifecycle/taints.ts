// The taints the node lifecycle controller owns (nlc.go:72-116) and the list helpers it uses
// (pkg/util/taints/taints.go AddOrUpdateTaint / TaintExists; controller_utils.go SwapNodeControllerTaint).
import type {NodeLike, Taint} from './types.js'

export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable'
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready'
export const UNREACHABLE_NO_EXECUTE: Taint = {key: TAINT_UNREACHABLE, effect: 'NoExecute'}
export const NOT_READY_NO_EXECUTE: Taint = {key: TAINT_NOT_READY, effect: 'NoExecute'}

/** nodeConditionToTaintKeyStatusMap: condition → status → NoSchedule taint key. */
export const CONDITION_TO_NO_SCHEDULE_TAINT: Record<string, Record<string, string>> = {
  Ready: {False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE},
  MemoryPressure: {True: 'node.kubernetes.io/memory-pressure'},
  DiskPressure: {True: 'node.kubernetes.io/disk-pressure'},
  NetworkUnavailable: {True: 'node.kubernetes.io/network-unavailable'},
  PIDPressure: {True: 'node.kubernetes.io/pid-pressure'},
}
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable'

const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TO_NO_SCHEDULE_TAINT).flatMap((m) => Object.values(m)))

/** MatchTaint: the same key and effect. */
export function taintMatches(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect
}

export function taintExists(taints: readonly Taint[] | null | undefined, template: Taint): boolean {
  return (taints ?? []).some((t) => taintMatches(t, template))
}

export function findTaint(taints: readonly Taint[] | null | undefined, template: Taint): Taint | undefined {
  return (taints ?? []).find((t) => taintMatches(t, template))
}

function semanticallyEqual(a: Taint, b: Taint): boolean {
  const time = (t: Taint) => (t.timeAdded ? Date.parse(t.timeAdded) : undefined)
  return a.key === b.key && (a.value ?? '') === (b.value ?? '') && a.effect === b.effect && time(a) === time(b)
}

/** AddOrUpdateTaint: a taint with the same key and effect that is not semantically equal is replaced in place. */
export function addOrUpdateTaint(taints: readonly Taint[], taint: Taint): Taint[] {
  const out: Taint[] = []
  let replaced = false
  for (const t of taints) {
    if (taintMatches(t, taint)) {
      out.push(semanticallyEqual(t, taint) ? t : taint)
      replaced = true
    } else out.push(t)
  }
  if (!replaced) out.push(taint)
  return out
}

export function removeTaint(taints: readonly Taint[], template: Taint): Taint[] {
  return taints.filter((t) => !taintMatches(t, template))
}

/** SwapNodeControllerTaint: every added taint is stamped with the controller's clock, then the others are removed. */
export function swapNodeControllerTaint(node: NodeLike, add: readonly Taint[], remove: readonly Taint[], nowIso: string): void {
  let taints = [...(node.spec?.taints ?? [])]
  for (const t of add) taints = addOrUpdateTaint(taints, {...t, timeAdded: nowIso})
  for (const t of remove) taints = removeTaint(taints, t)
  node.spec = {...(node.spec ?? {}), taints}
}

/** doNoScheduleTaintingPass's desired set: condition-derived NoSchedule taints, plus unschedulable. */
export function desiredNoScheduleTaints(node: NodeLike): Taint[] {
  const out: Taint[] = []
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TO_NO_SCHEDULE_TAINT[c.type]?.[c.status]
    if (key) out.push({key, effect: 'NoSchedule'})
  }
  if (node.spec?.unschedulable) out.push({key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule'})
  return out
}

/** The node's NoSchedule taints that doNoScheduleTaintingPass owns (condition keys and unschedulable). */
export function ownedNoScheduleTaints(node: NodeLike): Taint[] {
  return (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && (t.key === TAINT_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)))
}

/** TaintSetDiff by key+effect: what to add and what to remove so that `current` becomes `desired`. */
export function noScheduleDiff(node: NodeLike): {add: Taint[]; remove: Taint[]} {
  const desired = desiredNoScheduleTaints(node)
  const current = ownedNoScheduleTaints(node)
  return {
    add: desired.filter((d) => !current.some((c) => taintMatches(c, d))),
    remove: current.filter((c) => !desired.some((d) => taintMatches(c, d))),
  }
}

export function noExecuteTaints(node: NodeLike): Taint[] {
  return (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute')
}
