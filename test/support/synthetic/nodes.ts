// Node and node-Lease objects, healthy or with a stopped kubelet (see plan-nodes.ts for the timeline).
import type {KubeObject} from '../../../src/cluster/source.js'
import {randomHex, randomUid} from './prng.js'
import {rng, Stream, uidOf} from './identity.js'
import {meta} from './meta.js'
import type {ResolvedOptions} from './options.js'
import type {NodeHealth, NodePlan} from './plan-nodes.js'
import {isoMicros, isoSeconds} from './time.js'

const INSTANCE_TYPES = [
  {type: 'm5.2xlarge', cpu: '8', memoryKi: 32_386_544},
  {type: 'm5.4xlarge', cpu: '16', memoryKi: 64_758_628},
  {type: 'c5.4xlarge', cpu: '16', memoryKi: 31_928_124},
  {type: 'r5.2xlarge', cpu: '8', memoryKi: 65_023_764},
]

function condition(type: string, status: string, heartbeatMs: number, transitionMs: number, reason: string, message: string): Record<string, unknown> {
  return {type, status, lastHeartbeatTime: isoSeconds(heartbeatMs), lastTransitionTime: isoSeconds(transitionMs), reason, message}
}

const KUBELET_CONDITIONS: [string, string, string, string][] = [
  ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
]

/** What the kubelet posted last; once the controller notices the silence, it rewrites all four to Unknown. */
function conditions(n: NodePlan, h: NodeHealth): Record<string, unknown>[] {
  const bootMs = n.createdMs - 2000
  return KUBELET_CONDITIONS.map(([type, status, reason, message]) =>
    h.unknownSinceMs !== undefined
      ? condition(type, 'Unknown', h.heartbeatMs, h.unknownSinceMs, 'NodeStatusUnknown', 'Kubelet stopped posting node status.')
      : condition(type, status, h.heartbeatMs, type === 'Ready' ? bootMs + 20_000 : bootMs, reason, message),
  )
}

function taints(n: NodePlan, h: NodeHealth, alone: boolean): Record<string, unknown>[] | undefined {
  const t: Record<string, unknown>[] = []
  // A single-node cluster untaints its control plane so that workloads can run (as kind does).
  if (n.controlPlane && !alone) t.push({key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule'})
  // SwapNodeControllerTaint stamps timeAdded on both the NoSchedule and the NoExecute taint.
  if (h.noScheduleTaintMs !== undefined) t.push({key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: isoSeconds(h.noScheduleTaintMs)})
  if (h.noExecuteTaintMs !== undefined) t.push({key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: isoSeconds(h.noExecuteTaintMs)})
  return t.length > 0 ? t : undefined
}

export function nodeObject(o: ResolvedOptions, n: NodePlan, resourceVersion: string): KubeObject {
  const r = rng(o.seed, Stream.Node, n.index + 0x100000)
  const shape = INSTANCE_TYPES[n.index % INSTANCE_TYPES.length]
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/instance-type': shape.type,
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': shape.type,
    'topology.kubernetes.io/region': o.region,
    'topology.kubernetes.io/zone': n.zone,
  }
  if (n.controlPlane) {
    labels['node-role.kubernetes.io/control-plane'] = ''
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] = ''
  }
  const spec: Record<string, unknown> = {
    podCIDR: `${n.podCidrBase}.0/24`,
    podCIDRs: [`${n.podCidrBase}.0/24`],
    providerID: `aws:///${n.zone}/i-0${randomHex(r, 16)}`,
  }
  const t = taints(n, n.health, o.nodes === 1)
  if (t) spec.taints = t
  const memoryKi = shape.memoryKi
  const capacity = {cpu: shape.cpu, 'ephemeral-storage': '104845292Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: `${memoryKi}Ki`, pods: '110'}
  const allocatable = {
    cpu: `${Number(shape.cpu) * 1000 - 90}m`,
    'ephemeral-storage': '95551679124',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: `${memoryKi - 1_000_000}Ki`,
    pods: '110',
  }
  const machineId = randomHex(r, 32)
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: meta({
      name: n.name,
      uid: n.uid,
      resourceVersion,
      createdMs: n.createdMs,
      labels,
      annotations: {
        'alpha.kubernetes.io/provided-node-ip': n.address,
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    }),
    spec,
    status: {
      capacity,
      allocatable,
      conditions: conditions(n, n.health),
      addresses: [
        {type: 'InternalIP', address: n.address},
        {type: 'InternalDNS', address: n.name},
        {type: 'Hostname', address: n.name},
      ],
      daemonEndpoints: {kubeletEndpoint: {Port: 10250}},
      nodeInfo: {
        machineID: machineId,
        systemUUID: `ec2${machineId.slice(3, 8)}-${machineId.slice(8, 12)}-${machineId.slice(12, 16)}-${machineId.slice(16, 20)}-${machineId.slice(20, 32)}`,
        bootID: randomUid(r),
        kernelVersion: '6.1.112-124.190.amzn2023.x86_64',
        osImage: 'Amazon Linux 2023.6.20241010',
        containerRuntimeVersion: 'containerd://1.7.22',
        kubeletVersion: o.kubernetesVersion,
        kubeProxyVersion: o.kubernetesVersion,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  }
}

/** Lease renewTime in the fresh view, or as a watch cache `lagMs` behind etcd last saw it. */
export function leaseRenewMs(h: NodeHealth, nowMs: number, lagMs: number): number {
  const cacheTime = nowMs - lagMs
  if (h.renewMs <= cacheTime) return h.renewMs
  // The kubelet renews every 10 s: the cache holds the last renewal at or before its own point in time.
  return h.renewMs - Math.ceil((h.renewMs - cacheTime) / 10_000) * 10_000
}

/** The node's Lease in kube-node-lease: held and renewed by its kubelet, owned by the Node (no controller flag). */
export function nodeLease(o: ResolvedOptions, n: NodePlan, resourceVersion: string, renewMs: number): KubeObject {
  return {
    kind: 'Lease',
    apiVersion: 'coordination.k8s.io/v1',
    metadata: meta({
      name: n.name,
      namespace: 'kube-node-lease',
      uid: uidOf(o.seed, Stream.Lease, n.index),
      resourceVersion,
      createdMs: n.createdMs + 2000,
      ownerReferences: [{apiVersion: 'v1', kind: 'Node', name: n.name, uid: n.uid}],
    }),
    spec: {holderIdentity: n.name, leaseDurationSeconds: 40, renewTime: isoMicros(renewMs, n.health.renewMicros)},
  }
}

/** kube-controller-manager's leader-election Lease in kube-system, held by the control-plane node. */
export function controllerManagerLease(o: ResolvedOptions, n: NodePlan, resourceVersion: string): KubeObject {
  const r = rng(o.seed, Stream.ControlPlane, 1)
  const acquiredMs = o.nowMs - r.int(1, 30) * 86_400_000
  return {
    kind: 'Lease',
    apiVersion: 'coordination.k8s.io/v1',
    metadata: meta({
      name: 'kube-controller-manager',
      namespace: 'kube-system',
      uid: uidOf(o.seed, Stream.Lease, o.nodes),
      resourceVersion,
      createdMs: n.createdMs + 30_000,
    }),
    spec: {
      holderIdentity: `${n.name}_${randomUid(r)}`,
      leaseDurationSeconds: 15,
      acquireTime: isoMicros(acquiredMs, r.int(0, 999)),
      renewTime: isoMicros(o.nowMs - r.int(0, 1999), r.int(0, 999)),
      leaseTransitions: r.int(1, 40),
    },
  }
}
