// The slices of Pod and Event the taint-eviction replay reads.
import type {EventLike, PodCondition, Taint, Toleration} from '../../cluster/kube-types.js'

export type {EventLike}

export type {Taint, Toleration}

export interface PodLike {
  metadata?: {
    name?: string
    namespace?: string
    uid?: string
    creationTimestamp?: string | null
    deletionTimestamp?: string | null
    ownerReferences?: {kind: string; name: string; uid?: string; controller?: boolean; apiVersion?: string}[]
    [k: string]: unknown
  }
  spec?: {nodeName?: string; tolerations?: Toleration[] | null; [k: string]: unknown}
  status?: {
    phase?: string
    conditions?: PodCondition[] | null
    [k: string]: unknown
  }
  [k: string]: unknown
}
