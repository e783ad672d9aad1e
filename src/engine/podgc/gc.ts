// PodGC, replayed for one pod (pkg/controller/podgc/gc_controller.go; decision spec evictions.md §7): which of its
// four passes, if any, force-deletes the pod — gcTerminated (more terminated pods than
// --terminated-pod-gc-threshold: the evicted first, then the oldest), gcTerminating (terminating on a NotReady node
// with the node.kubernetes.io/out-of-service taint), gcOrphaned (bound to a node that no longer exists, after the
// 40 s quarantine), gcUnscheduledTerminating (terminating and never bound). Pure: a usable function for `evicted`
// and for `gc` alike.

export const PODGC = 'pkg/controller/podgc/gc_controller.go'
/** --terminated-pod-gc-threshold's default (kube-controller-manager PodGCControllerConfiguration). */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12500
/** quarantineTime: a missing node is re-checked with a live GET after 40 s before its pods go. */
export const QUARANTINE_MS = 40_000
/** gcCheckPeriod. */
export const GC_CHECK_PERIOD_MS = 20_000
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service'

export interface GcPod {
  metadata?: {name?: string; namespace?: string; creationTimestamp?: string | null; deletionTimestamp?: string | null; finalizers?: string[] | null}
  spec?: {nodeName?: string | null}
  status?: {phase?: string; reason?: string}
}

export interface GcNode {
  metadata?: {name?: string}
  spec?: {taints?: {key: string; effect?: string}[] | null}
  status?: {conditions?: {type: string; status: string}[] | null}
}

export interface PodGcInput {
  pod: GcPod
  /** Every node the data holds; nodesComplete says whether absence proves the node gone. */
  nodes: readonly GcNode[]
  nodesComplete: boolean
  /** Every pod of the cluster (gcTerminated counts cluster-wide); podsComplete false when only a namespace was read. */
  allPods: readonly GcPod[]
  podsComplete: boolean
  threshold?: number
  /** Where the threshold comes from (the controller-manager's pod, or why the default applies), said in the answer. */
  thresholdFrom?: string
}

export type PodGcPass = 'gcTerminated' | 'gcTerminating' | 'gcOrphaned' | 'gcUnscheduledTerminating'

export interface PodGcDecision {
  action: 'willDelete' | 'none' | 'unknown'
  pass?: PodGcPass
  why: string
  /** gcTerminated: the terminated count and the threshold. */
  terminated?: number
  threshold: number
  /** gcOrphaned sets DisruptionTarget DeletionByPodGC ("PodGC: node no longer exists") on non-terminal pods. */
  condition?: boolean
}

/** isPodTerminated: phase neither Pending, Running nor Unknown (an empty phase counts as terminated). */
export const isPodTerminated = (p: GcPod) => !['Pending', 'Running', 'Unknown'].includes(p.status?.phase ?? '')
/** PodIsEvicted: Failed with reason Evicted. */
const isEvicted = (p: GcPod) => p.status?.phase === 'Failed' && p.status?.reason === 'Evicted'

/** byEvictionAndCreationTimestamp: evicted first, then older creationTimestamp, then name. */
export function byEvictionAndCreationTimestamp(a: GcPod, b: GcPod): number {
  const ea = isEvicted(a)
  const eb = isEvicted(b)
  if (ea !== eb) return ea ? -1 : 1
  const ta = a.metadata?.creationTimestamp ?? ''
  const tb = b.metadata?.creationTimestamp ?? ''
  if (ta !== tb) return ta < tb ? -1 : 1
  const na = a.metadata?.name ?? ''
  const nb = b.metadata?.name ?? ''
  return na < nb ? -1 : na > nb ? 1 : 0
}

const same = (a: GcPod, b: GcPod) => a.metadata?.namespace === b.metadata?.namespace && a.metadata?.name === b.metadata?.name

/**
 * The passes in gc()'s order; the first that takes the pod decides. A pod already terminating that still holds
 * finalizers is not removed by PodGC's force delete (grace 0 only sets what deletionTimestamp already says): the
 * finalizers' holders decide, so the pass is reported with action none.
 */
