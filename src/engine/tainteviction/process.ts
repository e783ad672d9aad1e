// processPodOnNode (pkg/controller/tainteviction/taint_eviction.go@5ce22905:452-491) and when its timer fires.
import {parseMillis} from '../nodelifecycle/time.js'
import {getMatchingTolerations, getMinTolerationTime, type TaintMatch} from './toleration.js'
import type {PodLike, Taint, Toleration} from './types.js'

export type PodDecision =
  | {kind: 'noTaints'}
  /** Some taint has no tolerating toleration: deleted at once. */
  | {kind: 'notAllTolerated'; matches: TaintMatch[]}
  /** Every first-match toleration lacks tolerationSeconds: any pending deletion is cancelled, the pod stays. */
  | {kind: 'forever'; matches: TaintMatch[]}
  /** Deleted min after the controller first saw it (min 0: at once). */
  | {kind: 'timed'; matches: TaintMatch[]; minMs: number}

/** The decision for the pod against the node's NoExecute taints (in the node's order). */
export function processPodOnNode(taints: readonly Taint[], tolerations: readonly Toleration[]): PodDecision {
  // Upstream cancels on an empty list before matching; matching nothing would otherwise give "minimum 0".
  if (taints.length === 0) return {kind: 'noTaints'}
  const {allTolerated, matches} = getMatchingTolerations(taints, tolerations)
  if (!allTolerated) return {kind: 'notAllTolerated', matches}
  const minMs = getMinTolerationTime(matches.map((m) => m.toleration!))
  if (minMs < 0) return {kind: 'forever', matches}
  return {kind: 'timed', matches, minMs}
}

export interface EvictionTiming {
  /** When the taint-eviction controller first saw the pod with a taint set it does not tolerate forever (estimate). */
  seenAt: number
  seenFrom: string
  deadline: number
  /** The minimum in force when the timer was armed: later changes do not move a running timer. */
  minMs: number
  immediate: boolean
  confidence: 'likely' | 'possible'
}

/** When the pod was bound to its node: the PodScheduled transition, else its creation. */
export function bindTime(pod: PodLike): number | undefined {
  const scheduled = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled' && c.status === 'True')
  return parseMillis(scheduled?.lastTransitionTime, 'PodScheduled lastTransitionTime') ?? parseMillis(pod.metadata?.creationTimestamp, 'pod creationTimestamp')
}

/**
 * The controller's timer starts at its own clock when it first processes the pod with a finitely tolerated (or
 * untolerated) taint set, not at the taint's timeAdded; offline the best stand-in is the later of the pod's
 * bind time and the timeAdded of the taints present then. The taints are replayed in timeAdded order: the first
 * instant at which the decision is not "forever" arms the timer with the minimum of that moment; a later
 * untolerated taint deletes at once; later tolerationSeconds changes do not move it (TestUpdatePod "lengthening
 * toleration shouldn't work").
 */
export function estimateEvictionTime(pod: PodLike, taints: readonly Taint[], tolerations: readonly Toleration[]): EvictionTiming | undefined {
  const bound = bindTime(pod)
  const added = taints.map((t) => parseMillis(t.timeAdded, `taint ${t.key} timeAdded`))
  // A taint without timeAdded is taken to have been there when the pod was bound.
  const effective = added.map((a) => Math.max(a ?? bound ?? 0, bound ?? 0))
  const unknownTime = added.some((a) => a === undefined)
  let timing: EvictionTiming | undefined
  for (const at of [...new Set(effective)].sort((a, b) => a - b)) {
    const present = taints.filter((_, i) => effective[i] <= at)
    const arriving = taints.filter((_, i) => effective[i] === at && added[i] !== undefined && added[i]! >= (bound ?? 0))
    const from = arriving.length > 0
      ? `timeAdded of ${arriving.map((t) => `${t.key}:${t.effect}`).join(', ')}`
      : 'the pod was bound to an already tainted node (its PodScheduled time)'
    const d = processPodOnNode(present, tolerations)
    if (d.kind === 'notAllTolerated') {
      if (!timing || at < timing.deadline) timing = {seenAt: at, seenFrom: from, deadline: at, minMs: 0, immediate: true, confidence: unknownTime ? 'possible' : 'likely'}
      break
    }
    if (d.kind === 'timed' && !timing) {
      timing = {seenAt: at, seenFrom: from, deadline: at + d.minMs, minMs: d.minMs, immediate: d.minMs <= 0, confidence: unknownTime ? 'possible' : 'likely'}
    }
  }
  return timing
}
