// generateCluster: the whole synthetic cluster as a stream of plain Kubernetes objects, kind by kind in
// the order a capture lists them. Nothing is accumulated: each object is built when the caller asks for
// the next one, and dropped by the generator once yielded.
//
// Every object (and every sub-object) is freshly built: callers may mutate what they receive.
import type {KubeObject} from '../../../src/cluster/source.js'
import {controllerManagerPod, namespaceNames, namespaceObject} from './control-plane.js'
import {controllerRevisionObject} from './controller-revisions.js'
import {daemonSetObject} from './daemonsets.js'
import {deploymentObject, replicaSetObject} from './deployments.js'
import {events} from './events.js'
import {ResourceVersions} from './identity.js'
import {daemonSetTemplateLabels, statefulSetTemplateLabels} from './labels.js'
import {controllerManagerLease, leaseRenewMs, nodeLease, nodeObject} from './nodes.js'
import type {SyntheticClusterOptions} from './options.js'
import {otherOwnedObject} from './other-owned.js'
import {planCluster, type ClusterPlan} from './plan.js'
import {PodFactory} from './pods.js'
import {statefulSetObject} from './statefulsets.js'

/**
 * Node Leases carry the newest resourceVersions (they are renewed every 10 s): above every other
 * object's. The watch cache's view of a renewed Lease is an older revision of it.
 */
function leaseResourceVersion(plan: ClusterPlan, nodeIndex: number, view: 'fresh' | 'cached'): string {
  let total = 0
  for (const k in plan.counts) total += plan.counts[k]
  return String(plan.rvStart + total + 2 * nodeIndex + (view === 'fresh' ? 1 : 0))
}

function* objects(plan: ClusterPlan): Generator<KubeObject> {
  const o = plan.o
  const rv = new ResourceVersions(plan.rvStart)
  const next = (): string => rv.take()
  const names = namespaceNames(plan)
  for (let i = 0; i < names.length; i++) yield namespaceObject(plan, i, names[i], next())
  for (const n of plan.nodes) yield nodeObject(o, n, next())
  for (const n of plan.nodes) yield nodeLease(o, n, leaseResourceVersion(plan, n.index, 'fresh'), n.health.renewMs)
  yield controllerManagerLease(o, plan.nodes[0], next())
  for (const d of plan.deployments) yield deploymentObject(d, next())
  for (const d of plan.deployments) for (const rs of d.revisions) yield replicaSetObject(d, rs, next())
  const pods = new PodFactory(plan)
  yield controllerManagerPod(plan, next())
  for (const d of plan.deployments) for (let i = 0; i < d.replicas; i++) yield pods.deploymentPod(d, i, next())
  for (const s of plan.daemonSets) for (let i = 0; i < o.nodes; i++) yield pods.daemonSetPod(s, i, next())
  for (const s of plan.statefulSets) for (let i = 0; i < s.replicas; i++) yield pods.statefulSetPod(s, i, next())
  const notReady = plan.nodes.filter((n) => n.health.unknownSinceMs !== undefined).length
  for (const s of plan.daemonSets) yield daemonSetObject(s, next(), notReady)
  for (const s of plan.statefulSets) yield statefulSetObject(s, next())
  for (const s of plan.daemonSets) for (const rev of s.revisions) yield controllerRevisionObject(s, 'DaemonSet', daemonSetTemplateLabels(s.name), rev, next())
  for (const s of plan.statefulSets) for (const rev of s.revisions) yield controllerRevisionObject(s, 'StatefulSet', statefulSetTemplateLabels(s.name), rev, next())
  for (let k = 0; k < o.otherOwned; k++) yield otherOwnedObject(plan, k, next())
  yield* events(plan, pods, next)
}

/** A planned synthetic cluster: its objects (fresh view), the watch cache's view of the node Leases, the counts. */
export class SyntheticCluster {
  readonly plan: ClusterPlan

  constructor(options: SyntheticClusterOptions = {}) {
    this.plan = planCluster(options)
  }

  /** Every object, as a quorum read returns it. Each call starts a new, identical stream. */
  objects(): Generator<KubeObject> {
    return objects(this.plan)
  }

  /**
   * The node Leases as the API server's watch cache serves them (resourceVersion=0 reads): the fresh
   * Lease when the cache is current, else the renewal the cache last saw, `leaseCacheLagSeconds` behind.
   */
  *cachedLeases(): Generator<KubeObject> {
    const lagMs = this.plan.o.leaseCacheLagSeconds * 1000
    for (const n of this.plan.nodes) {
      const renewMs = leaseRenewMs(n.health, this.plan.o.nowMs, lagMs)
      const view = renewMs === n.health.renewMs ? 'fresh' : 'cached'
      yield nodeLease(this.plan.o, n, leaseResourceVersion(this.plan, n.index, view), renewMs)
    }
  }

  /** Objects per kind the stream holds (Secret counted as metadata-only objects). */
  get counts(): Record<string, number> {
    return {...this.plan.counts}
  }

  get total(): number {
    return Object.values(this.plan.counts).reduce((a, b) => a + b, 0)
  }
}

/** The synthetic cluster's objects, streamed; same options (seed included) → identical objects. */
export function generateCluster(options: SyntheticClusterOptions = {}): Generator<KubeObject> {
  return new SyntheticCluster(options).objects()
}
