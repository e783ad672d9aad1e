// The lease circuit breaker (NodeControllerLeaseCircuitBreaker): nlc.go@2b96ebcf steps 0 and 6 and
// client-go consistency.go@2b96ebcf, as the decisions document §4 states them. No upstream test of the
// breaker is stored, so expected values here are worked out by hand from that reading.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {type ClusterView, monitorNodeHealth, newControllerState} from '../../../src/engine/nodelifecycle/controller.js'
import {compareResourceVersions, ConsistencyStore} from '../../../src/engine/nodelifecycle/consistency.js'
import type {LiveLeaseLookup} from '../../../src/engine/nodelifecycle/health.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLike} from '../../../src/engine/nodelifecycle/types.js'

const T0 = Date.parse('2026-03-01T10:00:00Z')
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z')
const micro = (s: number) => new Date(T0 + s * 1000).toISOString().replace('Z', '000Z')
const settings = NEWEST_DEFAULTS

function mkNode(name: string): NodeLike {
  return {
    metadata: {name, uid: name, creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': 'a'}},
    status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: at(-100), lastTransitionTime: at(-86400)}]},
  }
}
function mkLease(name: string, renew: number, rv: string): LeaseLike {
  return {metadata: {name, namespace: 'kube-node-lease', resourceVersion: rv}, spec: {holderIdentity: name, renewTime: micro(renew)}}
}
function view(nodes: NodeLike[], cached: LeaseLike[], live: Record<string, LiveLeaseLookup>, syncRV: string): ClusterView {
  return {nodes, leases: new Map(cached.map((l) => [l.metadata!.name!, l])), liveLease: (n) => live[n] ?? {kind: 'notFound'}, leaseInformerSyncRV: syncRV}
}

