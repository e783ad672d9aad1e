// Issue 29 point 3: `kubectl why node NAME` against a live cluster (the fake API server) reads the node, the node
// Leases and its zone's Nodes only, when the zone is neither FullDisruption before nor after the pass (then
// handleDisruption, nlc.go@2b96ebcf:1033-1121, cannot enter or leave master disruption mode whatever other zones
// hold); a zone that is fully down makes it read every Node. Its answer equals `kubectl why node`'s for that node.
// The fake server filters lists by labelSelector as kube-apiserver does. Worked by hand below. Run `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {at, mkLease, mkNode} from '../engine/nodelifecycle/cluster-builder.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'
import {lists} from '../support/fake-apiserver/requests.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const servers: FakeApiServer[] = []
after(async () => {
  for (const s of servers) await s.close()
})

async function cluster(objects: KubeObject[], tables = true) {
  const server = await FakeApiServer.start({objects, version: 'v1.33.4', tables})
  servers.push(server)
  return {server, kubeconfig: server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'why-zone-')))}
}
async function why(kubeconfig: string, server: FakeApiServer, args: string[]) {
  server.clearRequests()
  const r = await runCli([...args, '--kubeconfig', kubeconfig, '--now', at(0), '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`)
  return {json: JSON.parse(r.stdout) as Any, requests: [...server.requests]}
}

// Zone a: a0..a3 with topology.kubernetes.io/zone=a, and a4 carrying only the legacy beta label (GetZoneKey reads it
// first, so a4 is in zone a). Zones b and c: three nodes each. a0 went Unknown 400 s ago; every other lease was
// renewed 2 s ago. Zone a: 1 of 5 not ready → Normal (Partial needs more than 2 not ready), rate 0.1/s.
function objects(downInB: number): KubeObject[] {
  const out: KubeObject[] = []
  for (let i = 0; i < 4; i++) out.push(mkNode(`a${i}`, 'a', i === 0 ? {ready: 'Unknown', heartbeat: -400} : {}), mkLease(`a${i}`, i === 0 ? -400 : -2))
  const legacy = mkNode('a4', 'a')
  const labels = legacy.metadata!.labels as Record<string, string>
  delete labels['topology.kubernetes.io/zone']
  labels['failure-domain.beta.kubernetes.io/zone'] = 'a'
  out.push(legacy, mkLease('a4', -2))
  for (const z of ['b', 'c'])
    for (let i = 0; i < 3; i++) {
      const down = z === 'b' && i < downInB
      out.push(mkNode(`${z}${i}`, z, down ? {ready: 'Unknown', heartbeat: -400} : {}), mkLease(`${z}${i}`, down ? -400 : -2))
    }
  return out
}

describe('node NAME reads its zone only when the zone is Normal', () => {
  test('a1: one GET of the node, the zone by its four selectors, no list of every node; the same answer as node', async () => {
    const {server, kubeconfig} = await cluster(objects(0))
    const one = await why(kubeconfig, server, ['node', 'a1'])
    const nodeLists = lists(one.requests, 'nodes')
    // GetZoneKey reads the zone and the region each from the beta label when its key exists, else the GA label:
    // zone a in region r1 is the four combinations; and one list of the nodes carrying the exclusion label.
    assert.deepEqual(nodeLists.map((r) => r.query.labelSelector).sort(), [
      '!failure-domain.beta.kubernetes.io/zone,topology.kubernetes.io/zone=a,!failure-domain.beta.kubernetes.io/region,topology.kubernetes.io/region=r1',
      '!failure-domain.beta.kubernetes.io/zone,topology.kubernetes.io/zone=a,failure-domain.beta.kubernetes.io/region=r1',
      'failure-domain.beta.kubernetes.io/zone=a,!failure-domain.beta.kubernetes.io/region,topology.kubernetes.io/region=r1',
      'failure-domain.beta.kubernetes.io/zone=a,failure-domain.beta.kubernetes.io/region=r1',
      'node.kubernetes.io/exclude-disruption',
    ])
    assert.ok(
      one.requests.some((r) => r.path === '/api/v1/nodes/a1'),
      'GET node a1',
    )
    // The selectors were honoured (in the order beta/beta, beta zone/GA region, GA zone/beta region, GA/GA, then the
    // exclusion label): a4 has the beta zone label and the GA region, a0-a3 only GA labels, none is excluded.
    const reads = one.json.reads as {read: string; objects?: number; why: string}[]
    assert.deepEqual(
      reads.filter((r) => r.read.startsWith('list nodes')).map((r) => r.objects),
      [0, 1, 0, 4, 0],
    )
    assert.ok(reads.some((r) => r.read === 'other zones not read' && /handleDisruption/.test(r.why)))
    // Zone a counted all five (the legacy-labelled a4 too), one not ready: Normal at 0.1/s.
    assert.deepEqual([one.json.zone.state, one.json.zone.rate], ['Normal', 0.1])
    const all = await why(kubeconfig, server, ['node'])
    const line = all.json.nodes.find((n: Any) => n.name === 'a1')
    assert.deepEqual([one.json.verdict, one.json.severity], [line.verdict, line.severity])
    const a0 = await why(kubeconfig, server, ['node', 'a0'])
    const a0line = all.json.nodes.find((n: Any) => n.name === 'a0')
    assert.deepEqual([a0.json.verdict, a0.json.severity, a0.json.summary], [a0line.verdict, a0line.severity, a0line.summary])
    const zoneA = all.json.zones.find((z: Any) => z.name === 'r1/a')
    assert.deepEqual([zoneA.counted, zoneA.notReady], [5, 1])
  })

  test('its zone fully down: every Node is read (master disruption depends on the other zones), the reason named', async () => {
    // Zone b: all three down (FullDisruption after the pass); zones a and c have ready nodes: no master disruption.
    const {server, kubeconfig} = await cluster(objects(3))
    const one = await why(kubeconfig, server, ['node', 'b1'])
    assert.ok(
      lists(one.requests, 'nodes').some((r) => r.query.labelSelector === undefined),
      'a list of every node',
    )
    const reads = one.json.reads as {read: string; why: string}[]
    assert.ok(reads.some((r) => r.read === 'list nodes' && /FullDisruption/.test(r.why)))
    assert.equal(one.json.masterDisruption, false)
    const all = await why(kubeconfig, server, ['node'])
    const line = all.json.nodes.find((n: Any) => n.name === 'b1')
    assert.deepEqual([one.json.verdict, one.json.severity], [line.verdict, line.severity])
  })

  test('the zone from the server-side Table: ready rows with a fresh Lease are counted, a0 is read whole; the same answer as whole lists', async () => {
    const {server, kubeconfig} = await cluster(objects(0))
    const one = await why(kubeconfig, server, ['node', 'a1'])
    const zoneLists = lists(one.requests, 'nodes')
    assert.equal(zoneLists.length, 5)
    for (const r of zoneLists) {
      assert.match(r.accept ?? '', /^application\/json;as=Table;v=v1;g=meta\.k8s\.io/)
      // NAME and STATUS only, from the watch cache (the controller's node informer).
      assert.deepEqual([r.query.includeObject, r.query.resourceVersion], ['None', '0'])
    }
    // Zone a is a0..a4; a1 is the node asked about (its own GET). a0's row says NotReady and its Lease is 400 s old:
    // GET. a2, a3, a4: Ready, Lease renewed 2 s ago (grace 50 s at 1.33): counted Ready, not read.
    const gets = one.requests.filter((r) => /^\/api\/v1\/nodes\/[^/]+$/.test(r.path)).map((r) => r.path)
    assert.deepEqual(gets.sort(), ['/api/v1/nodes/a0', '/api/v1/nodes/a1'])
    const reads = one.json.reads as {read: string; objects?: number; why: string}[]
    assert.deepEqual(
      reads.filter((r) => /Table row|^get \d/.test(r.read)).map((r) => [r.read, r.objects]),
      [
        ['3 node(s) of zone r1/a counted Ready from their Table row', 3],
        ['get 1 node(s) of zone r1/a', 1],
      ],
    )
    // The same cluster from a server without the Table: the zone's Nodes listed whole, the refusal named.
    const plain = await cluster(objects(0), false)
    const whole = await why(plain.kubeconfig, plain.server, ['node', 'a1'])
    const wholeReads = whole.json.reads as {read: string; why: string}[]
    assert.ok(
      wholeReads.some((r) => r.read.startsWith('list nodes -l') && /refused the server-side Table \(.*406|NotAcceptable/.test(r.why)),
      JSON.stringify(wholeReads),
    )
    // Everything but the reads and the kubeconfig path the next steps carry.
    const answer = (json: Any, file: string) => JSON.parse(JSON.stringify({...json, reads: undefined}).replaceAll(file, 'KUBECONFIG'))
    assert.deepEqual(answer(one.json, kubeconfig), answer(whole.json, plain.kubeconfig))
    const a0 = await why(kubeconfig, server, ['node', 'a0'])
    const a0whole = await why(plain.kubeconfig, plain.server, ['node', 'a0'])
    assert.deepEqual(answer(a0.json, kubeconfig), answer(a0whole.json, plain.kubeconfig))
  })

  test('zone a of another region and excluded nodes: not counted; an excluded node that is down still waits in the zone queue', async () => {
    // Beside objects(0): x0 in zone a of region r2 (another zone key: r2:\0:a), a5 labelled
    // node.kubernetes.io/exclude-disruption and healthy, a6 excluded and Unknown for 400 s. Zone r1/a counts a0..a4: 5,
    // 1 not ready, Normal at 0.1/s. a0 and a6 wait for unreachable:NoExecute in r1/a's queue (pendingTaints 2), so
    // a0's taint is due within 2 / 0.1/s = 20 s. Rows: a2, a3, a4 counted; a5 Ready with a fresh Lease but excluded, so
    // neither counted nor read; x0 not in any of the four lists; a0, a6 read whole.
    const extra = [
      mkNode('x0', 'a', {labels: {'topology.kubernetes.io/region': 'r2'}}),
      mkLease('x0', -2),
      mkNode('a5', 'a', {labels: {'node.kubernetes.io/exclude-disruption': ''}}),
      mkLease('a5', -2),
      mkNode('a6', 'a', {labels: {'node.kubernetes.io/exclude-disruption': 'true'}, ready: 'Unknown', heartbeat: -400}),
      mkLease('a6', -400),
    ]
    const {server, kubeconfig} = await cluster([...objects(0), ...extra])
    const plain = await cluster([...objects(0), ...extra], false)
    const answer = (json: Any, file: string) => JSON.parse(JSON.stringify({...json, reads: undefined}).replaceAll(file, 'KUBECONFIG'))
    const a0 = await why(kubeconfig, server, ['node', 'a0'])
    const gets = a0.requests.filter((r) => /^\/api\/v1\/nodes\/[^/]+$/.test(r.path)).map((r) => r.path)
    assert.deepEqual(gets.sort(), ['/api/v1/nodes/a0', '/api/v1/nodes/a6'])
    const reads = a0.json.reads as {read: string; objects?: number; why: string}[]
    const counted = reads.find((r) => r.read.endsWith('counted Ready from their Table row'))
    assert.equal(counted?.objects, 4, 'a1, a2, a3, a4')
    assert.match(counted?.why ?? '', /1 more such row\(s\) carry node\.kubernetes\.io\/exclude-disruption/)
    assert.equal(reads.find((r) => r.read.startsWith("list nodes -l 'node.kubernetes.io/exclude-disruption'"))?.objects, 2)
    const zone = a0.json.steps.find((s: Any) => s.rule === 'ComputeZoneState')
    assert.deepEqual([zone.inputs.counted, zone.inputs.ready, zone.inputs.notReady, zone.result], [5, 4, 1, 'Normal'])
    const taint = a0.json.steps.find((s: Any) => s.rule === 'processTaintBaseEviction')
    assert.equal(taint.result, 'pending')
    assert.match(taint.why, /worst case 20s$/)
    const whole = await why(plain.kubeconfig, plain.server, ['node', 'a0'])
    assert.deepEqual(answer(a0.json, kubeconfig), answer(whole.json, plain.kubeconfig))
    for (const n of ['a1', 'a6']) {
      const t = await why(kubeconfig, server, ['node', n])
      const w = await why(plain.kubeconfig, plain.server, ['node', n])
      assert.deepEqual(answer(t.json, kubeconfig), answer(w.json, plain.kubeconfig), n)
    }
  })

  test('the lease circuit breaker holds a node of the zone (1.37): the zone is read whole, the same answer as whole lists', async () => {
    // Zone a as in objects(0) but a0 healthy by its kubelet's last status (Ready True, heartbeat 240 s old) with its
    // cached Lease 60 s old (past the 50 s grace) and its live Lease renewed 1 s ago (the watch cache lags): a0 is
    // evaluated first (name order), its live GET finds another resourceVersion, the breaker trips and holds every node
    // after it, a1 included. Counted rows (a2-a4) cannot be held in a count, so the zone is read whole.
    const objs = objects(0).filter((o) => !['a0'].includes(o.metadata?.name ?? ''))
    objs.push(mkNode('a0', 'a', {heartbeat: -240}), mkLease('a0', -60))
    const {server, kubeconfig} = await FakeApiServer.start({objects: objs, version: 'v1.37.1'}).then((server) => {
      servers.push(server)
      return {server, kubeconfig: server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'why-zone-')))}
    })
    server.lagCache()
    server.put(mkLease('a0', -1))
    const plain = await FakeApiServer.start({objects: objs, version: 'v1.37.1', tables: false}).then((server) => {
      servers.push(server)
      return {server, kubeconfig: server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'why-zone-')))}
    })
    plain.server.lagCache()
    plain.server.put(mkLease('a0', -1))
    const one = await why(kubeconfig, server, ['node', 'a1'])
    assert.equal(one.json.verdict, 'circuitOpen')
    const reads = one.json.reads as {read: string; why: string}[]
    assert.ok(
      reads.some((r) => /^list nodes -l '[^']*'$/.test(r.read) && /whole: the lease circuit breaker held a node/.test(r.why)),
      JSON.stringify(reads),
    )
    const whole = await why(plain.kubeconfig, plain.server, ['node', 'a1'])
    const answer = (json: Any, file: string) => JSON.parse(JSON.stringify({...json, reads: undefined}).replaceAll(file, 'KUBECONFIG'))
    assert.deepEqual(answer(one.json, kubeconfig), answer(whole.json, plain.kubeconfig))
  })
})
