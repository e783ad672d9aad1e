// Real Nodes and Leases (copied from ../shared/realworld/nodes into fixtures) through the offline replay.
// Expected values are worked out by hand from the timestamps in the fixtures.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {parse} from 'yaml'
import {analyzeCluster} from '../../../src/engine/nodelifecycle/analyze.js'
import type {LiveLeaseLookup} from '../../../src/engine/nodelifecycle/health.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLike} from '../../../src/engine/nodelifecycle/types.js'
import {resolveSettings} from '../../../src/engine/nodelifecycle/settings.js'

function load(file: string): {nodes: NodeLike[]; leases: LeaseLike[]} {
  const list = parse(readFileSync(new URL(`../../fixtures/nodelifecycle/${file}`, import.meta.url), 'utf8')) as {items: (NodeLike & LeaseLike)[]}
  return {nodes: list.items.filter((o) => o.kind === 'Node'), leases: list.items.filter((o) => o.kind === 'Lease')}
}
function analyze(file: string, now: string, minor: number) {
  const {nodes, leases} = load(file)
  const cached = new Map(leases.map((l) => [l.metadata!.name!, l]))
  const live = new Map<string, LiveLeaseLookup>([...cached].map(([n, l]) => [n, {kind: 'found', lease: l}]))
  const settings = resolveSettings({version: {major: 1, minor, from: 'flag', text: `1.${minor}`}, overrides: {}}).settings
  return analyzeCluster({nodes, cachedLeases: cached, liveLeases: live, now: Date.parse(now), settings, leaseInformerSyncRV: '9000'})
}

describe('kind v1.33.1 (troubleshoot bundle): nodes and leases captured together', () => {
  it('at the newest renewal (02:08:25.850) both nodes are healthy, alive by their leases', () => {
    const c = analyze('realworld-kind-1.33-nodes-leases.yaml', '2025-08-10T02:08:25.850Z', 33)
    assert.deepEqual(
      c.nodes.map((n) => [n.name, n.verdict, n.sign.probeFrom]),
      [
        ['troubleshoot-test-control-plane', 'healthy', 'lease'],
        ['troubleshoot-test-worker', 'healthy', 'lease'],
      ],
    )
    // renewals 02:08:25.850184 and 02:08:23.042628 (ms kept) + 50 s
    assert.deepEqual(
      c.nodes.map((n) => new Date(n.graceExpiry).toISOString()),
      ['2025-08-10T02:09:15.850Z', '2025-08-10T02:09:13.042Z'],
    )
  })
  it('at 02:09:14 with no newer renewal the worker is past its grace, the control plane is not: the worker is queued', () => {
    const c = analyze('realworld-kind-1.33-nodes-leases.yaml', '2025-08-10T02:09:14Z', 33)
    const [cp, worker] = c.nodes
    assert.equal(cp.verdict, 'withinGrace')
    assert.equal(worker.readyAfter?.status, 'Unknown')
    // No zone labels: one zone "" with [Unknown, True] → 1 not ready → Normal, 0.1/s, one pending → within 10 s.
    assert.deepEqual([c.zones[0].name, c.zones[0].state, c.zones[0].rate], ['(no zone)', 'Normal', 0.1])
    assert.deepEqual([worker.verdict, worker.noExecute.pendingWithinMs], ['taintPending', 10_000])
  })
})

describe('kind v1.20.0 (sonobuoy testdata): no leases, kind-worker Ready=False without a taint', () => {
  it('at the newest heartbeat (2022-02-03T19:02:54) the other two nodes are 7 days stale: every node of the only zone is not ready → master disruption mode', () => {
    const c = analyze('realworld-sonobuoy-kind-1.20-nodes.yaml', '2022-02-03T19:02:54Z', 20)
    assert.equal(c.masterDisruption, true)
    assert.deepEqual(
      c.nodes.map((n) => [n.name, n.readyAfter?.status, n.verdict]),
      [
        ['kind-control-plane', 'Unknown', 'taintBlocked'],
        ['kind-worker', 'False', 'taintBlocked'],
        ['kind-worker2', 'Unknown', 'taintBlocked'],
      ],
    )
    // 1.20 grace was 40 s.
    assert.equal(c.nodes[1].gracePeriod, 40_000)
  })
  it('master disruption mode explains the missing NoExecute taint, but not the missing not-ready:NoSchedule taint (NoSchedule tainting never stops)', () => {
    const c = analyze('realworld-sonobuoy-kind-1.20-nodes.yaml', '2022-02-03T19:02:54Z', 20)
    const worker = c.nodes[1]
    assert.equal(worker.noExecute.blockedBecause, 'masterDisruption')
    assert.deepEqual(worker.noSchedule.missing, [{key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule'}])
  })
  it("at the control plane's own heartbeat time the cluster looks healthy apart from kind-worker (Ready=False, queued)", () => {
    const c = analyze('realworld-sonobuoy-kind-1.20-nodes.yaml', '2022-01-27T14:44:23Z', 20)
    assert.deepEqual(
      c.nodes.map((n) => n.verdict),
      ['withinGrace', 'taintPending', 'healthy'],
    )
    assert.equal(c.masterDisruption, false)
  })
})

it('NEWEST_DEFAULTS are the 1.37 defaults settings resolution gives', () => {
  const s = resolveSettings({version: {major: 1, minor: 37, from: 'flag', text: '1.37'}, overrides: {}}).settings
  assert.deepEqual(s, NEWEST_DEFAULTS)
})
