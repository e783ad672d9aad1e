// The offline replay (one monitor pass over memory rebuilt from the objects) and its verdicts. Expected values
// are worked out by hand in each test from the rules in the decisions document (§2.3, §4, §5, §6, §10).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {analyzeCluster} from '../../../src/engine/nodelifecycle/analyze.js'
import type {LiveLeaseLookup} from '../../../src/engine/nodelifecycle/health.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLike, type Taint} from '../../../src/engine/nodelifecycle/types.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace('.000Z', 'Z')
const micro = (s: number) => new Date(NOW + s * 1000).toISOString().replace('Z', '000Z')
const UNREACH: Taint = {key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(-100)}

function node(
  name: string,
  zone: string,
  ready: 'True' | 'False' | 'Unknown' | null,
  opts: {hb?: number; taints?: Taint[]; labels?: Record<string, string>; reason?: string} = {},
): NodeLike {
  return {
    metadata: {name, uid: name, resourceVersion: '1', creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': zone, ...opts.labels}},
    spec: {taints: opts.taints ?? []},
    status: {
      conditions:
        ready === null ? [] : [{type: 'Ready', status: ready, reason: opts.reason, lastHeartbeatTime: at(opts.hb ?? -5), lastTransitionTime: at(-3600)}],
    },
  }
}
function lease(name: string, renew: number, rv: string): LeaseLike {
  return {metadata: {name, namespace: 'kube-node-lease', resourceVersion: rv}, spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro(renew)}}
}
function run(
  nodes: NodeLike[],
  leases: LeaseLike[] = [],
  opts: {live?: Map<string, LiveLeaseLookup>; settings?: Partial<typeof NEWEST_DEFAULTS>; syncRV?: string} = {},
) {
  const cached = new Map(leases.map((l) => [l.metadata!.name!, l]))
  const live = opts.live ?? new Map([...cached].map(([n, l]) => [n, {kind: 'found', lease: l} as LiveLeaseLookup]))
  return analyzeCluster({
    nodes,
    cachedLeases: cached,
    liveLeases: live,
    now: NOW,
    settings: {...NEWEST_DEFAULTS, ...opts.settings},
    leaseInformerSyncRV: opts.syncRV ?? '1000',
  })
}
const many = (n: number, zone: string, ready: 'True' | 'Unknown', prefix: string, taints?: Taint[]) =>
  Array.from({length: n}, (_, i) => node(`${prefix}${i}`, zone, ready, {taints, reason: ready === 'Unknown' ? 'NodeStatusUnknown' : undefined}))

