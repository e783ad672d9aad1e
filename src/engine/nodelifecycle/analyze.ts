// Turns one replayed pass into per-node and per-zone findings: the health signal and its grace, what the
// controller writes, which taints the node should carry, the zone's state and rate, master disruption mode
// and the lease circuit breaker. Verdict names are part of the JSON contract (schemas/node.json).
import {type ConditionChange, readyCondition} from './conditions.js'
import type {NodePassResult} from './controller.js'
import type {LiveCheck} from './health.js'
import {estimateSignOfLife, type Replay, replay, type ReplayInput, type SignOfLife} from './replay.js'
import {
  desiredNoScheduleTaints,
  findTaint,
  NOT_READY_NO_EXECUTE,
  noExecuteTaints,
  ownedNoScheduleTaints,
  taintMatches,
  UNREACHABLE_NO_EXECUTE,
} from './taints.js'
import {type DataEvidence, leaseKnown} from './evidence.js'
import {humanDuration, iso, isoMicros, parseMicros, parseMillis} from './time.js'
import type {NodeLike, Taint, ZoneState} from './types.js'
import {getZoneKey, isNodeExcludedFromDisruptionChecks, reducedQPS, zoneDisplayName} from './zone.js'

export type NodeVerdict = 'healthy' | 'withinGrace' | 'unhealthy' | 'taintPending' | 'taintBlocked' | 'circuitOpen' | 'excluded' | 'unknown'
export type ClusterVerdict = 'healthy' | 'degraded' | 'masterDisruption' | 'circuitOpen' | 'noNodes'
export type BlockedBecause = 'masterDisruption' | 'zoneRateZero' | 'circuitOpen' | 'leaseLookupError'

/** The kubelet renews its lease every leaseDurationSeconds/4 (NodeLeaseRenewIntervalFraction 0.25); without a lease it posts status every 10 s. */
const RENEW_FRACTION = 0.25
const STATUS_UPDATE_FREQUENCY_MS = 10_000

export interface NoExecuteFinding {
  /** The controller's NoExecute taint this node should carry (none when Ready is True or absent). */
  expected?: Taint
  present?: Taint
  /** NoExecute taints the node lifecycle controller does not own (users, other controllers): enforced all the same. */
  others: Taint[]
  status: 'notExpected' | 'present' | 'swapNextPass' | 'pending' | 'blocked'
  blockedBecause?: BlockedBecause
  /** Worst-case wait for a pending taint: the zone's pending nodes at the zone's rate, one token each. */
  pendingWithinMs?: number
  /** When the taint was added (timeAdded of the present taint). */
  addedAt?: number
  /**
   * The controller's NoExecute taints this very pass takes off: entering master disruption mode, handleDisruption
   * calls markNodeAsReachable for every node (nlc.go@2b96ebcf:1033-1121). `present` and `status` are the pass's result.
   */
  removedThisPass?: {taints: Taint[]; at: number; rule: 'handleDisruption'}
  /**
   * What the taint's timeAdded and the controller's NodeStatusUnknown write (Ready lastTransitionTime) imply
   * together, when they disagree with each other or with the estimate (records beat estimates).
   */
  records?: string
}

export interface NodeAnalysis {
  name: string
  uid?: string
  zone: string
  zoneName: string
  excluded: boolean
  sign: SignOfLife
  gracePeriodKind: 'monitor' | 'startup'
  gracePeriod: number
  graceExpiry: number
  /** probeMicros + grace: the instant the staleness test compares now against, at µs (issue 31 class 5). */
  graceExpiryMicros: number
  /** now − last sign of life exceeded the renew interval plus one monitor period. */
  overdue: boolean
  stale: boolean
  readyBefore?: {status: string; reason?: string; since?: number}
  readyAfter?: {status: string; reason?: string}
  /** Written by the controller earlier (reason NodeStatusUnknown / NodeStatusNeverUpdated on Ready). */
  markedByController?: {reason: string; at?: number}
  /** What this pass writes (empty when nothing changes). */
  conditionsSetUnknown: ConditionChange[]
  noSchedule: {expected: Taint[]; present: Taint[]; missing: Taint[]; extra: Taint[]}
  noExecute: NoExecuteFinding
  circuit?: {why: 'cacheBehind' | 'leaseChanged' | 'leaseLookupError'; message: string; liveCheck?: LiveCheck}
  liveCheck?: LiveCheck
  markPodsNotReady: boolean
  verdict: NodeVerdict
  /** With the circuit open: what the node's verdict becomes once the lease cache has caught up. */
  verdictOnceCaughtUp?: NodeVerdict
  /** The data holds no Lease for this node and its absence is no proof: a stale status heartbeat says nothing. */
  leaseUnknown: boolean
}

