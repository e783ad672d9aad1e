// FilterActivePods, FilterTerminatingPods and FilterClaimedPods (pkg/controller/controller_utils.go:986-1011).
import {isPodActive, isPodTerminating} from './pod-util.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import type {Selector} from '../../apimachinery/labels.js'
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
