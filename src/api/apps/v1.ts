// k8s.io/api apps/v1 (staging/src/k8s.io/api/apps/v1/types.go): constants of the apps API that more than one part of
// kubectl-why reads — the hash replays (src/engine/history, src/hash) and the engines that name a Deployment's pods.
// Kept once here, under upstream's names, so no copy of a label key can drift from the others.

/**
 * apps.DefaultDeploymentUniqueLabelKey (types.go, the const block after RollbackConfig): the label the Deployment
 * controller adds to each ReplicaSet's labels, selector and pod template, whose value is the template's hash.
 */
export const DefaultDeploymentUniqueLabelKey = 'pod-template-hash'
