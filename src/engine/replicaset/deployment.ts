// The ReplicaSets of a Deployment, new first. The Deployment controller copies the new ReplicaSet's
// deployment.kubernetes.io/revision onto the Deployment (SetDeploymentRevision, deployment_util.go:172), so the
// ReplicaSet carrying the Deployment's revision is the new one; the rest follow newest revision first.
import type {KubeObject} from '../../cluster/source.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {instant} from './time.js'
import type {ReplicaSet} from './types.js'
import {compareStrings} from '../../util/compare.js'

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision'

function revision(o: KubeObject): number {
  const v = Number(o.metadata?.annotations?.[REVISION_ANNOTATION])
  return Number.isInteger(v) ? v : -1
}

export interface DeploymentReplicaSets {
  ordered: ReplicaSet[]
  /** The new ReplicaSet's name, when one carries the Deployment's revision. */
  newName?: string
}

export function replicaSetsOfDeployment(deployment: KubeObject, replicaSets: readonly ReplicaSet[]): DeploymentReplicaSets {
  const uid = deployment.metadata?.uid
  const owned = replicaSets.filter((rs) => uid !== undefined && getControllerOf(rs)?.uid === uid)
  const want = revision(deployment)
  const newRs = want >= 0 ? owned.find((rs) => revision(rs) === want) : undefined
  const rest = owned
    .filter((rs) => rs !== newRs)
    .sort(
      (a, b) =>
        revision(b) - revision(a) ||
        (instant(b.metadata.creationTimestamp) ?? 0) - (instant(a.metadata.creationTimestamp) ?? 0) ||
        compareStrings(a.metadata.name, b.metadata.name),
    )
  return {ordered: newRs ? [newRs, ...rest] : rest, newName: newRs?.metadata.name}
}
