// What a synthetic cluster is made of, and the defaults. Defaults scale with `nodes` so that
// `--nodes 5000` alone gives the audit benchmark's shape (issue 8): 5,000 nodes, 150,000 pods,
// 2,000 Deployments with 20,000 ReplicaSets, 100,000 other owned objects.
import {goDurationMs, parseNow} from './time.js'

export type NotReadyTaints = 'all' | 'none' | 'mixed'

export interface SyntheticClusterOptions {
  /** PRNG seed (any 32-bit integer). Same seed and options → byte-identical cluster. Default 1. */
  seed?: number
  /** The instant every timestamp is relative to (the snapshot's capturedAt). Default 2026-11-29T03:00:00Z. */
  now?: string
  /** Server and kubelet gitVersion. Default v1.31.2. */
  kubernetesVersion?: string
  /** Cluster name (kube-controller-manager --cluster-name). Default "synthetic". */
  clusterName?: string
  /** Nodes in total; node 0 is the control-plane node that runs kube-controller-manager. Default 10. */
  nodes?: number
  /** Availability zones the nodes are spread over (round robin). Default 3. */
  zones?: number
  /** topology.kubernetes.io/region; zones are <region>a, <region>b, ... Default eu-west-1. */
  region?: string
  /** Application namespaces, besides default, kube-system, kube-public and kube-node-lease. Default nodes/25 (at least 2). */
  namespaces?: number
  /** Default nodes × 0.4 (at least 1). */
  deployments?: number
  /** ReplicaSets per Deployment: the current one plus older revisions scaled to 0. Default 10. */
  replicaSetsPerDeployment?: number
  /** Pods of each Deployment's current ReplicaSet. Give this or `pods`, not both. */
  podsPerReplicaSet?: number
  /**
   * Pods in total, all owners together: one per DaemonSet per node, the StatefulSets' replicas, the
   * kube-controller-manager mirror pod, and the rest spread unevenly over the Deployments' current
   * ReplicaSets. Default nodes × 30.
   */
  pods?: number
  /** DaemonSets in kube-system; each tolerates everything and runs a pod on every node. Default 3. */
  daemonSets?: number
  /** Default nodes × 0.02. */
  statefulSets?: number
  /** Default 3. */
  replicasPerStatefulSet?: number
  /** ControllerRevisions per DaemonSet and per StatefulSet (the last one is current). Default 2. */
  revisionsPerWorkload?: number
  /**
   * Objects owned by other objects, outside the workload chains: ConfigMaps, Secrets (metadata only),
   * Services with their EndpointSlices, CronJobs with their Jobs. Includes the `danglingOwners` ones.
   * Default nodes × 20.
   */
  otherOwned?: number
  /** core/v1 Events, all within the last hour (the API server's event TTL). Default nodes × 2. */
  events?: number
  /** Worker nodes whose kubelet stopped: Lease renewTime and NodeReady heartbeat stale. Default 0. */
  notReadyNodes?: number
  /**
   * Which of the not-ready nodes the node lifecycle controller has already detected carry the
   * node.kubernetes.io/unreachable NoSchedule and NoExecute taints: all, none (e.g. a zone in full
   * disruption, where tainting stops) or every other one. Default mixed.
   */
  notReadyTaints?: NotReadyTaints
  /** Put every not-ready node in this zone (a zone outage) instead of spreading them. */
  notReadyZone?: string
  /** How long ago each not-ready node's kubelet stopped, in seconds: [min, max]. Default [20, 1800]. */
  notReadySeconds?: [number, number]
  /**
   * How far the API server's watch cache lags behind etcd, in seconds: the cached (resourceVersion=0)
   * view of the node Leases is that much older. Default 0 (cached view = fresh view).
   */
  leaseCacheLagSeconds?: number
  /** Of the `otherOwned` objects, how many have an owner reference to a uid that no longer exists. Default 0. */
  danglingOwners?: number
  /**
   * Deployments deleted with propagationPolicy=Foreground that are stuck: they and their current
   * ReplicaSet carry deletionTimestamp and the foregroundDeletion finalizer, and the ReplicaSet's pods
   * (blockOwnerDeletion dependents) are held by a finalizer nobody removes. Default 0.
   */
  stuckForeground?: number
  /**
   * kube-controller-manager flags to add or change (without the leading --), e.g.
   * {"node-monitor-grace-period": "50s"}; null removes a default flag.
   */
  controllerManagerArgs?: Record<string, string | null>
}

