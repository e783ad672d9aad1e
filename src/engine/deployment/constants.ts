// Label and annotation keys the workload controllers write (k8s.io/api/apps/v1 types.go,
// pkg/controller/deployment/util/deployment_util.go).

/** apps.DefaultDeploymentUniqueLabelKey: the ReplicaSet's hash, in its labels, selector and template. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash'
/** apps.DefaultDaemonSetUniqueLabelKey / apps.ControllerRevisionHashLabelKey: on DaemonSet revisions and on both kinds' pods. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash'
/** history.ControllerRevisionHashLabel: the StatefulSet history's own hash label on its revisions. */
export const HISTORY_HASH_LABEL = 'controller.kubernetes.io/hash'
/** extensions.DaemonSetTemplateGenerationKey, on the DaemonSet (annotation) and its pods (label). */
export const DAEMONSET_TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation'
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation'

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision'
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history'

/** Kubernetes 1.20.0, the oldest struct layout this tool has, was released on this day. */
export const OLDEST_LAYOUT_RELEASED = '2020-12-08T00:00:00Z'

/** Beyond this many collisions the replays stop predicting further names (each bump is one more sync). */
export const MAX_PREDICTED_BUMPS = 20