export interface ZoneAnalysis {
  key: string
  name: string
  counted: number
  ready: number
  notReady: number
  state: ZoneState
  previous?: ZoneState
  rate: number
  rateWhy: string
  nodes: string[]
  pendingTaints: number
}

export interface ClusterAnalysis {
  /** The evaluation instant in µs (--now's sub-millisecond digits kept), for output at the precision compared. */
  nowMicros?: number
  verdict: ClusterVerdict
  masterDisruption: boolean
  masterDisruptionChange: 'entered' | 'exited' | 'stays' | 'none'
  circuit: {gate: boolean; open: boolean; trippedBy?: string; recordedRV?: string; informerSyncRV?: string; message?: string}
  zones: ZoneAnalysis[]
  nodes: NodeAnalysis[]
  panic?: string
  events: {object: string; reason: string; message: string}[]
  evidence?: DataEvidence
  /**
   * The replay's master disruption mode, refused: a node carries the controller's NoExecute taint added after every
   * zone in the data went down, which the controller does not do in that mode — so nodes outside the data are ready.
   */
  contradicted?: {node: string; taint: string; addedAt: number; disruptionFrom: number}
}

function rateWhy(state: ZoneState, counted: number, rate: number, master: boolean, s: ReplayInput['settings']): string {
  if (master) return 'master disruption mode: every zone is fully disrupted, so all queues are stopped (rate 0)'
  switch (state) {
    case 'Normal':
      return `Normal: --node-eviction-rate ${s.nodeEvictionRate}/s`
    case 'FullDisruption':
      return `FullDisruption of this zone only: it keeps --node-eviction-rate ${s.nodeEvictionRate}/s (HealthyQPSFunc)`
    case 'PartialDisruption':
      return reducedQPS(counted, s) > 0
        ? `PartialDisruption in a large zone (${counted} counted nodes > --large-cluster-size-threshold ${s.largeClusterSizeThreshold}): --secondary-node-eviction-rate ${rate}/s`
        : `PartialDisruption in a small zone (${counted} counted nodes ≤ --large-cluster-size-threshold ${s.largeClusterSizeThreshold}): rate 0, tainting stops`
    default:
      return 'zone not yet evaluated'
  }
}

/**
 * Issue 27 point 2: the controller's own Unknown write (reason NodeStatusUnknown, lastTransitionTime on its clock)
 * records that the pass at T found the node stale and the pass before (T − period) did not, so its last sign of
 * life was in [T − grace − period, T − grace). An estimate outside that window yields to the record, which then
 * implies a sign of life the data does not hold (a later renewal) or a clock the estimate cannot trust.
 */
