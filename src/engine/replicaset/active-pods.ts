// FilterActivePods, FilterTerminatingPods and FilterClaimedPods (pkg/controller/controller_utils.go:986-1011).
import {getControllerOf, isPodActive, isPodTerminating} from './pod-util.js'
import type {Selector} from './selector.js'
import type {Pod} from './types.js'

export function filterActivePods(pods: readonly Pod[]): Pod[] {
  return pods.filter(isPodActive)
}

export function filterTerminatingPods(pods: readonly Pod[]): Pod[] {
  return pods.filter(isPodTerminating)
}

/** FilterClaimedPods: controlled by this controller (metav1.IsControlledBy compares UIDs) and matching the selector. */
export function filterClaimedPods(controllerUid: string, selector: Selector, pods: readonly Pod[]): Pod[] {
  return pods.filter((p) => getControllerOf(p)?.uid === controllerUid && selector(p.metadata.labels))
}
