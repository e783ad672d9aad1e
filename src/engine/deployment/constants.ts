// Annotation and label keys of the Deployment and DaemonSet controllers (k8s.io/api/apps/v1 types.go,
// pkg/controller/deployment/util/deployment_util.go); the hash labels are the history kernel's (../history/constants.ts).

/** extensions.DaemonSetTemplateGenerationKey, on the DaemonSet (annotation) and its pods (label). */
export const DAEMONSET_TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation'
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation'

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision'
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history'
