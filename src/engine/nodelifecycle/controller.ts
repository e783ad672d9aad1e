// One monitorNodeHealth pass and one doNoExecuteTaintingPass of the node lifecycle controller
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go), over an explicit controller memory and a view
// of the cluster. Writes the controller would send (status, taints) are applied to the view's node objects,
// as the API server and the informer would reflect them. Upstream evaluates nodes with 8 parallel workers;
// here they go in list order, which only matters for which nodes a freshly tripped circuit breaker blocks.
import {getNodeCondition} from './conditions.js'
import {ConsistencyStore} from './consistency.js'
import {type HealthMemory, type HealthOutcome, type LiveLeaseLookup, tryUpdateNodeHealth} from './health.js'
import {RateLimitedTimedQueue, TokenBucket} from './rate-limited-queue.js'
import {NOT_READY_NO_EXECUTE, removeTaint, swapNodeControllerTaint, taintExists, UNREACHABLE_NO_EXECUTE} from './taints.js'
import {iso} from './time.js'
import {copyNode, type LeaseLike, type NodeCondition, type NodeLifecycleSettings, type NodeLike, type Taint, type ZoneState} from './types.js'
import {computeZoneState, getZoneKey, isNodeExcludedFromDisruptionChecks, rateForState} from './zone.js'

export interface ControllerState {
  health: HealthMemory
  knownNodes: Set<string>
  zoneStates: Map<string, ZoneState>
  zoneQueues: Map<string, RateLimitedTimedQueue>
  consistency: ConsistencyStore
  nodesToRetry: Set<string>
}

export function newControllerState(): ControllerState {
  return {health: new Map(), knownNodes: new Set(), zoneStates: new Map(), zoneQueues: new Map(), consistency: new ConsistencyStore(), nodesToRetry: new Set()}
}

export interface ClusterView {
  /** The node lister's objects; the pass writes status and taint changes into them. */
  nodes: NodeLike[]
  /** The lease lister (informer cache), by node name. */
  leases: ReadonlyMap<string, LeaseLike>
  /** The controller's live GET of the node's lease. */
  liveLease: (nodeName: string) => LiveLeaseLookup
  /** The lease informer's LastStoreSyncResourceVersion. */
  leaseInformerSyncRV?: string
  /** Per zone key, nodes outside `nodes` that the pass counts Ready (replay.ts ReplayInput.unlistedReady). */
  unlistedReady?: ReadonlyMap<string, number>
}

export type TaintAction =
  | {kind: 'swappedNow'; added: Taint; removed: Taint}
  | {kind: 'queued'; taint: Taint; newlyAdded: boolean}
  | {kind: 'markedReachable'; removed: Taint[]}
  | {kind: 'none'}

export interface NodePassResult {
  name: string
  zone: string
  excluded: boolean
  outcome: HealthOutcome
  counted: boolean
  /** The Ready condition counted in the zone (undefined: never posted, counted as not ready). */
  countedReady?: NodeCondition
  taintAction: TaintAction
  /** Observed True and now not True: NodeNotReady event and MarkPodsNotReady. */
  markPodsNotReady: boolean
}

export interface ZonePassResult {
  key: string
  counted: number
  ready: number
  notReady: number
  previous?: ZoneState
  state: ZoneState
  /** The zone queue's limiter QPS after the pass (0 for the never-limiter). */
  rate: number
}

export type MasterDisruption = 'entered' | 'exited' | 'stays' | 'none'

export interface PassResult {
  now: number
  nodes: NodePassResult[]
  zones: ZonePassResult[]
  masterDisruption: MasterDisruption
  events: {object: string; reason: string; message: string}[]
  /** Set when upstream would panic (nil health entry on leaving master disruption mode, issue #141572). */
  panic?: string
  /**
   * The NoExecute taints handleDisruption took off each node on entering master disruption mode in this pass
   * (markNodeAsReachable for every node, nlc.go@2b96ebcf:1033-1121, the allAreFullyDisrupted branch): what the node
   * carries after the pass, and so what the taint-eviction controller sees next, not the taints before it.
   */
  removedOnMasterDisruptionEntry: Map<string, Taint[]>
}

function addPodEvictorForNewZone(state: ControllerState, zone: string, settings: NodeLifecycleSettings): void {
  if (!state.zoneStates.has(zone)) {
    state.zoneStates.set(zone, 'Initial')
    state.zoneQueues.set(zone, new RateLimitedTimedQueue(settings.nodeEvictionRate))
  }
}

