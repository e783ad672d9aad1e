// tryUpdateNodeHealth (pkg/controller/nodelifecycle/node_lifecycle_controller.go, nlc.go@2b96ebcf:828-1031):
// the controller's per-node memory of when it last noticed a sign of life, the grace period that applies,
// the lease circuit breaker's two checks, and the Unknown write. Pure: the memory, the clock and the
// lease lookups are passed in.
import {type ConditionChange, conditionsSemanticallyEqual, getNodeCondition, heartbeatChanged, markConditionsUnknown, transitionChanged} from './conditions.js'
import type {ConsistencyStore} from './consistency.js'
import {iso, parseMicros, parseMillis} from './time.js'
import type {LeaseLike, NodeCondition, NodeLifecycleSettings, NodeLike} from './types.js'

/** nodeHealthData (nlc.go:168-173). Timestamps are the controller's clock, not the kubelet's. */
export interface NodeHealthData {
  conditions: NodeCondition[]
  probeTimestamp: number
  /**
   * The same instant in microseconds when it is known that finely (a Lease renewTime, a --now with µs): the
   * staleness test compares at that precision (metav1.Time holds nanoseconds; a MicroTime microseconds).
   */
  probeMicros?: number
  readyTransitionTimestamp: number
  lease?: LeaseLike
}

/** null is the explicit nil entry a short-circuit leaves behind for a node never evaluated (issue #141572). */
export type HealthMemory = Map<string, NodeHealthData | null>

/** The controller's live GET of kube-node-lease/<node>; `unreadable` is our own read failing, not the controller's. */
export type LiveLeaseLookup = {kind: 'found'; lease: LeaseLike} | {kind: 'notFound'} | {kind: 'error'; message: string} | {kind: 'unreadable'; message: string}

export type ProbeReason = 'firstSeen' | 'readyAppeared' | 'heartbeatChanged' | 'leaseRenewed' | 'leaseFirstSeen' | 'creationTimestamp' | 'unchanged'

export interface LiveCheck {
  liveRV?: string
  acceptedRV: string
  outcome: 'rvEqual' | 'rvDiffers' | 'notFound' | 'lookupError' | 'unreadable' | 'gateOff'
  message?: string
}

export type HealthOutcome =
  | {
      kind: 'evaluated'
      gracePeriod: number
      gracePeriodKind: 'monitor' | 'startup'
      observedReady: NodeCondition
      currentReady?: NodeCondition
      probeTimestamp: number
      probeReason: ProbeReason
      stale: boolean
      statusWritten: boolean
      changes: ConditionChange[]
      liveCheck?: LiveCheck
    }
  | {
      kind: 'shortCircuit'
      /** cacheBehind: step 0 refused; leaseChanged: step 6 tripped the breaker; lookupError: step 6 could not GET. */
      why: 'cacheBehind' | 'leaseChanged' | 'leaseLookupError'
      message: string
      liveCheck?: LiveCheck
    }

export interface HealthContext {
  memory: HealthMemory
  consistency: ConsistencyStore
  /** The lease informer's LastStoreSyncResourceVersion ("" before it has one). */
  leaseInformerSyncRV: string | undefined
  settings: NodeLifecycleSettings
  now: number
  /** `now` in microseconds, when known more finely than `now` (default now × 1000). */
  nowMicros?: number
}

function copyEntry(e: NodeHealthData | null | undefined): NodeHealthData | undefined {
  return e ? {...e, conditions: e.conditions.map((c) => ({...c}))} : undefined
}

function renewMicros(lease: LeaseLike | undefined): number | undefined {
  return parseMicros(lease?.spec?.renewTime, 'lease renewTime')
}

/**
 * Re-executes tryUpdateNodeHealth for one node. `node` is the controller's deep copy: its conditions are
 * replaced when the controller writes Unknown (as UpdateStatus would). The memory entry is written back on
 * every path, as the deferred set does upstream.
 */
