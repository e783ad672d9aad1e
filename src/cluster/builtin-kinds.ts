// The built-in resource types of a current Kubernetes release, as `kubectl api-resources -o wide`
// lists them. Used when a source cannot ask the server (a snapshot without recorded discovery) and
// to resolve what users type (deploy, rs, pods, deployments.apps).
import type {ResourceType} from './source.js'

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']
const READ = ['get', 'list']
const CREATE = ['create']

// [group/version, kind, resource, namespaced, shortNames, verbs]
type Row = [string, string, string, boolean, string[], string[]?]

const ROWS: Row[] = [
  ['v1', 'Binding', 'bindings', true, [], CREATE],
  ['v1', 'ComponentStatus', 'componentstatuses', false, ['cs'], READ],
  ['v1', 'ConfigMap', 'configmaps', true, ['cm']],
  ['v1', 'Endpoints', 'endpoints', true, ['ep']],
  ['v1', 'Event', 'events', true, ['ev']],
  ['v1', 'LimitRange', 'limitranges', true, ['limits']],
  ['v1', 'Namespace', 'namespaces', false, ['ns'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
  ['v1', 'Node', 'nodes', false, ['no']],
  ['v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc']],
  ['v1', 'PersistentVolume', 'persistentvolumes', false, ['pv']],
  ['v1', 'Pod', 'pods', true, ['po']],
  ['v1', 'PodTemplate', 'podtemplates', true, []],
  ['v1', 'ReplicationController', 'replicationcontrollers', true, ['rc']],
  ['v1', 'ResourceQuota', 'resourcequotas', true, ['quota']],
  ['v1', 'Secret', 'secrets', true, []],
  ['v1', 'ServiceAccount', 'serviceaccounts', true, ['sa']],
  ['v1', 'Service', 'services', true, ['svc'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']],
  ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', false, []],
  ['admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'validatingadmissionpolicies', false, []],
  ['admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', false, []],
  ['admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', false, []],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, ['crd', 'crds']],
  ['apiregistration.k8s.io/v1', 'APIService', 'apiservices', false, []],
  ['apps/v1', 'ControllerRevision', 'controllerrevisions', true, []],
  ['apps/v1', 'DaemonSet', 'daemonsets', true, ['ds']],
  ['apps/v1', 'Deployment', 'deployments', true, ['deploy']],
  ['apps/v1', 'ReplicaSet', 'replicasets', true, ['rs']],
  ['apps/v1', 'StatefulSet', 'statefulsets', true, ['sts']],
  ['authentication.k8s.io/v1', 'SelfSubjectReview', 'selfsubjectreviews', false, [], CREATE],
  ['authentication.k8s.io/v1', 'TokenReview', 'tokenreviews', false, [], CREATE],
  ['authorization.k8s.io/v1', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', true, [], CREATE],
  ['authorization.k8s.io/v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, [], CREATE],
  ['authorization.k8s.io/v1', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, [], CREATE],
  ['authorization.k8s.io/v1', 'SubjectAccessReview', 'subjectaccessreviews', false, [], CREATE],
  ['autoscaling/v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, ['hpa']],
  ['batch/v1', 'CronJob', 'cronjobs', true, ['cj']],
  ['batch/v1', 'Job', 'jobs', true, []],
  ['certificates.k8s.io/v1', 'CertificateSigningRequest', 'certificatesigningrequests', false, ['csr']],
  ['coordination.k8s.io/v1', 'Lease', 'leases', true, []],
  ['discovery.k8s.io/v1', 'EndpointSlice', 'endpointslices', true, []],
  ['events.k8s.io/v1', 'Event', 'events', true, ['ev']],
  ['flowcontrol.apiserver.k8s.io/v1', 'FlowSchema', 'flowschemas', false, []],
  ['flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', false, []],
  ['networking.k8s.io/v1', 'IngressClass', 'ingressclasses', false, []],
  ['networking.k8s.io/v1', 'Ingress', 'ingresses', true, ['ing']],
  ['networking.k8s.io/v1', 'NetworkPolicy', 'networkpolicies', true, ['netpol']],
  ['node.k8s.io/v1', 'RuntimeClass', 'runtimeclasses', false, []],
  ['policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, ['pdb']],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'clusterrolebindings', false, []],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', false, []],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', true, []],
  ['rbac.authorization.k8s.io/v1', 'Role', 'roles', true, []],
  ['scheduling.k8s.io/v1', 'PriorityClass', 'priorityclasses', false, ['pc']],
  ['storage.k8s.io/v1', 'CSIDriver', 'csidrivers', false, []],
  ['storage.k8s.io/v1', 'CSINode', 'csinodes', false, []],
  ['storage.k8s.io/v1', 'CSIStorageCapacity', 'csistoragecapacities', true, []],
  ['storage.k8s.io/v1', 'StorageClass', 'storageclasses', false, ['sc']],
  ['storage.k8s.io/v1', 'VolumeAttachment', 'volumeattachments', false, []],
]

export function splitApiVersion(apiVersion: string): {group: string; version: string} {
  const slash = apiVersion.indexOf('/')
  return slash === -1 ? {group: '', version: apiVersion} : {group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1)}
}

export function apiVersionOf(t: {group: string; version: string}): string {
  return t.group === '' ? t.version : `${t.group}/${t.version}`
}

export const BUILTIN_KINDS: readonly ResourceType[] = ROWS.map(([gv, kind, resource, namespaced, shortNames, verbs]) => ({
  ...splitApiVersion(gv),
  kind,
  resource,
  namespaced,
  shortNames,
  verbs: verbs ?? ALL,
  singularName: kind.toLowerCase(),
}))
