// Upstream constants the replay uses, each with where it is defined.

/** BurstReplicas (pkg/controller/replicaset/replica_set.go:74): the most creates or deletes in one manageReplicas call. */
export const BURST_REPLICAS = 500

/** SlowStartInitialBatchSize (pkg/controller/controller_utils.go): the first slow-start batch. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1

/** ExpectationsTimeout (pkg/controller/controller_utils.go:72): 5 minutes from the last SetExpectations. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000

/** v1.PodDeletionCost (k8s.io/api/core/v1 annotation_key_constants.go). */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost'

/** The event source of the controller's recorder (replica_set.go NewReplicaSetController). */
export const CONTROLLER_COMPONENT = 'replicaset-controller'

/** Event reasons (controller_utils.go FailedCreatePodReason ... SuccessfulDeletePodReason). */
export const REASON = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
} as const

/** apps.ReplicaSetReplicaFailure: the condition manageReplicas errors set (replica_set_utils.go calculateStatus). */
export const REPLICA_FAILURE = 'ReplicaFailure'

/**
 * workqueue.DefaultTypedControllerRateLimiter (client-go util/workqueue/default_rate_limiters.go): per-item
 * exponential backoff from 5 ms doubling to 1000 s, combined with a 10 qps / burst 100 bucket. A failing sync
 * is retried on this schedule.
 */
export const REQUEUE_BASE_MS = 5
export const REQUEUE_MAX_MS = 1000_000

/**
 * The event correlator's aggregation prefix (client-go tools/record/events_cache.go): after 10 similar
 * events within 10 minutes the message becomes "(combined from similar events): <last message>".
 */
export const COMBINED_PREFIX = '(combined from similar events): '
