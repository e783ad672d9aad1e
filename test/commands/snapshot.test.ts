// `kubectl why snapshot` end to end against the fake API server: what it writes reads back unchanged
// through the snapshot source; a forbidden kind is recorded as not captured while the rest is saved;
// connection and configuration errors are one line and exit 2.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import type {KubeObject} from '../../src/cluster/source.js'
import {parseYamlDocuments} from '../../src/util/json.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'

const OBJECTS = parseYamlDocuments(
  readFileSync(fileURLToPath(new URL('../fixtures/snapshots/contract-objects.yaml', import.meta.url)), 'utf8'),
)[0] as KubeObject[]
const SECRET: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {name: 'db-password', namespace: 'shop', uid: 'sec-1', resourceVersion: '70'},
  data: {password: 'aHVudGVyMg=='},
  type: 'Opaque',
}
const VERSION = {major: '1', minor: '31', gitVersion: 'v1.31.2'}

let server: FakeApiServer
let dir: string
let kubeconfig: string

before(async () => {
  server = await FakeApiServer.start({objects: [...structuredClone(OBJECTS), SECRET], version: VERSION})
  dir = mkdtempSync(join(tmpdir(), 'snapshot-cmd-'))
  kubeconfig = server.writeKubeconfig(dir, {context: 'fake', namespace: 'default'})
})
after(async () => server.close())

const key = (o: KubeObject) => `${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`

test('snapshot round trip: every object reads back unchanged (Secrets as metadata only)', async () => {
  server.clearRequests()
  const out = join(dir, 'snap.json.gz')
  const r = await runCli(['snapshot', '--kubeconfig', kubeconfig, '--out', out])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /wrote \d+ objects to .*snap\.json\.gz/)
  const s = await SnapshotSource.open(out)
  for (const o of OBJECTS) {
    const [group] = o.apiVersion!.includes('/') ? o.apiVersion!.split('/') : ['']
    const back = await s.get({apiVersion: o.apiVersion, kind: o.kind!, namespace: o.metadata?.namespace, name: o.metadata!.name!})
    const full = ['Pod', 'ReplicaSet', 'Deployment', 'Node', 'Lease'].includes(o.kind!)
    assert.deepEqual(back, full ? o : {apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata}, `${key(o)} (group ${group || 'core'})`)
  }
  const secret = await s.get({kind: 'Secret', namespace: 'shop', name: 'db-password'})
  assert.deepEqual(secret, {apiVersion: 'v1', kind: 'Secret', metadata: SECRET.metadata})
  assert.equal(readFileSync(out).includes(Buffer.from('aHVudGVyMg==')), false)
  assert.equal((await s.serverVersion())?.gitVersion, 'v1.31.2')
  assert.equal(s.describe().context, 'fake')
  assert.deepEqual([...new Set(server.requests.map((q) => q.method))], ['GET'])
  assert.ok(
    server.requests.every((q) => !/\/secrets/.test(q.path) || /PartialObjectMetadata/.test(q.accept ?? '')),
    'secrets only ever listed as metadata',
  )
})

test('a kind that may not be listed is recorded as not captured; the rest is saved; exit 0', async () => {
  const fault = server.forbid({resource: 'events'})
  const out = join(dir, 'partial.json')
  const r = await runCli(['snapshot', '--kubeconfig', kubeconfig, '--out', out])
  fault.lift()
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /warning: not captured: list v1 Event: Forbidden \(403\)/)
  const s = await SnapshotSource.open(out)
  assert.ok(s.problems().some((p) => /Event/.test(p.what) && /Forbidden/.test(p.reason)))
  assert.equal((await s.list({kind: 'Pod'})).items.length, 3)
})

test('the snapshot records both views of node Leases', async () => {
  server.lagCache()
  server.put({
    ...OBJECTS.find((o) => o.kind === 'Lease')!,
    spec: {holderIdentity: 'worker-1', leaseDurationSeconds: 40, renewTime: '2026-11-29T03:00:08.000000Z'},
  })
  const out = join(dir, 'lag.json')
  const r = await runCli(['snapshot', '--kubeconfig', kubeconfig, '--out', out])
  server.syncCache()
  assert.equal(r.code, 0, r.stderr)
  const s = await SnapshotSource.open(out)
  const renew = async (view: 'fresh' | 'cached') =>
    ((await s.get({kind: 'Lease', namespace: 'kube-node-lease', name: 'worker-1', view}))!.spec as {renewTime: string}).renewTime
  assert.equal(await renew('fresh'), '2026-11-29T03:00:08.000000Z')
  assert.equal(await renew('cached'), '2026-11-29T02:59:58.000000Z')
})

const errorCases: {name: string; args: () => string[]; env?: Record<string, string>; message: RegExp}[] = [
  {
    name: 'unknown context',
    args: () => ['--kubeconfig', kubeconfig, '--context', 'prod'],
    message: /^error: context "prod" not found in .*; known contexts: fake$/,
  },
  {name: 'no kubeconfig at all', args: () => [], message: /^error: no kubeconfig found/},
  {
    name: 'kubeconfig that is not YAML',
    args: () => {
      const p = join(dir, 'broken-kubeconfig')
      writeFileSync(p, 'clusters: [\n')
      return ['--kubeconfig', p]
    },
    message: /^error: kubeconfig .*broken-kubeconfig is not valid YAML/,
  },
  {
    name: 'bad --request-timeout',
    args: () => ['--kubeconfig', kubeconfig, '--request-timeout', 'soon'],
    message: /^error: --request-timeout: "soon" is not a duration/,
  },
]

for (const c of errorCases) {
  test(`snapshot: ${c.name} → exit 2, one line`, async () => {
    const r = await runCli(['snapshot', ...c.args()], {env: c.env})
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr.trim(), c.message)
  })
}

test('snapshot: unreachable cluster → exit 2, one line naming the server', async () => {
  const dead = await FakeApiServer.start({objects: []})
  const cfg = dead.writeKubeconfig(mkdtempSync(join(tmpdir(), 'dead-')), {})
  await dead.close()
  const r = await runCli(['snapshot', '--kubeconfig', cfg, '--request-timeout', '5s'])
  assert.equal(r.code, 2)
  assert.match(r.stderr.trim(), /^error: cannot reach the API server at https:\/\/127\.0\.0\.1:\d+: connection refused; check the context/)
})

test('snapshot: credentials refused → exit 2 saying so', async () => {
  const cfg = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'badtoken-')), {token: 'wrong'})
  const r = await runCli(['snapshot', '--kubeconfig', cfg])
  assert.equal(r.code, 2)
  assert.match(r.stderr.trim(), /^error: .*[Uu]nauthorized.*; your credentials were refused/)
})
