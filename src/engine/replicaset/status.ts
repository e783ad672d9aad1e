// calculateStatus (pkg/controller/replicaset/replica_set_utils.go:96) and the comparison with what the
// ReplicaSet's status shows: a status that already matches the pods means the controller has synced
// since they reached this state.
import {REPLICA_FAILURE} from './constants.js'
import {isPodAvailable, isPodReady, num} from './pod-util.js'
import {setSelector} from '../../apimachinery/labels.js'
import type {Pod, ReplicaSet, ReplicaSetCondition} from './types.js'

export interface ComputedStatus {
  replicas: number
  fullyLabeledReplicas: number
  readyReplicas: number
  availableReplicas: number
  /** Claimed terminating pods (reported when the status carries the field, i.e. the gate is on). */
  terminatingReplicas: number
}

export function calculateStatus(rs: ReplicaSet, active: readonly Pod[], terminating: readonly Pod[], now: number): ComputedStatus {
  const templateSelector = setSelector(rs.spec?.template?.metadata?.labels)
  const minReadySeconds = num(rs.spec?.minReadySeconds)
  let fully = 0
  let ready = 0
  let available = 0
  for (const pod of active) {
    if (templateSelector(pod.metadata.labels)) fully++
    if (isPodReady(pod)) {
      ready++
      if (isPodAvailable(pod, minReadySeconds, now)) available++
    }
  }
  return {replicas: active.length, fullyLabeledReplicas: fully, readyReplicas: ready, availableReplicas: available, terminatingReplicas: terminating.length}
}

export function replicaFailure(rs: ReplicaSet): ReplicaSetCondition | undefined {
  return (rs.status?.conditions ?? []).find((c) => c?.type === REPLICA_FAILURE)
}

export interface StatusComparison {
  /** observedGeneration equals generation: the controller has seen the current spec. */
  generationObserved: boolean
  /** The recorded counts equal the ones computed from the pods now. */
  countsMatch: boolean
  mismatches: string[]
}

export function compareStatus(rs: ReplicaSet, computed: ComputedStatus): StatusComparison {
  const s = rs.status ?? {}
  const mismatches: string[] = []
  const check = (field: keyof ComputedStatus, recorded: unknown) => {
    if (recorded === undefined || recorded === null) {
      if (field === 'terminatingReplicas') return // nil: the gate is off, nothing to compare
      recorded = 0
    }
    if (num(recorded) !== computed[field]) mismatches.push(`${field} ${num(recorded)} → ${computed[field]}`)
  }
  check('replicas', s.replicas)
  check('fullyLabeledReplicas', s.fullyLabeledReplicas)
  check('readyReplicas', s.readyReplicas)
  check('availableReplicas', s.availableReplicas)
  check('terminatingReplicas', s.terminatingReplicas)
  const generation = rs.metadata.generation
  const generationObserved = generation === undefined || num(s.observedGeneration, -1) === num(generation)
  return {generationObserved, countsMatch: mismatches.length === 0, mismatches}
}

/**
 * nextPodAvailabilityCheck (controller_utils.go:1032): how long until a ready pod becomes available under
 * minReadySeconds; undefined when it is not ready, minReadySeconds ≤ 0, the transition time is zero, or it is
 * already available.
 */
export function nextPodAvailabilityCheck(pod: Pod, minReadySeconds: number, now: number): number | undefined {
  if (!isPodReady(pod) || minReadySeconds <= 0) return undefined
  const c = (pod.status?.conditions ?? []).find((x) => x?.type === 'Ready')
  const t = c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : Number.NaN
  if (Number.isNaN(t)) return undefined
  const next = t + minReadySeconds * 1000 - now
  return next > 0 ? next : undefined
}

/** findMinNextPodAvailabilitySimpleCheck: the soonest such check and its pod. */
export function findMinNextPodAvailabilitySimpleCheck(pods: readonly Pod[], minReadySeconds: number, now: number): {delay: number; pod: Pod} | undefined {
  let best: {delay: number; pod: Pod} | undefined
  for (const pod of pods) {
    const next = nextPodAvailabilityCheck(pod, minReadySeconds, now)
    if (next !== undefined && (best === undefined || next < best.delay)) best = {delay: next, pod}
  }
  return best
}

/**
 * FindMinNextPodAvailabilityCheck (controller_utils.go:1070): the requeue delay after a sync whose status
 * was evaluated at `statusEvaluatedAt`, recomputed for the earliest pod at `clockNow`; 0 when already past.
 */
export function findMinNextPodAvailabilityCheck(
  pods: readonly Pod[],
  minReadySeconds: number,
  statusEvaluatedAt: number,
  clockNow: number,
): number | undefined {
  const first = findMinNextPodAvailabilitySimpleCheck(pods, minReadySeconds, statusEvaluatedAt)
  if (first === undefined) return undefined
  return nextPodAvailabilityCheck(first.pod, minReadySeconds, clockNow) ?? 0
}
