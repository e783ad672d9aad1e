// The live source against a fake API server that behaves like the real one: pagination, the 410
// restart, 429 with Retry-After, 5xx backoff, 403, metadata-only, fresh vs watch-cache reads, and
// proof that nothing but GET is ever sent.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import type {KubeObject} from '../../../src/cluster/source.js'
import {ReadError} from '../../../src/errors.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'

const POD_COUNT = 1234
function pod(i: number): KubeObject {
  const name = `p-${String(i).padStart(5, '0')}`
  return {apiVersion: 'v1', kind: 'Pod', metadata: {name, namespace: i % 2 ? 'odd' : 'even', labels: {i: String(i)}}, spec: {nodeName: 'n1'}}
}
const LEASE = (renewTime: string): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {name: 'n1', namespace: 'kube-node-lease'},
  spec: {holderIdentity: 'n1', renewTime},
})

let server: FakeApiServer
let kubeconfig: string

before(async () => {
  server = await FakeApiServer.start({
    objects: [
      ...Array.from({length: POD_COUNT}, (_, i) => pod(i)),
      LEASE('2026-11-29T02:59:00.000000Z'),
      {apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}},
      {apiVersion: 'v1', kind: 'Secret', metadata: {name: 's', namespace: 'even'}, data: {k: 'c2VjcmV0'}},
    ],
  })
  kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'live-')), {namespace: 'even'})
})
after(async () => server.close())

const open = (requestTimeout = 10_000) => LiveSource.open({kubeconfig, requestTimeout})
// Requests are never cleared, so the last test sees them all; each test looks at those since its mark.
let mark = 0
const markRequests = () => {
  mark = server.requests.length
}
const listRequests = (resource: string) => server.requests.slice(mark).filter((r) => r.path.endsWith(`/${resource}`))

test('a list of 1234 pods in pages of 100 takes 13 requests and returns every pod once, in order', async () => {
  markRequests()
  const s = await open()
  const {items} = await s.list({kind: 'Pod', pageSize: 100})
  assert.equal(items.length, POD_COUNT)
  assert.equal(new Set(items.map((o) => o.metadata?.uid)).size, POD_COUNT)
  const reqs = listRequests('pods')
  assert.equal(reqs.length, 13) // ceil(1234 / 100)
  assert.ok(reqs.every((r) => r.query.limit === '100'))
  assert.equal(reqs.filter((r) => r.query.continue !== undefined).length, 12)
  await s.close?.()
})

test('an expired continue token (410) on a later page falls back to one full list, and nothing is duplicated', async () => {
  markRequests()
  const s = await open()
  // Expire the tokens after the first page has been served.
  server.inject({path: '/api/v1/pods', status: 410, times: 1, when: (q) => q.continue !== undefined})
  const {items} = await s.list({kind: 'Pod', pageSize: 500})
  assert.equal(items.length, POD_COUNT)
  assert.equal(new Set(items.map((o) => o.metadata?.uid)).size, POD_COUNT)
  const reqs = listRequests('pods')
  // client-go tools/pager ListPager.List, FullListIfExpired: page 1, page 2 (410), then the list without limit.
  assert.equal(reqs.length, 3)
  assert.equal(reqs[2].query.continue, undefined)
  assert.equal(reqs[2].query.limit, undefined, 'the fallback is a full list, as client-go reads it')
  await s.close?.()
})

// Was "a second 410 after the restart": the restart was paginated again, so a second continue token could expire;
// client-go's fallback reads the whole list in one request, which has no token to expire. A 410 on it still fails.
test('a 410 on the full list fallback fails the read with Gone', async () => {
  const s = await open()
  server.inject({path: '/api/v1/pods', status: 410, times: 1, when: (q) => q.continue !== undefined})
  server.inject({path: '/api/v1/pods', status: 410, times: 1, when: (q) => q.continue === undefined && q.limit === undefined})
  await assert.rejects(s.list({kind: 'Pod', pageSize: 500}), (e: Error) => e instanceof ReadError && e.reason === 'Gone' && e.status === 410)
  await s.close?.()
})

test('a 410 on the first page is not retried (there is no token to drop)', async () => {
  markRequests()
  const s = await open()
  server.inject({path: '/api/v1/nodes', status: 410, times: 1})
  await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && e.reason === 'Gone')
  assert.equal(listRequests('nodes').length, 1)
  await s.close?.()
})

test('pages(): a 410 mid-list restarts without a token and resumes after the last key handed out', async () => {
  markRequests()
  const s = await open()
  server.expireContinueTokens() // a fresh revision so the next compaction expires only this list's tokens
  const seen: string[] = []
  let pagesRead = 0
  for await (const page of s.pages({kind: 'Pod', pageSize: 400})) {
    for (const o of page) seen.push(`${o.metadata?.namespace}/${o.metadata?.name}`)
    // After two pages, etcd compacts: the third page's token is too old (a real 410 from the store, not injected).
    if (++pagesRead === 2) server.expireContinueTokens()
  }
  // Every pod once, in key order (even/* then odd/*), though the list was read twice.
  assert.equal(seen.length, POD_COUNT)
  assert.equal(new Set(seen).size, POD_COUNT)
  assert.deepEqual(
    seen,
    [...seen].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
  )
  const reqs = listRequests('pods')
  assert.equal(reqs.filter((r) => r.query.continue === undefined).length, 2, 'listed again from the start once')
  await s.close?.()
})