function queueFor(state: ControllerState, node: NodeLike, settings: NodeLifecycleSettings): RateLimitedTimedQueue {
  const zone = getZoneKey(node)
  let q = state.zoneQueues.get(zone)
  if (!q) {
    q = new RateLimitedTimedQueue(settings.nodeEvictionRate)
    state.zoneQueues.set(zone, q)
  }
  return q
}

/** markNodeAsReachable: both NoExecute taints off, and out of the zone queue (which clears its de-dup entry). */
function markNodeAsReachable(state: ControllerState, node: NodeLike, settings: NodeLifecycleSettings): Taint[] {
  const removed = (node.spec?.taints ?? []).filter(
    (t) => (t.key === UNREACHABLE_NO_EXECUTE.key || t.key === NOT_READY_NO_EXECUTE.key) && t.effect === 'NoExecute',
  )
  if (removed.length > 0) {
    node.spec = {...(node.spec ?? {}), taints: removeTaint(removeTaint(node.spec?.taints ?? [], UNREACHABLE_NO_EXECUTE), NOT_READY_NO_EXECUTE)}
  }
  queueFor(state, node, settings).remove(node.metadata?.name ?? '')
  return removed
}

/** markNodeForTainting (nlc.go:1276-1291): an untainted node is re-queued (fresh processAt) every pass. */
function markNodeForTainting(state: ControllerState, node: NodeLike, status: 'False' | 'Unknown', now: number, settings: NodeLifecycleSettings): boolean {
  const q = queueFor(state, node, settings)
  const name = node.metadata?.name ?? ''
  const template = status === 'False' ? NOT_READY_NO_EXECUTE : UNREACHABLE_NO_EXECUTE
  if (!taintExists(node.spec?.taints, template)) q.remove(name)
  return q.add(name, node.metadata?.uid ?? '', now)
}

/** processTaintBaseEviction (nlc.go:779-815). */
function processTaintBaseEviction(state: ControllerState, node: NodeLike, ready: NodeCondition, now: number, settings: NodeLifecycleSettings): TaintAction {
  switch (ready.status) {
    case 'False':
      if (taintExists(node.spec?.taints, UNREACHABLE_NO_EXECUTE)) {
        swapNodeControllerTaint(node, [NOT_READY_NO_EXECUTE], [UNREACHABLE_NO_EXECUTE], iso(now))
        return {kind: 'swappedNow', added: NOT_READY_NO_EXECUTE, removed: UNREACHABLE_NO_EXECUTE}
      }
      return {kind: 'queued', taint: NOT_READY_NO_EXECUTE, newlyAdded: markNodeForTainting(state, node, 'False', now, settings)}
    case 'Unknown':
      if (taintExists(node.spec?.taints, NOT_READY_NO_EXECUTE)) {
        swapNodeControllerTaint(node, [UNREACHABLE_NO_EXECUTE], [NOT_READY_NO_EXECUTE], iso(now))
        return {kind: 'swappedNow', added: UNREACHABLE_NO_EXECUTE, removed: NOT_READY_NO_EXECUTE}
      }
      return {kind: 'queued', taint: UNREACHABLE_NO_EXECUTE, newlyAdded: markNodeForTainting(state, node, 'Unknown', now, settings)}
    case 'True':
      return {kind: 'markedReachable', removed: markNodeAsReachable(state, node, settings)}
    default:
      return {kind: 'none'}
  }
}

