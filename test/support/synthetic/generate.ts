// generateCluster: the whole synthetic cluster as a stream of plain Kubernetes objects, kind by kind in
// the order a capture lists them. Nothing is accumulated: each object is built when the caller asks for
// the next one, and dropped by the generator once yielded.
//
// Every object (and every sub-object) is freshly built: callers may mutate what they receive.
import type {KubeObject, ReadView} from '../../../src/cluster/source.js'
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
import type {NodePlan} from './plan-nodes.js'
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

/** A node's Lease as a quorum read (fresh) or the watch cache (cached, `leaseCacheLagSeconds` behind) returns it. */
function leaseIn(plan: ClusterPlan, n: NodePlan, view: ReadView): KubeObject {
  const renewMs = view === 'fresh' ? n.health.renewMs : leaseRenewMs(n.health, plan.o.nowMs, plan.o.leaseCacheLagSeconds * 1000)
  return nodeLease(plan.o, n, leaseResourceVersion(plan, n.index, renewMs === n.health.renewMs ? 'fresh' : 'cached'), renewMs)
}

function* objects(plan: ClusterPlan, leaseView: ReadView): Generator<KubeObject> {
  const o = plan.o
  const rv = new ResourceVersions(plan.rvStart)
  const next = (): string => rv.take()
  const names = namespaceNames(plan)
  for (let i = 0; i < names.length; i++) yield namespaceObject(plan, i, names[i], next())
  for (const n of plan.nodes) yield nodeObject(o, n, next())
  for (const n of plan.nodes) yield leaseIn(plan, n, leaseView)
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
  for (const s of plan.statefulSets)
    for (const rev of s.revisions) yield controllerRevisionObject(s, 'StatefulSet', statefulSetTemplateLabels(s.name), rev, next())
  for (let k = 0; k < o.otherOwned; k++) yield otherOwnedObject(plan, k, next())
  yield* events(plan, pods, next)
}

/** A planned synthetic cluster: its objects (fresh view), the watch cache's view of the node Leases, the counts. */
export class SyntheticCluster {
  readonly plan: ClusterPlan

  constructor(options: SyntheticClusterOptions = {}) {
    this.plan = planCluster(options)
  }

  /**
   * Every object, as a quorum read returns it. Each call starts a new, identical stream. With
   * leaseView 'cached' the node Leases are the watch cache's view instead — e.g. to load a fake API
   * server, freeze its cache, then write the fresh Leases over them (see README.md).
   */
  objects(leaseView: ReadView = 'fresh'): Generator<KubeObject> {
    return objects(this.plan, leaseView)
  }

  /** The node Leases in one view: fresh, or as the watch cache serves them (resourceVersion=0 reads). */
  *leases(view: ReadView): Generator<KubeObject> {
    for (const n of this.plan.nodes) yield leaseIn(this.plan, n, view)
  }

  /**
   * The node Leases as the API server's watch cache serves them: the fresh Lease when the cache is
   * current, else the renewal the cache last saw, `leaseCacheLagSeconds` behind.
   */
  cachedLeases(): Generator<KubeObject> {
    return this.leases('cached')
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
