// core/v1 Events. The API server keeps events for an hour (--event-ttl=1h), so every event here is from
// the last hour: the node controller's NodeNotReady for nodes it noticed in that hour, then routine ones —
// the recent rollouts' ScalingReplicaSet / SuccessfulCreate / Scheduled / Pulled / Created / Started, and
// readiness-probe failures and crash-loop back-offs of long-running pods, aggregated with a count.
import type {KubeObject} from '../../../src/cluster/source.js'
import type {Rng} from './prng.js'
import {rng, Stream, uidOf} from './identity.js'
import {meta} from './meta.js'
import type {ClusterPlan} from './plan.js'
import type {NodePlan} from './plan-nodes.js'
import type {PodFactory, PodIdentity} from './pods.js'
import {HOUR, isoSeconds, MINUTE} from './time.js'

interface Involved {
  kind: string
  namespace?: string
  name: string
  uid: string
  apiVersion: string
  fieldPath?: string
}

interface EventSpec {
  involved: Involved
  namespace: string
  reason: string
  message: string
  type: 'Normal' | 'Warning'
  component: string
  host?: string
  firstMs: number
  lastMs: number
  count: number
}

function eventObject(plan: ClusterPlan, e: number, r: Rng, s: EventSpec, resourceVersion: string): KubeObject {
  // The recorder names events <object>.<UnixNano of the first occurrence, in hex>.
  const nanos = BigInt(Math.floor(s.firstMs)) * 1_000_000n + BigInt(r.int(0, 999_999))
  const involvedObject: Record<string, unknown> = {kind: s.involved.kind}
  if (s.involved.namespace !== undefined) involvedObject.namespace = s.involved.namespace
  involvedObject.name = s.involved.name
  involvedObject.uid = s.involved.uid
  involvedObject.apiVersion = s.involved.apiVersion
  if (s.involved.fieldPath !== undefined) involvedObject.fieldPath = s.involved.fieldPath
  const source: Record<string, string> = {component: s.component}
  if (s.host !== undefined) source.host = s.host
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: meta({
      name: `${s.involved.name}.${nanos.toString(16)}`,
      namespace: s.namespace,
      uid: uidOf(plan.o.seed, Stream.Event, e),
      resourceVersion,
      createdMs: s.firstMs,
    }),
    involvedObject,
    reason: s.reason,
    message: s.message,
    source,
    firstTimestamp: isoSeconds(s.firstMs),
    lastTimestamp: isoSeconds(s.lastMs),
    count: s.count,
    type: s.type,
    eventTime: null,
    reportingComponent: s.component,
    reportingInstance: s.host ?? '',
  }
}

function nodeNotReady(n: NodePlan): EventSpec {
  const at = n.health.unknownSinceMs as number
  return {
    involved: {kind: 'Node', name: n.name, uid: n.uid, apiVersion: 'v1'},
    namespace: 'default',
    reason: 'NodeNotReady',
    message: `Node ${n.name} status is now: NodeNotReady`,
    type: 'Normal',
    component: 'node-controller',
    firstMs: at,
    lastMs: at,
    count: 1,
  }
}

interface PodRef {
  id: PodIdentity
  namespace: string
  container: string
  image: string
}

/** Any pod: a Deployment's if there are some, else a DaemonSet's, else none. */
function randomPod(plan: ClusterPlan, pods: PodFactory, r: Rng): PodRef | undefined {
  if (plan.o.deploymentPods > 0) {
    let d = plan.deployments[r.int(0, plan.deployments.length - 1)]
    while (d.replicas === 0) d = plan.deployments[(d.index + 1) % plan.deployments.length]
    const rev = d.revisions[d.revisions.length - 1]
    return {
      id: pods.deploymentPodIdentity(d, r.int(0, d.replicas - 1)),
      namespace: d.namespace,
      container: d.profile.container,
      image: `${d.profile.imageRepo}:${rev.imageTag}`,
    }
  }
  if (plan.daemonSets.length > 0) {
    const s = plan.daemonSets[r.int(0, plan.daemonSets.length - 1)]
    const rev = s.revisions[s.revisions.length - 1]
    return {
      id: pods.daemonSetPodIdentity(s, r.int(0, plan.nodes.length - 1)),
      namespace: s.namespace,
      container: s.profile.container,
      image: `${s.profile.imageRepo}:${rev.imageTag}`,
    }
  }
  return undefined
}

function podInvolved(p: PodRef, withContainer: boolean): Involved {
  return {
    kind: 'Pod',
    namespace: p.namespace,
    name: p.id.name,
    uid: p.id.uid,
    apiVersion: 'v1',
    fieldPath: withContainer ? `spec.containers{${p.container}}` : undefined,
  }
}

