// Small builders for node lifecycle test clusters: nodes with a Ready condition and zone labels, their
// kube-node-lease Leases, pods with tolerations, and a kube-controller-manager static pod.
import type {KubeObject} from '../../../src/cluster/source.js'
import type {Taint} from '../../../src/engine/nodelifecycle/types.js'
import type {Toleration} from '../../../src/engine/tainteviction/types.js'

export const T0 = Date.parse('2026-11-29T03:00:00Z')
/** T0 + s seconds, RFC 3339 with whole seconds. */
export const at = (s: number): string => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z')
/** T0 + s seconds as a MicroTime. */
export const micro = (s: number): string => new Date(T0 + s * 1000).toISOString().replace('Z', '000Z')

export interface NodeOptions {
  ready?: 'True' | 'False' | 'Unknown' | null
  heartbeat?: number
  taints?: Taint[]
  labels?: Record<string, string>
}

export function mkNode(name: string, zone: string, o: NodeOptions = {}): KubeObject {
  const ready = o.ready === undefined ? 'True' : o.ready
  const unknown = ready === 'Unknown'
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-${name}`,
      creationTimestamp: '2026-11-01T00:00:00Z',
      labels: {'kubernetes.io/hostname': name, 'topology.kubernetes.io/region': 'r1', 'topology.kubernetes.io/zone': zone, ...o.labels},
    },
    spec: {...(o.taints ? {taints: o.taints} : {})},
    status: {
      conditions:
        ready === null
          ? []
          : [
              {
                type: 'Ready',
                status: ready,
                reason: unknown ? 'NodeStatusUnknown' : ready === 'True' ? 'KubeletReady' : 'KubeletNotReady',
                lastHeartbeatTime: at(o.heartbeat ?? -10),
                lastTransitionTime: unknown ? at(-60) : '2026-11-01T00:01:00Z',
              },
            ],
    },
  }
}

export function mkLease(name: string, renew: number): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {name, namespace: 'kube-node-lease', uid: `lease-${name}`, creationTimestamp: '2026-11-01T00:00:00Z'},
    spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro(renew)},
  }
}

export function mkPod(namespace: string, name: string, nodeName: string, tolerations: Toleration[], owner?: {kind: string; name: string}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `pod-${namespace}-${name}`,
      creationTimestamp: at(-3600),
      ...(owner
        ? {ownerReferences: [{apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: `uid-${owner.name}`, controller: true, blockOwnerDeletion: true}]}
        : {}),
    },
    spec: {nodeName, containers: [{name: 'c', image: 'img'}], tolerations},
    status: {phase: 'Running', conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: at(-3600)}]},
  }
}

export function mkControllerManager(args: string[]): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'kube-controller-manager-cp', namespace: 'kube-system', uid: 'kcm', labels: {component: 'kube-controller-manager', tier: 'control-plane'}},
    spec: {
      nodeName: 'cp',
      containers: [{name: 'kube-controller-manager', image: 'registry.k8s.io/kube-controller-manager', command: ['kube-controller-manager', ...args]}],
    },
  }
}

export const DEFAULT_TOLERATIONS: Toleration[] = [
  {key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300},
  {key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300},
]
export const DAEMONSET_TOLERATIONS: Toleration[] = [
  {key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute'},
  {key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute'},
]
export const unreachable = (s: number): Taint => ({key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(s)})
