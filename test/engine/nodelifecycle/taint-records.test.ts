// Issue 31 point 4: a controller NoExecute taint's timeAdded against the controller's recorded Unknown write (Ready
// lastTransitionTime with reason NodeStatusUnknown). monitorNodeHealth queues the unreachable taint in a pass whose
// Ready condition is Unknown: the writing pass (1.34+, processTaintBaseEviction given the current condition, PR
// #120816) or the next one, one --node-monitor-period later (before 1.34, the observed condition); the queue adds it
// then or later. Both stamps are whole seconds. Expected values worked by hand below (grace 50 s, period 5 s).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {analyzeCluster} from '../../../src/engine/nodelifecycle/analyze.js'
import type {LiveLeaseLookup} from '../../../src/engine/nodelifecycle/health.js'
import {type LeaseLike, NEWEST_DEFAULTS, type NodeLike, type NodeLifecycleSettings} from '../../../src/engine/nodelifecycle/types.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace('.000Z', 'Z')
const micro = (s: number) => new Date(NOW + s * 1000).toISOString().replace('Z', '000Z')
const OLDER: NodeLifecycleSettings = {...NEWEST_DEFAULTS, taintOnCurrentReady: false}

function node(name: string, zone: string, o: {reason?: string; lt: number; hb: number; added?: number; ready?: string}): NodeLike {
  return {
    metadata: {name, uid: name, creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': zone}},
    spec: {taints: o.added === undefined ? [] : [{key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(o.added)}]},
    status: {conditions: [{type: 'Ready', status: o.ready ?? 'Unknown', reason: o.reason, lastHeartbeatTime: at(o.hb), lastTransitionTime: at(o.lt)}]},
  }
}
const lease = (name: string, renew: number): LeaseLike => ({
  metadata: {name, namespace: 'kube-node-lease', resourceVersion: '5'},
  spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro(renew)},
})
function run(target: NodeLike, targetLease: LeaseLike, settings = NEWEST_DEFAULTS) {
  // Two healthy nodes beside it keep zone a Normal.
  const nodes = [
    target,
    node('h1', 'a', {ready: 'True', reason: 'KubeletReady', lt: -3600, hb: -5}),
    node('h2', 'a', {ready: 'True', reason: 'KubeletReady', lt: -3600, hb: -5}),
  ]
  const leases = [targetLease, lease('h1', -1), lease('h2', -1)]
  const cached = new Map(leases.map((l) => [l.metadata!.name!, l]))
  const live = new Map([...cached].map(([n, l]) => [n, {kind: 'found', lease: l} as LiveLeaseLookup]))
  return analyzeCluster({nodes, cachedLeases: cached, liveLeases: live, now: NOW, settings, leaseInformerSyncRV: '1000'}).nodes.find(
    (n) => n.name === target.metadata!.name,
  )!
}

describe("the taint's timeAdded against the recorded Unknown write", () => {
  // Lease last renewed −115 s: the write is due in the pass after −65 s; recorded at −62 s (inside [−65, −60)).
  it('added before the Unknown write (−120 s < −62 s): not this episode’s taint, and the output says what it implies', () => {
    const n = run(node('n1', 'a', {reason: 'NodeStatusUnknown', lt: -62, hb: -300, added: -120}), lease('n1', -115))
    assert.equal(n.noExecute.status, 'present')
    assert.match(n.noExecute.records ?? '', /is before the controller's Unknown write 2026-06-01T11:58:58Z/)
    assert.match(n.noExecute.records ?? '', /another actor/)
  })
  it('added at the write’s second (1.34+: the same pass queues it): consistent, nothing said', () => {
    const n = run(node('n1', 'a', {reason: 'NodeStatusUnknown', lt: -62, hb: -300, added: -62}), lease('n1', -115))
    assert.equal(n.noExecute.records, undefined)
  })
  it('before 1.34 the same taint is too early (−62 s + 1 s ≤ −62 s + 5 s): the release or the actor is named', () => {
    const n = run(node('n1', 'a', {reason: 'NodeStatusUnknown', lt: -62, hb: -300, added: -62}), lease('n1', -115), OLDER)
    assert.match(n.noExecute.records ?? '', /less than one 5s period after the controller's Unknown write/)
    // Six seconds later (−56 s ≥ −62 s + 5 s − 1 s) fits a controller given the observed condition.
    assert.equal(run(node('n1', 'a', {reason: 'NodeStatusUnknown', lt: -62, hb: -300, added: -56}), lease('n1', -115), OLDER).noExecute.records, undefined)
  })
  it('no recorded write: the taint bounds it, and a later estimate yields (probe ≤ −30 s + 1 s − 50 s = −79 s)', () => {
    // Ready Unknown without NodeStatusUnknown (another writer); the Lease says −10 s, but the controller tainted at
    // −30 s, so it had written Unknown by −29 s and saw no sign of life after −79 s.
    const n = run(node('n1', 'a', {lt: -40, hb: -300, added: -30}), lease('n1', -10))
    assert.equal(n.sign.probeMicros, (NOW - 79_000) * 1000)
    assert.match(n.sign.fromRecord ?? '', /taint went on at 2026-06-01T11:59:30Z/)
    assert.match(n.noExecute.records ?? '', /bounds the controller's Unknown write/)
  })
})
