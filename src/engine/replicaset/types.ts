// The shapes the ReplicaSet replay reads. Only the fields the upstream code reads are typed; everything
// arrives as plain API JSON (int64 may be bigint, timestamps are RFC 3339 strings or null).
import type {KubeObject, LabelSelector, LabelSelectorRequirement, ObjectMeta, OwnerReference, PodCondition} from '../../cluster/kube-types.js'

export type {LabelSelector, LabelSelectorRequirement, OwnerReference, PodCondition}

/** The verdicts of `kubectl why replicas`. */
export const VERDICTS = ['converged', 'willCreate', 'willDelete', 'waitingForExpectations', 'createsFailing', 'adoptionPending', 'beingDeleted'] as const
export type Verdict = (typeof VERDICTS)[number]

export interface ContainerStatus {
  name: string
  restartCount?: number | bigint
}

export interface Pod extends KubeObject {
  metadata: ObjectMeta & {name: string}
  spec?: {
    nodeName?: string
    initContainers?: {name: string; restartPolicy?: string}[] | null
    [field: string]: unknown
  }
  status?: {
    phase?: string
    conditions?: PodCondition[] | null
    containerStatuses?: ContainerStatus[] | null
    initContainerStatuses?: ContainerStatus[] | null
    [field: string]: unknown
  }
}

export interface ReplicaSetCondition {
  type: string
  status: string
  reason?: string
  message?: string
  lastTransitionTime?: string | null
}

export interface ReplicaSet extends KubeObject {
  metadata: ObjectMeta & {name: string; namespace?: string; uid?: string}
  spec?: {
    replicas?: number | bigint | null
    minReadySeconds?: number | bigint | null
    selector?: LabelSelector | null
    template?: {metadata?: {labels?: Record<string, string> | null}; [field: string]: unknown}
    [field: string]: unknown
  }
  status?: {
    replicas?: number | bigint
    fullyLabeledReplicas?: number | bigint
    readyReplicas?: number | bigint
    availableReplicas?: number | bigint
    terminatingReplicas?: number | bigint | null
    observedGeneration?: number | bigint
    conditions?: ReplicaSetCondition[] | null
    [field: string]: unknown
  }
}

/** A core/v1 Event (what the controller's legacy recorder writes). */
export interface CoreEvent extends KubeObject {
  involvedObject?: {kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string}
  reason?: string
  message?: string
  type?: string
  count?: number | bigint
  firstTimestamp?: string | null
  lastTimestamp?: string | null
  eventTime?: string | null
  series?: {count?: number | bigint; lastObservedTime?: string | null} | null
  source?: {component?: string; host?: string}
  reportingComponent?: string
}

/** A coordination.k8s.io/v1 Lease (the controller manager's leader election lock). */
export interface Lease extends KubeObject {
  spec?: {holderIdentity?: string | null; acquireTime?: string | null; renewTime?: string | null; leaseTransitions?: number | null}
}

/** Which ranking rules and status fields the evaluated control-plane version has. */
export interface ReplicaSetSettings {
  /** Kubernetes minor version whose rules apply, e.g. 31. */
  minor: number
  /** Feature gates relevant to this replay; absent ones take the version's default (see gates.ts). */
  gates?: Partial<Record<GateName, boolean>>
  /** --concurrent-replicaset-syncs is irrelevant here; burstReplicas is fixed at 500 in the KCM (BurstReplicas). */
}

export type GateName = 'PodDeletionCost' | 'LogarithmicScaleDown' | 'SidecarRestartRanking'

/** Milliseconds since the epoch; null stands for Go's zero time (absent or null timestamps). */
export type Instant = number | null