/** monitorNodeHealth (nlc.go:661-777), ending in handleDisruption. */
export function monitorNodeHealth(
  state: ControllerState,
  view: ClusterView,
  now: number,
  settings: NodeLifecycleSettings,
  nowMicros: number = now * 1000,
): PassResult {
  const events: PassResult['events'] = []
  const byName = new Map(view.nodes.map((n) => [n.metadata?.name ?? '', n]))

  // classifyNodes
  for (const node of view.nodes) {
    const name = node.metadata?.name ?? ''
    if (!state.knownNodes.has(name)) {
      events.push({object: `Node/${name}`, reason: 'RegisteredNode', message: `Registered Node ${name} in Controller`})
      state.knownNodes.add(name)
      addPodEvictorForNewZone(state, getZoneKey(node), settings)
      markNodeAsReachable(state, node, settings)
    } else if (!state.zoneStates.has(getZoneKey(node))) {
      addPodEvictorForNewZone(state, getZoneKey(node), settings)
    }
  }
  for (const name of [...state.knownNodes]) {
    if (!byName.has(name)) {
      events.push({object: `Node/${name}`, reason: 'RemovingNode', message: `Removing Node ${name} from Controller`})
      state.knownNodes.delete(name)
      state.health.delete(name)
    }
  }

  const zoneConditions = new Map<string, (NodeCondition | undefined)[]>()
  const results: NodePassResult[] = []
  for (const listed of view.nodes) {
    const node: NodeLike = copyNode(listed)
    const name = node.metadata?.name ?? ''
    const zone = getZoneKey(node)
    const excluded = isNodeExcludedFromDisruptionChecks(node)
    const outcome = tryUpdateNodeHealth(
      {memory: state.health, consistency: state.consistency, leaseInformerSyncRV: view.leaseInformerSyncRV, settings, now, nowMicros},
      node,
      view.leases.get(name),
      () => view.liveLease(name),
    )
    if (outcome.kind === 'shortCircuit') {
      // "Update health of Node from Controller error, Skipping - no pods will be evicted": not counted anywhere.
      results.push({name, zone, excluded, outcome, counted: false, taintAction: {kind: 'none'}, markPodsNotReady: false})
      continue
    }
    if (outcome.statusWritten) listed.status = {...(listed.status ?? {}), conditions: node.status?.conditions}
    const current = outcome.currentReady
    if (!excluded) {
      const list = zoneConditions.get(zone) ?? []
      list.push(current)
      zoneConditions.set(zone, list)
    }
    let taintAction: TaintAction = {kind: 'none'}
    let markPodsNotReady = false
    if (current) {
      const decideOn = settings.taintOnCurrentReady ? current : outcome.observedReady
      taintAction = processTaintBaseEviction(state, listed, decideOn, now, settings)
      const needsRetry = state.nodesToRetry.has(name)
      if (current.status !== 'True' && outcome.observedReady.status === 'True') {
        events.push({object: `Node/${name}`, reason: 'NodeNotReady', message: `Node ${name} status is now: NodeNotReady`})
        markPodsNotReady = true
      } else if (needsRetry && outcome.observedReady.status !== 'True') {
        markPodsNotReady = true
      }
    }
    state.nodesToRetry.delete(name)
    results.push({name, zone, excluded, outcome, counted: !excluded, countedReady: current, taintAction, markPodsNotReady})
  }

  // The unlisted Ready nodes were evaluated too (Ready True, not stale) and are counted in their zone.
  for (const [zone, count] of view.unlistedReady ?? []) {
    if (count <= 0) continue
    if (!state.zoneStates.has(zone)) addPodEvictorForNewZone(state, zone, settings)
    if (!zoneConditions.has(zone)) zoneConditions.set(zone, [])
  }
  const disruption = handleDisruption(state, zoneConditions, view.nodes, now, settings, nowMicros, view.unlistedReady)
  return {
    now,
    nodes: results,
    zones: disruption.zones,
    masterDisruption: disruption.mode,
    events,
    panic: disruption.panic,
    removedOnMasterDisruptionEntry: disruption.removed,
  }
}

/**
 * handleDisruption (nlc.go@2b96ebcf:1033-1121). Go map order is random; Map insertion order stands in for it.
 * `unlistedReady`: per zone, Ready True conditions counted beyond the zone's list (the zone's size includes them:
 * setLimiterInZone is given len(zoneToNodeConditions[zone])).
 */
