// Issue 31: the offline replay agrees with upstream's whole monitor pass. One describe per class of disagreement
// the differential check found; each case is worked out by hand below from node_lifecycle_controller.go
// (nlc.go@2b96ebcf, as the decisions document §2 and §5.4 states it), never from the code under test.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {analyzeCluster} from '../../../src/engine/nodelifecycle/analyze.js'
import {explainNode} from '../../../src/engine/nodelifecycle/explain.js'
import type {LiveLeaseLookup} from '../../../src/engine/nodelifecycle/health.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLike, type Taint} from '../../../src/engine/nodelifecycle/types.js'
import {explainEvicted} from '../../../src/engine/tainteviction/explain.js'
import {admitDefaultTolerationSeconds} from '../../../src/engine/tainteviction/origins.js'
import {tallyPods} from '../../../src/engine/tainteviction/tally.js'
import type {PodLike} from '../../../src/engine/tainteviction/types.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace('.000Z', 'Z')
const micro = (s: number) => new Date(NOW + s * 1000).toISOString().replace('Z', '000Z')
const UNREACH = (s: number): Taint => ({key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(s)})

function node(name: string, zone: string, ready: 'True' | 'Unknown', o: {hb?: number; lt?: number; taints?: Taint[]; created?: number} = {}): NodeLike {
  return {
    metadata: {name, uid: name, creationTimestamp: at(o.created ?? -86400), labels: {'topology.kubernetes.io/zone': zone}},
    spec: {taints: o.taints ?? []},
    status: {
      conditions: [
        {
          type: 'Ready',
          status: ready,
          reason: ready === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletReady',
          lastHeartbeatTime: at(o.hb ?? -5),
          lastTransitionTime: at(o.lt ?? -3600),
        },
      ],
    },
  }
}
function lease(name: string, renew: number | null, rv = '10'): LeaseLike {
  return {
    metadata: {name, namespace: 'kube-node-lease', resourceVersion: rv},
    spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: renew === null ? undefined : micro(renew)},
  }
}
function run(nodes: NodeLike[], leases: LeaseLike[] = [], now = NOW) {
  const cached = new Map(leases.map((l) => [l.metadata!.name!, l]))
  const live = new Map([...cached].map(([n, l]) => [n, {kind: 'found', lease: l} as LiveLeaseLookup]))
  return analyzeCluster({nodes, cachedLeases: cached, liveLeases: live, now, settings: NEWEST_DEFAULTS, leaseInformerSyncRV: '1000'})
}

describe('class 1: entering master disruption mode removes the NoExecute taints in the same pass', () => {
  // Zone a: n1 went Unknown 10 min ago and was tainted unreachable:NoExecute 9 min ago. Zone b: n2 is Ready but its
  // lease was last renewed 51 s ago (> 50 s grace), so this pass writes Unknown on it. Before the pass zone a is
  // FullDisruption and zone b Normal (not all were Full); after it both are Full (all are): handleDisruption enters
  // master disruption mode and calls markNodeAsReachable for every node — n1's taint goes in this pass.
  const nodes = () => [node('n1', 'a', 'Unknown', {hb: -700, lt: -600, taints: [UNREACH(-540)]}), node('n2', 'b', 'True', {hb: -240})]
  const leases = [lease('n1', -700, '5'), lease('n2', -51, '6')]

  it("the node's NoExecute state is the pass's result: no taint, blocked by master disruption, the removal named", () => {
    const c = run(nodes(), leases)
    assert.equal(c.masterDisruptionChange, 'entered')
    const n1 = c.nodes.find((n) => n.name === 'n1')!
    assert.equal(n1.noExecute.status, 'blocked')
    assert.equal(n1.noExecute.blockedBecause, 'masterDisruption')
    assert.equal(n1.noExecute.present, undefined)
    assert.deepEqual(
      n1.noExecute.removedThisPass?.taints.map((t) => `${t.key}:${t.effect}`),
      ['node.kubernetes.io/unreachable:NoExecute'],
    )
    assert.equal(n1.verdict, 'taintBlocked')
  })

  it('the timeline shows the removal at the pass, with the rule, after the taint was added', () => {
    const c = run(nodes(), leases)
    const n1 = c.nodes.find((n) => n.name === 'n1')!
    const e = explainNode(n1, c, {now: NOW, settings: NEWEST_DEFAULTS, source: {mode: 'snapshot', settings: {}}})
    const tl = e.timeline as Record<string, string | null>
    assert.equal(tl.noExecuteTaintAdded, at(-540))
    assert.equal(tl.noExecuteTaintRemoved, at(0))
    const step = e.steps.find((s) => s.rule === 'processTaintBaseEviction')!
    assert.equal(step.result, 'removedOnMasterDisruptionEntry')
    assert.match(step.why, /handleDisruption/)
  })

  it("its pods' eviction follows the replay: a pod with the default 300 s tolerations is not evicted, and the tally counts no taint", () => {
    const c = run(nodes(), leases)
    const n1 = c.nodes.find((n) => n.name === 'n1')!
    const p: PodLike = {
      metadata: {name: 'p', namespace: 'ns', uid: 'u', creationTimestamp: at(-7200)},
      spec: {nodeName: 'n1', tolerations: admitDefaultTolerationSeconds([])},
      status: {conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: at(-7200)}]},
    }
    const original = nodes()[0]
    const e = explainEvicted({
      namespace: 'ns',
      name: 'p',
      pod: p,
      events: [],
      node: original,
      nodeAnalysis: n1,
      cluster: c,
      now: NOW,
      settings: NEWEST_DEFAULTS,
      source: {mode: 'snapshot', settings: {}},
    })
    // Before the fix: the taint read from the node before the pass, 540 s old against 300 s → evicted (deadline past).
    assert.equal(e.verdict, 'notEvictedBecause')
    const tally = tallyPods(original, n1, [p], {comparisonOperators: false})
    assert.deepEqual(tally.againstTaints, [])
    assert.equal(tally.unaffected, 1)
  })

  it('staying in the mode (every zone already down before the pass) removes nothing this pass', () => {
    // Both nodes Unknown since 10 min: previous states all Full, current all Full → stays; no markNodeAsReachable.
    const c = run([node('n1', 'a', 'Unknown', {hb: -700, lt: -600}), node('n2', 'b', 'Unknown', {hb: -700, lt: -600})], [lease('n1', -700), lease('n2', -700)])
    assert.equal(c.masterDisruptionChange, 'stays')
    for (const n of c.nodes) assert.equal(n.noExecute.removedThisPass, undefined)
  })
})