describe('node verdicts', () => {
  it('healthy via the lease although the Ready heartbeat is 4 minutes old; the grace runs from the renewal', () => {
    const c = run([node('n1', 'a', 'True', {hb: -240})], [lease('n1', -3, '10')])
    const n = c.nodes[0]
    assert.equal(n.verdict, 'healthy')
    assert.equal(n.sign.probeFrom, 'lease')
    assert.equal(n.graceExpiry, NOW - 3000 + 50_000)
  })
  it('withinGrace: no renewal for 20s (> 40s/4 renew interval + 5s monitor period) but not yet 50s', () => {
    const n = run([node('n1', 'a', 'True', {hb: -240})], [lease('n1', -20, '10')]).nodes[0]
    assert.equal(n.verdict, 'withinGrace')
    assert.equal(n.stale, false)
  })
  it('a node that goes stale in this pass becomes Unknown and, in a healthy zone of 4, is queued (taintPending within 10s)', () => {
    const nodes = [node('n1', 'a', 'True', {hb: -240}), node('n2', 'a', 'True'), node('n3', 'a', 'True'), node('n4', 'a', 'True')]
    const leases = [lease('n1', -51, '10'), lease('n2', -1, '11'), lease('n3', -1, '12'), lease('n4', -1, '13')]
    const c = run(nodes, leases)
    const n = c.nodes[0]
    assert.equal(n.stale, true)
    assert.deepEqual(
      n.conditionsSetUnknown.map((x) => [x.type, x.reason]),
      [
        ['Ready', 'NodeStatusUnknown'],
        ['MemoryPressure', 'NodeStatusNeverUpdated'],
        ['DiskPressure', 'NodeStatusNeverUpdated'],
        ['PIDPressure', 'NodeStatusNeverUpdated'],
      ],
    )
    assert.equal(n.verdict, 'taintPending')
    // One pending node at 0.1/s: within 1/0.1 = 10 s.
    assert.equal(n.noExecute.pendingWithinMs, 10_000)
    assert.equal(c.zones[0].state, 'Normal')
  })
  it('never-posted node 30s old: withinGrace (startup grace); 61s old: Unknown NodeStatusNeverUpdated', () => {
    const young = node('y', 'a', null)
    young.metadata!.creationTimestamp = at(-30)
    const old = node('o', 'a', null)
    old.metadata!.creationTimestamp = at(-61)
    const c = run([young, old, node('h', 'a', 'True')], [lease('h', -1, '5')])
    assert.equal(c.nodes[0].verdict, 'withinGrace')
    assert.equal(c.nodes[0].gracePeriodKind, 'startup')
    assert.equal(c.nodes[1].readyAfter?.reason, 'NodeStatusNeverUpdated')
    assert.notEqual(c.nodes[1].verdict, 'withinGrace')
  })
  it('excluded: healthy with the exclusion label, and not counted in its zone', () => {
    const c = run(
      [node('x', 'a', 'True', {labels: {'node.kubernetes.io/exclude-disruption': ''}}), node('n', 'a', 'True')],
      [lease('x', -1, '1'), lease('n', -1, '2')],
    )
    assert.equal(c.nodes[0].verdict, 'excluded')
    assert.equal(c.zones[0].counted, 1)
  })
  it('unhealthy with the taint present; the opposite taint is swapped next pass (still unhealthy)', () => {
    const c = run(
      [
        node('u', 'a', 'Unknown', {taints: [UNREACH], reason: 'NodeStatusUnknown'}),
        node('f', 'a', 'False', {taints: [UNREACH]}),
        node('h1', 'a', 'True'),
        node('h2', 'a', 'True'),
      ],
      [lease('h1', -1, '1'), lease('h2', -1, '2'), lease('u', -300, '3'), lease('f', -1, '4')],
    )
    assert.equal(c.nodes[0].verdict, 'unhealthy')
    assert.equal(c.nodes[1].noExecute.status, 'swapNextPass')
    assert.equal(c.nodes[1].verdict, 'unhealthy')
  })
})

describe('zone rate and master disruption mode', () => {
  it('a zone of 60 with 40% not ready is Normal and taints at 0.1/s; with 70% it is Partial and, 60 > 50, taints at 0.01/s', () => {
    const forty = run([...many(24, 'a', 'Unknown', 'u'), ...many(36, 'a', 'True', 'h')])
    assert.deepEqual([forty.zones[0].state, forty.zones[0].rate], ['Normal', 0.1])
    assert.equal(forty.nodes[0].verdict, 'taintPending')
    // 24 pending at 0.1/s → within 240 s.
    assert.equal(forty.nodes[0].noExecute.pendingWithinMs, 240_000)
    const seventy = run([...many(42, 'a', 'Unknown', 'u'), ...many(18, 'a', 'True', 'h')])
    assert.deepEqual([seventy.zones[0].state, seventy.zones[0].rate], ['PartialDisruption', 0.01])
    assert.equal(seventy.nodes[0].noExecute.pendingWithinMs, 4_200_000)
  })
  it('a partially disrupted zone of exactly 50 counted nodes is small: rate 0, taintBlocked (zoneRateZero)', () => {
    const c = run([...many(30, 'a', 'Unknown', 'u'), ...many(20, 'a', 'True', 'h'), node('b', 'b', 'True')])
    assert.deepEqual([c.zones[0].counted, c.zones[0].state, c.zones[0].rate], [50, 'PartialDisruption', 0])
    assert.equal(c.nodes[0].verdict, 'taintBlocked')
    assert.equal(c.nodes[0].noExecute.blockedBecause, 'zoneRateZero')
  })
  it('all zones down: master disruption mode, every not-ready node taintBlocked (masterDisruption), cluster critical', () => {
    const c = run([...many(3, 'a', 'Unknown', 'a'), ...many(2, 'b', 'Unknown', 'b')])
    assert.equal(c.verdict, 'masterDisruption')
    assert.equal(c.masterDisruption, true)
    assert.deepEqual(
      c.nodes.map((n) => n.noExecute.blockedBecause),
      ['masterDisruption', 'masterDisruption', 'masterDisruption', 'masterDisruption', 'masterDisruption'],
    )
    assert.deepEqual(
      c.zones.map((z) => z.rate),
      [0, 0],
    )
  })
  it('one zone fully down while another is healthy keeps the normal rate: its nodes are pending, not blocked', () => {
    const c = run([...many(3, 'a', 'Unknown', 'a'), ...many(2, 'b', 'True', 'b')])
    assert.equal(c.masterDisruption, false)
    assert.deepEqual([c.zones[0].state, c.zones[0].rate], ['FullDisruption', 0.1])
    assert.equal(c.nodes[0].verdict, 'taintPending')
  })
})