function yieldToRecord(sign: SignOfLife, ready: ReturnType<typeof readyCondition>, node: NodeLike, s: ReplayInput['settings']): SignOfLife {
  if (ready?.status !== 'Unknown' || ready.reason !== 'NodeStatusUnknown' || !node.status) return sign
  const markedUs = parseMicros(ready.lastTransitionTime, 'Ready lastTransitionTime')
  if (markedUs === undefined) return sign
  const grace = s.nodeMonitorGracePeriod * 1000
  const period = s.nodeMonitorPeriod * 1000
  const earliest = markedUs - grace - period
  const latest = markedUs - grace
  if (sign.probeMicros >= earliest && sign.probeMicros < latest) return sign
  const later = sign.probeMicros < earliest
  return {
    ...sign,
    probe: Math.floor(earliest / 1000),
    probeMicros: earliest,
    fromRecord: later
      ? `the controller wrote Ready Unknown at ${isoMicros(markedUs)}, more than one ${humanDuration(s.nodeMonitorPeriod)} period after the estimated grace expiry ${isoMicros(sign.probeMicros + grace)}: it saw a sign of life after ${isoMicros(sign.probeMicros)} that the data does not hold (a Lease renewal since overwritten, or a restart's fresh grace); the record sets the last sign of life at ${isoMicros(earliest)} or within one period after`
      : `the controller wrote Ready Unknown at ${isoMicros(markedUs)}, before the estimated grace expiry ${isoMicros(sign.probeMicros + grace)}: the stamps the estimate rests on are later than the controller saw them (a kubelet clock ahead); the record sets the last sign of life at ${isoMicros(earliest)} or within one period after`,
  }
}

/**
 * The unreachable:NoExecute taint's timeAdded against the controller's Unknown write (both its clock, both whole
 * seconds in the API, so each is within [stamp, stamp + 1 s)). monitorNodeHealth queues the taint in a pass whose
 * Ready condition is Unknown: the writing pass itself when processTaintBaseEviction is given the current condition
 * (1.34+, PR #120816), the next pass (one --node-monitor-period later) when it is given the observed one; the queue
 * adds it then or later (rate limit). So timeAdded is never before the write (plus that period before 1.34). Where
 * the write is not recorded (Ready Unknown without reason NodeStatusUnknown), the taint bounds it from above, and
 * with it the last sign of life: an estimate whose grace ends after that yields to the record.
 */
function taintRecords(
  sign: SignOfLife,
  present: Taint | undefined,
  ready: ReturnType<typeof readyCondition>,
  s: ReplayInput['settings'],
): {sign: SignOfLife; records?: string} {
  if (!present?.timeAdded || !taintMatches(present, UNREACHABLE_NO_EXECUTE) || ready?.status !== 'Unknown') return {sign}
  const addedUs = parseMicros(present.timeAdded, 'taint timeAdded')
  if (addedUs === undefined) return {sign}
  const second = 1_000_000
  const queueDelay = s.taintOnCurrentReady ? 0 : s.nodeMonitorPeriod * 1000
  const how = s.taintOnCurrentReady
    ? 'in the pass that writes Unknown or later (processTaintBaseEviction is given the current Ready condition, 1.34+)'
    : `one ${humanDuration(s.nodeMonitorPeriod)} period after the Unknown write or later (processTaintBaseEviction is given the observed Ready condition before 1.34)`
  const markedUs = ready.reason === 'NodeStatusUnknown' ? parseMicros(ready.lastTransitionTime, 'Ready lastTransitionTime') : undefined
  if (markedUs !== undefined) {
    if (addedUs + second > markedUs + queueDelay) return {sign}
    return {
      sign,
      records:
        addedUs + second <= markedUs
          ? `the taint's timeAdded ${isoMicros(addedUs)} is before the controller's Unknown write ${isoMicros(markedUs)} (Ready lastTransitionTime): the controller adds it ${how}, so this taint was not added for this Unknown — another actor added a taint of that key and effect, or an earlier Unknown was overturned by the kubelet without a pass seeing Ready True (a controller restart in between); the timeline shows both as recorded`
          : `the taint's timeAdded ${isoMicros(addedUs)} is less than one ${humanDuration(s.nodeMonitorPeriod)} period after the controller's Unknown write ${isoMicros(markedUs)}: a controller given the observed Ready condition adds it no sooner, so this controller passes the current one (1.34 or newer, PR #120816) — check --k8s-version — or another actor added the taint`,
    }
  }
  // No recorded write: it happened by timeAdded (− the queue delay), so the controller's last sign of life was at
  // least one grace before that.
  const latestWrite = addedUs + second - queueDelay
  const latestProbe = latestWrite - s.nodeMonitorGracePeriod * 1000
  if (sign.probeMicros <= latestProbe) return {sign}
  return {
    sign: {
      ...sign,
      probe: Math.floor(latestProbe / 1000),
      probeMicros: latestProbe,
      fromRecord: `the controller's unreachable:NoExecute taint went on at ${isoMicros(addedUs)} (timeAdded); it adds it ${how}, so it had written Ready Unknown by ${isoMicros(latestWrite)} and its last sign of life was no later than ${isoMicros(latestProbe)}, before the estimate ${isoMicros(sign.probeMicros)} (stamps later than the controller saw them: a kubelet clock ahead, or a status written by another agent); the record is taken`,
    },
    records: `timeAdded ${isoMicros(addedUs)} bounds the controller's Unknown write (not recorded in the Ready condition) to ${isoMicros(latestWrite)} or earlier`,
  }
}

