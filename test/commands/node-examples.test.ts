// The zone-outage example, end to end: what examples/node-zone-outage.md says the tool must conclude (worked out
// by hand there), every JSON output validated against schemas/node.json and schemas/evicted.json, the timeline in
// the terminal view, and --now moving the evaluation. Run `npm run build` first.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const EXAMPLE = fileURLToPath(new URL('../../examples/node-zone-outage.json', import.meta.url))
const validNode = validatorFor('node')
const validEvicted = validatorFor('evicted')

async function json(args: string[], example = EXAMPLE): Promise<{code: number; json: Any}> {
  const r = await runCli([...args, '-f', example, '-o', 'json'])
  assert.equal(r.stderr, '', r.stderr)
  return {code: r.code, json: JSON.parse(r.stdout)}
}

describe('examples/node-zone-outage.json', () => {
  test('node (all): degraded; zone c FullDisruption at 0.1/s, not master disruption; 4 unhealthy, 9 healthy', async () => {
    const {code, json: j} = await json(['node'])
    assert.ok(validNode(j), JSON.stringify(validNode.errors))
    assert.equal(code, 1)
    assert.deepEqual([j.verdict, j.severity, j.masterDisruption], ['degraded', 'warning', false])
    assert.deepEqual(
      j.zones.map((z: Any) => [z.name, z.state, z.counted, z.rate]),
      [
        ['eu-west-1/eu-west-1a', 'Normal', 5, 0.1],
        ['eu-west-1/eu-west-1b', 'Normal', 4, 0.1],
        ['eu-west-1/eu-west-1c', 'FullDisruption', 4, 0.1],
      ],
    )
    assert.deepEqual(
      j.nodes
        .filter((n: Any) => n.verdict === 'unhealthy')
        .map((n: Any) => n.name)
        .sort(),
      ['worker-c1', 'worker-c2', 'worker-c3', 'worker-c4'],
    )
    assert.equal(j.nodes.filter((n: Any) => n.verdict === 'healthy').length, 9)
    assert.equal(j.source.settings.controllers.from, 'kube-controller-manager pod kube-system/kube-controller-manager-cp-1 --controllers')
    assert.equal(j.source.settings['node-monitor-grace-period'].value, '50s')
  })
  test('node worker-c1: lease renewal is the last sign of life; grace, Unknown write and taint times', async () => {
    const {json: j} = await json(['node', 'worker-c1'])
    assert.ok(validNode(j), JSON.stringify(validNode.errors))
    assert.equal(j.verdict, 'unhealthy')
    assert.deepEqual(j.timeline, {
      lastHeartbeat: '2026-11-29T02:57:40Z',
      // The renewTime's own µs (a MicroTime: 02:59:58.120417 in the example), as the replay compares them.
      lastRenewal: '2026-11-29T02:59:58.120417Z',
      probeEstimate: '2026-11-29T02:59:58.120417Z',
      graceExpiry: '2026-11-29T03:00:48.120417Z',
      markedUnknown: '2026-11-29T03:00:52Z',
      noExecuteTaintAdded: '2026-11-29T03:01:12Z',
      // Not entering master disruption mode: this pass removes nothing.
      noExecuteTaintRemoved: null,
      expectedTaintBy: null,
      now: '2026-11-29T03:10:00Z',
    })
    assert.deepEqual([j.pods.total, j.pods.evictedAfterSeconds['300'], j.pods.toleratedForever], [2, 1, 1])
  })
  test('evicted web-7d9f4b6c8-x2k9p: evicted at 03:06:12, as replayed (taint 03:01:12 + the first-match 300 s default)', async () => {
    const {json: j} = await json(['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop'])
    assert.ok(validEvicted(j), JSON.stringify(validEvicted.errors))
    assert.equal(j.verdict, 'evicted')
    assert.equal(j.timeline.markedForDeletion, '2026-11-29T03:06:12Z')
    assert.equal(j.timeline.evictionDeadline, '2026-11-29T03:06:12Z')
    assert.deepEqual([j.tolerations[0].index, j.tolerations[0].origin, j.minTolerationSeconds], [1, 'admissionDefault', 300])
  })
  test('evicted checkout-5c6f7d8b9-ttq2w: gone, its TaintManagerEviction event says evicted', async () => {
    const {json: j} = await json(['evicted', 'pod/checkout-5c6f7d8b9-ttq2w', '-n', 'shop'])
    assert.ok(validEvicted(j), JSON.stringify(validEvicted.errors))
    assert.equal(j.verdict, 'evicted')
    assert.equal(j.node, null)
    assert.equal(j.timeline.markedForDeletion, '2026-11-29T03:06:02Z')
  })
  test('evicted node-exporter-b5e25: toleratedForever (DaemonSet tolerations)', async () => {
    const {code, json: j} = await json(['evicted', 'pod/node-exporter-b5e25', '-n', 'monitoring'])
    assert.ok(validEvicted(j), JSON.stringify(validEvicted.errors))
    assert.equal(code, 0)
    assert.deepEqual([j.verdict, j.tolerations[0].origin], ['toleratedForever', 'daemonSet'])
  })
  test('evicted report-28971234-7xq2m: its own 3600 s toleration is the first match → evictAt 04:01:22', async () => {
    const {json: j} = await json(['evicted', 'pod/report-28971234-7xq2m', '-n', 'batch'])
    assert.ok(validEvicted(j), JSON.stringify(validEvicted.errors))
    assert.deepEqual([j.verdict, j.timeline.evictionDeadline, j.minTolerationSeconds], ['evictAt', '2026-11-29T04:01:22Z', 3600])
  })
  test('--now moves the evaluation: at 03:11:00 worker-a1 (renewed 03:09:51.137) is past its grace and goes Unknown', async () => {
    const {json: j} = await json(['node', 'worker-a1', '--now', '2026-11-29T03:11:00Z'])
    // renewTime 03:09:51.137111 (µs kept) + 50 s.
    assert.equal(j.timeline.graceExpiry, '2026-11-29T03:10:41.137111Z')
    assert.deepEqual(
      j.conditionsSetUnknown.map((c: Any) => c.type),
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'],
    )
    // The dump holds no renewal after 03:09:58, so by 03:11:00 every node's grace (≤ 03:10:48) is over: every
    // zone is fully disrupted, master disruption mode, no NoExecute taint is added.
    assert.equal(j.masterDisruption, true)
    assert.deepEqual([j.verdict, j.taints.noExecute.blockedBecause], ['taintBlocked', 'masterDisruption'])
    const before = await json(['node', 'worker-a1', '--now', '2026-11-29T03:10:41.137Z'])
    assert.equal(before.json.verdict, 'withinGrace')
  })
  test('the terminal view draws the timeline and names where each setting came from', async () => {
    const r = await runCli(['node', 'worker-c1', '-f', EXAMPLE])
    assert.match(r.stdout, /Timeline \(to scale, 2026-11-29 02:57:40Z → 03:10:00 UTC\):/)
    assert.match(r.stdout, /NoExecute taint added +·+●/)
    assert.match(r.stdout, /node-monitor-grace-period +50s +default for Kubernetes 1\.33/)
    const e = await runCli(['evicted', 'pod/report-28971234-7xq2m', '-n', 'batch', '-f', EXAMPLE])
    assert.match(e.stdout, /eviction deadline ~ +·+● +04:01:22 +in 51m22s/)
  })
  test('the schemas reject an unannounced field', async () => {
    const {json: j} = await json(['node', 'worker-c1'])
    assert.equal(validNode({...j, surprise: 1}), false)
    const {json: e} = await json(['evicted', 'pod/node-exporter-b5e25', '-n', 'monitoring'])
    assert.equal(validEvicted({...e, surprise: 1}), false)
  })
})

