// A snapshot taken under RBAC that refuses one kind records the refusal; replayed, that list raises the same
// ReadError a live list raises (reason, status, message, hint), so the audit reports the check as partial exactly as
// live. Every Lease is captured, the leader-election ones too. The snapshot's own evidence: absence is proof for what
// it listed, not for what it could not.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import {capture} from '../../../src/cluster/snapshot/capture.js'
import {SnapshotSource} from '../../../src/cluster/snapshot/snapshot-source.js'
import {SnapshotWriter} from '../../../src/cluster/snapshot/writer.js'
import type {KubeObject, ListRequest} from '../../../src/cluster/source.js'
import {ReadError} from '../../../src/errors.js'
import {parseYamlDocuments} from '../../../src/util/json.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'
import {DESCRIPTORS} from '../../../src/engine/replays.js'
import {fullKinds} from '../../../src/replay.js'

const OBJECTS = parseYamlDocuments(
  readFileSync(fileURLToPath(new URL('../../fixtures/snapshots/contract-objects.yaml', import.meta.url)), 'utf8'),
)[0] as KubeObject[]
const LEADER: KubeObject = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {name: 'kube-controller-manager', namespace: 'kube-system', uid: 'lease-kcm', resourceVersion: '90'},
  spec: {holderIdentity: 'cp-1_1234', leaseDurationSeconds: 15, renewTime: '2026-11-29T02:59:59.000000Z'},
}
const CRONJOBS: ListRequest = {apiVersion: 'batch/v1', kind: 'CronJob', metadataOnly: true}

let server: FakeApiServer
let kubeconfig: string
const dir = mkdtempSync(join(tmpdir(), 'gaps-'))

before(async () => {
  server = await FakeApiServer.start({objects: [...structuredClone(OBJECTS), LEADER], version: {major: '1', minor: '31', gitVersion: 'v1.31.2'}})
  kubeconfig = server.writeKubeconfig(dir, {namespace: 'default'})
})
after(async () => server.close())

async function liveError(request: ListRequest): Promise<ReadError> {
  const live = await LiveSource.open({kubeconfig, requestTimeout: 10_000})
  try {
    await live.list(request)
  } catch (err) {
    return err as ReadError
  } finally {
    await live.close?.()
  }
  throw new Error('the live list was expected to fail')
}

async function snapshotUnder(fault: {lift(): void}): Promise<SnapshotSource> {
  const path = join(dir, `snap-${Math.random().toString(36).slice(2)}.json`)
  const live = await LiveSource.open({kubeconfig, requestTimeout: 10_000})
  try {
    await capture(live, SnapshotWriter.create(path), {full: fullKinds(DESCRIPTORS)})
  } finally {
    fault.lift()
    await live.close?.()
  }
  return SnapshotSource.open(path)
}

test('a list refused at capture (403) is refused on replay with the live error', async () => {
  const fault = server.forbid({resource: 'cronjobs', group: 'batch'})
  const expected = await liveError(CRONJOBS)
  const snap = await snapshotUnder(fault)
  assert.equal(expected.reason, 'Forbidden')
  await assert.rejects(snap.list(CRONJOBS), (e: Error) => {
    assert.ok(e instanceof ReadError)
    assert.deepEqual(
      {reason: e.reason, status: e.status, message: e.message, hint: e.hint},
      {reason: expected.reason, status: expected.status, message: expected.message, hint: expected.hint},
    )
    return true
  })
  // Pages fail the same way (the audit reads by pages).
  await assert.rejects(
    async () => {
      for await (const _ of snap.pages(CRONJOBS)) void _
    },
    (e: Error) => e instanceof ReadError && e.reason === 'Forbidden',
  )
  // The rest replays as captured, and the evidence says CronJobs are not held.
  assert.equal((await snap.list({kind: 'Pod'})).items.length, 3)
  const e = await snap.evidence()
  assert.deepEqual(e.coverage('batch', 'CronJob', 'shop'), {
    held: false,
    absenceIsProof: false,
    why: 'the data holds no CronJob (the snapshot could not list it: Forbidden (403))',
  })
  assert.equal(e.coverage('', 'Pod', 'shop').absenceIsProof, true)
  assert.equal(e.coverage('', 'ConfigMap', 'anywhere').absenceIsProof, true, 'metadata-only lists prove absence too')
  assert.equal(e.nodeSet, 'complete')
  assert.equal(e.clock.trust, 'exact')
  assert.deepEqual(e.version, {text: 'v1.31.2', from: "recorded by kubectl why snapshot (the server's /version)"})
  assert.ok(e.missing.some((p) => p.what === 'list batch/v1 CronJob' && /Forbidden \(403\)/.test(p.reason)))
})