function expectedNoExecute(status: string | undefined): Taint | undefined {
  if (status === 'False') return NOT_READY_NO_EXECUTE
  if (status === 'Unknown') return UNREACHABLE_NO_EXECUTE
  return undefined
}

function analyzeNode(
  r: Replay,
  input: ReplayInput,
  res: NodePassResult,
  original: NodeLike,
  after: NodeLike,
  zones: Map<string, ZoneAnalysis>,
  master: boolean,
  circuitOpen: boolean,
): NodeAnalysis {
  const s = input.settings
  const before = readyCondition(original)
  const yielded = yieldToRecord(r.signs.get(res.name)!, before, original, s)
  // Issue 31 point 4: the taint's timeAdded against the recorded Unknown write (or, without one, as its bound).
  const recorded = taintRecords(yielded, findTaint(original.spec?.taints ?? [], UNREACHABLE_NO_EXECUTE), before, s)
  const sign = recorded.sign
  const readyAfterCond = readyCondition(after)
  const outcome = res.outcome
  const gracePeriodKind = before ? 'monitor' : 'startup'
  const gracePeriod = gracePeriodKind === 'monitor' ? s.nodeMonitorGracePeriod : s.nodeStartupGracePeriod
  const graceExpiry = sign.probe + gracePeriod
  const lease = input.cachedLeases.get(res.name)
  const renewInterval = lease?.spec?.leaseDurationSeconds ? lease.spec.leaseDurationSeconds * 1000 * RENEW_FRACTION : STATUS_UPDATE_FREQUENCY_MS
  const stale = outcome.kind === 'evaluated' ? outcome.stale : input.now > graceExpiry
  const markedReason = before?.reason === 'NodeStatusUnknown' || before?.reason === 'NodeStatusNeverUpdated' ? before.reason : undefined

  // The controller's NoExecute taints as the replayed pass leaves them: entering master disruption mode strips them
  // from every node in the same pass, so the taints before the pass no longer say what the node carries.
  const removedNow = r.pass.removedOnMasterDisruptionEntry.get(res.name) ?? []
  const taints = removedNow.length > 0 ? (after.spec?.taints ?? []) : (original.spec?.taints ?? [])
  const statusForTaint = (readyAfterCond ?? before)?.status
  const expected = expectedNoExecute(statusForTaint)
  const present = expected ? findTaint(taints, expected) : undefined
  const opposite = expected ? findTaint(taints, taintMatches(expected, NOT_READY_NO_EXECUTE) ? UNREACHABLE_NO_EXECUTE : NOT_READY_NO_EXECUTE) : undefined
  const others = noExecuteTaints(original).filter((t) => !taintMatches(t, NOT_READY_NO_EXECUTE) && !taintMatches(t, UNREACHABLE_NO_EXECUTE))
  const zone = zones.get(res.zone)
  let noExecute: NoExecuteFinding
  if (!expected) noExecute = {others, status: 'notExpected'}
  else if (present)
    noExecute = {
      expected,
      present,
      others,
      status: 'present',
      addedAt: parseMillis(present.timeAdded, 'taint timeAdded'),
      ...(recorded.records ? {records: recorded.records} : {}),
    }
  else if (circuitOpen) noExecute = {expected, others, status: 'blocked', blockedBecause: 'circuitOpen'}
  else if (outcome.kind === 'shortCircuit') noExecute = {expected, others, status: 'blocked', blockedBecause: 'leaseLookupError'}
  else if (opposite) noExecute = {expected, present: opposite, others, status: 'swapNextPass'}
  else if (master) noExecute = {expected, others, status: 'blocked', blockedBecause: 'masterDisruption'}
  else {
    const rate = zone?.rate ?? s.nodeEvictionRate
    if (rate <= 0) noExecute = {expected, others, status: 'blocked', blockedBecause: 'zoneRateZero'}
    else noExecute = {expected, others, status: 'pending', pendingWithinMs: Math.ceil(((zone?.pendingTaints ?? 1) / rate) * 1000)}
  }
  if (removedNow.length > 0) noExecute.removedThisPass = {taints: removedNow, at: input.now, rule: 'handleDisruption'}

  const noScheduleExpected = desiredNoScheduleTaints(after)
  const noSchedulePresent = ownedNoScheduleTaints(original)
  const excluded = isNodeExcludedFromDisruptionChecks(original)
  const overdue = input.now - sign.probe > renewInterval + s.nodeMonitorPeriod

  let verdict: NodeVerdict
  if (circuitOpen || outcome.kind === 'shortCircuit') verdict = 'circuitOpen'
  else if (input.assumeAlive?.has(res.name)) verdict = 'unknown'
  else if (!readyAfterCond)
    verdict = 'withinGrace' // never posted, still inside the startup grace
  else if (statusForTaint === 'True') verdict = overdue ? 'withinGrace' : excluded ? 'excluded' : 'healthy'
  else if (noExecute.status === 'present' || noExecute.status === 'swapNextPass') verdict = 'unhealthy'
  else if (noExecute.status === 'blocked') verdict = 'taintBlocked'
  else if (noExecute.status === 'pending') verdict = 'taintPending'
  else verdict = 'unhealthy'

  return {
    name: res.name,
    uid: original.metadata?.uid,
    zone: res.zone,
    zoneName: zoneDisplayName(res.zone),
    excluded,
    sign,
    gracePeriodKind,
    gracePeriod,
    graceExpiry,
    graceExpiryMicros: sign.probeMicros + gracePeriod * 1000,
    overdue,
    stale,
    readyBefore: before ? {status: before.status, reason: before.reason, since: parseMillis(before.lastTransitionTime, 'Ready lastTransitionTime')} : undefined,
    readyAfter: readyAfterCond ? {status: readyAfterCond.status, reason: readyAfterCond.reason} : undefined,
    markedByController: markedReason ? {reason: markedReason, at: parseMillis(before?.lastTransitionTime, 'Ready lastTransitionTime')} : undefined,
    conditionsSetUnknown: outcome.kind === 'evaluated' ? outcome.changes : [],
    noSchedule: {
      expected: noScheduleExpected,
      present: noSchedulePresent,
      missing: noScheduleExpected.filter((t) => !noSchedulePresent.some((p) => taintMatches(p, t))),
      extra: noSchedulePresent.filter((p) => !noScheduleExpected.some((t) => taintMatches(p, t))),
    },
    noExecute,
    circuit: outcome.kind === 'shortCircuit' ? {why: outcome.why, message: outcome.message, liveCheck: outcome.liveCheck} : undefined,
    liveCheck: outcome.kind === 'evaluated' ? outcome.liveCheck : undefined,
    markPodsNotReady: res.markPodsNotReady,
    verdict,
    leaseUnknown: !leaseKnown(input.evidence, res.name),
  }
}