export interface ResolvedOptions {
  seed: number
  now: string
  nowMs: number
  kubernetesVersion: string
  clusterName: string
  nodes: number
  zones: number
  region: string
  namespaces: number
  deployments: number
  replicaSetsPerDeployment: number
  /** Pods owned by Deployments' ReplicaSets (derived from `pods` or `podsPerReplicaSet`). */
  deploymentPods: number
  /** podsPerReplicaSet when given: every Deployment gets exactly that many replicas. */
  podsPerReplicaSet?: number
  pods: number
  daemonSets: number
  statefulSets: number
  replicasPerStatefulSet: number
  revisionsPerWorkload: number
  otherOwned: number
  events: number
  notReadyNodes: number
  notReadyTaints: NotReadyTaints
  notReadyZone?: string
  notReadySeconds: [number, number]
  leaseCacheLagSeconds: number
  danglingOwners: number
  stuckForeground: number
  /** The kube-controller-manager command line flags (name → value), sorted as kubeadm writes them. */
  controllerManagerArgs: Record<string, string>
  /** --node-monitor-grace-period in effect, in milliseconds. */
  nodeMonitorGracePeriodMs: number
}

/** Mirror pods of the control plane: kube-controller-manager only. */
export const CONTROL_PLANE_PODS = 1

function count(name: string, value: number | undefined, fallback: number, min = 0): number {
  const v = value ?? fallback
  if (!Number.isInteger(v) || v < min) throw new Error(`synthetic cluster: ${name} must be an integer >= ${min} (got ${v})`)
  return v
}

function zoneNames(region: string, zones: number): string[] {
  return Array.from({length: zones}, (_, i) => (i < 26 ? `${region}${String.fromCharCode(97 + i)}` : `${region}-z${i}`))
}

export function zonesOf(o: Pick<ResolvedOptions, 'region' | 'zones'>): string[] {
  return zoneNames(o.region, o.zones)
}

/** kubeadm's kube-controller-manager flags, plus the node-lifecycle ones an operator typically pins. */
function controllerManagerArgs(clusterName: string, overrides: Record<string, string | null> = {}): Record<string, string> {
  const args: Record<string, string | null> = {
    'allocate-node-cidrs': 'true',
    'authentication-kubeconfig': '/etc/kubernetes/controller-manager.conf',
    'authorization-kubeconfig': '/etc/kubernetes/controller-manager.conf',
    'bind-address': '127.0.0.1',
    'client-ca-file': '/etc/kubernetes/pki/ca.crt',
    'cluster-cidr': '100.64.0.0/10',
    'cluster-name': clusterName,
    'cluster-signing-cert-file': '/etc/kubernetes/pki/ca.crt',
    'cluster-signing-key-file': '/etc/kubernetes/pki/ca.key',
    controllers: '*,bootstrapsigner,tokencleaner',
    kubeconfig: '/etc/kubernetes/controller-manager.conf',
    'large-cluster-size-threshold': '50',
    'leader-elect': 'true',
    'node-eviction-rate': '0.1',
    'node-monitor-grace-period': '40s',
    'node-monitor-period': '5s',
    'requestheader-client-ca-file': '/etc/kubernetes/pki/front-proxy-ca.crt',
    'root-ca-file': '/etc/kubernetes/pki/ca.crt',
    'secondary-node-eviction-rate': '0.01',
    'service-account-private-key-file': '/etc/kubernetes/pki/sa.key',
    'service-cluster-ip-range': '10.96.0.0/12',
    'unhealthy-zone-threshold': '0.55',
    'use-service-account-credentials': 'true',
    ...overrides,
  }
  const out: Record<string, string> = {}
  for (const k of Object.keys(args).sort()) if (args[k] !== null) out[k] = args[k] as string
  return out
}

