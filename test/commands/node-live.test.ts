// `kubectl why node` and `kubectl why evicted` end to end against the fake API server: a lagging watch cache
// (circuit open), a zone of 60 nodes at 40% and 70% unhealthy, all zones down, a pod with three toleration
// setups, settings read from the kube-controller-manager pod, read failures reported as partial, GETs only.
// Expected verdicts are worked out by hand in each test. Run `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer, type RequestRecord} from '../support/fake-apiserver/index.js'
import {
  at,
  DAEMONSET_TOLERATIONS,
  DEFAULT_TOLERATIONS,
  mkControllerManager,
  mkLease,
  mkNode,
  mkPod,
  unreachable,
} from '../engine/nodelifecycle/cluster-builder.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const servers: FakeApiServer[] = []
after(async () => {
  for (const s of servers) await s.close()
})

async function serve(objects: KubeObject[], version: string): Promise<{server: FakeApiServer; kubeconfig: string}> {
  const server = await FakeApiServer.start({objects, version})
  servers.push(server)
  return {server, kubeconfig: server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'why-node-')))}
}

async function why(kubeconfig: string, args: string[], server?: FakeApiServer): Promise<{code: number; json: Any; stderr: string; requests: RequestRecord[]}> {
  server?.clearRequests()
  const r = await runCli([...args, '--kubeconfig', kubeconfig, '--now', at(0), '-o', 'json'])
  let json: Any
  try {
    json = JSON.parse(r.stdout)
  } catch {
    assert.fail(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`)
  }
  return {code: r.code, json, stderr: r.stderr, requests: server ? [...server.requests] : []}
}

function zone(name: string, n: number, prefix: string, opts: {unhealthy?: number; renew?: number; heartbeat?: number} = {}): KubeObject[] {
  const out: KubeObject[] = []
  for (let i = 0; i < n; i++) {
    const down = i < (opts.unhealthy ?? 0)
    out.push(mkNode(`${prefix}${i}`, name, down ? {ready: 'Unknown', heartbeat: -400} : {heartbeat: opts.heartbeat}))
    out.push(mkLease(`${prefix}${i}`, down ? -400 : (opts.renew ?? -2)))
  }
  return out
}

describe('lease circuit breaker with a lagging watch cache (1.37: gate on by default)', () => {
  test('cached leases expired, live ones renewed: circuitOpen, nothing marked; caught up: healthy', async () => {
    // The kubelets post status every few minutes (heartbeats 4 min old): only the leases say they are alive.
    const {server, kubeconfig} = await serve(
      [...zone('a', 3, 'a', {renew: -60, heartbeat: -240}), ...zone('b', 2, 'b', {renew: -60, heartbeat: -240})],
      'v1.37.1',
    )
    server.lagCache()
    for (const n of ['a0', 'a1', 'a2', 'b0', 'b1']) server.put(mkLease(n, -1))
    const open = await why(kubeconfig, ['node'], server)
    assert.equal(open.code, 1)
    assert.equal(open.json.verdict, 'circuitOpen')
    assert.equal(open.json.circuitBreaker.open, true)
    assert.equal(open.json.circuitBreaker.gate, true)
    assert.ok(open.json.nodes.every((n: Any) => n.verdict === 'circuitOpen'))
    assert.equal(open.json.source.settings.NodeControllerLeaseCircuitBreaker.value, true)
    // Both views were read, as the controller reads them (issue 13.1: one driver for the command and the audit): the
    // watch cache (resourceVersion=0) listed once, and the live lease of each node its first pass finds stale — all
    // five here, their cached renewals being 60 s old — by a quorum GET (no resourceVersion), the circuit breaker's.
    const leaseLists = open.requests.filter((r) => r.path === '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases')
    assert.deepEqual(
      leaseLists.map((r) => r.query.resourceVersion ?? 'quorum'),
      ['0'],
    )
    const leaseGets = open.requests.filter((r) => r.path.startsWith('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/'))
    assert.deepEqual(leaseGets.map((r) => `${r.path.split('/').pop()} ${r.query.resourceVersion ?? 'quorum'}`).sort(), [
      'a0 quorum',
      'a1 quorum',
      'a2 quorum',
      'b0 quorum',
      'b1 quorum',
    ])
    assert.deepEqual(
      open.requests.filter((r) => r.method !== 'GET'),
      [],
    )

    const one = await why(kubeconfig, ['node', 'a0'], server)
    assert.equal(one.json.verdict, 'circuitOpen')
    assert.equal(one.json.verdictOnceCaughtUp, 'healthy')

    // With the gate off the stale cache is believed: every node goes Unknown, every zone is down.
    const off = await why(kubeconfig, ['node', '--feature-gates=NodeControllerLeaseCircuitBreaker=false'])
    assert.equal(off.json.verdict, 'masterDisruption')
    assert.equal(off.json.source.settings.NodeControllerLeaseCircuitBreaker.from, '--feature-gates (our flag)')

    server.syncCache()
    const closed = await why(kubeconfig, ['node'], server)
    assert.equal(closed.code, 0)
    assert.equal(closed.json.verdict, 'healthy')
  })
})

describe('zone of 60 nodes', () => {
  test('40% not ready: Normal, 0.1/s, the 24 pending within 240 s', async () => {
    const {kubeconfig} = await serve([...zone('a', 60, 'a', {unhealthy: 24}), ...zone('b', 5, 'b')], 'v1.33.2')
    const {json} = await why(kubeconfig, ['node'])
    const za = json.zones.find((z: Any) => z.name === 'r1/a')
    assert.deepEqual([za.state, za.counted, za.notReady, za.rate, za.pendingTaints], ['Normal', 60, 24, 0.1, 24])
    const down = json.nodes.filter((n: Any) => n.verdict === 'taintPending')
    assert.equal(down.length, 24)
    assert.equal(down[0].noExecuteDetail, 'unreachable pending (≤ 4m)')
  })
  test('70% not ready: PartialDisruption; 60 counted > 50, so the secondary rate 0.01/s', async () => {
    const {kubeconfig} = await serve([...zone('a', 60, 'a', {unhealthy: 42}), ...zone('b', 5, 'b')], 'v1.33.2')
    const {json} = await why(kubeconfig, ['node'])
    const za = json.zones.find((z: Any) => z.name === 'r1/a')
    assert.deepEqual([za.state, za.rate], ['PartialDisruption', 0.01])
    assert.match(za.rateWhy, /large zone \(60 counted nodes > --large-cluster-size-threshold 50\)/)
  })
  test('70% not ready with 10 healthy nodes excluded: 50 counted is small → rate 0, taintBlocked', async () => {
    const objects = [...zone('a', 60, 'a', {unhealthy: 42}), ...zone('b', 5, 'b')]
    for (const o of objects) {
      const i = Number(/^a(\d+)$/.exec(o.metadata?.name ?? '')?.[1])
      if (o.kind === 'Node' && i >= 50) o.metadata!.labels!['node.kubernetes.io/exclude-disruption'] = ''
    }
    const {kubeconfig} = await serve(objects, 'v1.33.2')
    const {json} = await why(kubeconfig, ['node'])
    const za = json.zones.find((z: Any) => z.name === 'r1/a')
    assert.deepEqual([za.counted, za.state, za.rate], [50, 'PartialDisruption', 0])
    assert.equal(json.nodes.filter((n: Any) => n.verdict === 'taintBlocked').length, 42)
    assert.equal(json.nodes.filter((n: Any) => n.verdict === 'excluded').length, 10)
  })
})

describe('all zones down', () => {
  test('master disruption mode: critical, every node taintBlocked, rates 0; a pod on it is not evicted', async () => {
    const {kubeconfig} = await serve(
      [...zone('a', 3, 'a', {unhealthy: 3}), ...zone('b', 2, 'b', {unhealthy: 2}), mkPod('shop', 'web-1', 'a0', DEFAULT_TOLERATIONS)],
      'v1.33.2',
    )
    const {code, json} = await why(kubeconfig, ['node'])
    assert.equal(code, 1)
    assert.deepEqual([json.verdict, json.severity, json.masterDisruption], ['masterDisruption', 'critical', true])
    assert.ok(json.nodes.every((n: Any) => n.verdict === 'taintBlocked'))
    assert.deepEqual(
      json.zones.map((z: Any) => z.rate),
      [0, 0],
    )
    const ev = await why(kubeconfig, ['evicted', 'pod/web-1', '-n', 'shop'])
    assert.deepEqual([ev.json.verdict, ev.json.notEvictedBecause], ['notEvictedBecause', 'masterDisruption'])
  })
})

describe('one tainted node, three toleration setups', () => {
  const objects = [
    mkNode('n1', 'a', {ready: 'Unknown', heartbeat: -400, taints: [unreachable(-100)]}),
    mkLease('n1', -400),
    ...zone('a', 3, 'h'),
    // admission defaults: 300 s from the taint (100 s ago) → 200 s from now
    mkPod('shop', 'web-1', 'n1', DEFAULT_TOLERATIONS, {kind: 'ReplicaSet', name: 'web-6f7'}),
    // DaemonSet: no tolerationSeconds → forever
    mkPod('shop', 'agent-x', 'n1', DAEMONSET_TOLERATIONS, {kind: 'DaemonSet', name: 'agent'}),
    // A hand-written unreachable toleration with a value: it blocks the admission default for that key but matches nothing
    mkPod('shop', 'legacy-1', 'n1', [{key: 'node.kubernetes.io/unreachable', operator: 'Equal', value: 'true', effect: 'NoExecute'}, DEFAULT_TOLERATIONS[0]]),
    mkControllerManager(['--node-monitor-grace-period=40s', '--controllers=*,bootstrapsigner']),
  ]
  test('default 300 s: evictAt taint time + 300 s; settings from the controller-manager pod', async () => {
    const {server, kubeconfig} = await serve(objects, 'v1.33.2')
    const {code, json, requests} = await why(kubeconfig, ['evicted', 'pod/web-1', '-n', 'shop'], server)
    assert.equal(code, 1)
    assert.equal(json.verdict, 'evictAt')
    assert.equal(json.timeline.evictionDeadline, at(200))
    assert.equal(json.tolerations[0].index, 1)
    assert.equal(json.tolerations[0].origin, 'admissionDefault')
    assert.deepEqual(json.source.settings['node-monitor-grace-period'], {
      value: '40s',
      from: 'kube-controller-manager pod kube-system/kube-controller-manager-cp --node-monitor-grace-period',
    })
    assert.deepEqual(
      requests.filter((r) => r.method !== 'GET'),
      [],
    )
  })
  test('DaemonSet tolerations: toleratedForever', async () => {
    const {kubeconfig} = await serve(objects, 'v1.33.2')
    const {code, json} = await why(kubeconfig, ['evicted', 'pod/agent-x', '-n', 'shop'])
    assert.equal(code, 0)
    assert.equal(json.verdict, 'toleratedForever')
    assert.equal(json.tolerations[0].origin, 'daemonSet')
  })
  test('an Equal toleration with a value does not match the value-less taint: evictedImmediately', async () => {
    const {kubeconfig} = await serve(objects, 'v1.33.2')
    const {json} = await why(kubeconfig, ['evicted', 'pod/legacy-1', '-n', 'shop'])
    assert.equal(json.verdict, 'evictedImmediately')
    assert.equal(json.tolerations[0].index, null)
  })
  test('node n1 alone: unhealthy, and its 3 pods by decision', async () => {
    const {kubeconfig} = await serve(objects, 'v1.33.2')
    const {json} = await why(kubeconfig, ['node', 'n1'])
    assert.equal(json.verdict, 'unhealthy')
    assert.deepEqual([json.pods.total, json.pods.evictedAtOnce, json.pods.evictedAfterSeconds['300'], json.pods.toleratedForever], [3, 1, 1, 1])
  })
})

describe('degrading on read failures', () => {
  test('leases forbidden: still answers, says the result is partial', async () => {
    const {server, kubeconfig} = await serve([...zone('a', 3, 'a')], 'v1.33.2')
    server.forbid({resource: 'leases', group: 'coordination.k8s.io'})
    const {json} = await why(kubeconfig, ['node'])
    assert.ok(json.source.partial.some((p: Any) => /Leases/.test(p.what)))
    // Without leases the Ready heartbeats (10 s old) keep the nodes healthy.
    assert.ok(json.nodes.every((n: Any) => n.verdict === 'healthy' || n.verdict === 'withinGrace'))
  })
  test('kube-system pods forbidden: release defaults, said so', async () => {
    const {server, kubeconfig} = await serve([...zone('a', 2, 'a')], 'v1.31.4')
    server.forbid({resource: 'pods', namespace: 'kube-system'})
    const {json} = await why(kubeconfig, ['node'])
    assert.equal(json.source.settings['node-monitor-grace-period'].value, '40s')
    assert.match(json.source.settings['kube-controller-manager'].from, /could not be read/)
  })
  test('unknown node name and a non-pod target are one-line errors, exit 2', async () => {
    const {kubeconfig} = await serve([...zone('a', 1, 'a')], 'v1.33.2')
    const r1 = await runCli(['node', 'nope', '--kubeconfig', kubeconfig])
    assert.equal(r1.code, 2)
    assert.match(r1.stderr, /node "nope" not found/)
    const r2 = await runCli(['evicted', 'deployment/web', '--kubeconfig', kubeconfig])
    assert.equal(r2.code, 2)
    // Any of kubectl's spellings of a pod is taken (src/cluster/target.ts); another kind is refused by name.
    assert.match(r2.stderr, /kubectl why evicted is about a Pod, not "deployment"/)
    const r3 = await runCli(['node', '--node-eviction-rate=-1', '--kubeconfig', kubeconfig])
    assert.equal(r3.code, 2)
    assert.match(r3.stderr, /--node-eviction-rate/)
  })
})
