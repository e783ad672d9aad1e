// Every dump format users hand over, each as a hand-written fixture in the shape the tool that makes it writes
// (no real cluster's data), with what the reader must make of it worked out here by hand.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {gzipSync} from 'node:zlib'
import {SnapshotSource} from '../../../src/cluster/snapshot/snapshot-source.js'
import type {KubeObject} from '../../../src/cluster/source.js'
import {chooseVersion} from '../../../src/cluster/version.js'
import {UserError} from '../../../src/errors.js'

const FIXTURES = fileURLToPath(new URL('../../fixtures/snapshots/', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'formats-'))
const names = (items: KubeObject[]) => items.map((o) => o.metadata?.name)
const write = (name: string, content: string | Buffer) => {
  const p = join(dir, name)
  writeFileSync(p, content)
  return p
}
const pod = (name: string, namespace: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace, uid: `uid-${name}`},
  ...extra,
})

test('kubectl cluster-info dump to stdout: typed Lists one after another, log blocks between them skipped', async () => {
  const s = await SnapshotSource.open(join(FIXTURES, 'cluster-info-dump.txt'))
  // Typed lists leave kind off their items: each takes its list's (NodeList → Node, PodList → Pod).
  assert.deepEqual(names((await s.list({kind: 'Node'})).items), ['cp-1'])
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['backup-28871234-x7k2p', 'kube-apiserver-cp-1'])
  assert.deepEqual(names((await s.list({kind: 'Service'})).items), ['kube-dns'])
  assert.equal((await s.list({kind: 'Event'})).items.length, 1)
  assert.deepEqual(s.problems(), [], 'logs are skipped on purpose, not a problem')
  const e = await s.evidence()
  assert.deepEqual(e.notes, ['2 container log blocks of kubectl cluster-info dump skipped'])
  // cluster-info dump lists every Node, and in each namespace it dumps every Pod (clusterinfo_dump.go Run) ...
  assert.equal(e.nodeSet, 'complete')
  assert.deepEqual(e.coverage('', 'Pod', 'default'), {held: true, absenceIsProof: true, why: 'kubectl cluster-info dump of namespaces default, kube-system'})
  assert.equal(e.coverage('apps', 'ReplicaSet', 'kube-system').absenceIsProof, true)
  // ... but never a Job or a Lease: the backup pod's Job owner cannot be judged absent.
  assert.deepEqual(e.coverage('batch', 'Job', 'default'), {held: false, absenceIsProof: false, why: 'the data holds no Job'})
  assert.equal(e.coverage('coordination.k8s.io', 'Lease', 'kube-node-lease').held, false)
  assert.equal(e.nodeLeases, 'absent')
  assert.ok(e.missing.some((p) => /node Leases/.test(p.what)))
  // The clock: the newest write by the cluster's own clocks is the apiserver pod's creation, 03:00:05; the
  // distribution agent's condition (03:14:00) and the JSON log line (03:10:00) do not count.
  assert.equal(s.now().toISOString(), '2026-11-29T03:00:05.000Z')
  assert.equal(e.clock.trust, 'estimated')
  assert.match(e.clock.from, /creationTimestamp of Pod kube-system\/kube-apiserver-cp-1/)
  assert.equal((await s.serverVersion())?.gitVersion, 'v1.31.4')
  assert.match(String(e.version?.from), /image of kube-apiserver pod kube-system\/kube-apiserver-cp-1/)
  assert.deepEqual(e.servedVersions, ['v1'])
  assert.deepEqual(s.describe().evidence?.nodeSet, 'complete', '-o json carries the evidence')
})

test('kubectl cluster-info dump --output-directory: nodes.json and <ns>/<kind>.json, logs.txt noted and skipped', async () => {
  const s = await SnapshotSource.open(join(FIXTURES, 'cluster-info-dump'))
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['kube-apiserver-cp-1', 'web-7d9f4b6c8-x2k9p'])
  assert.deepEqual(s.problems(), [], 'logs.txt files are not problems')
  const e = await s.evidence()
  assert.deepEqual(e.notes, ['2 container log blocks of kubectl cluster-info dump skipped'])
  // shop/replicasets.json is an empty ReplicaSetList: the web pod's ReplicaSet owner really is gone.
  assert.deepEqual(e.coverage('apps', 'ReplicaSet', 'shop'), {
    held: true,
    absenceIsProof: true,
    why: 'kubectl cluster-info dump of namespaces kube-system, shop',
  })
  assert.equal(e.coverage('apps', 'ReplicaSet', 'other').held, false)
  assert.equal(e.nodeSet, 'complete')
  // RKE2 runs the apiserver from rancher/hardened-kubernetes; /version spells v1.33.5-rke2r1-build… as v1.33.5+rke2r1.
  const version = await s.serverVersion()
  assert.equal(version?.gitVersion, 'v1.33.5+rke2r1')
  const chosen = chooseVersion(undefined, version)
  assert.equal(chosen?.from, 'inferred')
  assert.equal(chosen?.text, '1.33')
  assert.match(String(chosen?.how), /hardened-kubernetes:v1\.33\.5-rke2r1-build20250910/)
})