const CACHE_LAG = fileURLToPath(new URL('../../examples/node-lease-cache-lag.json', import.meta.url))
const SMALL_ZONE = fileURLToPath(new URL('../../examples/node-small-zone-partial.json', import.meta.url))

describe("examples/node-lease-cache-lag.json (offline circuit breaker from the snapshot's two lease views)", () => {
  test('node (all): circuitOpen, tripped by ip-10-1-0-1 (live RV 8045 vs cached 8006; cache synced to 8042)', async () => {
    const {code, json: j} = await json(['node'], CACHE_LAG)
    assert.ok(validNode(j), JSON.stringify(validNode.errors))
    assert.equal(code, 1)
    assert.deepEqual(
      [j.verdict, j.circuitBreaker],
      ['circuitOpen', {gate: true, open: true, trippedBy: 'ip-10-1-0-1', recordedRV: '8045', informerSyncRV: '8042'}],
    )
    assert.ok(j.nodes.every((n: Any) => n.verdict === 'circuitOpen'))
    assert.deepEqual(
      j.nodes.map((n: Any) => n.verdictOnceCaughtUp),
      ['healthy', 'healthy', 'healthy', 'healthy', 'healthy', 'healthy', 'taintPending'],
    )
  })
  test('evicted: the pod on the really dead node is notEvictedBecause circuitOpen; the other notAffected', async () => {
    const dead = await json(['evicted', 'pod/api-5d8f9c7b6-r7m2d', '-n', 'shop'], CACHE_LAG)
    assert.ok(validEvicted(dead.json), JSON.stringify(validEvicted.errors))
    assert.deepEqual([dead.json.verdict, dead.json.notEvictedBecause], ['notEvictedBecause', 'circuitOpen'])
    const alive = await json(['evicted', 'pod/api-5d8f9c7b6-qz8kt', '-n', 'shop'], CACHE_LAG)
    assert.equal(alive.json.verdict, 'notAffected')
  })
})

describe('examples/node-small-zone-partial.json', () => {
  test('node (all): zone c PartialDisruption with 4 counted nodes → rate 0; c1..c3 taintBlocked', async () => {
    const {json: j} = await json(['node'], SMALL_ZONE)
    assert.ok(validNode(j), JSON.stringify(validNode.errors))
    assert.deepEqual(
      j.zones.map((z: Any) => [z.state, z.counted, z.rate]),
      [
        ['Normal', 4, 0.1],
        ['Normal', 4, 0.1],
        ['PartialDisruption', 4, 0],
      ],
    )
    assert.deepEqual(
      j.nodes.filter((n: Any) => n.verdict === 'taintBlocked').map((n: Any) => n.name),
      ['node-c1', 'node-c2', 'node-c3'],
    )
  })
  test('evicted cart-7c9d8f6b5-w2xlm: notEvictedBecause zoneRateZero', async () => {
    const {json: j} = await json(['evicted', 'pod/cart-7c9d8f6b5-w2xlm', '-n', 'shop'], SMALL_ZONE)
    assert.ok(validEvicted(j), JSON.stringify(validEvicted.errors))
    assert.deepEqual([j.verdict, j.notEvictedBecause], ['notEvictedBecause', 'zoneRateZero'])
  })
})