export function handleDisruption(
  state: ControllerState,
  zoneConditions: Map<string, (NodeCondition | undefined)[]>,
  nodes: NodeLike[],
  now: number,
  settings: NodeLifecycleSettings,
  nowMicros: number = now * 1000,
  unlistedReady?: ReadonlyMap<string, number>,
): {zones: ZonePassResult[]; mode: MasterDisruption; panic?: string; removed: Map<string, Taint[]>} {
  const extra = (zone: string) => unlistedReady?.get(zone) ?? 0
  const size = (zone: string) => (zoneConditions.get(zone)?.length ?? 0) + extra(zone)
  const previous = new Map(state.zoneStates)
  const newStates = new Map<string, ReturnType<typeof computeZoneState>>()
  let allAreFullyDisrupted = true
  for (const [zone, conditions] of zoneConditions) {
    const computed = computeZoneState(conditions, settings.unhealthyZoneThreshold, extra(zone))
    if (computed.state !== 'FullDisruption') allAreFullyDisrupted = false
    newStates.set(zone, computed)
    if (!state.zoneStates.has(zone)) state.zoneStates.set(zone, 'Initial')
  }
  let allWasFullyDisrupted = true
  for (const [zone, s] of [...state.zoneStates]) {
    if (!zoneConditions.has(zone)) {
      state.zoneStates.delete(zone)
      continue
    }
    if (s !== 'FullDisruption') {
      allWasFullyDisrupted = false
      break
    }
  }

  const setLimiterInZone = (zone: string, size: number, s: ZoneState | undefined) => {
    const rate = s ? rateForState(s, size, settings) : undefined
    if (rate !== undefined) state.zoneQueues.get(zone)?.swapLimiter(rate, now)
  }
  let mode: MasterDisruption = 'none'
  let panic: string | undefined
  const removed = new Map<string, Taint[]>()
  if (!allAreFullyDisrupted || !allWasFullyDisrupted) {
    if (allAreFullyDisrupted) {
      mode = 'entered'
      // nlc.go@2b96ebcf:1033-1121 (allAreFullyDisrupted && !allWasFullyDisrupted): markNodeAsReachable on every
      // listed node, excluded ones too, before the queues are stopped; the taints go in this same pass.
      for (const node of nodes) {
        const off = markNodeAsReachable(state, node, settings)
        if (off.length > 0) removed.set(node.metadata?.name ?? '', off)
      }
      for (const zone of state.zoneStates.keys()) state.zoneQueues.get(zone)?.swapLimiter(0, now)
      for (const zone of state.zoneStates.keys()) state.zoneStates.set(zone, 'FullDisruption')
    } else if (allWasFullyDisrupted) {
      mode = 'exited'
      for (const node of nodes) {
        const name = node.metadata?.name ?? ''
        const entry = state.health.get(name)
        if (!entry) {
          panic = `nil pointer dereference: node ${name} has no health entry when leaving master disruption mode (kubernetes issue #141572)`
          break
        }
        state.health.set(name, {...entry, probeTimestamp: now, probeMicros: nowMicros, readyTransitionTimestamp: now})
      }
      if (!panic) {
        for (const zone of state.zoneStates.keys()) {
          const s = newStates.get(zone)?.state
          setLimiterInZone(zone, size(zone), s)
          if (s) state.zoneStates.set(zone, s)
        }
      }
    } else {
      for (const [zone, s] of state.zoneStates) {
        const next = newStates.get(zone)?.state
        if (!next || s === next) continue
        setLimiterInZone(zone, size(zone), next)
        state.zoneStates.set(zone, next)
      }
    }
  } else if (zoneConditions.size > 0) {
    mode = 'stays'
  }

  const zones: ZonePassResult[] = []
  for (const [zone, computed] of newStates) {
    const q = state.zoneQueues.get(zone)
    const limiter = q?.limiter
    zones.push({
      key: zone,
      counted: size(zone),
      ready: computed.ready,
      notReady: computed.notReady,
      previous: previous.get(zone),
      state: state.zoneStates.get(zone) ?? computed.state,
      // The nominal rate: the never-limiter of master disruption mode or rate 0 lets nothing through.
      rate: limiter instanceof TokenBucket ? limiter.rate : limiter ? 0 : settings.nodeEvictionRate,
    })
  }
  return {zones, mode, panic, removed}
}

export interface TaintingPassResult {
  tainted: {node: string; zone: string; added: Taint}[]
  skippedReady: string[]
}

/** doNoExecuteTaintingPass (nlc.go:577-645): drain every zone queue once, as far as its limiter allows. */
export function doNoExecuteTaintingPass(state: ControllerState, view: ClusterView, now: number): TaintingPassResult {
  const byName = new Map(view.nodes.map((n) => [n.metadata?.name ?? '', n]))
  const out: TaintingPassResult = {tainted: [], skippedReady: []}
  for (const [zone, q] of state.zoneQueues) {
    q.try(now, (v) => {
      const node = byName.get(v.value)
      if (!node) return [true, 0]
      const ready = getNodeCondition(node.status?.conditions, 'Ready')
      if (!ready) return [false, 50]
      let add: Taint
      let opposite: Taint
      if (ready.status === 'False') [add, opposite] = [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE]
      else if (ready.status === 'Unknown') [add, opposite] = [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE]
      else {
        out.skippedReady.push(v.value)
        return [true, 0]
      }
      swapNodeControllerTaint(node, [add], [opposite], iso(now))
      out.tainted.push({node: v.value, zone, added: add})
      return [true, 0]
    })
  }
  return out
}