/** A long-running pod's recurring trouble, aggregated over the last hour. */
function podTrouble(plan: ClusterPlan, p: PodRef, r: Rng): EventSpec {
  const first = plan.o.nowMs - r.int(1, 59) * MINUTE - r.int(0, 59_999)
  const last = first + Math.floor(r.float() * (plan.o.nowMs - first))
  const backOff = r.chance(0.2)
  return {
    involved: podInvolved(p, true),
    namespace: p.namespace,
    reason: backOff ? 'BackOff' : 'Unhealthy',
    message: backOff
      ? `Back-off restarting failed container ${p.container} in pod ${p.id.name}_${p.namespace}(${p.id.uid})`
      : `Readiness probe failed: HTTP probe failed with statuscode: ${r.pick([500, 503, 503, 504])}`,
    type: 'Warning',
    component: 'kubelet',
    host: p.id.node.name,
    firstMs: first,
    lastMs: last,
    count: r.int(2, 240),
  }
}

/** One event of a rollout in the last hour: the Deployment scaling, the ReplicaSet creating, a pod starting. */
function rolloutEvent(plan: ClusterPlan, pods: PodFactory, r: Rng): EventSpec {
  const d = plan.deployments[plan.recentDeployments[r.int(0, plan.recentDeployments.length - 1)]]
  const rs = d.revisions[d.revisions.length - 1]
  const prev = d.revisions[d.revisions.length - 2]
  const at = Math.min(plan.o.nowMs, rs.createdMs + r.int(0, 120) * 1000)
  const step = r.int(0, 6)
  const once = (s: Omit<EventSpec, 'firstMs' | 'lastMs' | 'count' | 'namespace'>): EventSpec => ({
    ...s,
    namespace: d.namespace,
    firstMs: at,
    lastMs: at,
    count: 1,
  })
  if (step === 0) {
    return once({
      involved: {kind: 'Deployment', namespace: d.namespace, name: d.name, uid: d.uid, apiVersion: 'apps/v1'},
      reason: 'ScalingReplicaSet',
      message: r.chance(0.5) ? `Scaled up replica set ${rs.name} from 0 to ${d.replicas}` : `Scaled down replica set ${prev.name} from ${d.replicas} to 0`,
      type: 'Normal',
      component: 'deployment-controller',
    })
  }
  const pod = pods.deploymentPodIdentity(d, r.int(0, d.replicas - 1))
  if (step === 1) {
    return once({
      involved: {kind: 'ReplicaSet', namespace: d.namespace, name: rs.name, uid: rs.uid, apiVersion: 'apps/v1'},
      reason: 'SuccessfulCreate',
      message: `Created pod: ${pod.name}`,
      type: 'Normal',
      component: 'replicaset-controller',
    })
  }
  const ref: PodRef = {id: pod, namespace: d.namespace, container: d.profile.container, image: `${d.profile.imageRepo}:${rs.imageTag}`}
  if (step === 2) {
    return once({
      involved: podInvolved(ref, false),
      reason: 'Scheduled',
      message: `Successfully assigned ${d.namespace}/${pod.name} to ${pod.node.name}`,
      type: 'Normal',
      component: 'default-scheduler',
    })
  }
  const kubelet = (reason: string, message: string): EventSpec =>
    once({involved: podInvolved(ref, true), reason, message, type: 'Normal', component: 'kubelet', host: pod.node.name})
  if (step === 3) return kubelet('Pulling', `Pulling image "${ref.image}"`)
  if (step === 4) {
    const ms = r.int(300, 9000)
    return kubelet(
      'Pulled',
      `Successfully pulled image "${ref.image}" in ${ms}ms (${ms}ms including waiting). Image size: ${r.int(20_000_000, 400_000_000)} bytes.`,
    )
  }
  if (step === 5) return kubelet('Created', `Created container ${ref.container}`)
  return kubelet('Started', `Started container ${ref.container}`)
}

/** Every event, in order; `nextRv` hands out resourceVersions. */
export function* events(plan: ClusterPlan, pods: PodFactory, nextRv: () => string): Generator<KubeObject> {
  const o = plan.o
  let e = 0
  for (const n of plan.nodes) {
    if (e >= o.events) return
    if (n.health.unknownSinceMs !== undefined && n.health.unknownSinceMs > o.nowMs - HOUR) {
      yield eventObject(plan, e, rng(o.seed, Stream.Event, e), nodeNotReady(n), nextRv())
      e++
    }
  }
  for (; e < o.events; e++) {
    const r = rng(o.seed, Stream.Event, e)
    let spec: EventSpec | undefined
    if (plan.recentDeployments.length > 0 && r.chance(0.5)) spec = rolloutEvent(plan, pods, r)
    else {
      const p = randomPod(plan, pods, r)
      spec = p ? podTrouble(plan, p, r) : kubeletStarting(plan)
    }
    yield eventObject(plan, e, r, spec, nextRv())
  }
}

/** A cluster without workload pods still gets events: the control-plane node's kubelet (which names the node by name, not uid). */
function kubeletStarting(plan: ClusterPlan): EventSpec {
  const n = plan.nodes[0]
  const at = plan.o.nowMs - 30 * MINUTE
  return {
    involved: {kind: 'Node', name: n.name, uid: n.name, apiVersion: 'v1'},
    namespace: 'default',
    reason: 'Starting',
    message: 'Starting kubelet.',
    type: 'Normal',
    component: 'kubelet',
    host: n.name,
    firstMs: at,
    lastMs: at,
    count: 1,
  }
}
