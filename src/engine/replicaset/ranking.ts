// Which pod goes first: ActivePodsWithRanks.Less (pkg/controller/controller_utils.go:843) with every rule,
// and the older ActivePods.Less (CU:749) it grew from. Each comparison also says which rule decided, so the
// explanation can show why a pod ranks where it does.
import {POD_DELETION_COST_ANNOTATION} from './constants.js'
import type {Gates} from './gates.js'
import {isPodReady, num, phaseOf, podReadyTime} from './pod-util.js'
import {afterOrZero, instant, logRank} from './time.js'
import type {Instant, Pod} from './types.js'

/** podPhaseToOrdinal (CU:111): Pending 0, Unknown 1, Running 2; anything else is the map's zero value. */
export function phaseOrdinal(pod: Pod): number {
  const phase = phaseOf(pod)
  return phase === 'Running' ? 2 : phase === 'Unknown' ? 1 : 0
}

/**
 * GetDeletionCostFromPodAnnotations (pkg/apis/core/helper): 0 when absent or invalid. Invalid: a leading "+",
 * a leading zero other than "0" itself, or anything strconv.ParseInt(v, 10, 32) rejects.
 */
export function deletionCost(annotations: Record<string, string> | null | undefined): {cost: number; invalid?: string} {
  const value = annotations?.[POD_DELETION_COST_ANNOTATION]
  if (value === undefined) return {cost: 0}
  const validFirstDigit = value.length > 0 && (value[0] === '-' || value === '0' || (value[0] >= '1' && value[0] <= '9'))
  if (!validFirstDigit || !/^-?\d+$/.test(value)) return {cost: 0, invalid: value}
  const n = Number(value)
  if (n < -2147483648 || n > 2147483647) return {cost: 0, invalid: value}
  return {cost: n}
}

/** maxContainerRestarts (CU:948): the highest restartCount of regular containers, then of sidecars. */
export function maxContainerRestarts(pod: Pod): {regular: number; sidecar: number} {
  let regular = 0
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, num(c?.restartCount))
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c?.restartPolicy === 'Always').map((c) => c.name))
  let sidecar = 0
  for (const c of pod.status?.initContainerStatuses ?? []) if (sidecars.has(c?.name)) sidecar = Math.max(sidecar, num(c.restartCount))
  return {regular, sidecar}
}

/** The rules of ActivePodsWithRanks.Less, numbered as upstream's doc comment numbers them. */
export const RANK_RULES = {
  1: 'unassigned before assigned',
  2: 'Pending before Unknown before Running',
  3: 'not ready before ready',
  4: 'lower pod-deletion-cost first',
  5: 'more co-located related pods first',
  6: 'ready for less time first',
  7: 'more container restarts first',
  8: 'newer first',
} as const

export type RuleNumber = keyof typeof RANK_RULES

export interface Comparison {
  /** Less(i, j): pod i is preferred for deletion over pod j. */
  less: boolean
  /** The rule that decided; undefined when the pair is equal (Less is false both ways). */
  rule?: RuleNumber
  detail?: string
}

export interface RankedPod {
  pod: Pod
  rank: number
}

function nodeName(pod: Pod): string {
  return pod.spec?.nodeName ?? ''
}

function uid(pod: Pod): string {
  return pod.metadata.uid ?? ''
}

/** Times compared the way rules 6 and 8 compare them: exactly when Now or either time is zero, else in log2 buckets, ties by UID. */
function compareTimes(a: RankedPod, b: RankedPod, ta: Instant, tb: Instant, now: number | null, rule: RuleNumber, what: string, detailed = true): Comparison {
  if (now === null || ta === null || tb === null) {
    if (!detailed) return {less: afterOrZero(ta, tb), rule}
    return {
      less: afterOrZero(ta, tb),
      rule,
      detail: `${what} ${ta === null ? 'zero' : new Date(ta).toISOString()} vs ${tb === null ? 'zero' : new Date(tb).toISOString()} (${now === null ? 'exact comparison' : 'a zero time counts as newest'})`,
    }
  }
  const ra = logRank(ta, now)
  const rb = logRank(tb, now)
  if (!detailed) return {less: ra === rb ? uid(a.pod) < uid(b.pod) : ra < rb, rule}
  if (ra === rb) {
    return {
      less: uid(a.pod) < uid(b.pod),
      rule,
      detail: `${what} in the same log2 bucket (${ra}); tie broken by UID ${uid(a.pod) || '""'} vs ${uid(b.pod) || '""'}`,
    }
  }
  return {less: ra < rb, rule, detail: `${what} log2 buckets ${ra} vs ${rb} (floor(log2(ns before now)))`}
}

/**
 * ActivePodsWithRanks.Less(i, j), with the deciding rule. `now` null reproduces a zero Now (LogarithmicScaleDown off).
 * `detailed` false leaves the time details out (the tie analysis compares every pair).
 */