function analyzeReplay(r: Replay, input: ReplayInput, circuitOpen: boolean): Omit<ClusterAnalysis, 'verdict' | 'circuit'> {
  const s = input.settings
  const master = r.pass.masterDisruption === 'entered' || r.pass.masterDisruption === 'stays'
  const zones = new Map<string, ZoneAnalysis>()
  // With the circuit open no node is counted: zones are reported as the controller last had them.
  const zoneSource =
    circuitOpen || r.pass.zones.length === 0
      ? r.previousZones.map((z) => ({key: z.key, counted: z.counted, ready: z.ready, notReady: z.notReady, state: z.state, previous: z.state, rate: 0}))
      : r.pass.zones
  for (const z of zoneSource) {
    zones.set(z.key, {
      key: z.key,
      name: zoneDisplayName(z.key),
      counted: z.counted,
      ready: z.ready,
      notReady: z.notReady,
      state: z.state,
      previous: z.previous,
      rate: circuitOpen ? 0 : z.rate,
      rateWhy: circuitOpen
        ? 'lease circuit breaker open: no node is evaluated or counted, so the zone is dropped and its queue recreated empty every pass; effectively nothing is tainted (state and counts as the conditions stand)'
        : rateWhy(z.state, z.counted, z.rate, master, s),
      nodes: [],
      pendingTaints: 0,
    })
  }
  const afterByName = new Map(r.after.map((n) => [n.metadata?.name ?? '', n]))
  // Pending taints per zone: not ready after the pass and without the matching NoExecute taint.
  for (const n of r.after) {
    const z = zones.get(getZoneKey(n))
    const e = expectedNoExecute(readyCondition(n)?.status)
    if (z && e && !findTaint(n.spec?.taints, e)) z.pendingTaints++
  }
  const nodes = r.pass.nodes.map((res, i) => {
    const a = analyzeNode(r, input, res, input.nodes[i], afterByName.get(res.name) ?? input.nodes[i], zones, master, circuitOpen)
    const z = zones.get(a.zone)
    if (z) z.nodes.push(a.name)
    return a
  })
  for (const z of zones.values()) if (z.counted === 0 && !z.nodes.length) zones.delete(z.key)
  return {
    masterDisruption: master,
    masterDisruptionChange: r.pass.masterDisruption,
    zones: [...zones.values()],
    nodes,
    panic: r.pass.panic,
    events: r.pass.events,
  }
}

