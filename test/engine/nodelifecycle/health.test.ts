// tryUpdateNodeHealth: grace boundaries, never-posted nodes, lease-only liveness, the probe bookkeeping.
// Expected values are worked out by hand from nlc.go@2b96ebcf:828-1031 as the decisions document (§2) states it.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ConsistencyStore} from '../../../src/engine/nodelifecycle/consistency.js'
import {type HealthMemory, type LiveLeaseLookup, tryUpdateNodeHealth} from '../../../src/engine/nodelifecycle/health.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLike} from '../../../src/engine/nodelifecycle/types.js'

const T0 = Date.parse('2026-01-01T00:00:00Z')
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z')
const settings = {...NEWEST_DEFAULTS, leaseCircuitBreaker: false}

function node(ready?: {status: string; hb: number; lt?: number}): NodeLike {
  return {
    metadata: {name: 'n1', creationTimestamp: at(-3600)},
    status: {conditions: ready ? [{type: 'Ready', status: ready.status, lastHeartbeatTime: at(ready.hb), lastTransitionTime: at(ready.lt ?? ready.hb)}] : []},
  }
}
function lease(renewSeconds: number, rv = '10'): LeaseLike {
  return {
    metadata: {name: 'n1', namespace: 'kube-node-lease', resourceVersion: rv},
    spec: {renewTime: new Date(T0 + renewSeconds * 1000).toISOString().replace('Z', '000Z')},
  }
}
const notFound = (): LiveLeaseLookup => ({kind: 'notFound'})

function run(memory: HealthMemory, n: NodeLike, nowSeconds: number, l?: LeaseLike, s = settings) {
  return tryUpdateNodeHealth({memory, consistency: new ConsistencyStore(), leaseInformerSyncRV: '1', settings: s, now: T0 + nowSeconds * 1000}, n, l, notFound)
}

describe('grace period boundary', () => {
  it('first sight sets probe = now; exactly probe + 50s is still healthy, 1ms later is stale', () => {
    const memory: HealthMemory = new Map()
    const first = run(memory, node({status: 'True', hb: 0}), 0)
    assert.equal(first.kind === 'evaluated' && first.probeReason, 'firstSeen')
    const boundary = run(memory, node({status: 'True', hb: 0}), 50)
    assert.equal(boundary.kind === 'evaluated' && boundary.stale, false)
    const after = tryUpdateNodeHealth(
      {memory, consistency: new ConsistencyStore(), leaseInformerSyncRV: '1', settings, now: T0 + 50_001},
      node({status: 'True', hb: 0}),
      undefined,
      notFound,
    )
    assert.equal(after.kind === 'evaluated' && after.stale, true)
    assert.equal(after.kind === 'evaluated' && after.statusWritten, true)
  })
  it('a controller seeing a node for the first time gives it a fresh grace, however old its heartbeat', () => {
    const memory: HealthMemory = new Map()
    const r = run(memory, node({status: 'True', hb: -86400}), 0)
    assert.equal(r.kind === 'evaluated' && r.stale, false)
    assert.equal(r.kind === 'evaluated' && r.probeTimestamp, T0)
  })
  it('any heartbeat change counts, even backwards', () => {
    const memory: HealthMemory = new Map()
    run(memory, node({status: 'True', hb: 10}), 10)
    const r = run(memory, node({status: 'True', hb: 5}), 40)
    assert.equal(r.kind === 'evaluated' && r.probeReason, 'heartbeatChanged')
    assert.equal(r.kind === 'evaluated' && r.probeTimestamp, T0 + 40_000)
  })
})

describe('never-posted node (no Ready condition)', () => {
  it('uses the startup grace from creationTimestamp: created 30s ago is within grace, 61s ago is stale', () => {
    const young: NodeLike = {metadata: {name: 'n1', creationTimestamp: at(-30)}, status: {}}
    const r1 = run(new Map(), young, 0)
    assert.equal(r1.kind === 'evaluated' && r1.gracePeriodKind, 'startup')
    assert.equal(r1.kind === 'evaluated' && r1.stale, false)
    const old: NodeLike = {metadata: {name: 'n1', creationTimestamp: at(-61)}, status: {}}
    const r2 = run(new Map(), old, 0)
    assert.equal(r2.kind === 'evaluated' && r2.stale, true)
    // The synthetic observed condition is Unknown, so writing Unknown/NeverUpdated always differs: one write.
    assert.equal(r2.kind === 'evaluated' && r2.statusWritten, true)
    assert.deepEqual(
      old.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
      [
        ['Ready', 'Unknown', 'NodeStatusNeverUpdated'],
        ['MemoryPressure', 'Unknown', 'NodeStatusNeverUpdated'],
        ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated'],
        ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated'],
      ],
    )
  })
  it('exactly creation + 60s is still within the startup grace', () => {
    const n: NodeLike = {metadata: {name: 'n1', creationTimestamp: at(-60)}, status: {}}
    const r = run(new Map(), n, 0)
    assert.equal(r.kind === 'evaluated' && r.stale, false)
  })
})

