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