test('kubectl get -o json run twice into one file: both Lists read; a foreign dump proves presence only', async () => {
  const list = (items: unknown[]) => JSON.stringify({apiVersion: 'v1', items, kind: 'List', metadata: {resourceVersion: ''}}, null, 4)
  const path = write(
    'twice.json',
    `${list([pod('a', 'shop'), pod('b', 'shop')])}\n${list([{apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: {name: 'web-1', namespace: 'shop'}}])}\n`,
  )
  const s = await SnapshotSource.open(path)
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['a', 'b'])
  assert.deepEqual(names((await s.list({kind: 'ReplicaSet'})).items), ['web-1'])
  const e = await s.evidence()
  assert.deepEqual(e.coverage('', 'Pod', 'shop'), {
    held: true,
    absenceIsProof: false,
    why: 'the data holds Pod objects in shop, but only what the dump happened to include (objects in the dump)',
  })
  assert.equal(e.coverage('', 'Pod', 'data').held, false)
  assert.equal(e.nodeSet, 'none')
  assert.deepEqual(e.servedVersions, ['apps/v1', 'v1'])
})

test('a List whose kind follows its items (kubectl sorts keys), typed and kindless: items take the kind at the end', async () => {
  const path = write('sorted.json', '{"apiVersion": "v1", "items": [{"metadata": {"name": "x", "namespace": "n"}}], "kind": "PodList", "metadata": {}}')
  const s = await SnapshotSource.open(path)
  const [x] = (await s.list({kind: 'Pod'})).items
  assert.equal(x.kind, 'Pod')
  assert.equal(x.apiVersion, 'v1')
})

test("a List of Lists: the inner Lists' items count", async () => {
  const inner = (items: unknown[]) => ({apiVersion: 'v1', kind: 'List', items})
  const path = write(
    'nested.json',
    JSON.stringify({apiVersion: 'v1', kind: 'List', items: [inner([pod('a', 'x')]), inner([inner([pod('b', 'x')])]), pod('c', 'x')]}),
  )
  const s = await SnapshotSource.open(path)
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['a', 'b', 'c'])
})

test("YAML streams: documents split at ---, a List's items: entries at any indent, a single object", async () => {
  const path = write(
    'stream.yaml',
    [
      '# kubectl get pods -o yaml, then a hand-written object, then a List indented by another tool',
      'apiVersion: v1',
      'items:',
      '- apiVersion: v1',
      '  kind: Pod',
      '  metadata:',
      '    name: a',
      '    namespace: shop',
      '  spec:',
      '    containers:',
      '    - name: c',
      '      args:',
      '      - |',
      '        a block scalar',
      '',
      '        with a blank line',
      '- apiVersion: v1',
      '  kind: Pod',
      '  metadata: {name: b, namespace: shop}',
      'kind: List',
      'metadata:',
      '  resourceVersion: ""',
      '---',
      'apiVersion: v1',
      'kind: Node',
      'metadata:',
      '  name: n1',
      '---',
      'kind: List',
      'items:',
      '  - apiVersion: v1',
      '    kind: Pod',
      '    metadata: {name: c, namespace: shop}',
      '  - {apiVersion: v1, kind: Pod, metadata: {name: d, namespace: shop}}',
      '...',
      '',
    ].join('\n'),
  )
  const s = await SnapshotSource.open(path)
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['a', 'b', 'c', 'd'])
  const a = (await s.get({kind: 'Pod', namespace: 'shop', name: 'a'}))!
  assert.deepEqual((a.spec as {containers: {args: string[]}[]}).containers[0].args, ['a block scalar\n\nwith a blank line\n'])
  assert.deepEqual(names((await s.list({kind: 'Node'})).items), ['n1'])
})

test("YAML: an error inside a streamed item names the file's own line", async () => {
  const path = write('bad-item.yaml', 'apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n\tname: x\nkind: List\n')
  await assert.rejects(SnapshotSource.open(path), (e: Error) => e instanceof UserError && /bad-item\.yaml:6:1: malformed YAML: Tabs/.test(e.message))
})

