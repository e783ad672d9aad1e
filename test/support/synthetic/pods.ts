// Pods of Deployments (via their current ReplicaSet), DaemonSets and StatefulSets. A pod's identity — name,
// uid, node — is a function of its global index, so events and other objects can refer to any pod.
import type {KubeObject} from '../../../src/cluster/source.js'
import type {Rng} from './prng.js'
import {randomSuffix, uniqueSuffix} from './prng.js'
import {rng, Stream, uidOf} from './identity.js'
import {daemonSetTemplateLabels, deploymentTemplateLabels, statefulSetTemplateLabels, withLabels} from './labels.js'
import {controllerRef, meta} from './meta.js'
import type {ClusterPlan} from './plan.js'
import {schedulableCount, schedulableNode, type NodePlan} from './plan-nodes.js'
import type {DaemonSetPlan, DeploymentPlan, RevisionPlan, StatefulSetPlan, WorkloadPlan} from './plan-workloads.js'
import {podState} from './pod-status.js'
import {daemonPodTolerations, defaultTolerations, podSpec, qosClass} from './templates.js'

/** The finalizer holding pods of a Deployment stuck in foreground deletion: a controller that never removes it. */
export const STUCK_POD_FINALIZER = 'example.com/drain-protection'

export interface PodIdentity {
  index: number
  name: string
  uid: string
  node: NodePlan
  /** Positioned after the identity draws; the pod's other properties continue from it. */
  rng: Rng
}

function latest(w: WorkloadPlan): RevisionPlan {
  return w.revisions[w.revisions.length - 1]
}

/** Creation window: after its revision and its node existed, before the node's kubelet stopped. */
function createdMs(plan: ClusterPlan, r: Rng, rev: RevisionPlan, node: NodePlan, notAfterMs = Infinity): number {
  const lo = Math.max(rev.createdMs, node.createdMs) + 1000
  let hi = Math.min(plan.o.nowMs - 60_000, (node.health.stoppedMs ?? Infinity) - 60_000, notAfterMs - 60_000)
  // A rollout replaces its pods within minutes; older ReplicaSets' pods were recreated at any time since.
  if (rev.createdMs > plan.o.nowMs - 3_600_000) hi = Math.min(hi, rev.createdMs + 120_000)
  return lo < hi ? lo + Math.floor(r.float() * (hi - lo)) : lo
}

function pickNode(plan: ClusterPlan, r: Rng, notBeforeMs: number): NodePlan {
  let node = plan.nodes[schedulableNode(plan.o, r.int(0, schedulableCount(plan.o) - 1))]
  // The scheduler would not have put a pod created after a kubelet stopped on that node.
  for (let tries = 0; tries < 4 && (node.health.stoppedMs ?? Infinity) - 60_000 <= notBeforeMs; tries++) {
    node = plan.nodes[schedulableNode(plan.o, r.int(0, schedulableCount(plan.o) - 1))]
  }
  return node
}

export class PodFactory {
  /** Next pod IP per node, within the node's /24: pod IPs are unique in the cluster. */
  private readonly nextHost: Uint16Array

  constructor(private readonly plan: ClusterPlan) {
    this.nextHost = new Uint16Array(plan.nodes.length)
  }

  private podIp(node: NodePlan): string {
    const host = this.nextHost[node.index]++
    return `${node.podCidrBase}.${2 + (host % 252)}`
  }

  deploymentPodIdentity(d: DeploymentPlan, ordinal: number): PodIdentity {
    const index = d.firstPod + ordinal
    const r = rng(this.plan.o.seed, Stream.Pod, index)
    const name = `${latest(d).name}-${uniqueSuffix(index, this.plan.o.seed)}`
    return {index, name, uid: uidOf(this.plan.o.seed, Stream.Pod, index), node: pickNode(this.plan, r, latest(d).createdMs), rng: r}
  }

  statefulSetPodIdentity(s: StatefulSetPlan, ordinal: number): PodIdentity {
    const index = s.firstPod + ordinal
    const r = rng(this.plan.o.seed, Stream.Pod, index)
    return {index, name: `${s.name}-${ordinal}`, uid: uidOf(this.plan.o.seed, Stream.Pod, index), node: pickNode(this.plan, r, latest(s).createdMs), rng: r}
  }

  daemonSetPodIdentity(s: DaemonSetPlan, nodeIndex: number): PodIdentity {
    const index = s.firstPod + nodeIndex
    const r = rng(this.plan.o.seed, Stream.Pod, index)
    return {
      index,
      name: `${s.name}-${uniqueSuffix(index, this.plan.o.seed)}`,
      uid: uidOf(this.plan.o.seed, Stream.Pod, index),
      node: this.plan.nodes[nodeIndex],
      rng: r,
    }
  }

