// `kubectl why replicas` against the fake API server, one server per example: the verdict, the deletion order and
// the expectations window, read live; the request log shows what was read and how (watch cache for the informer's
// view, a quorum GET only for the recheck before adoption, events filtered by field selectors, nothing but GET).
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import type {KubeObject} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'
import {lists, onlyGets} from '../support/fake-apiserver/requests.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any
const NOW = '2026-11-29T10:00:00Z'

interface Example {
  items: KubeObject[]
  cached?: KubeObject[]
}

function load(name: string): Example {
  const doc = parse(readFileSync(fileURLToPath(new URL(`../../examples/${name}`, import.meta.url)), 'utf8'))
  return {items: doc.items, cached: doc.kubectlWhy?.cached}
}

const key = (o: KubeObject) => `${o.kind}/${o.metadata?.namespace}/${o.metadata?.name}`

/** A server whose watch cache holds the example's cached view (when it has one) and whose etcd holds its items. */
async function serve(example: Example): Promise<{server: FakeApiServer; kubeconfig: string}> {
  const cached = new Map((example.cached ?? []).map((o) => [key(o), o]))
  const first = example.items.map((o) => cached.get(key(o)) ?? o)
  const server = await FakeApiServer.start({objects: structuredClone(first), version: 'v1.31.2'})
  if (cached.size > 0) {
    server.lagCache()
    for (const o of example.items) if (cached.has(key(o))) server.put(structuredClone(o))
  }
  return {server, kubeconfig: server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'replicas-live-')), {namespace: 'shop'})}
}