test('every Lease is captured, the leader-election ones too; node Leases still answer in their namespace', async () => {
  const snap = await snapshotUnder({lift() {}})
  const leases = (await snap.list({kind: 'Lease'})).items.map((l) => `${l.metadata?.namespace}/${l.metadata?.name}`)
  assert.deepEqual(leases, ['kube-node-lease/worker-1', 'kube-system/kube-controller-manager'])
  assert.equal((await snap.evidence()).coverage('coordination.k8s.io', 'Lease', 'kube-system').absenceIsProof, true)
})

test('Leases refused cluster-wide but not in kube-node-lease: node Leases replay, other namespaces raise the recorded error', async () => {
  // What a capture under a Role that grants Leases in kube-node-lease only records (capture.ts lists both).
  const header = {
    format: 1,
    capturedAt: '2026-11-29T03:00:00Z',
    lists: [
      {apiVersion: 'v1', kind: 'Node'},
      {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-node-lease'},
      {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'},
    ],
    gaps: [
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        reason: 'Forbidden',
        status: 403,
        message: 'leases.coordination.k8s.io is forbidden: User "ci" cannot list resource "leases" in API group "coordination.k8s.io" at the cluster scope',
      },
    ],
  }
  const path = join(dir, 'lease-gap.json')
  const lease = {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: {name: 'worker-1', namespace: 'kube-node-lease'}}
  writeFileSync(
    path,
    `{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"kubectlWhy":${JSON.stringify(header)},"items":[\n${JSON.stringify({apiVersion: 'v1', kind: 'Node', metadata: {name: 'worker-1'}})},\n${JSON.stringify(lease)}\n]}\n`,
  )
  const snap = await SnapshotSource.open(path)
  assert.equal((await snap.list({kind: 'Lease', namespace: 'kube-node-lease'})).items.length, 1)
  await assert.rejects(
    snap.list({kind: 'Lease', namespace: 'kube-system'}),
    (e: Error) => e instanceof ReadError && e.reason === 'Forbidden' && e.status === 403 && /cluster scope/.test(e.message),
  )
  await assert.rejects(snap.list({kind: 'Lease'}), (e: Error) => e instanceof ReadError && e.reason === 'Forbidden')
  const e = await snap.evidence()
  assert.deepEqual(e.coverage('coordination.k8s.io', 'Lease', 'kube-node-lease'), {held: true, absenceIsProof: true, why: 'listed by kubectl why snapshot'})
  assert.equal(e.coverage('coordination.k8s.io', 'Lease', 'kube-system').held, false)
  assert.equal(e.nodeLeases, 'present')
})

test('audit over a snapshot taken under a 403 reports each check as the live audit does (status, problems)', async () => {
  const {runCli} = await import('../../support/cli.js')
  const fault = server.forbid({resource: 'events'})
  const out = join(dir, 'audit-snap.json')
  const now = '2026-11-29T03:00:30Z'
  const checks = (stdout: string) =>
    (JSON.parse(stdout).summary.checks as {name: string; status: string; problems: {what: string}[]}[]).map((c) => ({
      name: c.name,
      status: c.status,
      problems: c.problems.map((p) => p.what).filter((w) => /Event/.test(w)),
    }))
  try {
    const live = await runCli(['audit', '-A', '--kubeconfig', kubeconfig, '--now', now, '-o', 'json', '--fail-on', 'none', '--no-fail-on-partial'])
    const taken = await runCli(['snapshot', '--kubeconfig', kubeconfig, '--out', out])
    assert.equal(taken.code, 0, taken.stderr)
    const replay = await runCli(['audit', '-A', '-f', out, '--now', now, '-o', 'json', '--fail-on', 'none', '--no-fail-on-partial'])
    assert.ok(live.stdout.startsWith('{'), live.stderr)
    assert.ok(replay.stdout.startsWith('{'), replay.stderr)
    const expected = checks(live.stdout)
    assert.ok(
      expected.some((c) => c.status === 'partial'),
      `the live audit is partial without events: ${JSON.stringify(expected)}`,
    )
    assert.deepEqual(checks(replay.stdout), expected)
  } finally {
    fault.lift()
  }
})
