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
import {isoMicros, parseMicros, parseMillis} from './time.js'
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
  /** `now` in microseconds when known that finely (--now with µs); default now × 1000. */
  nowMicros?: number
  settings: NodeLifecycleSettings
  /** What the data can prove (absent: a live cluster, every read answered). */
  evidence?: DataEvidence
  /**
   * Nodes whose sign of life the data cannot judge (no Lease in the data, its absence no proof, a stale status
   * heartbeat): the pass takes them as the data shows them, Ready as posted, not as stale.
   */
  assumeAlive?: ReadonlySet<string>
  /**
   * Nodes not in `nodes` that the pass counts Ready in their zone, as a count per zone key (issue 29 point 3: `node
   * NAME` live, a zone's rows of the server-side Table). Only for nodes the data proves Ready True before the pass and
   * not stale in it — STATUS Ready (printNode: the Ready condition is True) and a Lease renewed within the grace — and
   * not labelled node.kubernetes.io/exclude-disruption: tryUpdateNodeHealth leaves such a node's Ready condition as it
   * is (nlc.go@2b96ebcf:828-1031), processTaintBaseEviction only takes it out of its zone queue (it is not in one), and
   * ComputeZoneState counts only Ready != True (nlc.go@2b96ebcf:1318-1336); setLimiterInZone needs the zone's size
   * (nlc.go@2b96ebcf:1198-1211). Nothing else about such a node reaches another node's answer, so a count gives every
   * listed node the analysis the whole list gives. Not for a pass the lease circuit breaker holds: which nodes it
   * blocks depends on their order (drive.ts reads the zone whole then).
   */
  unlistedReady?: ReadonlyMap<string, number>
}

export interface SignOfLife {
  lastHeartbeat?: number
  lastRenewal?: number
  /** The same stamps at their own precision (a MicroTime renewTime keeps its µs), for output. */
  lastHeartbeatMicros?: number
  lastRenewalMicros?: number
  /** The estimate of the controller's probeTimestamp (ms; probeMicros exact). */
  probe: number
  probeMicros: number
  /**
   * heartbeat / lease: the controller noticed that stamp change. leaseAfterHeartbeat: the pass after a heartbeat
   * change saw the unchanged Lease as first seen. leaseFirstSeen: a Lease without renewTime, first seen when created.
   * creationTimestamp: the controller's first sight of the node (never posted, or a stamp before it).
   */
  probeFrom: 'heartbeat' | 'lease' | 'leaseAfterHeartbeat' | 'leaseFirstSeen' | 'creationTimestamp'
  /** What the data shows of a kubelet clock that is not the API server's (a stamp before creation or after now). */
  skew?: string
  /** The controller's own record (its Unknown write) replaced the estimate, and what that implies. */
  fromRecord?: string
}

/**
 * The "observed probe" (docs/node-lifecycle-model.md): when the controller last noticed a sign of life, as a
 * controller that ran throughout and sees each stamp when it is written would have it. tryUpdateNodeHealth
 * (nlc.go@2b96ebcf:828-1031) only compares stamps for change, and times the change by its own clock:
 * - a Ready heartbeat change or a renewTime advance is noticed at the stamp (steps 3 and 4);
 * - the pass that notices a heartbeat change rebuilds the record without its Lease (nlc.go:915-935), so when the
 *   heartbeat is the newer stamp the unchanged Lease is "first seen" one --node-monitor-period later (step 4,
 *   `savedLease == nil`), and that pass is the probe — unless now comes first;
 * - a Lease without renewTime is a sign of life when first seen (`observedLease != nil && savedLease == nil`): at
 *   its creationTimestamp at the earliest;
 * - the controller's first sight of the node is the probe of a new record, so no probe is before the node's
 *   creationTimestamp (a kubelet clock behind the API server's does not age a new node), and none after now.
 */
