// Issue 18.3: the eviction verdict comes from the replayed timer, not from today's taint set. Each example of the
// issue, with the answer worked out by hand from processPodOnNode (taint_eviction.go@5ce22905:452-491),
// getMinTolerationTime (:161-183) and the timed worker (timed_workers.go@008b3652:92-95: a delay ≤ 0 runs at once).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {explainEvicted} from '../../../src/engine/tainteviction/explain.js'
import {estimateEvictionTime} from '../../../src/engine/tainteviction/process.js'
import {getMinTolerationTime} from '../../../src/engine/tainteviction/toleration.js'
import type {PodLike, Taint, Toleration} from '../../../src/engine/tainteviction/types.js'
import type {NodeLike} from '../../../src/engine/nodelifecycle/types.js'
import {NEWEST_DEFAULTS} from '../../../src/engine/nodelifecycle/types.js'

const day = '2026-05-01'
const t = (hhmmss: string) => `${day}T${hhmmss}Z`
const ms = (hhmmss: string) => Date.parse(t(hhmmss))
const pod = (tolerations: Toleration[]): PodLike => ({
  metadata: {name: 'p', namespace: 'ns', uid: 'u', creationTimestamp: t('08:00:00')},
  spec: {nodeName: 'n1', tolerations},
  status: {conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: t('08:00:00')}]},
})
const taint = (key: string, added: string): Taint => ({key, effect: 'NoExecute', timeAdded: t(added)})
const tol = (key: string, seconds?: number | bigint): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds === undefined ? {} : {tolerationSeconds: seconds}),
})
const node = (taints: Taint[]): NodeLike => ({metadata: {name: 'n1', uid: 'n1'}, spec: {taints}, status: {conditions: [{type: 'Ready', status: 'True'}]}})
const explain = (p: PodLike, taints: Taint[], now: string) =>
  explainEvicted({namespace: 'ns', name: 'p', pod: p, events: [], node: node(taints), now: ms(now), settings: NEWEST_DEFAULTS, source: {mode: 'snapshot'}})

