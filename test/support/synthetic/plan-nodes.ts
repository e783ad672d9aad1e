// The nodes' plan: names, zones, ages and — for the not-ready ones — the timeline of a stopped kubelet
// as the node lifecycle controller sees it:
//
//   kubelet stops ─ last Lease renewal ─ controller notices (renewal + grace + up to one monitor period):
//   conditions → Unknown, pods → Ready=False ─ unreachable:NoSchedule taint ─ unreachable:NoExecute taint
//   (rate-limited queue) ─ 300 s later the taint-eviction controller deletes pods without a longer toleration.
import {rng, Stream, uidOf} from './identity.js'
import {nodeAddress, nodeName, podCidrBase} from './names.js'
import {zonesOf, type ResolvedOptions} from './options.js'
import {DAY, MINUTE} from './time.js'

export interface NodeHealth {
  /** Last Lease renewal: milliseconds, plus the microseconds MicroTime adds. */
  renewMs: number
  renewMicros: number
  /** Last NodeReady heartbeat the kubelet posted (status updates every 5 min when nothing changes). */
  heartbeatMs: number
  /** Set when the kubelet has stopped. */
  stoppedMs?: number
  /** When the node lifecycle controller set the conditions to Unknown; undefined while within the grace period. */
  unknownSinceMs?: number
  noScheduleTaintMs?: number
  noExecuteTaintMs?: number
}

export interface NodePlan {
  index: number
  name: string
  uid: string
  zone: string
  zoneIndex: number
  address: string
  podCidrBase: string
  createdMs: number
  controlPlane: boolean
  health: NodeHealth
}

/** Cluster birth: the control-plane node and the system namespaces date from then. */
export const CLUSTER_AGE_MS = 400 * DAY

function chooseNotReady(o: ResolvedOptions): Map<number, number> {
  const zones = zonesOf(o)
  const candidates: number[] = []
  for (let i = o.nodes > 1 ? 1 : 0; i < o.nodes; i++) {
    if (o.notReadyZone === undefined || zones[i % o.zones] === o.notReadyZone) candidates.push(i)
  }
  if (o.notReadyNodes > candidates.length) {
    throw new Error(`synthetic cluster: notReadyNodes=${o.notReadyNodes} but zone ${o.notReadyZone} has ${candidates.length} worker nodes`)
  }
  // Partial Fisher–Yates: the first notReadyNodes entries are a uniform sample; rank = order drawn.
  const r = rng(o.seed, Stream.Plan, 1)
  const ranks = new Map<number, number>()
  for (let k = 0; k < o.notReadyNodes; k++) {
    const j = k + Math.floor(r.float() * (candidates.length - k))
    ;[candidates[k], candidates[j]] = [candidates[j], candidates[k]]
    ranks.set(candidates[k], k)
  }
  return ranks
}

function healthy(o: ResolvedOptions, index: number): NodeHealth {
  const r = rng(o.seed, Stream.NodeHealth, index)
  return {
    // The kubelet renews its Lease every 10 s (a quarter of leaseDurationSeconds 40).
    renewMs: o.nowMs - r.int(0, 9_999),
    renewMicros: r.int(0, 999),
    heartbeatMs: o.nowMs - r.int(0, 299) * 1000,
  }
}

function stopped(o: ResolvedOptions, index: number, rank: number): NodeHealth {
  const r = rng(o.seed, Stream.NodeHealth, index)
  const [min, max] = o.notReadySeconds
  const stoppedMs = o.nowMs - Math.round((min + r.float() * (max - min)) * 1000)
  const h: NodeHealth = {
    renewMs: stoppedMs - r.int(0, 9_999),
    renewMicros: r.int(0, 999),
    heartbeatMs: stoppedMs - r.int(0, 299) * 1000,
    stoppedMs,
  }
  // The controller sees the last renewal at its next monitor pass (every 5 s), then waits the grace period.
  const noticed = h.renewMs + r.int(0, 5_000) + o.nodeMonitorGracePeriodMs + r.int(0, 5_000)
  if (noticed > o.nowMs) return h
  h.unknownSinceMs = noticed
  const tainted = o.notReadyTaints === 'all' || (o.notReadyTaints === 'mixed' && rank % 2 === 0)
  if (tainted) {
    h.noScheduleTaintMs = noticed + r.int(0, 500)
    // NoExecute goes through the per-zone rate-limited queue (--node-eviction-rate 0.1/s): some seconds later.
    h.noExecuteTaintMs = Math.min(o.nowMs, noticed + r.int(100, 10_000))
  }
  return h
}

export function planNodes(o: ResolvedOptions): NodePlan[] {
  const zones = zonesOf(o)
  const notReady = chooseNotReady(o)
  const nodes: NodePlan[] = []
  for (let i = 0; i < o.nodes; i++) {
    const zoneIndex = i % o.zones
    const k = Math.floor(i / o.zones)
    const controlPlane = i === 0
    const r = rng(o.seed, Stream.Node, i)
    // Worker nodes come and go with node-pool upgrades; the control plane is as old as the cluster.
    const createdMs = controlPlane
      ? o.nowMs - CLUSTER_AGE_MS + MINUTE
      : o.nowMs - r.int((1 * DAY) / MINUTE, (180 * DAY) / MINUTE) * MINUTE - r.int(0, 59) * 1000
    const rank = notReady.get(i)
    nodes.push({
      index: i,
      name: nodeName(o.region, zoneIndex, k),
      uid: uidOf(o.seed, Stream.Node, i),
      zone: zones[zoneIndex],
      zoneIndex,
      address: nodeAddress(zoneIndex, k),
      podCidrBase: podCidrBase(i),
      createdMs,
      controlPlane,
      health: rank === undefined ? healthy(o, i) : stopped(o, i, rank),
    })
  }
  return nodes
}

/** Nodes ordinary pods can land on: all but the tainted control-plane node (unless it is the only node). */
export function schedulableCount(o: ResolvedOptions): number {
  return o.nodes > 1 ? o.nodes - 1 : 1
}

export function schedulableNode(o: ResolvedOptions, k: number): number {
  return o.nodes > 1 ? 1 + k : 0
}
