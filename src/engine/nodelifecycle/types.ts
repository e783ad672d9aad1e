// The slices of Node, Lease and Pod the node lifecycle replay reads, and the settings it runs with.
// Objects arrive as the API returns them; only the fields named here are read.
import type {Taint} from '../../cluster/kube-types.js'

export type {Taint}

export type ConditionStatus = 'True' | 'False' | 'Unknown' | string

export interface NodeCondition {
  type: string
  status: ConditionStatus
  reason?: string
  message?: string
  lastHeartbeatTime?: string | null
  lastTransitionTime?: string | null
}

export interface NodeLike {
  apiVersion?: string
  kind?: string
  metadata?: {
    name?: string
    uid?: string
    resourceVersion?: string
    creationTimestamp?: string | null
    labels?: Record<string, string>
    [k: string]: unknown
  }
  spec?: {taints?: Taint[] | null; unschedulable?: boolean; [k: string]: unknown}
  status?: {conditions?: NodeCondition[] | null; [k: string]: unknown}
  [k: string]: unknown
}

export interface LeaseLike {
  metadata?: {name?: string; namespace?: string; resourceVersion?: string; [k: string]: unknown}
  spec?: {holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string | null; [k: string]: unknown}
  [k: string]: unknown
}

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption'

/** Durations in milliseconds, rates in tokens per second: the kube-controller-manager values in force. */
export interface NodeLifecycleSettings {
  nodeMonitorPeriod: number
  nodeMonitorGracePeriod: number
  nodeStartupGracePeriod: number
  nodeEvictionRate: number
  secondaryNodeEvictionRate: number
  largeClusterSizeThreshold: number
  unhealthyZoneThreshold: number
  /** NodeControllerLeaseCircuitBreaker gate. */
  leaseCircuitBreaker: boolean
  /** Whether NoExecute taints are enforced at all (taint-eviction-controller running, or the inline taint manager of older releases). */
  taintEvictionEnabled: boolean
  /** Whether node-lifecycle-controller runs at all. */
  nodeLifecycleEnabled: boolean
  /**
   * processTaintBaseEviction is handed the Ready condition after this pass's own Unknown write (newest stored
   * copy) rather than the one observed before it (older copies): the older form taints one monitor period later.
   */
  taintOnCurrentReady: boolean
  /** TaintTolerationComparisonOperators gate: Lt/Gt tolerations match only with it on (alpha 1.35, off by default). */
  taintTolerationComparisonOperators: boolean
}

/** Upstream's own defaults for the newest release modelled; the test harness constants differ (see test files). */
export const NEWEST_DEFAULTS: NodeLifecycleSettings = {
  nodeMonitorPeriod: 5_000,
  nodeMonitorGracePeriod: 50_000,
  nodeStartupGracePeriod: 60_000,
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
  leaseCircuitBreaker: true,
  taintEvictionEnabled: true,
  nodeLifecycleEnabled: true,
  taintOnCurrentReady: true,
  taintTolerationComparisonOperators: false,
}

/**
 * The controller's deep copy of a node, limited to what the node lifecycle controller reads or writes
 * (metadata, taints, unschedulable, conditions): copying whole Node objects (images, volumes) dominates a
 * 5,000-node pass otherwise.
 */
export function copyNode(n: NodeLike): NodeLike {
  const m = n.metadata ?? {}
  return {
    apiVersion: n.apiVersion,
    kind: n.kind,
    metadata: {
      name: m.name,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
      labels: m.labels ? {...m.labels} : undefined,
    },
    spec: {taints: n.spec?.taints ? n.spec.taints.map((t) => ({...t})) : undefined, unschedulable: n.spec?.unschedulable},
    status: {conditions: n.status?.conditions ? n.status.conditions.map((c) => ({...c})) : n.status?.conditions},
  }
}