describe('lease circuit breaker', () => {
  it('cached lease stale but live RV differs → trips; later nodes are refused at step 0 across passes until the informer syncs', () => {
    const nodes = [mkNode('n1'), mkNode('n2'), mkNode('n3')]
    const state = newControllerState()
    const pass1 = view(nodes, [mkLease('n1', 0, '100'), mkLease('n2', 0, '101'), mkLease('n3', 0, '102')], {}, '102')
    monitorNodeHealth(state, pass1, T0, settings)
    // 60s later the watch cache still shows the old leases (renewTime 0) while the kubelets kept renewing.
    const live: Record<string, LiveLeaseLookup> = {
      n1: {kind: 'found', lease: mkLease('n1', 58, '150')},
      n2: {kind: 'found', lease: mkLease('n2', 59, '151')},
      n3: {kind: 'found', lease: mkLease('n3', 59, '152')},
    }
    const lagging = view(nodes, [mkLease('n1', 0, '100'), mkLease('n2', 0, '101'), mkLease('n3', 0, '102')], live, '102')
    const r2 = monitorNodeHealth(state, lagging, T0 + 60_000, settings)
    assert.deepEqual(
      r2.nodes.map((n) => (n.outcome.kind === 'shortCircuit' ? n.outcome.why : 'evaluated')),
      ['leaseChanged', 'cacheBehind', 'cacheBehind'],
    )
    assert.equal(state.consistency.recordedRV, '150')
    // Safe direction: nothing marked Unknown, no taint queued, and the zone (no counted node) is dropped.
    assert.equal(
      nodes.every((n) => n.status?.conditions?.[0].status === 'True'),
      true,
    )
    assert.deepEqual(r2.zones, [])
    assert.equal(state.zoneStates.size, 0)
    // Still behind one pass later: every node refused, including the one that tripped it.
    const r3 = monitorNodeHealth(state, lagging, T0 + 65_000, settings)
    assert.deepEqual(
      r3.nodes.map((n) => n.outcome.kind === 'shortCircuit' && n.outcome.why),
      ['cacheBehind', 'cacheBehind', 'cacheBehind'],
    )
    // The informer catches up (last sync RV ≥ 150, renewed leases visible): the record clears, nodes are healthy again.
    const caughtUp = view(nodes, [mkLease('n1', 68, '160'), mkLease('n2', 69, '161'), mkLease('n3', 69, '162')], live, '162')
    const r4 = monitorNodeHealth(state, caughtUp, T0 + 70_000, settings)
    assert.deepEqual(
      r4.nodes.map((n) => n.outcome.kind === 'evaluated' && n.outcome.stale),
      [false, false, false],
    )
    assert.equal(state.consistency.recordedRV, undefined)
    // The zone comes back as a new zone (Initial, fresh queue and token bucket) and settles to Normal.
    assert.deepEqual(
      r4.zones.map((z) => [z.previous, z.state]),
      [['Initial', 'Normal']],
    )
  })

  it('live lease NotFound is not a bail-out: the stale verdict stands and the node is marked Unknown', () => {
    const nodes = [mkNode('n1')]
    const state = newControllerState()
    monitorNodeHealth(state, view(nodes, [mkLease('n1', 0, '100')], {}, '100'), T0, settings)
    const r = monitorNodeHealth(state, view(nodes, [mkLease('n1', 0, '100')], {n1: {kind: 'notFound'}}, '100'), T0 + 51_000, settings)
    const o = r.nodes[0].outcome
    assert.equal(o.kind === 'evaluated' && o.liveCheck?.outcome, 'notFound')
    assert.equal(nodes[0].status?.conditions?.[0].status, 'Unknown')
    assert.equal(state.consistency.recordedRV, undefined)
  })

  it('live lookup error is a bail-out for that node only: skipped, nothing recorded, the next node is evaluated', () => {
    const nodes = [mkNode('n1'), mkNode('n2')]
    const state = newControllerState()
    monitorNodeHealth(state, view(nodes, [mkLease('n1', 0, '100'), mkLease('n2', 0, '101')], {}, '101'), T0, settings)
    const r = monitorNodeHealth(
      state,
      view(nodes, [mkLease('n1', 0, '100'), mkLease('n2', 51, '130')], {n1: {kind: 'error', message: 'etcdserver: request timed out'}}, '130'),
      T0 + 51_000,
      settings,
    )
    assert.equal(r.nodes[0].outcome.kind === 'shortCircuit' && r.nodes[0].outcome.why, 'leaseLookupError')
    assert.equal(r.nodes[0].counted, false)
    assert.equal(r.nodes[1].outcome.kind, 'evaluated')
    assert.equal(r.nodes[1].counted, true)
    assert.equal(state.consistency.recordedRV, undefined)
    assert.equal(nodes[0].status?.conditions?.[0].status, 'True')
  })

  it('live RV equal to the accepted lease RV → proceeds to mark Unknown', () => {
    const nodes = [mkNode('n1')]
    const state = newControllerState()
    monitorNodeHealth(state, view(nodes, [mkLease('n1', 0, '100')], {}, '100'), T0, settings)
    const r = monitorNodeHealth(
      state,
      view(nodes, [mkLease('n1', 0, '100')], {n1: {kind: 'found', lease: mkLease('n1', 0, '100')}}, '100'),
      T0 + 51_000,
      settings,
    )
    assert.equal(r.nodes[0].outcome.kind === 'evaluated' && r.nodes[0].outcome.liveCheck?.outcome, 'rvEqual')
    assert.equal(nodes[0].status?.conditions?.[0].status, 'Unknown')
  })

  it('gate off: no live check at all, the stale cached lease wins', () => {
    const nodes = [mkNode('n1')]
    const state = newControllerState()
    const off = {...settings, leaseCircuitBreaker: false}
    monitorNodeHealth(state, view(nodes, [mkLease('n1', 0, '100')], {}, '100'), T0, off)
    const r = monitorNodeHealth(state, view(nodes, [mkLease('n1', 0, '100')], {n1: {kind: 'found', lease: mkLease('n1', 50, '150')}}, '100'), T0 + 51_000, off)
    assert.equal(r.nodes[0].outcome.kind === 'evaluated' && r.nodes[0].outcome.liveCheck?.outcome, 'gateOff')
    assert.equal(nodes[0].status?.conditions?.[0].status, 'Unknown')
  })

  it('a node refused at step 0 before its first evaluation leaves a nil entry; leaving master disruption mode in that pass panics (#141572)', () => {
    const zone = ':\x00:a'
    const state = newControllerState()
    state.zoneStates.set(zone, 'FullDisruption')
    state.knownNodes.add('n1')
    state.knownNodes.add('n2')
    const old = mkNode('n1')
    state.health.set('n1', {conditions: old.status!.conditions!, probeTimestamp: T0 - 100_000, readyTransitionTimestamp: T0 - 100_000})
    state.health.set('n2', {
      conditions: mkNode('n2').status!.conditions!,
      probeTimestamp: T0 - 100_000,
      readyTransitionTimestamp: T0 - 100_000,
      lease: mkLease('n2', -100, '100'),
    })
    const n1 = mkNode('n1')
    n1.status!.conditions![0].lastHeartbeatTime = at(0) // n1's kubelet is back: heartbeat changed → healthy
    const nodes = [n1, mkNode('n2'), mkNode('n3')]
    const r = monitorNodeHealth(state, view(nodes, [mkLease('n2', -100, '100')], {n2: {kind: 'found', lease: mkLease('n2', -1, '150')}}, '120'), T0, settings)
    assert.deepEqual(
      r.nodes.map((n) => (n.outcome.kind === 'shortCircuit' ? n.outcome.why : 'evaluated')),
      ['evaluated', 'leaseChanged', 'cacheBehind'],
    )
    assert.equal(state.health.get('n3'), null)
    assert.equal(r.masterDisruption, 'exited')
    assert.match(r.panic ?? '', /n3 has no health entry/)
  })
})

describe('consistency store', () => {
  it('WroteAt ignores empty and invalid RVs and only moves forward', () => {
    const s = new ConsistencyStore()
    s.wroteAt('')
    s.wroteAt('abc')
    assert.equal(s.recordedRV, undefined)
    s.wroteAt('20')
    s.wroteAt('15')
    assert.equal(s.recordedRV, '20')
    s.wroteAt('25')
    assert.equal(s.recordedRV, '25')
  })
  it('EnsureReady: no record → ready; empty read RV → not ready; behind → not ready; caught up → ready and cleared', () => {
    const s = new ConsistencyStore()
    assert.deepEqual(s.ensureReady(''), {ready: true, cleared: false})
    s.wroteAt('20')
    assert.equal(s.ensureReady('').ready, false)
    assert.equal(s.ensureReady('19').ready, false)
    assert.deepEqual(s.ensureReady('20'), {ready: true, cleared: true})
    assert.equal(s.recordedRV, undefined)
  })
  it('an RV that cannot be compared is skipped (treated as ready)', () => {
    const s = new ConsistencyStore('20')
    assert.equal(s.ensureReady('not-a-number').ready, true)
  })
  it('resourceVersions compare as integers, not strings', () => {
    assert.equal(compareResourceVersions('9', '10'), -1)
    assert.equal(compareResourceVersions('123456789012345678901', '123456789012345678900'), 1)
    assert.equal(compareResourceVersions('0x1', '1'), undefined)
  })
})