async function run(kubeconfig: string, args: string[]): Promise<{code: number; json: Any; stderr: string}> {
  const r = await runCli(['replicas', ...args, '--kubeconfig', kubeconfig, '--now', NOW, '-o', 'json'])
  let json: Any
  try {
    json = JSON.parse(r.stdout)
  } catch {
    assert.fail(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`)
  }
  return {code: r.code, json, stderr: r.stderr}
}

describe('live, against the fake API server', () => {
  test('quota: createsFailing with the upstream error text; events read by field selector', async () => {
    const {server, kubeconfig} = await serve(load('replicas-quota.yaml'))
    try {
      const r = await run(kubeconfig, ['rs/cart-7c9d8f6b5'])
      assert.equal(r.json.verdict, 'createsFailing', r.stderr)
      assert.equal(r.code, 1)
      assert.match(r.json.replicaSet.createFailures.error, /^pods "cart-7c9d8f6b5-z2v6c" is forbidden: exceeded quota: shop-quota/)
      assert.deepEqual(r.json.replicaSet.manage.batches, [1, 1])
      const events = lists(server.requests, 'events')
      assert.equal(events.length, 1)
      assert.equal(events[0].query.fieldSelector, 'involvedObject.kind=ReplicaSet,involvedObject.name=cart-7c9d8f6b5,involvedObject.uid=rs-cart')
      // The informer's view comes from the watch cache; the lag check is a metadata-only quorum read.
      const pods = lists(server.requests, 'pods')
      assert.ok(pods.some((p) => p.query.resourceVersion === '0'))
      assert.ok(pods.some((p) => p.query.resourceVersion === undefined && /as=PartialObjectMetadataList/.test(p.accept ?? '')))
      onlyGets(server.requests)
    } finally {
      await server.close()
    }
  })

  test('deletion cost: the deletion order e5, c3, b2 | d4, a1', async () => {
    const {server, kubeconfig} = await serve(load('replicas-deletion-cost.yaml'))
    try {
      const r = await run(kubeconfig, ['rs/checkout-6b7f9d5c4d'])
      assert.equal(r.json.verdict, 'willDelete', r.stderr)
      assert.deepEqual(
        r.json.replicaSet.manage.deleteOrder.map((d: Any) => [d.name.slice(-2), d.chosen, d.beforeNext?.rule ?? null]),
        [
          ['e5', true, 2],
          ['c3', true, 4],
          ['b2', true, 5],
          ['d4', false, 4],
          ['a1', false, null],
        ],
      )
      // No orphan to adopt: no uncached GET of the ReplicaSet.
      assert.equal(server.requests.filter((q) => q.path.endsWith('/replicasets/checkout-6b7f9d5c4d') && q.query.resourceVersion === undefined).length, 0)
      onlyGets(server.requests)
    } finally {
      await server.close()
    }
  })

  test('unobserved deletes: the watch cache lags the quorum read; waiting until 10:04:15', async () => {
    const {server, kubeconfig} = await serve(load('replicas-unobserved-deletes.yaml'))
    try {
      const r = await run(kubeconfig, ['rs/api-5f6d7c8b9'])
      assert.equal(r.json.verdict, 'waitingForExpectations', r.stderr)
      const x = r.json.replicaSet.expectations
      assert.deepEqual(
        x.unobserved.map((u: Any) => [u.op, u.pod]),
        [['delete', 'api-5f6d7c8b9-eeee5']],
      )
      assert.equal(x.expiresAt, '2026-11-29T10:04:15Z')
      assert.match(x.unobserved[0].why, /watch cache/)
      // --all reads the pods once, from the watch cache (the informer's view): the same verdict, from the events.
      const all = await run(kubeconfig, ['--all'])
      assert.deepEqual(all.json.counts, {waitingForExpectations: 1}, all.stderr)
      assert.deepEqual(
        all.json.findings[0].replicaSet.expectations.unobserved.map((u: Any) => u.pod),
        ['api-5f6d7c8b9-eeee5'],
      )
      // Once the cache catches up, the same ReplicaSet is converged: eeee5 is terminating, 3 active = 3 desired.
      server.syncCache()
      const after = await run(kubeconfig, ['rs/api-5f6d7c8b9'])
      assert.equal(after.json.verdict, 'converged', after.stderr)
      assert.equal(after.json.replicaSet.terminating, 2)
      onlyGets(server.requests)
    } finally {
      await server.close()
    }
  })

  test('adoption: orphans adopted after an uncached recheck; refused when the ReplicaSet is being deleted', async () => {
    const {server, kubeconfig} = await serve(load('replicas-adoption.yaml'))
    try {
      server.clearRequests()
      const r = await run(kubeconfig, ['rs/web-7d4b9c6f5'])
      assert.equal(r.json.verdict, 'adoptionPending', r.stderr)
      assert.equal(r.json.replicaSet.claims.adopt.length, 3)
      assert.equal(r.json.replicaSet.claims.recheck.performed, true)
      const recheck = server.requests.filter(
        (q) => q.path === '/apis/apps/v1/namespaces/shop/replicasets/web-7d4b9c6f5' && q.query.resourceVersion === undefined,
      )
      assert.equal(recheck.length, 1, 'one quorum GET of the ReplicaSet')
      // The cache still shows it alive; a quorum read shows it deleted: the recheck refuses adoption (the upstream race test).
      const rs = load('replicas-adoption.yaml').items.find((o) => o.kind === 'ReplicaSet')!
      server.lagCache()
      server.put({
        ...structuredClone(rs),
        metadata: {...structuredClone(rs.metadata), deletionTimestamp: '2026-11-29T09:59:59Z', finalizers: ['foregroundDeletion']},
      })
      const refused = await run(kubeconfig, ['rs/web-7d4b9c6f5'])
      assert.equal(refused.json.verdict, 'beingDeleted', refused.stderr)
      assert.match(refused.json.replicaSet.claims.recheck.error, /has just been deleted at 2026-11-29T09:59:59Z/)
      const dep = await run(kubeconfig, ['deployment/web'])
      assert.deepEqual(
        dep.json.map((e: Any) => e.subject.name),
        ['web-7d4b9c6f5'],
      )
      onlyGets(server.requests)
    } finally {
      await server.close()
    }
  })

  test('a pod relabelled out of the selector is found through the metadata list and released', async () => {
    const {server, kubeconfig} = await serve(load('replicas-quota.yaml'))
    try {
      // The on-call trick: take a pod out of service by removing its pod-template-hash label.
      server.put({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'cart-7c9d8f6b5-quarantined',
          namespace: 'shop',
          uid: 'pod-q',
          creationTimestamp: '2026-11-29T08:00:01Z',
          labels: {app: 'cart'},
          ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'cart-7c9d8f6b5', uid: 'rs-cart', controller: true, blockOwnerDeletion: true}],
        },
        spec: {nodeName: 'node-1'},
        status: {phase: 'Running'},
      })
      server.clearRequests()
      const r = await run(kubeconfig, ['rs/cart-7c9d8f6b5'])
      assert.deepEqual(r.json.replicaSet.claims.release, ['cart-7c9d8f6b5-quarantined'], r.stderr)
      assert.equal(r.json.replicaSet.active, 3)
      // Full pods were listed with the selector; the release candidate was read on its own.
      const podLists = lists(server.requests, 'pods')
      assert.ok(podLists.some((q) => q.query.labelSelector === 'app=cart,pod-template-hash=7c9d8f6b5' && q.query.resourceVersion === '0'))
      assert.ok(server.requests.some((q) => q.path === '/api/v1/namespaces/shop/pods/cart-7c9d8f6b5-quarantined'))
    } finally {
      await server.close()
    }
  })

  test('--all: a 410 on a list page restarts that list once (client-go pager); a second one is reported as partial', async () => {
    // 600 events of another ReplicaSet make the ReplicaSet events two pages of 500.
    const example = load('replicas-unobserved-deletes.yaml')
    for (let i = 0; i < 600; i++) {
      example.items.push({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: {name: `old.${i}`, namespace: 'shop'},
        involvedObject: {apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-old', namespace: 'shop', uid: 'rs-api-old'},
        reason: 'SuccessfulCreate',
        type: 'Normal',
        message: `Created pod: api-old-${i}`,
        firstTimestamp: '2026-11-20T09:00:00Z',
        lastTimestamp: '2026-11-20T09:00:00Z',
        source: {component: 'replicaset-controller'},
      } as KubeObject)
    }
    const {server, kubeconfig} = await serve(example)
    try {
      const once = server.inject({path: '/api/v1/namespaces/shop/events', when: (q) => q.continue !== undefined, status: 410})
      const r = await run(kubeconfig, ['--all'])
      assert.equal(once.hits, 1)
      assert.equal(r.code, 1, r.stderr)
      assert.deepEqual(r.json.counts, {waitingForExpectations: 1})
      assert.deepEqual(r.json.source.partial, [])
      server.clearFaults()
      const twice = server.inject({path: '/api/v1/namespaces/shop/events', when: (q) => q.continue !== undefined, status: 410, times: 2})
      const partial = await run(kubeconfig, ['--all'])
      assert.equal(twice.hits, 2)
      assert.notEqual(partial.code, 2, partial.stderr)
      assert.ok(
        partial.json.source.partial.some((p: Any) => /events/.test(p.what) && /Gone|410/.test(p.reason)),
        JSON.stringify(partial.json.source.partial),
      )
    } finally {
      await server.close()
    }
  })

  test('events forbidden: still a verdict, reported as partial; pods forbidden: exit 2', async () => {
    const {server, kubeconfig} = await serve(load('replicas-quota.yaml'))
    try {
      server.forbid({resource: 'events'})
      const r = await run(kubeconfig, ['rs/cart-7c9d8f6b5'])
      assert.equal(r.json.verdict, 'createsFailing', r.stderr) // the ReplicaFailure condition still says so
      assert.ok(r.json.source.partial.some((p: Any) => /events/.test(p.what)))
      server.clearFaults()
      server.forbid({resource: 'pods'})
      const denied = await runCli(['replicas', 'rs/cart-7c9d8f6b5', '--kubeconfig', kubeconfig, '--now', NOW])
      assert.equal(denied.code, 2)
      assert.match(denied.stderr, /forbidden/i)
    } finally {
      await server.close()
    }
  })
})