test('a kubectl-why snapshot compacted to one line (jq -c) is read as ordinary JSON, header and trailer included', async () => {
  const header = {format: 1, capturedAt: '2026-11-29T03:00:00Z', serverVersion: {major: '1', minor: '31', gitVersion: 'v1.31.2'}, namespace: 'shop'}
  const path = write(
    'compact.json',
    `${JSON.stringify({apiVersion: 'v1', kind: 'List', metadata: {resourceVersion: ''}, kubectlWhy: header, items: [pod('a', 'shop')], kubectlWhyTrailer: {problems: [{what: 'list v1 Event', reason: 'TooManyRequests (429): slow down'}]}})}\n`,
  )
  const s = await SnapshotSource.open(path)
  assert.equal(s.now().toISOString(), '2026-11-29T03:00:00.000Z')
  assert.equal(s.defaultNamespace(), 'shop')
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['a'])
  assert.deepEqual(
    s.problems().map((p) => p.what),
    ['list v1 Event'],
  )
  // Pretty-printed (jq .) too.
  const pretty = write('pretty.json', JSON.stringify({apiVersion: 'v1', kind: 'List', metadata: {}, kubectlWhy: header, items: [pod('a', 'shop')]}, null, 2))
  assert.equal((await SnapshotSource.open(pretty)).now().toISOString(), '2026-11-29T03:00:00.000Z')
})

test('an empty List is an answer: no objects, no error', async () => {
  for (const [name, content] of [
    ['empty.json', '{"apiVersion": "v1", "items": [], "kind": "List", "metadata": {"resourceVersion": ""}}'],
    ['empty.yaml', 'apiVersion: v1\nitems: []\nkind: List\n'],
    ['null-items.json', '{"kind":"NodeList","apiVersion":"v1","metadata":{},"items":null}'],
  ] as const) {
    const s = await SnapshotSource.open(write(name, content))
    assert.deepEqual((await s.list({kind: 'Pod'})).items, [], name)
    assert.deepEqual(s.problems(), [], name)
    assert.equal((await s.evidence()).nodeSet, 'none', name)
  }
})

test('kinds written in lower case are not Kubernetes objects: a dump of only those says so instead of "no findings"', async () => {
  const path = write(
    'lower.yaml',
    'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: pod, metadata: {name: a, namespace: x}}\n- {apiVersion: v1, kind: pod, metadata: {name: b, namespace: x}}\n',
  )
  await assert.rejects(
    SnapshotSource.open(path),
    (e: Error) =>
      e instanceof UserError &&
      /no Kubernetes object recognised in .*lower\.yaml: .*items\[0\]: kind "pod" is not a Kubernetes kind: kinds are case-sensitive \(Pod\) \(and 1 more\)/.test(
        e.message,
      ),
  )
  // Beside proper objects, each is left out and named.
  const mixed = write(
    'mixed.json',
    JSON.stringify({apiVersion: 'v1', kind: 'List', items: [pod('a', 'x'), {apiVersion: 'v1', kind: 'deployment', metadata: {name: 'd'}}]}),
  )
  const s = await SnapshotSource.open(mixed)
  assert.deepEqual(
    s.leftOut().map((p) => p.reason),
    ['kind "deployment" is not a Kubernetes kind: kinds are case-sensitive (Deployment)'],
  )
})

test('int64 beyond 2^53 stays exact in a streamed item and in a list member', async () => {
  const path = write(
    'int64.json',
    '{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"18446744073709551615"},"items":[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"x"},"spec":{"replicas":9223372036854775807}}]}',
  )
  const s = await SnapshotSource.open(path)
  const [d] = (await s.list({kind: 'Deployment'})).items
  assert.equal((d.spec as {replicas: bigint}).replicas, 9223372036854775807n)
})

test('gzip, by its magic bytes, whatever the name', async () => {
  const s = await SnapshotSource.open(write('dump.bin', gzipSync(Buffer.from(JSON.stringify({apiVersion: 'v1', kind: 'List', items: [pod('a', 'x')]})))))
  assert.deepEqual(names((await s.list({kind: 'Pod'})).items), ['a'])
})

test('truncated JSON inside a streamed List names the line', async () => {
  const path = write(
    'cut.json',
    '{"apiVersion":"v1","kind":"List","items":[\n{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}},\n{"apiVersion":"v1","kind":"Po',
  )
  await assert.rejects(
    SnapshotSource.open(path),
    (e: Error) => e instanceof UserError && /cut\.json:3:\d+: malformed JSON: the input ends \(truncated\?\)/.test(e.message),
  )
})
