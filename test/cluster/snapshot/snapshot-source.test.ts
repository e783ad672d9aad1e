// The snapshot source answers like an API server would: namespace scoping, selectors, legacy groups,
// metadata-only projections, and the two views. Expected values are read off the fixture by hand.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {auditProjectionPlan} from '../../../src/audit/project.js'
import {SnapshotSource} from '../../../src/cluster/snapshot/snapshot-source.js'
import {slimmer} from '../../../src/cluster/snapshot/slim.js'
import {ReadError} from '../../../src/errors.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/snapshots/small-dump.yaml', import.meta.url))
const names = (items: {metadata?: {name?: string}}[]) => items.map((o) => o.metadata?.name)

test('get: namespaced and cluster-scoped, by kind; absent objects are undefined', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  assert.equal((await s.get({kind: 'Pod', namespace: 'shop', name: 'web-1'}))?.metadata?.name, 'web-1')
  assert.equal(await s.get({kind: 'Pod', namespace: 'data', name: 'web-1'}), undefined)
  assert.equal((await s.get({kind: 'Node', name: 'worker-1'}))?.kind, 'Node')
  assert.equal((await s.get({kind: 'Node', namespace: 'ignored-for-cluster-scope', name: 'worker-1'}))?.kind, 'Node')
})

test('a Deployment dumped as extensions/v1beta1 is found as apps/v1, unchanged, int64 exact', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  const d = await s.get({apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'legacy'})
  assert.equal(d?.apiVersion, 'extensions/v1beta1')
  assert.equal((d!.spec as {replicas: bigint}).replicas, 12345678901234567890n)
})

test('list: namespace, label and field selectors, etcd (namespace/name) order', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['db-0', 'kube-controller-manager-cp-1', 'web-1', 'web-2'])
  assert.deepEqual(names((await s.list({kind: 'Pod', namespace: 'shop'})).items), ['web-1', 'web-2'])
  assert.deepEqual(names((await s.list({kind: 'Pod', labelSelector: 'tier'})).items), ['db-0', 'web-1'])
  assert.deepEqual(names((await s.list({kind: 'Pod', labelSelector: 'app in (web),!tier'})).items), ['web-2'])
  assert.deepEqual(names((await s.list({kind: 'Pod', fieldSelector: 'spec.nodeName=worker-1'})).items), ['db-0', 'web-1'])
  assert.deepEqual(names((await s.list({kind: 'Pod', fieldSelector: 'spec.nodeName!=worker-1,metadata.namespace=shop'})).items), ['web-2'])
})

test('pages split a list without losing or repeating items', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  const pages: string[][] = []
  for await (const p of s.pages({kind: 'Pod', pageSize: 3})) pages.push(names(p) as string[])
  assert.deepEqual(pages, [['db-0', 'kube-controller-manager-cp-1', 'web-1'], ['web-2']])
})

test('metadata-only lists keep the real apiVersion and kind and drop everything else', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  const [secret] = (await s.list({kind: 'Secret', metadataOnly: true})).items
  assert.deepEqual(secret, {apiVersion: 'v1', kind: 'Secret', metadata: {name: 'token', namespace: 'shop'}})
})

test('no capture time: the clock is the newest timestamp in the dump, and it says so', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  assert.equal(s.now().toISOString(), '2026-11-29T03:00:07.500Z')
  assert.match(String(s.describe().settings?.clock.from), /newest timestamp/)
  const pinned = await SnapshotSource.open(FIXTURE, {now: new Date('2026-11-29T04:00:00Z')})
  assert.equal(pinned.now().toISOString(), '2026-11-29T04:00:00.000Z')
})

test('no version recorded: taken from the control-plane static pod image', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  assert.equal((await s.serverVersion())?.gitVersion, 'v1.31.4')
})

test('an unknown kind is NotServed, not an empty list', async () => {
  const s = await SnapshotSource.open(FIXTURE)
  await assert.rejects(s.list({kind: 'Widget'}), (e: Error) => e instanceof ReadError && e.reason === 'NotServed')
})

test('own layout: the cached view answers RV=0 reads for the kinds it recorded; others fall back to items', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'own-'))
  const path = join(dir, 'snap.json')
  const lease = (renew: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {name: 'n1', namespace: 'kube-node-lease'},
    spec: {renewTime: renew},
  })
  const header = {
    format: 1,
    capturedAt: '2026-11-29T03:00:00Z',
    serverVersion: {major: '1', minor: '37', gitVersion: 'v1.37.0'},
    cached: [lease('2026-11-29T02:58:00.000000Z')],
    problems: [{what: 'list batch/v1 CronJob', reason: 'Forbidden (403)'}],
  }
  writeFileSync(
    path,
    `${[
      `{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"kubectlWhy":${JSON.stringify(header)},"items":[`,
      `${JSON.stringify(lease('2026-11-29T02:59:58.000000Z'))},`,
      JSON.stringify({apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}),
      '],"kubectlWhyTrailer":{"problems":[{"what":"list v1 Event","reason":"TooManyRequests (429)"}]}}',
    ].join('\n')}\n`,
  )
  const s = await SnapshotSource.open(path)
  const renew = async (view: 'fresh' | 'cached') =>
    ((await s.get({kind: 'Lease', namespace: 'kube-node-lease', name: 'n1', view}))!.spec as {renewTime: string}).renewTime
  assert.equal(await renew('fresh'), '2026-11-29T02:59:58.000000Z')
  assert.equal(await renew('cached'), '2026-11-29T02:58:00.000000Z')
  assert.equal((await s.get({kind: 'Node', name: 'n1', view: 'cached'}))?.metadata?.name, 'n1')
  assert.equal(s.now().toISOString(), '2026-11-29T03:00:00.000Z')
  assert.deepEqual(
    s.problems().map((p) => p.what),
    ['list batch/v1 CronJob', 'list v1 Event'],
  )
  assert.equal(s.describe().partial?.length, 2)
})

