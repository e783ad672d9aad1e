// `kubectl why gc` end to end against the fake API server: one scenario per collector branch, the request log
// (owners read with quorum, metadata-only GETs; nothing but GET ever sent), and `--all -A` over a few thousand objects.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import type {KubeObject, OwnerReference, ResourceType} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer, type RequestRecord} from '../support/fake-apiserver/index.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const WIDGETS: ResourceType = {
  group: 'widgets.example.com',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  namespaced: true,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  singularName: 'widget',
}

function o(
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
  uid: string,
  extra: {owners?: OwnerReference[]; finalizers?: string[]; deleting?: string} = {},
): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      ...(namespace ? {namespace} : {}),
      uid,
      resourceVersion: '10',
      creationTimestamp: '2026-11-29T01:00:00Z',
      ...(extra.deleting ? {deletionTimestamp: extra.deleting} : {}),
      ...(extra.finalizers ? {finalizers: extra.finalizers} : {}),
      ...(extra.owners ? {ownerReferences: extra.owners} : {}),
    },
  }
}
const ref = (apiVersion: string, kind: string, name: string, uid: string, block = true): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid,
  controller: true,
  blockOwnerDeletion: block,
})
const T = '2026-11-29T02:00:00Z'

const OBJECTS: KubeObject[] = [
  // recreated owner: dangling by uid
  o('apps/v1', 'Deployment', 'recreate', 'web', 'dep-new'),
  o('apps/v1', 'ReplicaSet', 'recreate', 'web-old', 'rs-old', {owners: [ref('apps/v1', 'Deployment', 'web', 'dep-old')]}),
  // owner being deleted in the foreground: the RS waits; it has a pod, so it is deleted Foreground
  o('apps/v1', 'Deployment', 'fg', 'api', 'dep-api', {finalizers: ['foregroundDeletion'], deleting: T}),
  o('apps/v1', 'ReplicaSet', 'fg', 'api-1', 'rs-api', {owners: [ref('apps/v1', 'Deployment', 'api', 'dep-api')]}),
  o('v1', 'Pod', 'fg', 'api-1-x', 'pod-api', {owners: [ref('apps/v1', 'ReplicaSet', 'api-1', 'rs-api')]}),
  // mixed solid + dangling
  o('widgets.example.com/v1', 'Widget', 'mixed', 'big', 'w-big'),
  o('v1', 'ConfigMap', 'mixed', 'cfg', 'cm-1', {
    owners: [ref('widgets.example.com/v1', 'Widget', 'big', 'w-big'), ref('v1', 'ConfigMap', 'gone', 'cm-gone', false)],
  }),
  // foreground cycle
  o('v1', 'Pod', 'cycle', 'pod1', 'p1', {owners: [ref('v1', 'Pod', 'pod3', 'p3')], finalizers: ['foregroundDeletion'], deleting: T}),
  o('v1', 'Pod', 'cycle', 'pod2', 'p2', {owners: [ref('v1', 'Pod', 'pod1', 'p1')], finalizers: ['foregroundDeletion'], deleting: T}),
  o('v1', 'Pod', 'cycle', 'pod3', 'p3', {owners: [ref('v1', 'Pod', 'pod2', 'p2')]}),
  // orphan finalizer
  o('v1', 'ReplicationController', 'orphan', 'rc', 'rc-1', {finalizers: ['orphan'], deleting: T}),
  o('v1', 'Pod', 'orphan', 'rc-a', 'rc-a', {owners: [ref('v1', 'ReplicationController', 'rc', 'rc-1')]}),
  o('v1', 'Pod', 'orphan', 'rc-b', 'rc-b', {owners: [ref('v1', 'ReplicationController', 'rc', 'rc-1', false)]}),
  // unserved apiVersion
  o('apps/v1', 'Deployment', 'legacy', 'report', 'dep-report'),
  o('apps/v1', 'ReplicaSet', 'legacy', 'report-1', 'rs-report', {owners: [ref('extensions/v1beta1', 'Deployment', 'report', 'dep-report')]}),
  // cluster-scoped child of a namespaced kind
  o('v1', 'ConfigMap', 'tenants', 'tenant-a', 'cm-tenant'),
  o('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'tenant-a-reader', 'cr-1', {owners: [ref('v1', 'ConfigMap', 'tenant-a', 'cm-tenant', false)]}),
  // the owner's kind is forbidden to us
  o('batch/v1', 'CronJob', 'ops', 'nightly', 'cj-1'),
  o('batch/v1', 'Job', 'ops', 'nightly-1', 'job-1', {owners: [ref('batch/v1', 'CronJob', 'nightly', 'cj-1')]}),
]

let server: FakeApiServer
let kubeconfig: string

before(async () => {
  server = await FakeApiServer.start({objects: structuredClone(OBJECTS), extraResources: [WIDGETS], version: 'v1.31.2'})
  kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'gc-cmd-')))
})
after(async () => server.close())