describe('lease-only liveness', () => {
  it('a heartbeat minutes old does not matter while the lease renewTime keeps advancing', () => {
    const memory: HealthMemory = new Map()
    const n = node({status: 'True', hb: 0})
    run(memory, n, 0, lease(0))
    for (let t = 10; t <= 300; t += 10) {
      const r = run(memory, node({status: 'True', hb: 0}), t, lease(t))
      assert.equal(r.kind === 'evaluated' && r.stale, false, `at +${t}s`)
      assert.equal(r.kind === 'evaluated' && r.probeReason, 'leaseRenewed')
    }
  })
  it('a lease whose renewTime does not advance is not a sign of life (strict Before)', () => {
    const memory: HealthMemory = new Map()
    run(memory, node({status: 'True', hb: 0}), 0, lease(0))
    const r = run(memory, node({status: 'True', hb: 0}), 51, lease(0))
    assert.equal(r.kind === 'evaluated' && r.stale, true)
  })
  it('microsecond renewTime precision counts as an advance', () => {
    const memory: HealthMemory = new Map()
    const l1: LeaseLike = {metadata: {name: 'n1', resourceVersion: '1'}, spec: {renewTime: '2026-01-01T00:00:00.000001Z'}}
    const l2: LeaseLike = {metadata: {name: 'n1', resourceVersion: '2'}, spec: {renewTime: '2026-01-01T00:00:00.000002Z'}}
    run(memory, node({status: 'True', hb: 0}), 0, l1)
    const r = run(memory, node({status: 'True', hb: 0}), 45, l2)
    assert.equal(r.kind === 'evaluated' && r.probeReason, 'leaseRenewed')
  })
  it('a nil renewTime never counts as an advance (MicroTime.Before is false with a nil side)', () => {
    const memory: HealthMemory = new Map()
    const nil: LeaseLike = {metadata: {name: 'n1', resourceVersion: '1'}, spec: {}}
    run(memory, node({status: 'True', hb: 0}), 0, nil)
    const r = run(memory, node({status: 'True', hb: 0}), 51, lease(50))
    assert.equal(r.kind === 'evaluated' && r.stale, true)
  })
})

describe('Unknown write', () => {
  it('a kubelet-posted Ready=Unknown is not rewritten; other conditions are left as they are', () => {
    const memory: HealthMemory = new Map()
    run(memory, node({status: 'Unknown', hb: 0}), 0)
    const n = node({status: 'Unknown', hb: 0})
    const r = run(memory, n, 100)
    assert.equal(r.kind === 'evaluated' && r.stale, true)
    assert.equal(r.kind === 'evaluated' && r.statusWritten, false)
    assert.deepEqual(
      n.status?.conditions?.map((c) => c.type),
      ['Ready'],
    )
  })
  it('NetworkUnavailable is never touched', () => {
    const memory: HealthMemory = new Map()
    const mk = (): NodeLike => ({
      ...node({status: 'True', hb: 0}),
      status: {
        conditions: [
          {type: 'Ready', status: 'True', lastHeartbeatTime: at(0), lastTransitionTime: at(0)},
          {type: 'NetworkUnavailable', status: 'False', lastHeartbeatTime: at(0), lastTransitionTime: at(0)},
        ],
      },
    })
    run(memory, mk(), 0)
    const n = mk()
    run(memory, n, 100)
    assert.equal(n.status?.conditions?.find((c) => c.type === 'NetworkUnavailable')?.status, 'False')
    assert.equal(n.status?.conditions?.find((c) => c.type === 'Ready')?.reason, 'NodeStatusUnknown')
  })
})