describe('class 2: a Lease that did not move is first seen one pass after a heartbeat change', () => {
  // The kubelet posted status at −54 s (heartbeat) and died; its Lease was last renewed at −58 s. The pass that saw
  // the heartbeat change (−54 s) rebuilt the record without the Lease; the next pass (−49 s, one 5 s period later)
  // saw the Lease as first seen: probe −49 s, grace until +1 s. Now (0 s) is not after it: still Ready True.
  // max(heartbeat, renewTime) = −54 s would expire the grace at −4 s and write Unknown now.
  it('the probe is the next pass: not stale now, and stale 1 ms after probe + grace', () => {
    const nodes = [node('n1', 'a', 'True', {hb: -54}), node('n2', 'a', 'True'), node('n3', 'a', 'True')]
    const leases = [lease('n1', -58), lease('n2', -1), lease('n3', -1)]
    const n1 = run(nodes, leases).nodes[0]
    assert.equal(n1.sign.probeFrom, 'leaseAfterHeartbeat')
    assert.equal(n1.sign.probe, NOW - 49_000)
    assert.equal(n1.stale, false)
    assert.equal(n1.readyAfter?.status, 'True')
    assert.equal(n1.conditionsSetUnknown.length, 0)
    assert.equal(run(nodes, leases, NOW + 1_001).nodes[0].stale, true)
  })
})