test("the audit's projections on arrival (slim): a kind no check reads beyond its metadata keeps only that; kinds read whole, and CRDs, stay whole", async () => {
  // The replays' descriptors name every field they read, by kind; no replay reads a Job or a ConfigMap in full, so the
  // audit reads its metadata alone (the collector's graph). A CRD's spec is what discovery reads to serve its kind.
  const path = join(mkdtempSync(join(tmpdir(), 'snapshot-slim-')), 'dump.json')
  const meta = (name: string) => ({
    name,
    namespace: 'shop',
    uid: `u-${name}`,
    labels: {app: name},
    creationTimestamp: '2026-11-29T01:00:00Z',
    managedFields: [{manager: 'x'}],
    ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: 'u-nightly', controller: true}],
  })
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta('nightly-1'),
    spec: {template: {spec: {containers: [{name: 'c', image: 'i'}]}}},
    status: {succeeded: 1},
  }
  const cm = {apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('settings'), data: {big: 'x'.repeat(100)}}
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', namespace: 'shop', managedFields: [{}]},
    spec: {replicas: 2, selector: {matchLabels: {app: 'web'}}, template: {metadata: {labels: {app: 'web'}}, spec: {containers: []}}},
  }
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {name: 'widgets.example.com'},
    spec: {
      group: 'example.com',
      names: {kind: 'Widget', plural: 'widgets', singular: 'widget'},
      scope: 'Namespaced',
      versions: [{name: 'v1', served: true, storage: true}],
    },
  }
  writeFileSync(path, JSON.stringify({apiVersion: 'v1', kind: 'List', items: [job, cm, deployment, crd]}))
  const s = await SnapshotSource.open(path, {slim: slimmer(auditProjectionPlan())})
  const {managedFields: _, ...kept} = meta('nightly-1')
  assert.deepEqual(await s.get({apiVersion: 'batch/v1', kind: 'Job', namespace: 'shop', name: 'nightly-1'}), {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: kept,
  })
  assert.deepEqual((await s.get({kind: 'ConfigMap', namespace: 'shop', name: 'settings'}))?.data, undefined)
  assert.deepEqual((await s.get({apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web'}))?.spec, deployment.spec)
  assert.deepEqual((await s.get({apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'widgets.example.com'}))?.spec, crd.spec)
  assert.ok((await s.discovery()).some((t) => t.kind === 'Widget' && t.group === 'example.com'))
  // Without slim (every other command), the same file keeps every object whole.
  const whole = await SnapshotSource.open(path)
  assert.deepEqual((await whole.get({kind: 'ConfigMap', namespace: 'shop', name: 'settings'}))?.data, cm.data)
})

test('own layout: an object both views recorded alike (same resourceVersion, same content) is one object; one they recorded differently stays two', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'own-shared-')), 'snap.json')
  const lease = (name: string, resourceVersion: string, renew: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {name, namespace: 'kube-node-lease', resourceVersion},
    spec: {renewTime: renew},
  })
  // n1: the watch cache had caught up; n2: it lagged (an older version); n3: the same resourceVersion but other content
  // (a hand-edited file): only n1 may be shared, and each view still answers what it recorded.
  const header = {
    format: 1,
    capturedAt: '2026-11-29T03:00:00Z',
    cached: [lease('n1', '10', '2026-11-29T02:59:58Z'), lease('n2', '11', '2026-11-29T02:58:00Z'), lease('n3', '30', '2026-11-29T02:58:00Z')],
  }
  const items = [lease('n1', '10', '2026-11-29T02:59:58Z'), lease('n2', '20', '2026-11-29T02:59:59Z'), lease('n3', '30', '2026-11-29T02:59:59Z')]
  writeFileSync(path, JSON.stringify({apiVersion: 'v1', kind: 'List', metadata: {resourceVersion: ''}, kubectlWhy: header, items}))
  for (const slim of [false, true]) {
    const s = await SnapshotSource.open(path, {slim: slim ? slimmer(auditProjectionPlan()) : undefined})
    const get = (name: string, view: 'fresh' | 'cached') =>
      s.get({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-node-lease', name, view})
    assert.equal(await get('n1', 'cached'), await get('n1', 'fresh'))
    assert.notEqual(await get('n2', 'cached'), await get('n2', 'fresh'))
    assert.equal((await get('n2', 'cached'))?.metadata?.resourceVersion, '11')
    assert.equal(((await get('n3', 'cached'))!.spec as {renewTime: string}).renewTime, '2026-11-29T02:58:00Z')
    assert.equal(((await get('n3', 'fresh'))!.spec as {renewTime: string}).renewTime, '2026-11-29T02:59:59Z')
  }
})
