// Where a pod's NoExecute tolerations come from: the DefaultTolerationSeconds admission plugin
// (plugin/pkg/admission/defaulttolerationseconds/admission.go@aed80471) and the DaemonSet controller
// (pkg/controller/daemon/util/daemonset_util.go@05c351a9 AddOrUpdateDaemonPodTolerations).
import {TAINT_NOT_READY, TAINT_UNREACHABLE} from '../nodelifecycle/taints.js'
import type {PodLike, Toleration} from './types.js'

/** kube-apiserver --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds. */
export const DEFAULT_TOLERATION_SECONDS = 300

/**
 * The admission plugin on pod CREATE/UPDATE: a not-ready (then an unreachable) NoExecute toleration is appended
 * unless an existing one has that key or an empty key, and effect NoExecute or empty. Operator and value of the
 * existing ones are not looked at.
 */
export function admitDefaultTolerationSeconds(
  tolerations: readonly Toleration[],
  notReadySeconds = DEFAULT_TOLERATION_SECONDS,
  unreachableSeconds = DEFAULT_TOLERATION_SECONDS,
): Toleration[] {
  const covers = (key: string) => tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect))
  const out = [...tolerations]
  if (!covers(TAINT_NOT_READY)) out.push({key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds})
  if (!covers(TAINT_UNREACHABLE)) out.push({key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachableSeconds})
  return out
}

export function isDaemonSetPod(pod: PodLike): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet' && o.controller === true)
}

export type TolerationOrigin = 'admissionDefault' | 'daemonSet' | 'podSpec'

/**
 * The likely origin of a toleration, from its signature: Exists + NoExecute on not-ready/unreachable with
 * 300 s is what the admission plugin appends; the same without seconds on a DaemonSet pod is what the DaemonSet
 * controller adds. A user could write either by hand, so this is an inference.
 */
export function tolerationOrigin(t: Toleration, pod: PodLike, defaultSeconds = DEFAULT_TOLERATION_SECONDS): TolerationOrigin {
  const nodeKey = t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE
  const shape = nodeKey && t.operator === 'Exists' && t.effect === 'NoExecute' && !t.value
  if (shape && (t.tolerationSeconds === undefined || t.tolerationSeconds === null) && isDaemonSetPod(pod)) return 'daemonSet'
  if (shape && t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && Number(t.tolerationSeconds) === defaultSeconds) return 'admissionDefault'
  return 'podSpec'
}

export function describeOrigin(origin: TolerationOrigin): string {
  switch (origin) {
    case 'admissionDefault':
      return 'added by the DefaultTolerationSeconds admission plugin (kube-apiserver default 300 s) because the pod had no such toleration'
    case 'daemonSet':
      return 'added by the DaemonSet controller with no tolerationSeconds: tolerated forever, so DaemonSet pods stay on failed nodes'
    default:
      return 'from the pod spec'
  }
}
