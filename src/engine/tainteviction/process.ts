// processPodOnNode (pkg/controller/tainteviction/taint_eviction.go@5ce22905:452-491) and when its timer fires.
import {parseMillis} from '../nodelifecycle/time.js'
import {getMinTolerationTime} from './toleration.js'
import {GATE_DEFAULTS, getMatchingTolerations, type MatchOptions, type TaintMatch} from '../../component-helpers/tolerations.js'
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
export function processPodOnNode(taints: readonly Taint[], tolerations: readonly Toleration[], options: MatchOptions = GATE_DEFAULTS): PodDecision {
  // Upstream cancels on an empty list before matching; matching nothing would otherwise give "minimum 0".
  if (taints.length === 0) return {kind: 'noTaints'}
  const {allTolerated, matches} = getMatchingTolerations(taints, tolerations, options)
  if (!allTolerated) return {kind: 'notAllTolerated', matches}
  const minMs = getMinTolerationTime(matches.map((m) => m.toleration!))
  if (minMs < 0) return {kind: 'forever', matches}
  return {kind: 'timed', matches, minMs}
}

export interface EvictionTiming {
  /** When the taint-eviction controller armed the timer that decides (or deleted at once): an estimate. */
  seenAt: number
  seenFrom: string
  /** When the pod is (was) deleted: the timer's fire time, or seenAt when deleted at once. */
  deadline: number
  /** The minimum in force when the timer was armed: later changes do not move a running timer. */
  minMs: number
  /** Deleted at once (not all taints tolerated, or a minimum ≤ 0 with no timer running). */
  immediate: boolean
  confidence: 'likely' | 'possible'
  /** What the controller did at each instant a taint set reached it, oldest first. */
  history: TimerEvent[]
}

export interface TimerEvent {
  at: number
  taints: string[]
  /** armed: a new timer; kept: the running timer stands; deleteNow: AddWork(now, now); cancelled: forever; fired: the timer went off first. */
  action: 'armed' | 'kept' | 'deleteNow' | 'cancelled' | 'fired'
  minMs?: number
}

/** When the pod was bound to its node: the PodScheduled transition, else its creation. */
export function bindTime(pod: PodLike): number | undefined {
  const scheduled = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled' && c.status === 'True')
  return parseMillis(scheduled?.lastTransitionTime, 'PodScheduled lastTransitionTime') ?? parseMillis(pod.metadata?.creationTimestamp, 'pod creationTimestamp')
}

const tk = (t: Taint) => `${t.key}:${t.effect}`

/**
 * The controller's timer, replayed over the taints in the order they reached it. Its clock starts when it first
 * processes the pod with a taint set, not at the taint's timeAdded; offline the best stand-in for each arrival is
 * the later of the pod's bind time and the taint's timeAdded (a taint without one: the bind time).
 *
 * At each arrival, processPodOnNode (taint_eviction.go@5ce22905:452-491) over the taints present then:
 * - a timer armed earlier whose fire time is not after this arrival has fired already: the pod was deleted then
 *   (equal instants: the timer is taken to fire first);
 * - not all tolerated → cancel and AddWork(now, now): deleted at once;
 * - getMinTolerationTime (:161-183) < 0 → forever: cancel the running timer;
 * - otherwise trigger = now + min; a running timer whose CreatedAt + min is Before trigger stands (an earlier
 *   arrival always: lengthening or shortening, even to 0, does not move it); else AddWork(now, trigger), which with
 *   a delay ≤ 0 deletes at once (timed_workers.go@008b3652:92-95).
 */
export function estimateEvictionTime(
  pod: PodLike,
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  options: MatchOptions = GATE_DEFAULTS,
): EvictionTiming | undefined {
  const bound = bindTime(pod)
  const added = taints.map((t) => parseMillis(t.timeAdded, `taint ${t.key} timeAdded`))
  const effective = added.map((a) => Math.max(a ?? bound ?? 0, bound ?? 0))
  const confidence = added.some((a) => a === undefined) ? 'possible' : 'likely'
  const history: TimerEvent[] = []
  let worker: {createdAt: number; fireAt: number; minMs: number; from: string} | undefined
  for (const at of [...new Set(effective)].sort((a, b) => a - b)) {
    const present = taints.filter((_, i) => effective[i] <= at)
    const arriving = taints.filter((_, i) => effective[i] === at && added[i] !== undefined && added[i]! >= (bound ?? 0))
    const from = arriving.length > 0 ? `timeAdded of ${arriving.map(tk).join(', ')}` : 'the pod was bound to an already tainted node (its PodScheduled time)'
    if (worker && worker.fireAt <= at) {
      history.push({at: worker.fireAt, taints: [], action: 'fired', minMs: worker.minMs})
      return {seenAt: worker.createdAt, seenFrom: worker.from, deadline: worker.fireAt, minMs: worker.minMs, immediate: false, confidence, history}
    }
    const d = processPodOnNode(present, tolerations, options)
    const names = present.map(tk)
    if (d.kind === 'notAllTolerated') {
      history.push({at, taints: names, action: 'deleteNow'})
      return {seenAt: at, seenFrom: from, deadline: at, minMs: 0, immediate: true, confidence, history}
    }
    if (d.kind === 'forever' || d.kind === 'noTaints') {
      history.push({at, taints: names, action: 'cancelled'})
      worker = undefined
      continue
    }
    if (worker && worker.createdAt + d.minMs < at + d.minMs) {
      history.push({at, taints: names, action: 'kept', minMs: d.minMs})
      continue
    }
    const createdAt = worker?.createdAt ?? at
    if (at + d.minMs - createdAt <= 0) {
      history.push({at, taints: names, action: 'deleteNow', minMs: d.minMs})
      return {seenAt: at, seenFrom: from, deadline: at, minMs: d.minMs, immediate: true, confidence, history}
    }
    history.push({at, taints: names, action: 'armed', minMs: d.minMs})
    worker = {createdAt, fireAt: at + d.minMs, minMs: d.minMs, from}
  }
  if (!worker) return undefined
  return {seenAt: worker.createdAt, seenFrom: worker.from, deadline: worker.fireAt, minMs: worker.minMs, immediate: false, confidence, history}
}