export function estimateSignOfLife(node: NodeLike, lease: LeaseLike | undefined, settings: NodeLifecycleSettings, nowMicros: number): SignOfLife {
  const name = node.metadata?.name ?? ''
  const ready = readyCondition(node)
  const creationUs = parseMicros(node.metadata?.creationTimestamp, `node ${name} creationTimestamp`) ?? 0
  const hbUs = parseMicros(ready?.lastHeartbeatTime, `node ${name} Ready lastHeartbeatTime`)
  const renewUs = parseMicros(lease?.spec?.renewTime, `lease ${name} renewTime`)
  const leaseCreatedUs = parseMicros(lease?.metadata?.creationTimestamp as string | undefined, `lease ${name} creationTimestamp`)
  let probeUs = ready ? (hbUs ?? creationUs) : creationUs
  let probeFrom: SignOfLife['probeFrom'] = ready && hbUs !== undefined ? 'heartbeat' : 'creationTimestamp'
  if (lease) {
    if (renewUs !== undefined && renewUs > probeUs) {
      probeUs = renewUs
      probeFrom = 'lease'
    } else if (ready && hbUs !== undefined && (renewUs === undefined || renewUs < hbUs) && (leaseCreatedUs === undefined || leaseCreatedUs < hbUs)) {
      // Class 2: the next pass after the heartbeat change sees the Lease as first seen (a Lease created at the
      // heartbeat's pass or later was first seen in that pass, and kept).
      const next = hbUs + settings.nodeMonitorPeriod * 1000
      if (next <= nowMicros) {
        probeUs = next
        probeFrom = 'leaseAfterHeartbeat'
      }
    }
    // Class 4: a Lease with no renewTime counts when the controller first sees it.
    if (renewUs === undefined && leaseCreatedUs !== undefined && leaseCreatedUs > probeUs && leaseCreatedUs <= nowMicros) {
      probeUs = leaseCreatedUs
      probeFrom = 'leaseFirstSeen'
    }
  }
  let skew: string | undefined
  const stamp = (us: number | undefined) => (us === undefined ? '' : isoMicros(us))
  // Class 3: never before the controller's first sight of the node (its creation), never after now.
  if (probeUs < creationUs) {
    const early = [
      hbUs !== undefined && hbUs < creationUs ? `Ready lastHeartbeatTime ${stamp(hbUs)}` : '',
      renewUs !== undefined && renewUs < creationUs ? `Lease renewTime ${stamp(renewUs)}` : '',
    ]
      .filter(Boolean)
      .join(' and ')
    if (early)
      skew = `${early} before the node's creationTimestamp ${stamp(creationUs)}: the kubelet's clock is behind the API server's (or the object was restored); the controller times signs of life by its own clock, so its first sight, the creation, is the bound`
    probeUs = creationUs
    probeFrom = 'creationTimestamp'
  }
  if (probeUs > nowMicros) {
    skew = `the newest stamp ${stamp(probeUs)} is after the evaluation instant ${stamp(nowMicros)}: the kubelet's clock is ahead of the one evaluating; the controller saw it no later than now`
    probeUs = nowMicros
  }
  return {
    lastHeartbeat: hbUs === undefined ? undefined : Math.floor(hbUs / 1000),
    lastRenewal: renewUs === undefined ? undefined : Math.floor(renewUs / 1000),
    lastHeartbeatMicros: hbUs,
    lastRenewalMicros: renewUs,
    probe: Math.floor(probeUs / 1000),
    probeMicros: probeUs,
    probeFrom,
    skew,
  }
}

export interface PreviousZone {
  key: string
  state: ZoneState
  counted: number
  ready: number
  notReady: number
}

/** Zone states as the current Ready conditions put them (excluded nodes not counted; `unlisted` Ready nodes counted). */
export function zoneStatesOf(nodes: readonly NodeLike[], settings: NodeLifecycleSettings, unlisted?: ReadonlyMap<string, number>): PreviousZone[] {
  const byZone = new Map<string, (NodeCondition | undefined)[]>()
  for (const n of nodes) {
    if (isNodeExcludedFromDisruptionChecks(n)) continue
    const k = getZoneKey(n)
    const list = byZone.get(k) ?? []
    list.push(readyCondition(n))
    byZone.set(k, list)
  }
  for (const [k, count] of unlisted ?? []) if (count > 0 && !byZone.has(k)) byZone.set(k, [])
  return [...byZone].map(([key, list]) => {
    const extra = unlisted?.get(key) ?? 0
    return {key, ...computeZoneState(list, settings.unhealthyZoneThreshold, extra), counted: list.length + extra}
  })
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
  const nowUs = input.nowMicros ?? input.now * 1000
  const state = newControllerState()
  const signs = new Map<string, SignOfLife>()
  for (const node of input.nodes) {
    const name = node.metadata?.name ?? ''
    const lease = input.cachedLeases.get(name)
    const sign = estimateSignOfLife(node, lease, settings, nowUs)
    signs.set(name, sign)
    state.knownNodes.add(name)
    const ready = readyCondition(node)
    state.health.set(name, {
      conditions: (node.status?.conditions ?? []).map((c) => ({...c})),
      probeTimestamp: input.assumeAlive?.has(name) ? input.now : sign.probe,
      probeMicros: input.assumeAlive?.has(name) ? nowUs : sign.probeMicros,
      readyTransitionTimestamp: parseMillis(ready?.lastTransitionTime, `node ${name} Ready lastTransitionTime`) ?? sign.probe,
      lease,
    })
  }

  const previousZones = zoneStatesOf(input.nodes, settings, input.unlistedReady)
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
    ...(input.unlistedReady ? {unlistedReady: input.unlistedReady} : {}),
  }
  const pass = monitorNodeHealth(state, view, input.now, settings, nowUs)
  return {state, after, pass, signs, previousZones, wasMasterDisruption}
}