export function compareWithRanks(a: RankedPod, b: RankedPod, now: number | null, gates: Gates, detailed = true): Comparison {
  const na = nodeName(a.pod)
  const nb = nodeName(b.pod)
  if (na !== nb && (na === '' || nb === '')) {
    return {less: na === '', rule: 1, detail: `node ${na || '(none)'} vs ${nb || '(none)'}`}
  }
  const pa = phaseOrdinal(a.pod)
  const pb = phaseOrdinal(b.pod)
  if (pa !== pb) return {less: pa < pb, rule: 2, detail: `phase ${phaseOf(a.pod) || '(unset)'} vs ${phaseOf(b.pod) || '(unset)'}`}
  const ra = isPodReady(a.pod)
  const rb = isPodReady(b.pod)
  if (ra !== rb) return {less: !ra, rule: 3, detail: `ready ${ra} vs ${rb}`}
  if (gates.PodDeletionCost) {
    const ca = deletionCost(a.pod.metadata.annotations).cost
    const cb = deletionCost(b.pod.metadata.annotations).cost
    if (ca !== cb) return {less: ca < cb, rule: 4, detail: `pod-deletion-cost ${ca} vs ${cb}`}
  }
  if (a.rank !== b.rank) return {less: a.rank > b.rank, rule: 5, detail: `co-located related pods ${a.rank} vs ${b.rank}`}
  if (ra && rb) {
    const ta = podReadyTime(a.pod)
    const tb = podReadyTime(b.pod)
    if (ta !== tb) return compareTimes(a, b, ta, tb, now, 6, 'ready since', detailed)
  }
  const xa = maxContainerRestarts(a.pod)
  const xb = maxContainerRestarts(b.pod)
  if (xa.regular !== xb.regular) return {less: xa.regular > xb.regular, rule: 7, detail: `max restarts ${xa.regular} vs ${xb.regular}`}
  if (gates.SidecarRestartRanking && xa.sidecar !== xb.sidecar) {
    return {less: xa.sidecar > xb.sidecar, rule: 7, detail: `max sidecar restarts ${xa.sidecar} vs ${xb.sidecar}`}
  }
  const ca = instant(a.pod.metadata.creationTimestamp)
  const cb = instant(b.pod.metadata.creationTimestamp)
  if (ca !== cb) return compareTimes(a, b, ca, cb, now, 8, 'created', detailed)
  return {less: false}
}

/** ActivePods.Less (CU:749): the older order without cost, rank, log buckets or UID tie-break. */
export function activePodsLess(a: Pod, b: Pod, gates: Pick<Gates, 'SidecarRestartRanking'>): boolean {
  const na = nodeName(a)
  const nb = nodeName(b)
  if (na !== nb && (na === '' || nb === '')) return na === ''
  const pa = phaseOrdinal(a)
  const pb = phaseOrdinal(b)
  if (pa !== pb) return pa < pb
  const ra = isPodReady(a)
  const rb = isPodReady(b)
  if (ra !== rb) return !ra
  if (ra && rb) {
    const ta = podReadyTime(a)
    const tb = podReadyTime(b)
    if (ta !== tb) return afterOrZero(ta, tb)
  }
  const xa = maxContainerRestarts(a)
  const xb = maxContainerRestarts(b)
  if (xa.regular !== xb.regular) return xa.regular > xb.regular
  if (gates.SidecarRestartRanking && xa.sidecar !== xb.sidecar) return xa.sidecar > xb.sidecar
  const ca = instant(a.metadata.creationTimestamp)
  const cb = instant(b.metadata.creationTimestamp)
  if (ca !== cb) return afterOrZero(ca, cb)
  return false
}

/** sort.Sort with a Less function; the result is deterministic here (stable), where Go's pdqsort is not. */
export function sortByLess<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  return items.sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0))
}

/** What ActivePodsWithRanks.Less reads of one pod, computed once (the tie analysis compares every pair). */
export interface RankKey {
  node: string
  phase: number
  ready: boolean
  cost: number
  rank: number
  readyTime: Instant
  readyLog: number
  restarts: number
  sidecarRestarts: number
  created: Instant
  createdLog: number
  uid: string
}

export function rankKey(r: RankedPod, now: number | null): RankKey {
  const readyTime = isPodReady(r.pod) ? podReadyTime(r.pod) : null
  const created = instant(r.pod.metadata.creationTimestamp)
  const x = maxContainerRestarts(r.pod)
  return {
    node: nodeName(r.pod),
    phase: phaseOrdinal(r.pod),
    ready: isPodReady(r.pod),
    cost: deletionCost(r.pod.metadata.annotations).cost,
    rank: r.rank,
    readyTime,
    readyLog: now === null || readyTime === null ? 0 : logRank(readyTime, now),
    restarts: x.regular,
    sidecarRestarts: x.sidecar,
    created,
    createdLog: now === null || created === null ? 0 : logRank(created, now),
    uid: uid(r.pod),
  }
}

/** compareWithRanks(...).less over precomputed keys: the same rules in the same order (tested equal in ties.test.ts). */
export function keyLess(a: RankKey, b: RankKey, now: number | null, gates: Gates): boolean {
  if (a.node !== b.node && (a.node === '' || b.node === '')) return a.node === ''
  if (a.phase !== b.phase) return a.phase < b.phase
  if (a.ready !== b.ready) return !a.ready
  if (gates.PodDeletionCost && a.cost !== b.cost) return a.cost < b.cost
  if (a.rank !== b.rank) return a.rank > b.rank
  if (a.ready && b.ready && a.readyTime !== b.readyTime) {
    if (now === null || a.readyTime === null || b.readyTime === null) return afterOrZero(a.readyTime, b.readyTime)
    return a.readyLog === b.readyLog ? a.uid < b.uid : a.readyLog < b.readyLog
  }
  if (a.restarts !== b.restarts) return a.restarts > b.restarts
  if (gates.SidecarRestartRanking && a.sidecarRestarts !== b.sidecarRestarts) return a.sidecarRestarts > b.sidecarRestarts
  if (a.created !== b.created) {
    if (now === null || a.created === null || b.created === null) return afterOrZero(a.created, b.created)
    return a.createdLog === b.createdLog ? a.uid < b.uid : a.createdLog < b.createdLog
  }
  return false
}
