// Property tests (fast-check, fixed seed, bounded runs) for issue 18.3 and 18.5: the upstream rules are re-stated
// below from their source, independently of src/, and the replay must agree with them on random scenarios —
// ties (taints added at the same instant, a taint arriving exactly when a timer fires), equal timestamps, absent vs
// null vs zero vs negative tolerationSeconds, and int64 overflow of time.Duration.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import fc from 'fast-check'
import {estimateEvictionTime} from '../../../src/engine/tainteviction/process.js'
import {getMinTolerationTime} from '../../../src/engine/tainteviction/toleration.js'
import {getMatchingTolerations, toleratesTaint} from '../../../src/component-helpers/tolerations.js'
import type {PodLike, Taint, Toleration} from '../../../src/engine/tainteviction/types.js'

const SEED = 1803
const RUNS = 400
const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)

// ---- upstream, re-stated ----

/**
 * compareNumericValues (staging/src/k8s.io/api/core/v1/toleration.go, canonical-integer form as
 * toleration_test.go@4a0608cb TestCompareNumericValues asserts: no "+", no leading zero, no "-0", no spaces).
 */
function refInt64(v: string | undefined): bigint | undefined {
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined
  if (v === '-0' || /^-?0\d/.test(v)) return undefined
  const n = BigInt(v)
  return n < INT64_MIN || n > INT64_MAX ? undefined : n
}

/** ToleratesTaint (toleration.go@19c6083b:45-65, with the gate argument of toleration_test.go@4a0608cb). */
function refTolerates(t: Toleration, taint: Taint, gate: boolean): boolean {
  if ((t.effect ?? '') !== '' && t.effect !== taint.effect) return false
  if ((t.key ?? '') !== '' && t.key !== taint.key) return false
  const op = t.operator ?? ''
  if (op === '' || op === 'Equal') return (t.value ?? '') === (taint.value ?? '')
  if (op === 'Exists') return true
  if (op === 'Lt' || op === 'Gt') {
    if (!gate) return false
    const a = refInt64(t.value)
    const b = refInt64(taint.value)
    if (a === undefined || b === undefined) return false
    return op === 'Lt' ? b < a : b > a
  }
  return false
}

/** GetMatchingTolerations (pkg/apis/core/v1/helper/helpers.go@a23d4fdd): per taint, the first tolerating toleration. */
function refMatching(taints: Taint[], tolerations: Toleration[], gate: boolean): {all: boolean; used: Toleration[]} {
  if (taints.length === 0) return {all: true, used: []}
  if (tolerations.length === 0) return {all: false, used: []}
  const used: Toleration[] = []
  for (const taint of taints) {
    const t = tolerations.find((x) => refTolerates(x, taint, gate))
    if (!t) return {all: false, used: []}
    used.push(t)
  }
  return {all: true, used}
}

/** getMinTolerationTime (taint_eviction.go@5ce22905:161-183) in nanoseconds: time.Duration(min) * time.Second wraps. */
function refMinNs(tolerations: Toleration[]): bigint {
  let min = INT64_MAX
  if (tolerations.length === 0) return 0n
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue
    const s = BigInt(t.tolerationSeconds)
    if (s <= 0n) return 0n
    if (s < min) min = s
  }
  if (min === INT64_MAX) return -1n
  return BigInt.asIntN(64, min * 1_000_000_000n)
}

/**
 * The controller over time (taint_eviction.go@5ce22905:452-491 processPodOnNode; timed_workers.go@008b3652
 * CreateWorker: delay = fireAt − createdAt, ≤ 0 runs at once, else a timer armed now for that delay). Arrivals are
 * grouped by instant (one node update carries every taint present); a timer due at or before an arrival fires first.
 * Returns when the pod is deleted (ns since epoch), or undefined.
 */
function refDeletion(arrivals: {at: bigint; taints: Taint[]}[], tolerations: Toleration[], gate: boolean): bigint | undefined {
  let worker: {createdAt: bigint; fireAt: bigint} | undefined
  const present: Taint[] = []
  for (const {at, taints} of arrivals) {
    if (worker && worker.fireAt <= at) return worker.fireAt
    present.push(...taints)
    const {all, used} = refMatching(present, tolerations, gate)
    if (!all) return at // cancel; AddWork(now, now): delay 0 runs at once
    const min = refMinNs(used)
    if (min < 0n) {
      worker = undefined // cancelWorkWithEvent
      continue
    }
    let start = at
    const trigger = at + min
    if (worker) {
      start = worker.createdAt
      if (start + min < trigger) continue // scheduledEviction stands
      worker = undefined
    }
    const delay = trigger - start
    if (delay <= 0n) return at
    worker = {createdAt: start, fireAt: at + delay}
  }
  return worker?.fireAt
}

// ---- arbitraries ----