/**
 * The node's NoExecute taints after the replayed pass: what the taint-eviction controller acts on next. The taints
 * the pass took off (entering master disruption mode) are gone; every other NoExecute taint stays as listed.
 */
export function noExecuteAfterPass(node: NodeLike, a: NodeAnalysis | undefined): Taint[] {
  const removed = a?.noExecute.removedThisPass?.taints ?? []
  return noExecuteTaints(node).filter((t) => !removed.some((x) => taintMatches(x, t)))
}

/** Nodes with no lease evidence whose status heartbeat is older than the grace: the data cannot tell if they are alive. */
function unjudgeable(input: ReplayInput): Set<string> {
  const out = new Set<string>()
  if (!input.evidence) return out
  for (const n of input.nodes) {
    const name = n.metadata?.name ?? ''
    if (leaseKnown(input.evidence, name) || readyCondition(n)?.status !== 'True') continue
    if (input.now > estimateSignOfLife(n, undefined, input.settings, input.nowMicros ?? input.now * 1000).probe + input.settings.nodeMonitorGracePeriod)
      out.add(name)
  }
  return out
}

/** A ready node standing for the nodes outside the data, in a zone of its own; removed from the answer. */
const OUTSIDE = '\u0000outside-the-data'
function outsideNode(now: number): NodeLike {
  return {
    metadata: {
      name: OUTSIDE,
      uid: OUTSIDE,
      creationTimestamp: iso(now - 3_600_000),
      labels: {'topology.kubernetes.io/region': OUTSIDE, 'topology.kubernetes.io/zone': OUTSIDE},
    },
    status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: iso(now), lastTransitionTime: iso(now - 3_600_000)}]},
  }
}

/**
 * In master disruption mode the controller adds no NoExecute taint (handleDisruption stops every zone queue and
 * strips them on entry, nlc.go@2b96ebcf:1033-1121): one added after the last zone in the data went down proves
 * the real controller was not in that mode. Only when the mode is inferred to have been in force already.
 */
