// The slices of Pod, Node, Event, PodDisruptionBudget and PriorityClass the pod-eviction replays read.
import type {EventLike, PodCondition, Taint, Toleration} from '../../cluster/kube-types.js'

export type {EventLike}
import type {ContainerLike, ResourceList} from '../../component-helpers/resource.js'

export interface PodLike {
  metadata?: {
    name?: string
    namespace?: string
    uid?: string
    labels?: Record<string, string> | null
    creationTimestamp?: string | null
    deletionTimestamp?: string | null
    deletionGracePeriodSeconds?: number | null
    ownerReferences?: {kind: string; name: string; uid?: string; controller?: boolean; apiVersion?: string}[]
    [k: string]: unknown
  }
  spec?: {
    nodeName?: string
    tolerations?: Toleration[] | null
    priority?: number | null
    priorityClassName?: string | null
    preemptionPolicy?: string | null
    schedulerName?: string | null
    terminationGracePeriodSeconds?: number | null
    containers?: ContainerLike[] | null
    initContainers?: ContainerLike[] | null
    overhead?: ResourceList | null
    resources?: {requests?: ResourceList | null; limits?: ResourceList | null} | null
    [k: string]: unknown
  }
  status?: {
    phase?: string
    reason?: string
    message?: string
    qosClass?: string | null
    startTime?: string | null
    nominatedNodeName?: string | null
    conditions?: PodCondition[] | null
    [k: string]: unknown
  }
  [k: string]: unknown
}

export interface NodeLike {
  metadata?: {name?: string; labels?: Record<string, string> | null; [k: string]: unknown}
  spec?: {unschedulable?: boolean | null; taints?: Taint[] | null; [k: string]: unknown}
  status?: {
    conditions?:
      | {type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string | null; lastHeartbeatTime?: string | null}[]
      | null
    nodeInfo?: {kubeletVersion?: string; operatingSystem?: string; [k: string]: unknown}
    [k: string]: unknown
  }
  [k: string]: unknown
}

export interface PriorityClassLike {
  metadata?: {name?: string}
  value?: number
  globalDefault?: boolean
  preemptionPolicy?: string
}
