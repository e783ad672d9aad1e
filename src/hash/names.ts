// Object names the controllers derive from a hash.

/** validation.DNS1123SubdomainMaxLength */
const MAX_NAME = 253

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8')
}

function cutBytes(s: string, n: number): string {
  return Buffer.from(s, 'utf8').subarray(0, n).toString('utf8')
}

/**
 * generateReplicaSetName (pkg/controller/deployment/sync.go, since 1.34, kubernetes#132560): the
 * Deployment name, cut so that "<name>-<hash>" fits 253 characters.
 */
export function generateReplicaSetName(deploymentName: string, podTemplateSpecHash: string): string {
  const maxDeploymentNameLength = MAX_NAME - 1 - byteLength(podTemplateSpecHash)
  if (byteLength(deploymentName) > maxDeploymentNameLength && maxDeploymentNameLength > 0) {
    return `${cutBytes(deploymentName, maxDeploymentNameLength)}-${podTemplateSpecHash}`
  }
  return `${deploymentName}-${podTemplateSpecHash}`
}

/**
 * The ReplicaSet name a Deployment controller of this minor version creates. Before 1.34 it was
 * "<name>-<hash>" uncut, and a name over 253 characters made every create fail (kubernetes#116447).
 */
export function replicaSetNameFor(minor: number, deploymentName: string, hash: string): {name: string; warning?: string} {
  if (minor >= 34) return {name: generateReplicaSetName(deploymentName, hash)}
  const name = `${deploymentName}-${hash}`
  if (byteLength(name) <= MAX_NAME) return {name}
  return {
    name,
    warning: `the ReplicaSet name is ${byteLength(name)} characters, over the 253 limit: a 1.${minor} Deployment controller fails to create it (names are cut from 1.34)`,
  }
}

/** The DaemonSet controller's ControllerRevision name (pkg/controller/daemon/update.go snapshot): uncut. */
export function daemonSetRevisionName(daemonSetName: string, hash: string): string {
  return `${daemonSetName}-${hash}`
}