export function tryUpdateNodeHealth(ctx: HealthContext, node: NodeLike, cachedLease: LeaseLike | undefined, liveLease: () => LiveLeaseLookup): HealthOutcome {
  const name = node.metadata?.name ?? ''
  const now = ctx.now
  const nowUs = ctx.nowMicros ?? now * 1000
  let nodeHealth = copyEntry(ctx.memory.get(name))
  // The deferred set stores whatever the entry is on return, nil included.
  const writeBack = () => {
    ctx.memory.set(name, nodeHealth ?? null)
  }

  // Step 0: the breaker refuses every node until the lease informer has caught up with what was seen live.
  if (ctx.settings.leaseCircuitBreaker) {
    const ready = ctx.consistency.ensureReady(ctx.leaseInformerSyncRV)
    if (!ready.ready) {
      writeBack()
      return {
        kind: 'shortCircuit',
        why: 'cacheBehind',
        message:
          ready.why === 'notSynced'
            ? `the lease informer has no sync resourceVersion yet; the controller waits for lease RV ${ready.recordedRV}`
            : `the lease informer has synced to RV ${ready.readRV}, behind the lease RV ${ready.recordedRV} seen live`,
      }
    }
  }

  // Step 1: a node without a Ready condition "never posted" and gets the startup grace from its creation.
  const conditions = node.status?.conditions ?? []
  const currentReadyBefore = getNodeCondition(conditions, 'Ready')
  const creation = parseMillis(node.metadata?.creationTimestamp, `node ${name} creationTimestamp`) ?? 0
  const creationUs = parseMicros(node.metadata?.creationTimestamp, `node ${name} creationTimestamp`) ?? 0
  let observedReady: NodeCondition
  let gracePeriod: number
  let gracePeriodKind: 'monitor' | 'startup'
  let probeReason: ProbeReason = 'unchanged'
  if (!currentReadyBefore) {
    observedReady = {
      type: 'Ready',
      status: 'Unknown',
      lastHeartbeatTime: node.metadata?.creationTimestamp ?? null,
      lastTransitionTime: node.metadata?.creationTimestamp ?? null,
    }
    gracePeriod = ctx.settings.nodeStartupGracePeriod
    gracePeriodKind = 'startup'
    if (nodeHealth) nodeHealth.conditions = conditions.map((c) => ({...c}))
    else {
      nodeHealth = {conditions: conditions.map((c) => ({...c})), probeTimestamp: creation, probeMicros: creationUs, readyTransitionTimestamp: creation}
      probeReason = 'creationTimestamp'
    }
  } else {
    observedReady = {...currentReadyBefore}
    gracePeriod = ctx.settings.nodeMonitorGracePeriod
    gracePeriodKind = 'monitor'
  }

  // Steps 2-3: any change of the Ready heartbeat (even backwards) is a sign of life, timed by the controller's clock.
  const savedCondition = nodeHealth ? getNodeCondition(nodeHealth.conditions, 'Ready') : undefined
  const savedLease = nodeHealth?.lease
  const fresh = () => ({conditions: conditions.map((c) => ({...c})), probeTimestamp: now, probeMicros: nowUs, readyTransitionTimestamp: now})
  if (!nodeHealth) {
    nodeHealth = fresh()
    probeReason = 'firstSeen'
  } else if (!savedCondition && currentReadyBefore) {
    nodeHealth = fresh()
    probeReason = 'readyAppeared'
  } else if (savedCondition && !currentReadyBefore) {
    // Unreachable: step 1 already replaced the saved status (nlc.go:907-913).
    nodeHealth = fresh()
  } else if (savedCondition && currentReadyBefore && heartbeatChanged(savedCondition, currentReadyBefore)) {
    const transition = transitionChanged(savedCondition, currentReadyBefore) ? now : nodeHealth.readyTransitionTimestamp
    nodeHealth = {conditions: conditions.map((c) => ({...c})), probeTimestamp: now, probeMicros: nowUs, readyTransitionTimestamp: transition}
    probeReason = 'heartbeatChanged'
  }

  // Step 4: a lease seen for the first time, or whose renewTime strictly advanced, is a sign of life.
  const observedRenew = renewMicros(cachedLease)
  const savedRenew = renewMicros(savedLease)
  if (cachedLease && (!savedLease || (savedRenew !== undefined && observedRenew !== undefined && savedRenew < observedRenew))) {
    nodeHealth.lease = cachedLease
    nodeHealth.probeTimestamp = now
    nodeHealth.probeMicros = nowUs
    probeReason = savedLease ? 'leaseRenewed' : 'leaseFirstSeen'
  }

  // Step 5: strictly after probe + grace (nlc.go@2b96ebcf:946, now.After); exactly at the boundary is still healthy.
  // Compared in microseconds: a renewTime's last microseconds decide at the boundary (issue 31, class 5).
  const probeUs = nodeHealth.probeMicros ?? nodeHealth.probeTimestamp * 1000
  const stale = nowUs > probeUs + gracePeriod * 1000
  if (!stale) {
    writeBack()
    return {
      kind: 'evaluated',
      gracePeriod,
      gracePeriodKind,
      observedReady,
      currentReady: currentReadyBefore,
      probeTimestamp: nodeHealth.probeTimestamp,
      probeReason,
      stale,
      statusWritten: false,
      changes: [],
    }
  }

  // Step 6: before acting on a stale verdict, look at the lease live; a different RV means the cache is behind.
  let liveCheck: LiveCheck | undefined
  const acceptedRV = nodeHealth.lease?.metadata?.resourceVersion ?? ''
  if (ctx.settings.leaseCircuitBreaker) {
    const live = liveLease()
    if (live.kind === 'found') {
      const liveRV = live.lease.metadata?.resourceVersion ?? ''
      if (liveRV !== acceptedRV) {
        ctx.consistency.wroteAt(liveRV)
        liveCheck = {liveRV, acceptedRV, outcome: 'rvDiffers'}
        writeBack()
        return {
          kind: 'shortCircuit',
          why: 'leaseChanged',
          liveCheck,
          message: `the lease looks expired in the informer cache (RV ${acceptedRV || 'none'}) but the live lease has RV ${liveRV}`,
        }
      }
      liveCheck = {liveRV, acceptedRV, outcome: 'rvEqual'}
    } else if (live.kind === 'notFound') {
      liveCheck = {acceptedRV, outcome: 'notFound'}
    } else if (live.kind === 'error') {
      liveCheck = {acceptedRV, outcome: 'lookupError', message: live.message}
      writeBack()
      return {kind: 'shortCircuit', why: 'leaseLookupError', liveCheck, message: `error looking up lease to verify node ${name}: ${live.message}`}
    } else {
      liveCheck = {acceptedRV, outcome: 'unreadable', message: live.message}
    }
  } else {
    liveCheck = {acceptedRV, outcome: 'gateOff'}
  }

  // Steps 7-8: set the conditions Unknown; write only when Ready changed against what was observed.
  const nowIso = iso(now)
  const {conditions: updated, changes} = markConditionsUnknown(node, nowIso)
  const currentReady = getNodeCondition(updated, 'Ready')
  let statusWritten = false
  if (!conditionsSemanticallyEqual(currentReady, observedReady)) {
    node.status = {...(node.status ?? {}), conditions: updated}
    nodeHealth = {
      conditions: updated.map((c) => ({...c})),
      probeTimestamp: nodeHealth.probeTimestamp,
      probeMicros: nodeHealth.probeMicros,
      readyTransitionTimestamp: now,
      lease: cachedLease,
    }
    statusWritten = true
  }
  writeBack()
  return {
    kind: 'evaluated',
    gracePeriod,
    gracePeriodKind,
    observedReady,
    currentReady: statusWritten ? currentReady : currentReadyBefore,
    probeTimestamp: nodeHealth.probeTimestamp,
    probeReason,
    stale,
    statusWritten,
    changes: statusWritten ? changes : [],
    liveCheck,
  }
}
