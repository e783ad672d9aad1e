// When a built-in group/version stopped being served, as the Kubernetes Deprecated API Migration Guide lists it
// (https://kubernetes.io/docs/reference/using-api/deprecation-guide/, "Removed APIs by release"). A dump that did not
// record the API's discovery says nothing about which versions its server served; for a built-in kind this table
// and the cluster's version can: a reference at a version removed before that release is not served there (the
// collector's REST mapping fails forever), one removed later still is.

/** [group/version, kinds, the first minor release (1.x) that no longer serves them]. */
const REMOVED: readonly (readonly [string, readonly string[], number])[] = [
  ['extensions/v1beta1', ['DaemonSet', 'Deployment', 'ReplicaSet', 'NetworkPolicy', 'PodSecurityPolicy'], 16],
  ['apps/v1beta1', ['Deployment', 'StatefulSet', 'ReplicaSet', 'ControllerRevision'], 16],
  ['apps/v1beta2', ['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'ControllerRevision'], 16],
  ['admissionregistration.k8s.io/v1beta1', ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'], 22],
  ['apiextensions.k8s.io/v1beta1', ['CustomResourceDefinition'], 22],
  ['apiregistration.k8s.io/v1beta1', ['APIService'], 22],
  ['certificates.k8s.io/v1beta1', ['CertificateSigningRequest'], 22],
  ['coordination.k8s.io/v1beta1', ['Lease'], 22],
  ['extensions/v1beta1', ['Ingress'], 22],
  ['networking.k8s.io/v1beta1', ['Ingress', 'IngressClass'], 22],
  ['rbac.authorization.k8s.io/v1beta1', ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'], 22],
  ['scheduling.k8s.io/v1beta1', ['PriorityClass'], 22],
  ['storage.k8s.io/v1beta1', ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'], 22],
  ['batch/v1beta1', ['CronJob'], 25],
  ['discovery.k8s.io/v1beta1', ['EndpointSlice'], 25],
  ['events.k8s.io/v1beta1', ['Event'], 25],
  ['autoscaling/v2beta1', ['HorizontalPodAutoscaler'], 25],
  ['policy/v1beta1', ['PodDisruptionBudget', 'PodSecurityPolicy'], 25],
  ['node.k8s.io/v1beta1', ['RuntimeClass'], 25],
  ['flowcontrol.apiserver.k8s.io/v1beta1', ['FlowSchema', 'PriorityLevelConfiguration'], 26],
  ['autoscaling/v2beta2', ['HorizontalPodAutoscaler'], 26],
  ['storage.k8s.io/v1beta1', ['CSIStorageCapacity'], 27],
  ['flowcontrol.apiserver.k8s.io/v1beta2', ['FlowSchema', 'PriorityLevelConfiguration'], 29],
  ['flowcontrol.apiserver.k8s.io/v1beta3', ['FlowSchema', 'PriorityLevelConfiguration'], 32],
]

/**
 * Built-in kinds served at a version beside the preferred one in every release this tool models (1.20 on): a
 * HorizontalPodAutoscaler at autoscaling/v1 (the guide lists no removal for it).
 */
const STILL_SERVED: readonly (readonly [string, string])[] = [['autoscaling/v1', 'HorizontalPodAutoscaler']]

/** The first 1.x release that no longer serves this built-in kind at this group/version, when the guide lists one. */
export function removedIn(apiVersion: string, kind: string): number | undefined {
  return REMOVED.find(([gv, kinds]) => gv === apiVersion && kinds.includes(kind))?.[2]
}

/** Whether this built-in kind is served at this non-preferred group/version in every release modelled. */
export function alwaysServed(apiVersion: string, kind: string): boolean {
  return STILL_SERVED.some(([gv, k]) => gv === apiVersion && k === kind)
}

/**
 * Whether a built-in kind is served at this non-preferred group/version by a cluster at release 1.`minor` (unknown:
 * only what every modelled release serves).
 */
export function servedAtRelease(apiVersion: string, kind: string, minor: number | undefined): boolean {
  if (alwaysServed(apiVersion, kind)) return true
  const removed = removedIn(apiVersion, kind)
  return removed !== undefined && minor !== undefined && minor < removed
}