export function podGcDecision(input: PodGcInput): PodGcDecision {
  const d = passOf(input)
  const finalizers = input.pod.metadata?.finalizers ?? []
  if (d.action === 'willDelete' && input.pod.metadata?.deletionTimestamp && finalizers.length > 0) {
    // markFailedAndDeletePodWithCondition (gc_controller.go@87966185) patches a non-terminal pod's phase to Failed
    // before the DELETE: that write is PodGC acting (it is what lets a Job controller take its tracking finalizer
    // off), even though the DELETE itself changes nothing while finalizers remain.
    if (!isPodTerminated(input.pod))
      return {
        ...d,
        why: `${d.why}; the pod holds finalizers ${finalizers.join(', ')}, so only the Failed phase takes effect now: the object stays until their holders remove them`,
      }
    return {
      ...d,
      action: 'none',
      why: `${d.why} — but the pod is already terminating, terminal, and holds finalizers ${finalizers.join(', ')}: the delete changes nothing until they are removed`,
    }
  }
  return d
}

function passOf(input: PodGcInput): PodGcDecision {
  const threshold = input.threshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD
  const from =
    input.threshold === undefined
      ? ` (${input.thresholdFrom ?? "the default: the controller-manager's flags are not in the data"})`
      : input.thresholdFrom
        ? ` (${input.thresholdFrom})`
        : ''
  const {pod} = input
  const nodeName = pod.spec?.nodeName ?? ''
  const node = nodeName ? input.nodes.find((n) => n.metadata?.name === nodeName) : undefined
  const terminating = !!pod.metadata?.deletionTimestamp
  if (threshold > 0 && isPodTerminated(pod)) {
    const terminated = input.allPods.filter(isPodTerminated).sort(byEvictionAndCreationTimestamp)
    const deleteCount = terminated.length - threshold
    if (deleteCount > 0 && terminated.slice(0, deleteCount).some((p) => same(p, pod)))
      return {
        // Proven even from part of the cluster's pods: each terminated pod the data lacks adds one to deleteCount and
        // takes at most one place before this one, so a pod among the first deleteCount here stays among them.
        action: 'willDelete',
        pass: 'gcTerminated',
        terminated: terminated.length,
        threshold,
        why: `${terminated.length} terminated pods > --terminated-pod-gc-threshold ${threshold}${from}: the ${deleteCount} first by byEvictionAndCreationTimestamp (evicted first, then oldest) are force-deleted, this one among them`,
      }
  }
  if (terminating && node) {
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'
    const oos = (node.spec?.taints ?? []).some((t) => t.key === OUT_OF_SERVICE_TAINT)
    if (!ready && oos)
      return {
        action: 'willDelete',
        pass: 'gcTerminating',
        threshold,
        why: `terminating on node ${nodeName}, which is not Ready and carries ${OUT_OF_SERVICE_TAINT}: marked Failed and force-deleted (grace 0)`,
      }
  }
  if (nodeName && !node) {
    if (!input.nodesComplete)
      return {
        action: 'unknown',
        pass: 'gcOrphaned',
        threshold,
        why: `node ${nodeName} is not in the data, but the data may not hold every node: not proof it is gone`,
      }
    return {
      action: 'willDelete',
      pass: 'gcOrphaned',
      threshold,
      condition: !isPodTerminated(pod),
      why: `node ${nodeName} no longer exists: after the ${QUARANTINE_MS / 1000} s quarantine and a live GET answering NotFound, the pod is ${isPodTerminated(pod) ? '' : 'given DisruptionTarget DeletionByPodGC, marked Failed and '}force-deleted`,
    }
  }
  if (terminating && !nodeName)
    return {action: 'willDelete', pass: 'gcUnscheduledTerminating', threshold, why: 'terminating and never bound to a node: marked Failed and force-deleted'}
  const terminatedCount = input.allPods.filter(isPodTerminated).length
  const over = terminatedCount - threshold
  if (threshold > 0 && isPodTerminated(pod) && over > 0)
    return {
      action: 'none',
      threshold,
      terminated: terminatedCount,
      why: `no PodGC pass takes it: ${terminatedCount} terminated pods > --terminated-pod-gc-threshold ${threshold}${from}, but it is not among the ${over} first by byEvictionAndCreationTimestamp (evicted first, then oldest)${input.podsComplete ? '' : ' (counted in the data read, not the whole cluster)'}`,
    }
  return {
    action: 'none',
    threshold,
    terminated: terminatedCount,
    why: `no PodGC pass takes it: ${isPodTerminated(pod) && threshold <= 0 ? `gcTerminated is off (--terminated-pod-gc-threshold ${threshold}${from})` : isPodTerminated(pod) ? `${terminatedCount} terminated pods ≤ --terminated-pod-gc-threshold ${threshold}${from}${input.podsComplete ? '' : ' (counted in the data read, not the whole cluster)'}` : 'not terminated'}, its node ${nodeName ? 'exists' : 'is unset'}${terminating ? ', and no out-of-service taint on a NotReady node' : ''}`,
  }
}