describe('the timer decides, not the taints present now', () => {
  it('a timer that fired before a later untolerated taint: evicted at the deadline, not evictedImmediately', () => {
    // 09:00 taint a arrives, tolerated 30 s → AddWork(09:00, 09:00:30). The timer fires at 09:00:30 and the pod is
    // deleted. 09:10 taint b (not tolerated) would delete at once — but the pod went at 09:00:30 already.
    const p = pod([tol('a', 30)])
    const taints = [taint('a', '09:00:00'), taint('b', '09:10:00')]
    const timing = estimateEvictionTime(p, taints, p.spec!.tolerations!)!
    assert.equal(timing.deadline, ms('09:00:30'))
    assert.equal(timing.immediate, false)
    assert.deepEqual(
      timing.history.map((h) => h.action),
      ['armed', 'fired'],
    )
    const e = explain(p, taints, '09:20:00')
    assert.deepEqual([e.verdict, (e.timeline as {evictionDeadline: string}).evictionDeadline], ['evictAt', '2026-05-01T09:00:30Z'])
    assert.match(e.summary, /^Evicted at ≈ 2026-05-01T09:00:30Z/)
  })
  it('a later taint tolerated 0 s while a timer runs: processPodOnNode returns early, the old timer stands (11:00)', () => {
    // 09:00 a tolerated 7200 s → AddWork(09:00, 11:00). 09:01 {a, b}: min = 0 (b's tolerationSeconds 0);
    // trigger = 09:01; the worker exists and CreatedAt + 0 = 09:00 is Before 09:01 → return: 11:00 stands.
    const p = pod([tol('a', 7200), tol('b', 0)])
    const taints = [taint('a', '09:00:00'), taint('b', '09:01:00')]
    const timing = estimateEvictionTime(p, taints, p.spec!.tolerations!)!
    assert.equal(timing.deadline, ms('11:00:00'))
    assert.deepEqual(
      timing.history.map((h) => h.action),
      ['armed', 'kept'],
    )
    const e = explain(p, taints, '09:30:00')
    assert.deepEqual([e.verdict, e.severity, e.minTolerationSeconds], ['evictAt', 'warning', 7200])
    // The eviction is in the future: said in the future tense.
    assert.match(e.summary, /^Will be evicted at ≈ 2026-05-01T11:00:00Z, in 1h30m/)
  })
  it('the same 0 s toleration with no timer running deletes at once (AddWork(now, now))', () => {
    const p = pod([tol('b', 0)])
    const e = explain(p, [taint('b', '09:01:00')], '09:30:00')
    assert.deepEqual([e.verdict, e.severity], ['evictedImmediately', 'critical'])
    assert.equal((e.timeline as {evictionDeadline: string}).evictionDeadline, '2026-05-01T09:01:00Z')
  })
  it('an untolerated taint arriving before the timer fires deletes at once at its arrival', () => {
    // 09:00 a tolerated 300 s (fires 09:05); 09:02 b untolerated → cancel, AddWork(09:02, 09:02).
    const p = pod([tol('a', 300)])
    const timing = estimateEvictionTime(p, [taint('a', '09:00:00'), taint('b', '09:02:00')], p.spec!.tolerations!)!
    assert.deepEqual([timing.deadline, timing.immediate], [ms('09:02:00'), true])
  })
  it('equal instants: a taint arriving exactly when the timer fires finds the pod gone (the timer is taken to fire first)', () => {
    const p = pod([tol('a', 60)])
    const timing = estimateEvictionTime(p, [taint('a', '09:00:00'), taint('b', '09:01:00')], p.spec!.tolerations!)!
    assert.deepEqual([timing.deadline, timing.immediate], [ms('09:01:00'), false])
  })
})

describe('tolerationSeconds whose nanoseconds overflow int64: Go wraps', () => {
  it('18446744074 s wraps to 290448384 ns (~0.29 s): the timer fires 290 ms after the taint', () => {
    // 18446744074 × 1e9 = 18446744074000000000; minus 2^64 (18446744073709551616) = 290448384 ns → 290 ms.
    assert.equal(getMinTolerationTime([tol('a', 18446744074)]), 290)
    const p = pod([tol('a', 18446744074)])
    const timing = estimateEvictionTime(p, [taint('a', '09:00:00')], p.spec!.tolerations!)!
    assert.equal(timing.deadline, ms('09:00:00') + 290)
    const e = explain(p, [taint('a', '09:00:00')], '09:30:00')
    assert.equal(e.verdict, 'evictAt')
  })
  it('9223372037 s wraps negative: getMinTolerationTime < 0 reads as "forever" and cancels', () => {
    // 9223372037 × 1e9 = 9223372037000000000 > 2^63−1 → −9223372036709551616 ns: negative, the forever branch.
    const p = pod([tol('a', 9223372037)])
    assert.equal(estimateEvictionTime(p, [taint('a', '09:00:00')], p.spec!.tolerations!), undefined)
    assert.equal(explain(p, [taint('a', '09:00:00')], '09:30:00').verdict, 'toleratedForever')
  })
  it('an inexact tolerationSeconds (a float, or beyond 2^53 read as a number) is refused with a reason, never guessed', () => {
    assert.throws(() => getMinTolerationTime([{tolerationSeconds: 1.5}]), /not an exact int64/)
    assert.throws(() => getMinTolerationTime([{tolerationSeconds: 2 ** 60}]), /not an exact int64/)
    // Exact as a bigint: 2^60 s × 1e9 = 2^69 × 1953125 ≡ 0 (mod 2^64) → 0 ns → deleted at once.
    assert.equal(getMinTolerationTime([{tolerationSeconds: 2n ** 60n}]), 0)
  })
})
