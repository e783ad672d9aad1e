// Pod predicates the controller uses (pkg/controller/controller_utils.go, pkg/api/v1/pod/util.go).
import type {Instant, Pod} from './types.js'
import {instant} from './time.js'

export function phaseOf(pod: Pod): string {
  return pod.status?.phase ?? ''
}

/** IsPodActive (controller_utils.go:1085): not Succeeded, not Failed, no deletionTimestamp. An empty phase is active. */
export function isPodActive(pod: Pod): boolean {
  const phase = phaseOf(pod)
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp
}

/** podutil.IsPodTerminal: Succeeded or Failed. */
export function isPodTerminal(pod: Pod): boolean {
  const phase = phaseOf(pod)
  return phase === 'Succeeded' || phase === 'Failed'
}

/** IsPodTerminating (controller_utils.go:1091): a deletionTimestamp and not terminal. */
export function isPodTerminating(pod: Pod): boolean {
  return !isPodTerminal(pod) && Boolean(pod.metadata.deletionTimestamp)
}

/** GetPodReadyCondition: the first condition of type Ready. */
function readyCondition(pod: Pod) {
  return (pod.status?.conditions ?? []).find((c) => c?.type === 'Ready')
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True'
}

/** podReadyTime (controller_utils.go): the Ready=True condition's lastTransitionTime, zero otherwise. */
export function podReadyTime(pod: Pod): Instant {
  if (!isPodReady(pod)) return null
  const c = (pod.status?.conditions ?? []).find((x) => x?.type === 'Ready' && x.status === 'True')
  return instant(c?.lastTransitionTime)
}

/**
 * podutil.IsPodAvailable: Ready, and either minReadySeconds is 0 or the Ready condition's
 * lastTransitionTime + minReadySeconds is before now.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false
  if (minReadySeconds === 0) return true
  const t = instant(readyCondition(pod)?.lastTransitionTime)
  return t !== null && t + minReadySeconds * 1000 < now
}

/** controller.PodKey: "namespace/name", the key UID-tracking expectations store (despite the name). */
export function podKey(pod: {metadata: {namespace?: string; name: string}}): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name}`
}

/** Numbers from the API may arrive as bigint (int64); restart counts and replicas fit a double. */
export function num(value: unknown, fallback = 0): number {
  if (typeof value === 'number') return value
  if (typeof value === 'bigint') return Number(value)
  return fallback
}
