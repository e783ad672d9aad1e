// The cluster's plan: everything above the pods — nodes, workloads, their revisions — decided up front
// from the seed. Proportional to nodes + workloads + revisions (a few MB at benchmark size), never to pods
// or other objects, which are generated one at a time from it.
import {rng, Stream} from './identity.js'
import {CONTROL_PLANE_PODS, resolveOptions, type ResolvedOptions, type SyntheticClusterOptions} from './options.js'
import {planNodes, type NodePlan} from './plan-nodes.js'
import {planDaemonSets, planDeployments, planStatefulSets, type DaemonSetPlan, type DeploymentPlan, type StatefulSetPlan} from './plan-workloads.js'
import {HOUR} from './time.js'
import {otherOwnedKind} from './other-owned.js'

export interface ClusterPlan {
  o: ResolvedOptions
  nodes: NodePlan[]
  deployments: DeploymentPlan[]
  daemonSets: DaemonSetPlan[]
  statefulSets: StatefulSetPlan[]
  /** Deployments whose current ReplicaSet rolled out in the last hour: what routine events are about. */
  recentDeployments: number[]
  /** Global index of the kube-controller-manager mirror pod (after every workload's pods). */
  controlPlanePod: number
  /** First resourceVersion handed out; the node Leases' come after every other object's. */
  rvStart: number
  counts: Record<string, number>
}

/** How many objects of each kind the options produce (the generator yields exactly these). */
export function expectedCounts(o: ResolvedOptions): Record<string, number> {
  const counts: Record<string, number> = {
    Namespace: 4 + o.namespaces,
    Node: o.nodes,
    // One per node in kube-node-lease, plus kube-controller-manager's leader-election Lease in kube-system.
    Lease: o.nodes + 1,
    Deployment: o.deployments,
    ReplicaSet: o.deployments * o.replicaSetsPerDeployment,
    Pod: o.pods,
    DaemonSet: o.daemonSets,
    StatefulSet: o.statefulSets,
    ControllerRevision: (o.daemonSets + o.statefulSets) * o.revisionsPerWorkload,
    Event: o.events,
  }
  for (let k = 0; k < o.otherOwned; k++) {
    const kind = otherOwnedKind(o, k)
    counts[kind] = (counts[kind] ?? 0) + 1
  }
  return counts
}

export function planCluster(options: SyntheticClusterOptions = {}): ClusterPlan {
  const o = resolveOptions(options)
  const deployments = planDeployments(o)
  const daemonSets = planDaemonSets(o, o.deploymentPods)
  const statefulSets = planStatefulSets(o, o.deploymentPods + o.daemonSets * o.nodes)
  const controlPlanePod = o.deploymentPods + o.daemonSets * o.nodes + o.statefulSets * o.replicasPerStatefulSet
  if (controlPlanePod + CONTROL_PLANE_PODS !== o.pods) throw new Error('synthetic cluster: internal pod count mismatch')
  const recentDeployments = deployments
    .filter((d) => d.replicas > 0 && d.revisions.length > 1 && d.revisions[d.revisions.length - 1].createdMs > o.nowMs - HOUR)
    .map((d) => d.index)
  return {
    o,
    nodes: planNodes(o),
    deployments,
    daemonSets,
    statefulSets,
    recentDeployments,
    controlPlanePod,
    // A cluster that has been running for a while: etcd revisions in the hundreds of millions.
    rvStart: 100_000_000 + rng(o.seed, Stream.Plan, 3).int(0, 50_000_000),
    counts: expectedCounts(o),
  }
}