export function resolveOptions(o: SyntheticClusterOptions = {}): ResolvedOptions {
  const seed = o.seed ?? 1
  if (!Number.isInteger(seed)) throw new Error(`synthetic cluster: seed must be an integer (got ${seed})`)
  const now = o.now ?? '2026-11-29T03:00:00Z'
  const nodes = count('nodes', o.nodes, 10, 1)
  const zones = count('zones', o.zones, 3, 1)
  const region = o.region ?? 'eu-west-1'
  const daemonSets = count('daemonSets', o.daemonSets, 3)
  const statefulSets = count('statefulSets', o.statefulSets, Math.round(nodes * 0.02))
  const replicasPerStatefulSet = count('replicasPerStatefulSet', o.replicasPerStatefulSet, 3)
  const deployments = count('deployments', o.deployments, Math.max(1, Math.round(nodes * 0.4)))
  const fixedPods = daemonSets * nodes + statefulSets * replicasPerStatefulSet + CONTROL_PLANE_PODS
  if (o.pods !== undefined && o.podsPerReplicaSet !== undefined) throw new Error('synthetic cluster: give pods or podsPerReplicaSet, not both')
  let deploymentPods: number
  let pods: number
  if (o.podsPerReplicaSet !== undefined) {
    deploymentPods = deployments * count('podsPerReplicaSet', o.podsPerReplicaSet, 0)
    pods = deploymentPods + fixedPods
  } else {
    pods = count('pods', o.pods, nodes * 30)
    deploymentPods = pods - fixedPods
    if (deploymentPods < 0) {
      throw new Error(
        `synthetic cluster: pods=${pods} cannot hold the ${fixedPods} DaemonSet, StatefulSet and control-plane pods; raise pods or lower daemonSets/statefulSets`,
      )
    }
    if (deploymentPods > 0 && deployments === 0) {
      throw new Error(
        `synthetic cluster: pods=${pods} leaves ${deploymentPods} pods for Deployments but deployments=0; give pods=${fixedPods} or some deployments`,
      )
    }
  }
  const workers = nodes > 1 ? nodes - 1 : 1
  const notReadyNodes = count('notReadyNodes', o.notReadyNodes, 0)
  if (notReadyNodes > (nodes > 1 ? workers : 0))
    throw new Error(`synthetic cluster: notReadyNodes=${notReadyNodes} exceeds the ${nodes > 1 ? workers : 0} worker nodes`)
  if (o.notReadyZone !== undefined && !zoneNames(region, zones).includes(o.notReadyZone)) {
    throw new Error(`synthetic cluster: notReadyZone "${o.notReadyZone}" is not one of ${zoneNames(region, zones).join(', ')}`)
  }
  const notReadySeconds = o.notReadySeconds ?? [20, 1800]
  if (!(notReadySeconds[0] >= 0 && notReadySeconds[1] >= notReadySeconds[0]))
    throw new Error('synthetic cluster: notReadySeconds must be [min, max] with 0 <= min <= max')
  const otherOwned = count('otherOwned', o.otherOwned, nodes * 20)
  const danglingOwners = count('danglingOwners', o.danglingOwners, 0)
  if (otherOwned > 0 && deployments === 0) throw new Error('synthetic cluster: otherOwned objects hang off Deployments; give deployments >= 1 or otherOwned 0')
  if (danglingOwners > otherOwned)
    throw new Error(`synthetic cluster: danglingOwners=${danglingOwners} exceeds otherOwned=${otherOwned} (the dangling ones are among them)`)
  const stuckForeground = count('stuckForeground', o.stuckForeground, 0)
  if (stuckForeground > deployments) throw new Error(`synthetic cluster: stuckForeground=${stuckForeground} exceeds deployments=${deployments}`)
  const clusterName = o.clusterName ?? 'synthetic'
  const kubernetesVersion = o.kubernetesVersion ?? 'v1.31.2'
  const minor = Number(/^v?1\.(\d+)/.exec(kubernetesVersion)?.[1])
  if (!Number.isInteger(minor)) throw new Error(`synthetic cluster: kubernetesVersion "${kubernetesVersion}" is not like v1.31.2`)
  const cmArgs = controllerManagerArgs(clusterName, o.controllerManagerArgs)
  return {
    seed: seed | 0,
    now,
    nowMs: parseNow(now),
    kubernetesVersion,
    clusterName,
    nodes,
    zones,
    region,
    namespaces: count('namespaces', o.namespaces, Math.max(2, Math.round(nodes / 25)), 1),
    deployments,
    replicaSetsPerDeployment: count('replicaSetsPerDeployment', o.replicaSetsPerDeployment, 10, 1),
    deploymentPods,
    podsPerReplicaSet: o.podsPerReplicaSet,
    pods,
    daemonSets,
    statefulSets,
    replicasPerStatefulSet,
    revisionsPerWorkload: count('revisionsPerWorkload', o.revisionsPerWorkload, 2, 1),
    otherOwned,
    events: count('events', o.events, nodes * 2),
    notReadyNodes,
    notReadyTaints: o.notReadyTaints ?? 'mixed',
    notReadyZone: o.notReadyZone,
    notReadySeconds,
    leaseCacheLagSeconds: o.leaseCacheLagSeconds ?? 0,
    danglingOwners,
    stuckForeground,
    controllerManagerArgs: cmArgs,
    // Upstream's default when the flag is absent: 40s before 1.32, 50s since (kubernetes#126287).
    nodeMonitorGracePeriodMs: goDurationMs(cmArgs['node-monitor-grace-period'] ?? (minor >= 32 ? '50s' : '40s')),
  }
}