async function gc(args: string[]): Promise<{code: number; json: Any; stderr: string; requests: RequestRecord[]}> {
  server.clearRequests()
  const r = await runCli(['gc', ...args, '--kubeconfig', kubeconfig, '-o', 'json'])
  let json: Any
  try {
    json = JSON.parse(r.stdout)
  } catch {
    assert.fail(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`)
  }
  return {code: r.code, json, stderr: r.stderr, requests: [...server.requests]}
}

/** The owner reads the collector makes: fresh (no resourceVersion: a quorum read) and metadata-only. */
function assertOwnerReads(requests: RequestRecord[], paths: string[]): void {
  for (const p of paths) {
    const hits = requests.filter((r) => r.path === p)
    assert.ok(hits.length > 0, `expected a GET of ${p}; got ${requests.map((r) => r.path).join(', ')}`)
    for (const h of hits) {
      assert.equal(h.method, 'GET')
      assert.equal(h.query.resourceVersion, undefined, `${p} must be a quorum read`)
      assert.match(h.accept ?? '', /as=PartialObjectMetadata;g=meta\.k8s\.io;v=v1/, `${p} must be metadata-only`)
    }
  }
}

function assertReadOnly(requests: RequestRecord[]): void {
  assert.ok(requests.length > 0)
  assert.deepEqual(
    requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
    [],
  )
}

describe('one object per collector branch', () => {
  test('owner deleted and recreated with the same name: dangling by uid, deleted Background', async () => {
    const {code, json, requests} = await gc(['replicaset/web-old', '-n', 'recreate'])
    assert.equal(code, 1)
    assert.equal(json.verdict, 'delete')
    assert.equal(json.propagationPolicy, 'Background')
    assert.equal(json.ownerReferences[0].classification, 'dangling')
    assert.equal(json.ownerReferences[0].reason, 'uidMismatch')
    assert.equal(json.ownerReferences[0].foundUid, 'dep-new')
    assertOwnerReads(requests, ['/apis/apps/v1/namespaces/recreate/deployments/web'])
    assertOwnerReads(requests, ['/apis/apps/v1/namespaces/recreate/replicasets/web-old'])
    assertReadOnly(requests)
  })

  test('owner being deleted in the foreground: waiting; the RS has a pod, so Foreground', async () => {
    const {json, requests} = await gc(['rs/api-1', '-n', 'fg'])
    assert.equal(json.ownerReferences[0].classification, 'waitingForDependentsDeletion')
    assert.equal(json.verdict, 'delete')
    assert.equal(json.propagationPolicy, 'Foreground')
    assert.equal(json.unblockOwnerRefsFirst, false)
    assertOwnerReads(requests, ['/apis/apps/v1/namespaces/fg/deployments/api'])
    // the dependents index: metadata-only lists across namespaces
    const lists = requests.filter((r) => r.path === '/api/v1/pods')
    assert.ok(lists.length > 0)
    for (const l of lists) assert.match(l.accept ?? '', /as=PartialObjectMetadataList/)
    assert.ok(!requests.some((r) => r.path.endsWith('/events')), 'events are not monitored, so never listed')
    assertReadOnly(requests)
  })

  test('the foreground-deleted owner waits for its blocking dependent, explained', async () => {
    const {json} = await gc(['deployment/api', '-n', 'fg'])
    assert.equal(json.verdict, 'waitForBlockingDependents')
    assert.equal(json.blockingDependents[0].subject.name, 'api-1')
    assert.equal(json.blockingDependents[0].verdict, 'delete')
  })

  test('mixed solid and dangling owners (a CRD owner): patch off the dangling ref', async () => {
    const {code, json, requests} = await gc(['configmap/cfg', '-n', 'mixed'])
    assert.equal(code, 0)
    assert.equal(json.verdict, 'patchRemoveOwnerRefs')
    assert.deepEqual(json.removeOwnerUIDs, ['cm-gone'])
    assert.deepEqual(
      json.ownerReferences.map((r: Any) => [r.classification, r.reason]),
      [
        ['solid', undefined],
        ['dangling', 'notFound'],
      ],
    )
    assertOwnerReads(requests, ['/apis/widgets.example.com/v1/namespaces/mixed/widgets/big', '/api/v1/namespaces/mixed/configmaps/gone'])
    assertReadOnly(requests)
  })

  test('a CRD named by plural and group: widgets.widgets.example.com/big', async () => {
    const {json} = await gc(['widgets.widgets.example.com/big', '-n', 'mixed'])
    assert.equal(json.verdict, 'noOwners')
  })

  test('foreground cycle: pod3 unblocks its refs first, then deletes Foreground', async () => {
    const {json} = await gc(['pod/pod3', '-n', 'cycle'])
    assert.equal(json.verdict, 'delete')
    assert.equal(json.propagationPolicy, 'Foreground')
    assert.equal(json.unblockOwnerRefsFirst, true)
    const pod1 = await gc(['pod/pod1', '-n', 'cycle'])
    assert.equal(pod1.json.verdict, 'waitForBlockingDependents')
  })

  test('orphan finalizer: orphan every dependent, then remove the finalizer', async () => {
    const {json, requests} = await gc(['rc/rc', '-n', 'orphan'])
    assert.equal(json.verdict, 'orphanDependentsThenRemoveFinalizer')
    assert.deepEqual(json.dependentsToOrphan.map((s: Any) => s.name).sort(), ['rc-a', 'rc-b'])
    assertReadOnly(requests)
  })

  test('unserved apiVersion: stuck on the REST mapping, no owner GET', async () => {
    const {json, requests} = await gc(['rs/report-1', '-n', 'legacy'])
    assert.equal(json.verdict, 'stuckRestMapping')
    assert.ok(!requests.some((r) => r.path.includes('/deployments/report')))
  })

  test('cluster-scoped child of a namespaced kind: the collector gives up, no owner GET', async () => {
    const {json, requests} = await gc(['clusterrole/tenant-a-reader'])
    assert.equal(json.verdict, 'stuckNamespacedOwnerOfClusterScopedObject')
    assert.ok(!requests.some((r) => r.path.includes('/configmaps/tenant-a')))
  })

  test('403 on the owner kind: unknown, never dangling', async () => {
    const fault = server.forbid({resource: 'cronjobs', group: 'batch'})
    try {
      const {code, json, requests} = await gc(['job/nightly-1', '-n', 'ops'])
      assert.equal(code, 1)
      assert.equal(json.verdict, 'unknown')
      assert.equal(json.ownerReferences[0].classification, 'unknown')
      assert.equal(json.ownerReferences[0].status, 403)
      assert.ok(!json.collectorRequests.some((q: Any) => q.method === 'DELETE'))
      assertReadOnly(requests)
    } finally {
      fault.lift()
    }
    const {json} = await gc(['job/nightly-1', '-n', 'ops'])
    assert.equal(json.verdict, 'keep')
  })

  test('--tree: the graph around the object, edges classified', async () => {
    const r = await runCli(['gc', 'deployment/api', '-n', 'fg', '--tree', '--kubeconfig', kubeconfig])
    assert.equal(r.code, 1, r.stderr)
    // kubectl-tree's layout (issue 16 item 5): NAMESPACE NAME VERDICT REASON AGE, one aligned row per object, no uids
    // without -o wide. Through a pipe a row is never wrapped or cut (as kubectl's tables: grep sees whole rows); on a
    // terminal REASON wraps at word boundaries (test/render/layout.test.ts). The objects were created at 01:00, the
    // fake server's clock is the real one: AGE is not asserted.
    const lines = r.stdout.split('\n')
    assert.match(lines[0], /^NAMESPACE +NAME +VERDICT +REASON +AGE$/)
    assert.match(lines[1], /^fg +Deployment\/api +waitForBlockingDependents +deleting\(foregroundDeletion\) +\S+$/)
    assert.match(lines[2], /^fg +└─ReplicaSet\/api-1 +delete Foreground +waiting ctrl block +\S+$/)
    assert.match(lines[3], /^fg + {2}└─Pod\/api-1-x +keep +solid ctrl block +\S+$/)
    const col = (l: string, word: string) => l.indexOf(word)
    assert.equal(col(lines[1], 'waitFor'), col(lines[0], 'VERDICT'))
    assert.equal(col(lines[2], 'delete'), col(lines[0], 'VERDICT'))
    assert.ok(!/dep-api|rs-api|pod-api/.test(r.stdout), 'no uids without -o wide')
    // the prose under the table (verdict, summary, next steps) is wrapped to 80 columns through a pipe
    const blank = lines.indexOf('')
    assert.ok(
      lines.slice(blank).every((l) => l.length <= 80),
      'prose within 80 columns',
    )
    const wide = await runCli(['gc', 'deployment/api', '-n', 'fg', '--tree', '-o', 'wide', '--kubeconfig', kubeconfig])
    assert.match(wide.stdout.split('\n')[0], /^NAMESPACE +NAME +VERDICT +REASON +AGE +UID$/)
    assert.match(wide.stdout, /Pod\/api-1-x .* pod-api/)
  })

  test('an object that does not exist: one line, exit 2', async () => {
    const r = await runCli(['gc', 'pod/nope', '-n', 'fg', '--kubeconfig', kubeconfig])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^error: pods "nope" not found in namespace fg/)
  })
})

describe('--all', () => {
  test('-A lists what the collector acts on, worst first, with counts', async () => {
    const {json, requests} = await gc(['--all', '-A'])
    assert.equal(json.kind, 'GcReport')
    const verdicts = Object.fromEntries(json.findings.map((f: Any) => [`${f.subject.namespace ?? ''}/${f.subject.name}`, f.verdict]))
    assert.equal(verdicts['recreate/web-old'], 'delete')
    assert.equal(verdicts['fg/api'], 'waitForBlockingDependents')
    assert.equal(verdicts['fg/api-1'], 'delete')
    assert.equal(verdicts['mixed/cfg'], 'patchRemoveOwnerRefs')
    assert.equal(verdicts['orphan/rc'], 'orphanDependentsThenRemoveFinalizer')
    assert.equal(verdicts['legacy/report-1'], 'stuckRestMapping')
    assert.equal(verdicts['/tenant-a-reader'], 'stuckNamespacedOwnerOfClusterScopedObject')
    assert.equal(verdicts['ops/nightly-1'], undefined, 'kept: not listed')
    const rank = ['critical', 'warning', 'info', 'none']
    const sev = json.findings.map((f: Any) => rank.indexOf(f.severity))
    assert.deepEqual(
      sev,
      [...sev].sort((a: number, b: number) => a - b),
    )
    assert.equal(
      Object.values(json.counts as Record<string, number>).reduce((a, b) => a + b, 0),
      json.objects,
    )
    // dangling refs found in the lists were confirmed with fresh metadata-only GETs
    assertOwnerReads(requests, ['/apis/apps/v1/namespaces/recreate/deployments/web', '/api/v1/namespaces/mixed/configmaps/gone'])
    assertReadOnly(requests)
  })

  test('-n limits the objects evaluated to one namespace', async () => {
    const {json} = await gc(['--all', '-n', 'cycle'])
    assert.deepEqual(json.scope, {namespace: 'cycle'})
    assert.equal(json.objects, 3)
    assert.deepEqual(json.findings.map((f: Any) => f.subject.name).sort(), ['pod1', 'pod2', 'pod3'])
  })
})

describe('--all -A over a few thousand objects', () => {
  let big: FakeApiServer
  let bigConfig: string
  const N = 600
  before(async () => {
    const objects: KubeObject[] = []
    for (let i = 0; i < N; i++) {
      const ns = `ns-${i % 7}`
      const recreated = i % 50 === 0
      objects.push(o('apps/v1', 'Deployment', ns, `d${i}`, recreated ? `d${i}-new` : `d${i}`))
      objects.push(o('apps/v1', 'ReplicaSet', ns, `d${i}-rs`, `rs${i}`, {owners: [ref('apps/v1', 'Deployment', `d${i}`, `d${i}`)]}))
      for (let k = 0; k < 3; k++)
        objects.push(o('v1', 'Pod', ns, `d${i}-rs-${k}`, `p${i}-${k}`, {owners: [ref('apps/v1', 'ReplicaSet', `d${i}-rs`, `rs${i}`)]}))
    }
    big = await FakeApiServer.start({objects})
    bigConfig = big.writeKubeconfig(mkdtempSync(join(tmpdir(), 'gc-big-')))
  })
  after(async () => big.close())

  test('every object replayed; the 12 ReplicaSets of recreated Deployments are the only findings', async () => {
    const r = await runCli(['gc', '--all', '-A', '--kubeconfig', bigConfig, '-o', 'json'])
    const json = JSON.parse(r.stdout)
    assert.equal(r.code, 1, r.stderr)
    assert.equal(json.counts.delete, N / 50)
    assert.equal(json.counts.keep, N * 4 - N / 50)
    assert.ok(json.findings.every((f: Any) => f.verdict === 'delete' && f.subject.kind === 'ReplicaSet'))
    // owners of listed types come from the lists: only the dangling ones are re-read with GETs
    const ownerGets = big.requests.filter((q) => /\/deployments\/d\d+$/.test(q.path))
    assert.equal(ownerGets.length, N / 50)
    assert.ok(big.requests.every((q) => q.method === 'GET'))
  })
})
