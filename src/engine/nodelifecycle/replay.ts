// Offline replay: the controller's memory is not in the API, so it is rebuilt from what the objects show
// (decisions §2.3, §10): the last sign of life is taken to be the newer of the Ready heartbeat and the lease
// renewTime (creationTimestamp for a node that never posted), previous zone states are those of the Ready
// conditions as they stand, and nodes that are not ready and lack their NoExecute taint sit in their zone's
// queue. One monitorNodeHealth pass at `now` then says what the controller does next.
import {readyCondition} from './conditions.js'
import {type ClusterView, type ControllerState, monitorNodeHealth, newControllerState, type PassResult} from './controller.js'
import type {LiveLeaseLookup} from './health.js'
import {RateLimitedTimedQueue} from './rate-limited-queue.js'
import {NOT_READY_NO_EXECUTE, taintExists, UNREACHABLE_NO_EXECUTE} from './taints.js'
import {parseMillis} from './time.js'
import type {DataEvidence} from './evidence.js'
import {copyNode, type LeaseLike, type NodeCondition, type NodeLifecycleSettings, type NodeLike, type ZoneState} from './types.js'
import {computeZoneState, getZoneKey, isNodeExcludedFromDisruptionChecks, rateForState} from './zone.js'

export interface ReplayInput {
  /** Nodes as the API returns them now (not modified). */
  nodes: readonly NodeLike[]
  /** kube-node-lease Leases from the watch cache (what the controller's informer holds), by node name. */
  cachedLeases: ReadonlyMap<string, LeaseLike>
  /** The live (quorum) read of each node's lease; a missing name means NotFound. */
  liveLeases: ReadonlyMap<string, LiveLeaseLookup>
  /** The resourceVersion of the watch-cache lease list: the informer's last sync RV. */
  leaseInformerSyncRV?: string
  now: number
  settings: NodeLifecycleSettings
  /** What the data can prove (absent: a live cluster, every read answered). */
  evidence?: DataEvidence
  /**
   * Nodes whose sign of life the data cannot judge (no Lease in the data, its absence no proof, a stale status
   * heartbeat): the pass takes them as the data shows them, Ready as posted, not as stale.
   */
  assumeAlive?: ReadonlySet<string>
}

export interface SignOfLife {
  lastHeartbeat?: number
  lastRenewal?: number
  /** The estimate of the controller's probeTimestamp. */
  probe: number
  probeFrom: 'heartbeat' | 'lease' | 'creationTimestamp'
}

export function estimateSignOfLife(node: NodeLike, lease: LeaseLike | undefined): SignOfLife {
  const name = node.metadata?.name ?? ''
  const ready = readyCondition(node)
  const creation = parseMillis(node.metadata?.creationTimestamp, `node ${name} creationTimestamp`) ?? 0
  const lastHeartbeat = parseMillis(ready?.lastHeartbeatTime, `node ${name} Ready lastHeartbeatTime`)
  const lastRenewal = parseMillis(lease?.spec?.renewTime, `lease ${name} renewTime`)
  let probe = ready ? (lastHeartbeat ?? creation) : creation
  let probeFrom: SignOfLife['probeFrom'] = ready && lastHeartbeat !== undefined ? 'heartbeat' : 'creationTimestamp'
  if (lastRenewal !== undefined && lastRenewal > probe) {
    probe = lastRenewal
    probeFrom = 'lease'
  }
  return {lastHeartbeat, lastRenewal, probe, probeFrom}
}

export interface PreviousZone {
  key: string
  state: ZoneState
  counted: number
  ready: number
  notReady: number
}

/** Zone states as the current Ready conditions put them (excluded nodes not counted). */
export function zoneStatesOf(nodes: readonly NodeLike[], settings: NodeLifecycleSettings): PreviousZone[] {
  const byZone = new Map<string, (NodeCondition | undefined)[]>()
  for (const n of nodes) {
    if (isNodeExcludedFromDisruptionChecks(n)) continue
    const k = getZoneKey(n)
    const list = byZone.get(k) ?? []
    list.push(readyCondition(n))
    byZone.set(k, list)
  }
  return [...byZone].map(([key, list]) => ({key, ...computeZoneState(list, settings.unhealthyZoneThreshold), counted: list.length}))
}

export interface Replay {
  state: ControllerState
  /** Deep copies of the nodes after the pass (with the controller's writes applied). */
  after: NodeLike[]
  pass: PassResult
  signs: Map<string, SignOfLife>
  previousZones: PreviousZone[]
  /** Whether every zone was already fully disrupted before the pass (master disruption mode in force). */
  wasMasterDisruption: boolean
}

export function replay(input: ReplayInput): Replay {
  const {settings} = input
  const state = newControllerState()
  const signs = new Map<string, SignOfLife>()
  for (const node of input.nodes) {
    const name = node.metadata?.name ?? ''
    const lease = input.cachedLeases.get(name)
    const sign = estimateSignOfLife(node, lease)
    signs.set(name, sign)
    state.knownNodes.add(name)
    const ready = readyCondition(node)
    state.health.set(name, {
      conditions: (node.status?.conditions ?? []).map((c) => ({...c})),
      probeTimestamp: input.assumeAlive?.has(name) ? input.now : sign.probe,
      readyTransitionTimestamp: parseMillis(ready?.lastTransitionTime, `node ${name} Ready lastTransitionTime`) ?? sign.probe,
      lease,
    })
  }

  const previousZones = zoneStatesOf(input.nodes, settings)
  const wasMasterDisruption = previousZones.length > 0 && previousZones.every((z) => z.state === 'FullDisruption')
  for (const z of previousZones) {
    state.zoneStates.set(z.key, z.state)
    const q = new RateLimitedTimedQueue(settings.nodeEvictionRate)
    q.swapLimiter(wasMasterDisruption ? 0 : (rateForState(z.state, z.counted, settings) ?? settings.nodeEvictionRate), input.now)
    state.zoneQueues.set(z.key, q)
  }
  // Not-ready nodes without their NoExecute taint were queued by earlier passes (oldest transition first).
  const waiting = input.nodes
    .map((n) => ({n, ready: readyCondition(n)}))
    .filter(
      ({n, ready}) =>
        (ready?.status === 'False' && !taintExists(n.spec?.taints, NOT_READY_NO_EXECUTE)) ||
        (ready?.status === 'Unknown' && !taintExists(n.spec?.taints, UNREACHABLE_NO_EXECUTE)),
    )
    .sort(
      (a, b) =>
        (parseMillis(a.ready?.lastTransitionTime, 'Ready lastTransitionTime') ?? 0) -
        (parseMillis(b.ready?.lastTransitionTime, 'Ready lastTransitionTime') ?? 0),
    )
  for (const {n, ready} of waiting) {
    const since = parseMillis(ready?.lastTransitionTime, 'Ready lastTransitionTime') ?? input.now
    state.zoneQueues.get(getZoneKey(n))?.add(n.metadata?.name ?? '', n.metadata?.uid ?? '', Math.min(since, input.now))
  }

  const after = input.nodes.map(copyNode)
  const view: ClusterView = {
    nodes: after,
    leases: input.cachedLeases,
    liveLease: (name) => input.liveLeases.get(name) ?? {kind: 'notFound'},
    leaseInformerSyncRV: input.leaseInformerSyncRV,
  }
  const pass = monitorNodeHealth(state, view, input.now, settings)
  return {state, after, pass, signs, previousZones, wasMasterDisruption}
}
