// Issue 29 point 3: a zone's healthy, freshly-leased nodes given to the replay as a count (ReplayInput.unlistedReady)
// instead of as objects. ComputeZoneState counts only Ready != True (nlc.go@2b96ebcf:1318-1336) and setLimiterInZone
// takes the zone's size (nlc.go@2b96ebcf:1198-1211); such a node is in no queue. So every listed node's analysis, and
// the zone's figures, must be what the whole list gives. The zone states below are worked by hand from those rules
// (unhealthy-zone-threshold 0.55, large-cluster-size-threshold 50, rates 0.1/s and 0.01/s), not from the code.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {analyzeCluster, type ClusterAnalysis} from '../../../src/engine/nodelifecycle/analyze.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLike} from '../../../src/engine/nodelifecycle/types.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace('.000Z', 'Z')
const micro = (s: number) => new Date(NOW + s * 1000).toISOString().replace('Z', '000Z')
const ZONE = 'r1:\u0000:a'

function node(name: string, ready: 'True' | 'Unknown', hb: number, labels: Record<string, string> = {}): NodeLike {
  return {
    metadata: {
      name,
      uid: name,
      creationTimestamp: at(-86400),
      labels: {'topology.kubernetes.io/region': 'r1', 'topology.kubernetes.io/zone': 'a', ...labels},
    },
    spec: {},
    status: {conditions: [{type: 'Ready', status: ready, lastHeartbeatTime: at(hb), lastTransitionTime: at(-3600)}]},
  }
}
const lease = (name: string, renew: number): LeaseLike => ({
  metadata: {name, namespace: 'kube-node-lease', resourceVersion: '1'},
  spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro(renew)},
})

/** `down` nodes Unknown for 10 minutes (lease 600 s old), `up` healthy nodes (lease renewed 2 s ago). */
function zone(down: number, up: number) {
  const nodes: NodeLike[] = []
  const leases: LeaseLike[] = []
  for (let i = 0; i < down; i++) {
    nodes.push(node(`d${i}`, 'Unknown', -600))
    leases.push(lease(`d${i}`, -600))
  }
  for (let i = 0; i < up; i++) {
    const name = `u${String(i).padStart(3, '0')}`
    nodes.push(node(name, 'True', -120))
    leases.push(lease(name, -2))
  }
  return {nodes, leases}
}
function analyze(nodes: NodeLike[], leases: LeaseLike[], unlisted?: number): ClusterAnalysis {
  return analyzeCluster({
    nodes,
    cachedLeases: new Map(leases.map((l) => [l.metadata!.name!, l])),
    liveLeases: new Map(),
    now: NOW,
    settings: {...NEWEST_DEFAULTS, leaseCircuitBreaker: false},
    leaseInformerSyncRV: '1',
    ...(unlisted !== undefined ? {unlistedReady: new Map([[ZONE, unlisted]])} : {}),
  })
}
/** The whole list against the down nodes alone plus the healthy ones as a count: the down nodes and the zone alike. */
function both(down: number, up: number) {
  const whole = zone(down, up)
  const counted = zone(down, 0)
  const w = analyze(whole.nodes, whole.leases)
  const c = analyze(counted.nodes, whole.leases, up)
  const zoneOf = (a: ClusterAnalysis) => {
    const z = a.zones.find((x) => x.key === ZONE)!
    return {counted: z.counted, ready: z.ready, notReady: z.notReady, state: z.state, previous: z.previous, rate: z.rate, pendingTaints: z.pendingTaints}
  }
  assert.deepEqual(zoneOf(c), zoneOf(w))
  for (const n of c.nodes)
    assert.deepEqual(
      n,
      w.nodes.find((x) => x.name === n.name),
    )
  assert.deepEqual([c.verdict, c.masterDisruption], [w.verdict, w.masterDisruption])
  return {zone: zoneOf(c), d0: c.nodes.find((n) => n.name === 'd0')!}
}

describe('unlisted Ready nodes as a count', () => {
  it('10 down, 8 up: 10/18 = 0.556 ≥ 0.55, PartialDisruption in a small zone (18 ≤ 50): rate 0, the taint blocked', () => {
    const {zone: z, d0} = both(10, 8)
    assert.deepEqual([z.counted, z.ready, z.notReady, z.state, z.rate], [18, 8, 10, 'PartialDisruption', 0])
    assert.deepEqual([d0.verdict, d0.noExecute.blockedBecause], ['taintBlocked', 'zoneRateZero'])
  })
  it('10 down, 9 up: 10/19 = 0.526 < 0.55, Normal at 0.1/s; ten pending taints, the worst wait 100 s', () => {
    const {zone: z, d0} = both(10, 9)
    assert.deepEqual([z.counted, z.ready, z.notReady, z.state, z.rate, z.pendingTaints], [19, 9, 10, 'Normal', 0.1, 10])
    assert.deepEqual([d0.verdict, d0.noExecute.pendingWithinMs], ['taintPending', 100_000])
  })
  it('60 down, 42 up: 60/102 = 0.588, PartialDisruption in a large zone (102 > 50): --secondary-node-eviction-rate 0.01/s', () => {
    const {zone: z, d0} = both(60, 42)
    assert.deepEqual([z.counted, z.state, z.rate], [102, 'PartialDisruption', 0.01])
    assert.deepEqual([d0.verdict, d0.noExecute.pendingWithinMs], ['taintPending', 6_000_000])
  })
  it('no listed node of the zone is down: the count alone keeps the zone Normal and its size', () => {
    const only = node('u-asked', 'True', -120)
    const c = analyze([only], [lease('u-asked', -2)], 6666)
    const z = c.zones.find((x) => x.key === ZONE)!
    assert.deepEqual([z.counted, z.ready, z.notReady, z.state, c.verdict], [6667, 6667, 0, 'Normal', 'healthy'])
  })
})