describe('class 3: a probe is never earlier than the controller’s first sight of the node', () => {
  // Created 20 s ago; its kubelet, 5 min behind the API server, stamped the heartbeat 320 s ago. The controller's
  // first sight (creation, −20 s) is the probe: grace until +30 s, not stale. The stamp is before creation: skew.
  it('a heartbeat stamped before creationTimestamp does not make a new node stale, and the skew is named', () => {
    const nodes = [node('n1', 'a', 'True', {hb: -320, lt: -320, created: -20}), node('n2', 'a', 'True'), node('n3', 'a', 'True')]
    const n1 = run(nodes, [lease('n2', -1), lease('n3', -1)]).nodes[0]
    assert.equal(n1.sign.probeFrom, 'creationTimestamp')
    assert.equal(n1.sign.probe, NOW - 20_000)
    assert.equal(n1.stale, false)
    assert.match(n1.sign.skew ?? '', /kubelet's clock is behind/)
  })
})

describe('class 4: a Lease without renewTime is a sign of life when first seen', () => {
  // Ready heartbeat −120 s (older than the Lease); the Lease, created −30 s, has no renewTime. Upstream: first
  // sight of the Lease (savedLease nil) sets probe = its creation, −30 s: grace until +20 s, not stale.
  it('its creationTimestamp is the probe', () => {
    const l = lease('n1', null)
    l.metadata = {...l.metadata, creationTimestamp: at(-30)}
    const nodes = [node('n1', 'a', 'True', {hb: -120}), node('n2', 'a', 'True'), node('n3', 'a', 'True')]
    const n1 = run(nodes, [l, lease('n2', -1), lease('n3', -1)]).nodes[0]
    assert.equal(n1.sign.probe, NOW - 30_000)
    assert.equal(n1.stale, false)
  })
})

describe('class 5: microsecond precision for --now and MicroTime', () => {
  // renewTime −50 s + 600 µs → grace ends at exactly 0 s + 600 µs. Now at +700 µs is after it (stale); +500 µs is not.
  // Truncated to ms, both read as 0 s + 0.6 ms → 0 ms vs 0 ms: never stale.
  const renew = new Date(NOW - 50_000).toISOString().replace('Z', '600Z')
  const leases = (): LeaseLike[] => [
    {metadata: {name: 'n1', namespace: 'kube-node-lease', resourceVersion: '7'}, spec: {renewTime: renew}},
    lease('n2', -1),
    lease('n3', -1),
  ]
  const nodes = () => [node('n1', 'a', 'True', {hb: -300}), node('n2', 'a', 'True'), node('n3', 'a', 'True')]
  const at = (nowMicros: number) => {
    const cached = new Map(leases().map((l) => [l.metadata!.name!, l]))
    const live = new Map([...cached].map(([n, l]) => [n, {kind: 'found', lease: l} as LiveLeaseLookup]))
    return analyzeCluster({
      nodes: nodes(),
      cachedLeases: cached,
      liveLeases: live,
      now: Math.floor(nowMicros / 1000),
      nowMicros,
      settings: NEWEST_DEFAULTS,
      leaseInformerSyncRV: '1000',
    }).nodes[0]
  }
  it('700 µs past the grace is stale; 100 µs before it is not', () => {
    assert.equal(at(NOW * 1000 + 700).stale, true)
    assert.equal(at(NOW * 1000 + 500).stale, false)
    assert.equal(at(NOW * 1000 + 600).stale, false) // exactly at the boundary: now.After is strict
  })
  it('--now keeps its microseconds (parseInstant → microsOf)', async () => {
    const {parseInstant, microsOf} = await import('../../../src/util/parse.js')
    assert.equal(microsOf(parseInstant('2026-06-01T12:00:00.000700Z', 'now')), NOW * 1000 + 700)
  })
})

describe('issue 27 point 2: estimates yield to the controller’s own records', () => {
  // As a NotReady node's extract reads: Ready Unknown, reason NodeStatusUnknown, lastTransitionTime −180 s (the
  // controller's write), heartbeat −300 s, Lease renewTime −400 s, unreachable:NoExecute added −175 s. The estimate
  // (heartbeat + one 5 s period = −295 s) would expire the grace at −245 s, 65 s before the recorded write. The
  // record says the pass at −180 s found the node stale and the one at −185 s did not: the last sign of life was in
  // [−235 s, −230 s) — a renewal after −295 s the dump does not hold. The record's bound replaces the estimate.
  it('a NodeStatusUnknown write three minutes after the estimated expiry replaces it and says what it implies', () => {
    const n = node('n1', 'a', 'Unknown', {hb: -300, lt: -180, taints: [UNREACH(-175)]})
    const c = run([n, node('n2', 'a', 'True'), node('n3', 'a', 'True')], [lease('n1', -400), lease('n2', -1), lease('n3', -1)])
    const a = c.nodes[0]
    assert.equal(a.sign.probe, NOW - 235_000)
    assert.equal(a.graceExpiry, NOW - 185_000)
    assert.match(a.sign.fromRecord ?? '', /does not hold/)
    const e = explainNode(a, c, {now: NOW, settings: NEWEST_DEFAULTS, source: {mode: 'snapshot', settings: {}}})
    assert.match(e.steps[0].inferred?.evidence ?? '', /does not hold/)
  })
  it('an estimate inside the recorded window is kept', () => {
    // Renewal −232 s: grace expiry −182 s; the write at −180 s is the first pass after it. Agrees: no replacement.
    const n = node('n1', 'a', 'Unknown', {hb: -300, lt: -180})
    const c = run([n, node('n2', 'a', 'True'), node('n3', 'a', 'True')], [lease('n1', -232), lease('n2', -1), lease('n3', -1)])
    assert.equal(c.nodes[0].sign.probe, NOW - 232_000)
    assert.equal(c.nodes[0].sign.fromRecord, undefined)
  })
})