  deploymentPod(d: DeploymentPlan, ordinal: number, resourceVersion: string): KubeObject {
    const id = this.deploymentPodIdentity(d, ordinal)
    const rs = latest(d)
    const created = createdMs(this.plan, id.rng, rs, id.node, d.deletionMs)
    const labels = withLabels(deploymentTemplateLabels(d.name), {'pod-template-hash': rs.hash})
    const annotations = rs.restartedAt === undefined ? undefined : {'kubectl.kubernetes.io/restartedAt': rs.restartedAt}
    return this.pod(d, rs, id, created, resourceVersion, {
      generateName: `${rs.name}-`,
      labels,
      annotations,
      owner: controllerRef('apps/v1', 'ReplicaSet', rs.name, rs.uid),
      tolerationSeconds: 300,
      heldSinceMs: d.deletionMs === undefined ? undefined : d.deletionMs + id.rng.int(1000, 3000),
    })
  }

  daemonSetPod(s: DaemonSetPlan, nodeIndex: number, resourceVersion: string): KubeObject {
    const id = this.daemonSetPodIdentity(s, nodeIndex)
    const rev = latest(s)
    const created = createdMs(this.plan, id.rng, rev, id.node)
    const labels = withLabels(daemonSetTemplateLabels(s.name), {'controller-revision-hash': rev.hash, 'pod-template-generation': String(s.generation)})
    return this.pod(s, rev, id, created, resourceVersion, {
      generateName: `${s.name}-`,
      labels,
      owner: controllerRef('apps/v1', 'DaemonSet', s.name, s.uid),
      pinnedToNode: true,
    })
  }

  statefulSetPod(s: StatefulSetPlan, ordinal: number, resourceVersion: string): KubeObject {
    const id = this.statefulSetPodIdentity(s, ordinal)
    const rev = latest(s)
    const created = createdMs(this.plan, id.rng, rev, id.node)
    const labels = withLabels(statefulSetTemplateLabels(s.name), {
      'apps.kubernetes.io/pod-index': String(ordinal),
      'controller-revision-hash': rev.name,
      'statefulset.kubernetes.io/pod-name': id.name,
    })
    return this.pod(s, rev, id, created, resourceVersion, {
      labels,
      owner: controllerRef('apps/v1', 'StatefulSet', s.name, s.uid),
      tolerationSeconds: 300,
      hostname: id.name,
      subdomain: s.serviceName,
    })
  }

  private pod(
    w: WorkloadPlan,
    rev: RevisionPlan,
    id: PodIdentity,
    created: number,
    resourceVersion: string,
    extra: {
      generateName?: string
      labels: Record<string, string>
      annotations?: Record<string, string>
      owner: ReturnType<typeof controllerRef>
      /** undefined: tolerates unreachable forever (DaemonSet pods). */
      tolerationSeconds?: number
      pinnedToNode?: boolean
      hostname?: string
      subdomain?: string
      heldSinceMs?: number
    },
  ): KubeObject {
    const o = this.plan.o
    const r = id.rng
    const system = w.profile.system !== undefined
    const spec = podSpec(w.profile, rev, {
      nodeName: id.node.name,
      apiAccessVolume: `kube-api-access-${randomSuffix(r)}`,
      tolerations: system ? daemonPodTolerations(true) : defaultTolerations(),
      pinnedToNode: extra.pinnedToNode,
      hostname: extra.hostname,
      subdomain: extra.subdomain,
    })
    const state = podState({
      rng: r,
      nowMs: o.nowMs,
      createdMs: created,
      containerName: w.profile.container,
      image: `${w.profile.imageRepo}:${rev.imageTag}`,
      imageId: `${w.profile.imageRepo}@sha256:${rev.imageDigest}`,
      qosClass: qosClass(w.profile),
      hostIP: id.node.address,
      podIP: system ? id.node.address : this.podIp(id.node),
      node: id.node.health,
      unreachableTolerationSeconds: extra.tolerationSeconds,
      heldByFinalizerSinceMs: extra.heldSinceMs,
    })
    return {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: meta({
        name: id.name,
        generateName: extra.generateName,
        namespace: w.namespace,
        uid: id.uid,
        resourceVersion,
        createdMs: created,
        deletionMs: state.deletionMs,
        deletionGracePeriodSeconds: state.deletionGracePeriodSeconds,
        labels: extra.labels,
        annotations: extra.annotations,
        ownerReferences: [extra.owner],
        finalizers: extra.heldSinceMs === undefined ? undefined : [STUCK_POD_FINALIZER],
      }),
      spec,
      status: state.status,
    }
  }
}
