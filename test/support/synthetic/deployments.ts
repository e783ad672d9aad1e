// Deployments and their ReplicaSets as the Deployment controller leaves them after a completed rollout:
// the current ReplicaSet at spec.replicas, the older ones scaled to 0, revision annotations, and
// status.collisionCount on the few Deployments that had a hash collision.
import type {KubeObject} from '../../../src/cluster/source.js'
import {deploymentSelector, deploymentTemplateLabels, withLabels} from './labels.js'
import {controllerRef, meta} from './meta.js'
import type {DeploymentPlan, RevisionPlan} from './plan-workloads.js'
import {podTemplate} from './templates.js'
import {isoSeconds} from './time.js'

/** maxSurge 25% rounds up (intstr.GetScaledValueFromIntOrPercent with roundUp). */
function maxSurge(replicas: number): number {
  return Math.ceil(replicas * 0.25)
}

export function deploymentObject(d: DeploymentPlan, resourceVersion: string): KubeObject {
  const current = d.revisions[d.revisions.length - 1]
  const status: Record<string, unknown> = {observedGeneration: d.generation}
  // DeploymentStatus counters are omitempty: a Deployment scaled to 0 shows none of them.
  if (d.replicas > 0) {
    status.replicas = d.replicas
    status.updatedReplicas = d.replicas
    status.readyReplicas = d.replicas
    status.availableReplicas = d.replicas
  }
  const availableSince = isoSeconds(current.createdMs + 30_000)
  status.conditions = [
    {
      type: 'Available',
      status: 'True',
      lastUpdateTime: availableSince,
      lastTransitionTime: availableSince,
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    },
    {
      type: 'Progressing',
      status: 'True',
      lastUpdateTime: availableSince,
      lastTransitionTime: isoSeconds(d.revisions[0].createdMs + 30_000),
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${current.name}" has successfully progressed.`,
    },
  ]
  if (d.collisionCount !== undefined) status.collisionCount = d.collisionCount
  return {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: meta({
      name: d.name,
      namespace: d.namespace,
      uid: d.uid,
      resourceVersion,
      generation: d.generation,
      createdMs: d.createdMs,
      deletionMs: d.deletionMs,
      labels: deploymentSelector(d.name),
      annotations: {'deployment.kubernetes.io/revision': String(current.revision)},
      finalizers: d.deletionMs === undefined ? undefined : ['foregroundDeletion'],
    }),
    spec: {
      replicas: d.replicas,
      selector: {matchLabels: deploymentSelector(d.name)},
      template: podTemplate(d.profile, current, deploymentTemplateLabels(d.name)),
      strategy: {type: 'RollingUpdate', rollingUpdate: {maxUnavailable: '25%', maxSurge: '25%'}},
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status,
  }
}

export function replicaSetObject(d: DeploymentPlan, rev: RevisionPlan, resourceVersion: string): KubeObject {
  const current = rev === d.revisions[d.revisions.length - 1]
  const replicas = current ? d.replicas : 0
  const status: Record<string, unknown> = {replicas}
  if (replicas > 0) {
    status.fullyLabeledReplicas = replicas
    status.readyReplicas = replicas
    status.availableReplicas = replicas
  }
  // Scaled up at creation, down when the next revision took over: each scale bumps the generation.
  const generation = current ? 1 + (rev.globalIndex % 3) : 2 + (rev.globalIndex % 3)
  status.observedGeneration = generation
  const hashLabel = {'pod-template-hash': rev.hash}
  // The current ReplicaSet of a Deployment stuck in foreground deletion is itself waiting for its pods.
  const deleting = current && d.deletionMs !== undefined
  return {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    metadata: meta({
      name: rev.name,
      namespace: d.namespace,
      uid: rev.uid,
      resourceVersion,
      generation,
      createdMs: rev.createdMs,
      deletionMs: deleting ? (d.deletionMs as number) + 1000 : undefined,
      labels: withLabels(deploymentTemplateLabels(d.name), hashLabel),
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(d.replicas),
        'deployment.kubernetes.io/max-replicas': String(d.replicas + maxSurge(d.replicas)),
        'deployment.kubernetes.io/revision': String(rev.revision),
      },
      ownerReferences: [controllerRef('apps/v1', 'Deployment', d.name, d.uid)],
      finalizers: deleting ? ['foregroundDeletion'] : undefined,
    }),
    spec: {
      replicas,
      selector: {matchLabels: withLabels(deploymentSelector(d.name), hashLabel)},
      template: podTemplate(d.profile, rev, withLabels(deploymentTemplateLabels(d.name), hashLabel)),
    },
    status,
  }
}