describe('lease circuit breaker, offline', () => {
  const nodes = [node('n1', 'a', 'True', {hb: -240}), node('n2', 'a', 'True', {hb: -240})]
  const cachedLeases = [lease('n1', -60, '100'), lease('n2', -60, '101')]
  it('cached lease expired but the live lease has another RV → circuitOpen for the cluster and every node; nothing marked or tainted', () => {
    const live = new Map<string, LiveLeaseLookup>([
      ['n1', {kind: 'found', lease: lease('n1', -2, '150')}],
      ['n2', {kind: 'found', lease: lease('n2', -1, '151')}],
    ])
    const c = run(nodes, cachedLeases, {live, syncRV: '101'})
    assert.equal(c.verdict, 'circuitOpen')
    assert.deepEqual([c.circuit.open, c.circuit.trippedBy, c.circuit.recordedRV], [true, 'n1', '150'])
    assert.deepEqual(
      c.nodes.map((n) => n.verdict),
      ['circuitOpen', 'circuitOpen'],
    )
    assert.deepEqual(
      c.nodes.map((n) => n.conditionsSetUnknown.length),
      [0, 0],
    )
    // Once the cache shows the live leases, both nodes are healthy (renewed 2 s and 1 s ago).
    assert.deepEqual(
      c.nodes.map((n) => n.verdictOnceCaughtUp),
      ['healthy', 'healthy'],
    )
  })
  it('the same with the gate off: the stale cache wins, both nodes go Unknown', () => {
    const live = new Map<string, LiveLeaseLookup>([
      ['n1', {kind: 'found', lease: lease('n1', -2, '150')}],
      ['n2', {kind: 'found', lease: lease('n2', -1, '151')}],
    ])
    const c = run(nodes, cachedLeases, {live, settings: {leaseCircuitBreaker: false}})
    assert.equal(c.circuit.open, false)
    assert.deepEqual(
      c.nodes.map((n) => n.readyAfter?.status),
      ['Unknown', 'Unknown'],
    )
    assert.equal(c.verdict, 'masterDisruption')
  })
  it('the live lease is gone (NotFound): no trip, the stale verdict stands', () => {
    const c = run(nodes, cachedLeases, {live: new Map()})
    assert.equal(c.circuit.open, false)
    assert.deepEqual(
      c.nodes.map((n) => n.readyAfter?.status),
      ['Unknown', 'Unknown'],
    )
  })
  it('our own quorum read failed (unreadable): no trip is claimed, the live check is reported as unread', () => {
    const live = new Map<string, LiveLeaseLookup>([
      ['n1', {kind: 'unreadable', message: 'Forbidden'}],
      ['n2', {kind: 'unreadable', message: 'Forbidden'}],
    ])
    const c = run(nodes, cachedLeases, {live})
    assert.equal(c.circuit.open, false)
    assert.equal(c.nodes[0].liveCheck?.outcome, 'unreadable')
  })
})
