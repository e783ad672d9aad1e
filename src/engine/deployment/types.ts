// The objects the workload hash replays read, as the API server returns them (only the fields used).
import type {KubeObject, LabelSelector, LabelSelectorRequirement, ObjectMeta, OwnerReference} from '../../cluster/kube-types.js'
import type {Explanation, SourceDescription} from '../../explanation.js'

export type {LabelSelector, LabelSelectorRequirement}

export interface Meta extends ObjectMeta {
  name: string
  namespace?: string
}

export interface Workload extends KubeObject {
  metadata: Meta
  spec?: {
    replicas?: number
    selector?: LabelSelector
    template?: unknown
    paused?: boolean
    minReadySeconds?: number
    revisionHistoryLimit?: number
    updateStrategy?: {type?: string; rollingUpdate?: {partition?: number; maxUnavailable?: unknown; maxSurge?: unknown}}
    strategy?: {type?: string; rollingUpdate?: {maxSurge?: unknown; maxUnavailable?: unknown}}
    [field: string]: unknown
  }
  status?: {
    collisionCount?: number | null
    currentRevision?: string
    updateRevision?: string
    replicas?: number
    readyReplicas?: number
    availableReplicas?: number
    updatedReplicas?: number
    currentReplicas?: number
    [field: string]: unknown
  }
}

export type ReplicaSet = Workload

export interface ControllerRevision extends KubeObject {
  metadata: Meta
  data?: unknown
  revision?: number | bigint
}

/** A pod, metadata is enough (labels, owner references, deletion). */
export interface PodMeta extends KubeObject {
  metadata: Meta
}

export type {OwnerReference}

/**
 * What the replays need to know about the controller-manager: which struct layout its hashes use, its
 * version (naming rules and feature gates change with it) and how far back to look for collision counts.
 */
export interface HashSettings {
  /** The layout hashes are computed with now ("1.31"); undefined when the cluster is older than every layout. */
  version?: string
  /** Why version is what it is, or why there is none (older than the layouts, newer, unknown). */
  versionNote?: string
  /** No version was recorded or inferable: `version` is only the newest layout, so byte-level comparisons are unsure. */
  versionAssumed?: boolean
  /** With no server version: the newest kubelet version the data's Nodes report (a control plane is never older). */
  kubeletVersion?: string
  /** The control plane's minor and, when known, patch version. */
  minor?: number
  patch?: number
  /** Collision counts tried when inferring which layout wrote a label: none, then 0..this (at least the object's count). */
  maxInferredCollisionCount: number
  /** Feature gate overrides (StatefulSetSemanticRevisionComparison). */
  gates?: Record<string, boolean>
}

export interface WorkloadInput<T> {
  workload: T
  settings: HashSettings
  /** Evaluation instant, ms. */
  now: number
  source: SourceDescription
}

export type WorkloadExplanation = Explanation
