// The hash labels the workload controllers write and compare (k8s.io/api/apps/v1 types.go,
// pkg/controller/history/controller_history.go), and the bounds of the hash replays that read them.

import {DefaultDeploymentUniqueLabelKey} from '../../api/apps/v1.js'

/** apps.DefaultDeploymentUniqueLabelKey (defined once in src/api/apps/v1.ts): the ReplicaSet's hash, in its labels, selector and template. */
export const POD_TEMPLATE_HASH_LABEL = DefaultDeploymentUniqueLabelKey
/** apps.DefaultDaemonSetUniqueLabelKey / apps.ControllerRevisionHashLabelKey: on DaemonSet revisions and on both kinds' pods. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash'
/** history.ControllerRevisionHashLabel: the StatefulSet history's own hash label on its revisions. */
export const HISTORY_HASH_LABEL = 'controller.kubernetes.io/hash'

/** Kubernetes 1.20.0, the oldest struct layout this tool has, was released on this day. */
export const OLDEST_LAYOUT_RELEASED = '2020-12-08T00:00:00Z'

/** Beyond this many collisions the replays stop predicting further names (each bump is one more sync). */
export const MAX_PREDICTED_BUMPS = 20
