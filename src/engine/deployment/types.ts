// The objects the workload hash replays read, as the API server returns them (only the fields used).
import type {KubeObject, LabelSelector, LabelSelectorRequirement, ObjectMeta, OwnerReference} from '../../cluster/kube-types.js'
import type {Explanation, SourceDescription} from '../../explanation.js'
import type {HashSettings} from '../history/types.js'

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

/** A pod, metadata is enough (labels, owner references, deletion). */
export interface PodMeta extends KubeObject {
  metadata: Meta
}

export type {OwnerReference}

export interface WorkloadInput<T> {
  workload: T
  settings: HashSettings
  /** Evaluation instant, ms. */
  now: number
  source: SourceDescription
}

export type WorkloadExplanation = Explanation