function contradiction(c: ClusterAnalysis): ClusterAnalysis['contradicted'] {
  if (c.masterDisruptionChange !== 'stays') return undefined
  const down = c.nodes.filter((n) => !n.excluded && n.readyBefore && n.readyBefore.status !== 'True' && n.readyBefore.since !== undefined)
  if (down.length === 0) return undefined
  const from = Math.max(...down.map((n) => n.readyBefore!.since!))
  const w = c.nodes.find((n) => n.noExecute.status === 'present' && n.noExecute.addedAt !== undefined && n.noExecute.addedAt >= from)
  return w
    ? {node: w.name, taint: `${w.noExecute.present!.key}:${w.noExecute.present!.effect}`, addedAt: w.noExecute.addedAt!, disruptionFrom: from}
    : undefined
}

/** The whole node lifecycle verdict for a cluster at `now`. */
export function analyzeCluster(input: ReplayInput): ClusterAnalysis {
  const withEvidence = {...input, assumeAlive: input.assumeAlive ?? unjudgeable(input)}
  const c = analyzeOnce(withEvidence)
  const nowMicros = input.nowMicros ?? input.now * 1000
  if (input.nodes.length === 0) return {...c, verdict: 'noNodes', masterDisruption: false, masterDisruptionChange: 'none', evidence: input.evidence, nowMicros}
  const contradicted = contradiction(c)
  if (!contradicted) return {...c, evidence: input.evidence, nowMicros}
  const again = analyzeOnce({...withEvidence, nodes: [...input.nodes, outsideNode(input.now)]})
  const nodes = again.nodes.filter((n) => n.name !== OUTSIDE)
  const zones = again.zones.filter((z) => !z.nodes.includes(OUTSIDE))
  const degraded = nodes.some((n) => n.verdict !== 'healthy' && n.verdict !== 'excluded' && n.verdict !== 'unknown')
  return {
    ...again,
    nodes,
    zones,
    masterDisruption: false,
    masterDisruptionChange: 'none',
    evidence: input.evidence,
    nowMicros,
    contradicted,
    verdict: again.verdict === 'circuitOpen' ? 'circuitOpen' : degraded ? 'degraded' : 'healthy',
  }
}

function analyzeOnce(input: ReplayInput): ClusterAnalysis {
  const r = replay(input)
  const tripped = r.pass.nodes.find((n) => n.outcome.kind === 'shortCircuit' && n.outcome.why !== 'leaseLookupError')
  const circuitOpen = tripped !== undefined
  const base = analyzeReplay(r, input, circuitOpen)
  if (circuitOpen) {
    // Once the watch cache catches up the controller sees the live leases: replay that to say what follows.
    const caughtUpLeases = new Map(input.cachedLeases)
    for (const [name, live] of input.liveLeases) if (live.kind === 'found') caughtUpLeases.set(name, live.lease)
    const later = analyzeReplay(
      replay({...input, cachedLeases: caughtUpLeases, leaseInformerSyncRV: undefined, settings: {...input.settings, leaseCircuitBreaker: false}}),
      {...input, cachedLeases: caughtUpLeases},
      false,
    )
    const byName = new Map(later.nodes.map((n) => [n.name, n.verdict]))
    for (const n of base.nodes) n.verdictOnceCaughtUp = byName.get(n.name)
  }
  const trippedOutcome = tripped?.outcome.kind === 'shortCircuit' ? tripped.outcome : undefined
  const degraded = base.nodes.some((n) => n.verdict !== 'healthy' && n.verdict !== 'excluded' && n.verdict !== 'unknown')
  return {
    ...base,
    verdict: circuitOpen ? 'circuitOpen' : base.masterDisruption ? 'masterDisruption' : degraded ? 'degraded' : 'healthy',
    circuit: {
      gate: input.settings.leaseCircuitBreaker,
      open: circuitOpen,
      trippedBy: tripped?.name,
      recordedRV: r.state.consistency.recordedRV,
      informerSyncRV: input.leaseInformerSyncRV,
      message: trippedOutcome?.message,
    },
  }
}