test('pages() with onRestart: told to drop what it has, then given the whole list again', async () => {
  const s = await open()
  let restarts = 0
  let kept: string[] = []
  server.inject({path: '/api/v1/pods', status: 410, times: 1, when: (q) => q.continue !== undefined})
  for await (const page of s.pages({
    kind: 'Pod',
    pageSize: 500,
    onRestart: () => {
      restarts++
      kept = []
    },
  }))
    kept.push(...page.map((o) => o.metadata!.uid!))
  assert.equal(restarts, 1)
  assert.equal(kept.length, POD_COUNT)
  assert.equal(new Set(kept).size, POD_COUNT)
  await s.close?.()
})

test('429 is retried after Retry-After, then the read succeeds', async () => {
  markRequests()
  const s = await open()
  server.inject({path: '/api/v1/nodes', status: 429, times: 2, retryAfterSeconds: 1})
  const started = Date.now()
  const {items} = await s.list({kind: 'Node'})
  assert.equal(items.length, 1)
  assert.ok(Date.now() - started >= 2000, 'waited Retry-After (1 s) twice')
  assert.equal(listRequests('nodes').length, 3)
  await s.close?.()
})

test('a 500 is retried with backoff a bounded number of times, then reported with the server message', async () => {
  markRequests()
  const s = await open()
  const fault = server.inject({path: '/api/v1/nodes', status: 500, times: 10, message: 'etcdserver: request timed out'})
  await assert.rejects(
    s.list({kind: 'Node'}),
    (e: Error) => e instanceof ReadError && e.reason === 'ServerError' && /etcdserver: request timed out/.test(e.message),
  )
  assert.equal(listRequests('nodes').length, 4) // the first try and 3 retries
  fault.lift()
  await s.close?.()
})

test('403 is a ReadError Forbidden carrying the RBAC message', async () => {
  const s = await open()
  const fault = server.forbid({resource: 'pods'})
  await assert.rejects(
    s.list({kind: 'Pod', namespace: 'odd'}),
    (e: Error) => e instanceof ReadError && e.reason === 'Forbidden' && /cannot list resource "pods"/.test(e.message),
  )
  fault.lift()
  await s.close?.()
})

test('metadata-only lists send the PartialObjectMetadataList Accept header; Secrets are never read in full', async () => {
  markRequests()
  const s = await open()
  const {items} = await s.list({kind: 'Pod', namespace: 'even', metadataOnly: true, pageSize: 1000})
  assert.equal(items.length, POD_COUNT / 2)
  assert.deepEqual(Object.keys(items[0]).sort(), ['apiVersion', 'kind', 'metadata'])
  assert.equal(items[0].kind, 'Pod')
  assert.match(listRequests('pods')[0].accept ?? '', /as=PartialObjectMetadataList;g=meta\.k8s\.io;v=v1/)
  const secrets = await s.list({kind: 'Secret', namespace: 'even'})
  assert.equal(secrets.items[0].data, undefined)
  assert.match(listRequests('secrets')[0].accept ?? '', /as=PartialObjectMetadataList/)
  await s.close?.()
})

test('fresh reads see the newest state; cached (RV=0) reads see the lagging watch cache', async () => {
  markRequests()
  const s = await open()
  server.lagCache()
  server.put(LEASE('2026-11-29T03:00:00.000000Z'))
  const renew = async (view: 'fresh' | 'cached') =>
    ((await s.get({kind: 'Lease', namespace: 'kube-node-lease', name: 'n1', view}))!.spec as {renewTime: string}).renewTime
  assert.equal(await renew('fresh'), '2026-11-29T03:00:00.000000Z')
  assert.equal(await renew('cached'), '2026-11-29T02:59:00.000000Z')
  const cachedList = await s.list({kind: 'Lease', namespace: 'kube-node-lease', view: 'cached'})
  assert.equal((cachedList.items[0].spec as {renewTime: string}).renewTime, '2026-11-29T02:59:00.000000Z')
  const rv0 = server.requests.slice(mark).filter((r) => r.query.resourceVersion === '0')
  assert.ok(rv0.length >= 2)
  server.syncCache()
  assert.equal(await renew('cached'), '2026-11-29T03:00:00.000000Z')
  await s.close?.()
})

test('unreachable server: one clear ReadError, no hang', async () => {
  const dead = await FakeApiServer.start({objects: []})
  const cfg = dead.writeKubeconfig(mkdtempSync(join(tmpdir(), 'dead-')), {})
  await dead.close()
  const s = await LiveSource.open({kubeconfig: cfg, requestTimeout: 2000})
  await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && e.reason === 'Unreachable' && /connection refused/.test(e.message))
})

test('a slow server hits --request-timeout', async () => {
  const s = await open(300)
  server.inject({path: '/api/v1/nodes', times: 1, delayMs: 2000})
  await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && e.reason === 'Timeout')
  await s.close?.()
})

test("what the caller's projection throws fails the list as it is, not as a body that is not JSON (BadResponse)", async () => {
  const s = await open()
  // The audit's heap budget is checked inside the projection (src/audit/gather.ts): it must reach the audit whole.
  const budget = new Error('the data will not fit in memory')
  let seen = 0
  const project = (o: KubeObject) => {
    if (++seen === 500) throw budget
    return o
  }
  for (const view of ['fresh', 'cached'] as const) {
    seen = 0
    await assert.rejects(s.list({kind: 'Pod', pageSize: 1000, view, project}), (err: unknown) => err === budget, view)
  }
  await s.close?.()
})

test('only GET was ever sent', () => {
  assert.ok(server.requests.length > 20)
  assert.deepEqual([...new Set(server.requests.map((r) => r.method))], ['GET'])
})
