// The ReplicaSet replay (`kubectl why replicas`, the audit's replicas check): what it is and what it reads.
// Data only (src/replay.ts). The controller acts on its informer's pods (the watch cache), so the pods read asks for
// that view; a quorum read of the ReplicaSets will do.
import {OBJECT_META, type ReplayDescriptor} from '../../replay.js'

const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost'

export const REPLICAS_REPLAY: ReplayDescriptor = {
  name: 'replicas',
  command: 'replicas',
  controllers: ['replicaset'],
  target: {kinds: ['ReplicaSet'], natural: 'ReplicaSet'},
  reads: [
    {
      key: 'replicasets',
      ref: {apiVersion: 'apps/v1', kind: 'ReplicaSet'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: true,
      why: "every ReplicaSet to replay (a quorum read will do: the lag that matters is the pods')",
      // The pod template's labels, not its spec (the largest part); the owning Deployment's revision annotation.
      fields: [...OBJECT_META, 'metadata.annotations', 'spec.{replicas,minReadySeconds,selector}', 'spec.template.metadata', 'status'],
    },
    {
      key: 'pods',
      ref: {apiVersion: 'v1', kind: 'Pod'},
      scope: 'audit',
      detail: 'full',
      view: 'cached',
      required: true,
      why: "claims, active pods, expectations and the deletion ranking, as the controller's informer sees them",
      fields: [
        ...OBJECT_META,
        `metadata.annotations[${POD_DELETION_COST}]`,
        // Active pods and ActivePodsWithRanks (pkg/controller/controller_utils.go): phase, node, readiness, restarts
        // (a restartable init container's too).
        'spec.nodeName',
        'spec.initContainers[].{name,restartPolicy}',
        'status.phase',
        'status.conditions[type=Ready].{type,status,reason,lastTransitionTime}',
        'status.containerStatuses[].{name,restartCount}',
        'status.initContainerStatuses[].{name,restartCount}',
      ],
    },
    {
      key: 'events',
      ref: {apiVersion: 'v1', kind: 'Event'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "the controller's create/delete events (expectations, failures)",
      fields: '*',
    },
    {
      key: 'namespaces',
      ref: {apiVersion: 'v1', kind: 'Namespace'},
      scope: 'cluster',
      detail: 'metadata',
      view: 'fresh',
      required: false,
      why: 'whether the namespace is terminating (creates are refused)',
      fields: ['metadata.deletionTimestamp'],
    },
  ],
  gets: [
    {ref: {apiVersion: 'apps/v1', kind: 'ReplicaSet'}, why: 'the uncached recheck claimPods makes before its first adoption', fields: OBJECT_META},
    {
      ref: {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'},
      why: 'the kube-controller-manager leader lease (controller restarts reset expectations)',
      fields: '*',
    },
  ],
  scope: 'namespaced',
  subjects: ['replicasets'],
  schema: {file: 'replicas', definition: 'ReplicasExplanation'},
  views: ['replicas'],
  description: 'ReplicaSets that are not converging, and why',
  severities: {
    createsFailing: {severity: 'critical', why: 'every create is refused (quota, admission): the ReplicaSet stays short until a person acts'},
    waitingForExpectations: {severity: 'warning', why: 'the controller waits on creates/deletes it has not observed (up to 5 minutes)'},
    willCreate: {
      severity: 'info',
      why: 'short of replicas: the controller creates pods on its next sync',
      when: [{severity: 'warning', if: 'a gated signature in the events (the last sync failed the same way)'}],
    },
    willDelete: {
      severity: 'info',
      why: 'over its replicas: the controller deletes pods on its next sync',
      when: [{severity: 'warning', if: 'a gated signature in the events (the last sync failed the same way)'}],
    },
    adoptionPending: {severity: 'info', why: 'orphan pods match: the controller adopts them', when: [{severity: 'warning', if: 'the claim fails'}]},
    beingDeleted: {severity: 'info', why: 'the ReplicaSet is being deleted: the controller only updates its status'},
    converged: {
      severity: 'none',
      why: 'active pods equal the desired replicas',
      when: [{severity: 'info', if: 'pods are released (no longer match the selector)'}],
    },
  },
}