const BASE = Date.parse('2026-05-01T09:00:00Z')
const taintKey = fc.constantFrom('a', 'b', 'c', 'node.kubernetes.io/unreachable')
const numeric = fc.constantFrom('', '5', '10', '05', '+5', '-0', '-3', '9223372036854775807', 'x')
const seconds = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(0),
  fc.integer({min: -5, max: 600}),
  fc.constantFrom(9223372036, 9223372037, 18446744074, 9_007_199_254_740_991),
  fc.bigInt({min: INT64_MAX - 3n, max: INT64_MAX}),
  fc.bigInt({min: 1n, max: INT64_MAX}),
)
const toleration: fc.Arbitrary<Toleration> = fc
  .record(
    {
      key: fc.oneof(taintKey, fc.constant('')),
      operator: fc.constantFrom('Exists', 'Equal', '', 'Lt', 'Gt', 'In'),
      value: numeric,
      effect: fc.constantFrom('', 'NoExecute', 'NoSchedule'),
      tolerationSeconds: seconds,
    },
    {requiredKeys: ['key', 'operator']},
  )
  .map((t) => (t.key === '' ? {...t, operator: 'Exists'} : t) as Toleration)
// Instants on a coarse grid so that ties (equal timeAdded, a timer firing exactly at an arrival) are common.
const taint: fc.Arbitrary<{key: string; value: string; offset: number}> = fc.record({
  key: taintKey,
  value: numeric,
  offset: fc.constantFrom(0, 0, 10, 30, 60, 300, 600),
})

const iso = (ms: number) => new Date(ms).toISOString()
const podOf = (tolerations: Toleration[]): PodLike => ({
  metadata: {name: 'p', namespace: 'ns', creationTimestamp: iso(BASE - 3_600_000)},
  spec: {nodeName: 'n', tolerations},
  status: {conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: iso(BASE - 3_600_000)}]},
})

describe('properties against upstream, re-stated', () => {
  it('toleratesTaint: Lt/Gt only with the gate on; canonical int64 only; the rest as ToleratesTaint', () => {
    fc.assert(
      fc.property(toleration, taintKey, numeric, fc.constantFrom('NoExecute', 'NoSchedule'), fc.boolean(), (t, key, value, effect, gate) => {
        const tn: Taint = {key, value, effect}
        assert.equal(toleratesTaint(t, tn, {comparisonOperators: gate}), refTolerates(t, tn, gate))
        if (!gate && (t.operator === 'Lt' || t.operator === 'Gt')) assert.equal(toleratesTaint(t, tn), false)
      }),
      {seed: SEED, numRuns: RUNS},
    )
  })

  it("getMinTolerationTime: absent/null skip, ≤ 0 is 0, none set is −1, MaxInt64 is −1, and Go's int64 ns wrap", () => {
    fc.assert(
      fc.property(fc.array(seconds, {maxLength: 4}), (list) => {
        const tolerations = list.map((s) => ({tolerationSeconds: s}) as Toleration)
        const ns = refMinNs(tolerations)
        const got = getMinTolerationTime(tolerations)
        // The replay keeps milliseconds (Go's ns truncated toward zero); the sign — the forever branch — is exact.
        if (ns < 0n) assert.ok(got < 0, `${list} → ${got}, upstream ${ns} ns`)
        else assert.equal(got, Number(ns / 1_000_000n))
      }),
      {seed: SEED, numRuns: RUNS},
    )
  })

  it('the first-match tolerations: the same set as GetMatchingTolerations, gate on or off', () => {
    fc.assert(
      fc.property(fc.array(taint, {minLength: 1, maxLength: 3}), fc.array(toleration, {maxLength: 4}), fc.boolean(), (ts, tolerations, gate) => {
        const taints = ts.map((x) => ({key: x.key, value: x.value, effect: 'NoExecute'}))
        const mine = getMatchingTolerations(taints, tolerations, {comparisonOperators: gate})
        const ref = refMatching(taints, tolerations, gate)
        assert.equal(mine.allTolerated, ref.all)
        if (ref.all)
          assert.deepEqual(
            mine.matches.map((m) => m.toleration),
            ref.used,
          )
      }),
      {seed: SEED, numRuns: RUNS},
    )
  })

  it('the eviction instant: the replayed timer agrees with processPodOnNode run over the arrivals in time', () => {
    fc.assert(
      fc.property(fc.array(taint, {minLength: 1, maxLength: 4}), fc.array(toleration, {maxLength: 4}), fc.boolean(), (ts, tolerations, gate) => {
        const taints: Taint[] = ts.map((x) => ({key: x.key, value: x.value, effect: 'NoExecute', timeAdded: iso(BASE + x.offset * 1000)}))
        const offsets = [...new Set(ts.map((x) => x.offset))].sort((a, b) => a - b)
        const arrivals = offsets.map((o) => ({at: BigInt(BASE + o * 1000) * 1_000_000n, taints: taints.filter((_, i) => ts[i].offset === o)}))
        const ref = refDeletion(arrivals, tolerations, gate)
        const mine = estimateEvictionTime(podOf(tolerations), taints, tolerations, {comparisonOperators: gate})
        // Compared in milliseconds: the replay's unit (a sub-millisecond timer is "at once" there, a ≤1 ms one upstream).
        const refMs = ref === undefined ? undefined : Number(ref / 1_000_000n)
        assert.equal(
          mine?.deadline,
          refMs,
          `arrivals ${JSON.stringify(ts)} tolerations ${JSON.stringify(tolerations, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`,
        )
      }),
      {seed: SEED, numRuns: RUNS},
    )
  })
})
