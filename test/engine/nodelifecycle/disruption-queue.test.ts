// handleDisruption (master disruption mode) and the rate-limited tainting queue. Expected values worked out
// by hand from nlc.go:1033-1121 and rate_limited_queue.go (decisions document §5.4, §6.3), and upstream's
// TestAddAfterTry / TestSwapLimiter behaviour as that document quotes it.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {doNoExecuteTaintingPass, monitorNodeHealth, newControllerState} from '../../../src/engine/nodelifecycle/controller.js'
import {NeverLimiter, RateLimitedTimedQueue, TokenBucket} from '../../../src/engine/nodelifecycle/rate-limited-queue.js'
import {findTaint} from '../../../src/engine/nodelifecycle/taints.js'
import {NEWEST_DEFAULTS, type NodeLike} from '../../../src/engine/nodelifecycle/types.js'
import {viewOf} from './harness.js'

const T0 = Date.parse('2026-03-01T10:00:00Z')
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z')

function mk(name: string, zone: string, status: string, taints: {key: string; effect: string}[] = []): NodeLike {
  return {
    metadata: {name, uid: name, creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': zone}},
    spec: {taints},
    status: {conditions: [{type: 'Ready', status, lastHeartbeatTime: at(0), lastTransitionTime: at(0)}]},
  }
}
const UNREACH = {key: 'node.kubernetes.io/unreachable', effect: 'NoExecute'}

describe('master disruption mode', () => {
  it('all zones fully down: entering strips NoExecute taints from every node (excluded ones too) and stops the queues', () => {
    const excluded = mk('x1', 'b', 'Unknown', [UNREACH])
    excluded.metadata!.labels!['node.kubernetes.io/exclude-disruption'] = 'true'
    const nodes = [mk('a1', 'a', 'Unknown', [UNREACH]), mk('b1', 'b', 'Unknown'), excluded]
    const state = newControllerState()
    for (const n of nodes) state.knownNodes.add(n.metadata!.name!)
    state.zoneStates.set(':\x00:a', 'Normal')
    state.zoneStates.set(':\x00:b', 'Normal')
    const r = monitorNodeHealth(state, viewOf(nodes), T0, NEWEST_DEFAULTS)
    assert.equal(r.masterDisruption, 'entered')
    assert.deepEqual(Object.fromEntries(state.zoneStates), {':\x00:a': 'FullDisruption', ':\x00:b': 'FullDisruption'})
    assert.equal(
      nodes.every((n) => !findTaint(n.spec?.taints, UNREACH)),
      true,
    )
    assert.deepEqual(
      r.zones.map((z) => z.rate),
      [0, 0],
    )
    // The queues let nothing through while the mode lasts.
    const t = doNoExecuteTaintingPass(state, viewOf(nodes), T0 + 60_000)
    assert.deepEqual(t.tainted, [])
    const stay = monitorNodeHealth(state, viewOf(nodes), T0 + 5000, NEWEST_DEFAULTS)
    assert.equal(stay.masterDisruption, 'stays')
  })
  it('one zone fully down while another is healthy keeps the normal rate for the down zone', () => {
    const nodes = [mk('a1', 'a', 'Unknown'), mk('a2', 'a', 'Unknown'), mk('b1', 'b', 'True')]
    const state = newControllerState()
    const r = monitorNodeHealth(state, viewOf(nodes), T0, NEWEST_DEFAULTS)
    assert.equal(r.masterDisruption, 'none')
    assert.deepEqual(
      r.zones.map((z) => [z.key, z.state, z.rate]),
      [
        [':\x00:a', 'FullDisruption', 0.1],
        [':\x00:b', 'Normal', 0.1],
      ],
    )
  })
  it('leaving the mode resets every probe to now (a fresh grace for all nodes)', () => {
    const nodes = [mk('a1', 'a', 'Unknown'), mk('b1', 'b', 'Unknown')]
    const state = newControllerState()
    monitorNodeHealth(state, viewOf(nodes), T0, NEWEST_DEFAULTS)
    nodes[1].status!.conditions![0] = {type: 'Ready', status: 'True', lastHeartbeatTime: at(30), lastTransitionTime: at(30)}
    const r = monitorNodeHealth(state, viewOf(nodes), T0 + 30_000, NEWEST_DEFAULTS)
    assert.equal(r.masterDisruption, 'exited')
    assert.equal(state.health.get('a1')?.probeTimestamp, T0 + 30_000)
    assert.deepEqual(
      r.zones.map((z) => [z.state, z.rate]),
      [
        ['FullDisruption', 0.1],
        ['Normal', 0.1],
      ],
    )
  })
  it('partial disruption in a zone of 4 counted nodes → rate 0: queued but never tainted', () => {
    const nodes = [mk('a1', 'a', 'Unknown'), mk('a2', 'a', 'Unknown'), mk('a3', 'a', 'False'), mk('a4', 'a', 'True'), mk('b1', 'b', 'True')]
    const state = newControllerState()
    const r = monitorNodeHealth(state, viewOf(nodes), T0, NEWEST_DEFAULTS)
    assert.deepEqual(
      r.zones.map((z) => [z.state, z.rate]),
      [
        ['PartialDisruption', 0],
        ['Normal', 0.1],
      ],
    )
    assert.deepEqual(
      r.nodes.slice(0, 3).map((n) => n.taintAction.kind),
      ['queued', 'queued', 'queued'],
    )
    assert.deepEqual(doNoExecuteTaintingPass(state, viewOf(nodes), T0 + 3_600_000).tainted, [])
  })
})

describe('RateLimitedTimedQueue', () => {
  it('burst 1 at 0.1/s: one taint immediately (the bucket starts full), the next 10s later', () => {
    const nodes = [mk('a1', 'a', 'Unknown'), mk('a2', 'a', 'Unknown'), ...Array.from({length: 8}, (_, i) => mk(`h${i}`, 'a', 'True'))]
    const state = newControllerState()
    monitorNodeHealth(state, viewOf(nodes), T0, NEWEST_DEFAULTS)
    assert.deepEqual(
      doNoExecuteTaintingPass(state, viewOf(nodes), T0).tainted.map((t) => t.node),
      ['a1'],
    )
    assert.deepEqual(doNoExecuteTaintingPass(state, viewOf(nodes), T0 + 9_900).tainted, [])
    assert.deepEqual(
      doNoExecuteTaintingPass(state, viewOf(nodes), T0 + 10_000).tainted.map((t) => t.node),
      ['a2'],
    )
    assert.equal(findTaint(nodes[1].spec?.taints, UNREACH)?.timeAdded, at(10))
  })
  it('a value processed by Try stays de-duplicated: Add returns false until Remove (TestAddAfterTry)', () => {
    const q = new RateLimitedTimedQueue(100000)
    assert.equal(q.add('n1', 'u', T0), true)
    q.try(T0, () => [true, 0])
    assert.equal(q.pending().length, 0)
    assert.equal(q.add('n1', 'u', T0), false)
    q.remove('n1')
    assert.equal(q.add('n1', 'u', T0), true)
  })
  it('a head not yet due still consumes a token', () => {
    const q = new RateLimitedTimedQueue(0.1)
    q.add('n1', 'u', T0 + 5_000)
    q.try(T0, () => [true, 0])
    assert.equal(q.pending().length, 1)
    let ran = 0
    q.try(T0 + 5_000, () => [true, ran++])
    assert.equal(ran, 0, 'the token was used by the not-yet-due look at t=0')
  })
  it('SwapLimiter: equal QPS is a no-op; ≤ 0 gives the never-limiter; the never-limiter reports QPS 1 so swapping to 1 is a no-op', () => {
    const q = new RateLimitedTimedQueue(0.1)
    const first = q.limiter
    q.swapLimiter(0.1, T0)
    assert.equal(q.limiter, first)
    q.swapLimiter(0, T0)
    assert.ok(q.limiter instanceof NeverLimiter)
    assert.equal(q.limiter.qps(), 1)
    q.swapLimiter(1, T0)
    assert.ok(q.limiter instanceof NeverLimiter)
    q.swapLimiter(0.5, T0)
    assert.ok(q.limiter instanceof TokenBucket)
  })
  it('SwapLimiter drains the new bucket when the old one had no token (no free burst after a rate change)', () => {
    const q = new RateLimitedTimedQueue(0.1)
    assert.equal(q.limiter.tryAccept(T0), true)
    q.swapLimiter(0.5, T0)
    assert.equal(q.limiter.tryAccept(T0), false)
    assert.equal(q.limiter.tryAccept(T0 + 2_000), true)
  })
})
