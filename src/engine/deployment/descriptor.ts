// The hash replay (`kubectl why hash`, the audit's hash check): the Deployment, DaemonSet and StatefulSet
// controllers' pod-template-hash and controller-revision-hash, recomputed. What it is and what it reads; data only
// (src/replay.ts). The hash is computed from the whole pod template, so workloads, ReplicaSets and revisions are read
// whole.
import type {ReplayDescriptor, ReplayRead} from '../../replay.js'

const read = (
  kind: string,
  apiVersion: string,
  detail: 'full' | 'metadata',
  why: string,
  fields: ReplayRead['fields'],
  scope: ReplayRead['scope'] = 'audit',
): ReplayRead => ({
  key: kind,
  ref: {apiVersion, kind},
  scope,
  detail,
  view: 'fresh',
  required: false,
  why,
  fields,
})

export const HASH_REPLAY: ReplayDescriptor = {
  name: 'hash',
  command: 'hash',
  controllers: ['deployment', 'daemonset', 'statefulset'],
  target: {kinds: ['Deployment', 'DaemonSet', 'StatefulSet']},
  reads: [
    read('Deployment', 'apps/v1', 'full', 'the workload and its pod template', '*'),
    read('DaemonSet', 'apps/v1', 'full', 'the workload and its pod template', '*'),
    read('StatefulSet', 'apps/v1', 'full', 'the workload and its pod template', '*'),
    read('ReplicaSet', 'apps/v1', 'full', "the Deployments' ReplicaSets and their templates", '*'),
    read('ControllerRevision', 'apps/v1', 'full', "the DaemonSets' and StatefulSets' revisions", '*'),
    read('Pod', 'v1', 'metadata', 'pods reveal ReplicaSets and revisions the data lacks', ['metadata.{name,namespace,uid,labels,ownerReferences}']),
    read('Node', 'v1', 'full', "the kubelets' versions, when no server version is known", ['metadata.name', 'status.nodeInfo.kubeletVersion'], 'cluster'),
  ],
  gets: [],
  scope: 'namespaced',
  subjects: ['Deployment', 'DaemonSet', 'StatefulSet'],
  schema: {file: 'hash', definition: 'HashExplanation'},
  views: ['hash'],
  description: 'workloads whose pod-template-hash / controller-revision-hash is off',
  severities: {
    collision: {
      severity: 'warning',
      why: "the new ReplicaSet's name is taken: the controller bumps collisionCount and retries, and a person should find what holds the name",
    },
    rolloutPending: {
      severity: 'info',
      why: 'the controller creates the new ReplicaSet/revision on its next sync',
      when: [
        {severity: 'critical', if: 'the create fails (the name is invalid) and the workload is neither paused nor being deleted'},
        {severity: 'warning', if: 'StatefulSet: the rollout is spurious (only a hash layout change, no template change)'},
      ],
    },
    unreproducible: {
      severity: 'info',
      why: 'a label no known layout reproduces: the controller never recomputes existing labels, so nothing it does changes',
    },
    hashDrift: {severity: 'info', why: "labels made by an older controller's layout: matched semantically, no rollout"},
    upToDate: {severity: 'none', why: 'the label is the hash this version computes'},
  },
}
