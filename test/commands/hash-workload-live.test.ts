// `kubectl why hash` against the fake API server: each scenario of issue 4 served live (a clean Deployment, an edited
// template and the ReplicaSet the controller then creates, a manufactured collision, a cluster upgraded from 1.28 to
// 1.31, a StatefulSet with three revisions and pods on two, a DaemonSet with collisionCount 1), what is read and how
// (GETs only, the watch-cache view, pods as metadata), and reads that fail: an error for one workload, a skip in --all.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import type {KubeObject} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'
import {lists, onlyGets} from '../support/fake-apiserver/requests.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

function items(example: string): KubeObject[] {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../examples/${example}`, import.meta.url)), 'utf8')).items
}

async function serve(objects: KubeObject[], version: string, namespace = 'shop'): Promise<{server: FakeApiServer; kubeconfig: string}> {
  const server = await FakeApiServer.start({objects: structuredClone(objects), version})
  return {server, kubeconfig: server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'hash-live-')), {namespace})}
}

async function run(kubeconfig: string, args: string[]): Promise<{code: number; out: Any; stderr: string}> {
  const r = await runCli(['hash', ...args, '--kubeconfig', kubeconfig, '-o', 'json'])
  let out: Any
  try {
    out = JSON.parse(r.stdout)
  } catch {
    assert.fail(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`)
  }
  return {code: r.code, out, stderr: r.stderr}
}

describe('live, against the fake API server', () => {
  test('a clean Deployment: upToDate; ReplicaSets from the watch cache, pods as metadata with the selector', async () => {
    const {server, kubeconfig} = await serve(items('hash-up-to-date.json'), 'v1.31.2')
    try {
      const r = await run(kubeconfig, ['deployment/web'])
      assert.equal(r.code, 0, r.stderr)
      assert.equal(r.out.verdict, 'upToDate')
      assert.equal(r.out.source.mode, 'live')
      assert.equal(r.out.source.k8sVersion, '1.31')
      const rs = lists(server.requests, 'replicasets')
      assert.ok(rs.length > 0 && rs.every((q) => q.query.resourceVersion === '0'), "the informer's view")
      const pods = lists(server.requests, 'pods')
      assert.ok(pods.length > 0 && pods.every((q) => /as=PartialObjectMetadataList/.test(q.accept ?? '') && q.query.labelSelector === 'app=nginx'))
      onlyGets(server.requests)
    } finally {
      await server.close()
    }
  })

  test('an edited template: rolloutPending with web-d556bf558; once the controller creates it, upToDate', async () => {
    const {server, kubeconfig} = await serve(items('hash-rollout-pending.json'), 'v1.31.2')
    try {
      const before = await run(kubeconfig, ['deployment/web'])
      assert.equal(before.out.verdict, 'rolloutPending')
      assert.equal(before.out.deployment.create.creates, 'web-d556bf558')
      const created = items('hash-up-to-date.json').find((o) => o.metadata?.name === 'web-d556bf558')!
      server.put(structuredClone(created))
      const after = await run(kubeconfig, ['deployment/web'])
      assert.equal(after.out.verdict, 'upToDate')
      assert.equal(after.out.deployment.newReplicaSet, 'web-d556bf558')
    } finally {
      await server.close()
    }
  })

  test('a manufactured collision: the computed name held by another template', async () => {
    const {server, kubeconfig} = await serve(items('hash-collision.json'), 'v1.31.2')
    try {
      const r = await run(kubeconfig, ['deployment/web'])
      assert.equal(r.code, 1)
      assert.equal(r.out.verdict, 'collision')
      assert.deepEqual(
        r.out.deployment.create.attempts.map((a: Any) => a.name),
        ['web-d556bf558', 'web-6d68758fc5'],
      )
    } finally {
      await server.close()
    }
  })

  test('upgraded from 1.28 to 1.31: hashDrift for the Deployment and the DaemonSet; the same objects on a 1.28 server are upToDate', async () => {
    for (const [version, verdict] of [
      ['v1.31.2', 'hashDrift'],
      ['v1.28.15', 'upToDate'],
    ]) {
      const {server, kubeconfig} = await serve(items('hash-drift-after-upgrade.json'), version)
      try {
        const r = await run(kubeconfig, ['--all'])
        assert.equal(r.code, 0, r.stderr)
        assert.deepEqual(
          r.out.results.map((e: Any) => e.verdict),
          [verdict, verdict],
          version,
        )
        onlyGets(server.requests)
      } finally {
        await server.close()
      }
    }
  })

  test('a StatefulSet with three revisions and pods on two of them', async () => {
    const {server, kubeconfig} = await serve(items('hash-statefulset-rollout.json'), 'v1.33.4')
    try {
      const r = await run(kubeconfig, ['statefulset/web'])
      assert.equal(r.out.verdict, 'upToDate')
      assert.deepEqual(
        r.out.statefulSet.revisions.map((x: Any) => [x.name, x.pods]),
        [
          ['web-dd69bd79f', []],
          ['web-6474c55d7f', ['web-0', 'web-1']],
          ['web-8668c76b8d', ['web-2']],
        ],
      )
      assert.ok(lists(server.requests, 'controllerrevisions').every((q) => q.query.resourceVersion === '0'))
    } finally {
      await server.close()
    }
  })

  test('a DaemonSet with collisionCount 1', async () => {
    const {server, kubeconfig} = await serve(items('hash-daemonset-collision-count.json'), 'v1.31.2')
    try {
      const r = await run(kubeconfig, ['daemonset/agent'])
      assert.equal(r.out.verdict, 'upToDate')
      assert.equal(r.out.daemonSet.currentRevision, 'agent-6d68758fc5')
      assert.equal(r.out.daemonSet.collisionCountHistory.evidence[0].holder, 'agent-d556bf558')
      assert.equal(r.out.daemonSet.pods.updated, 3)
    } finally {
      await server.close()
    }
  })

  test('ControllerRevisions forbidden: one workload fails with one line; --all skips it and says why', async () => {
    const {server, kubeconfig} = await serve([...items('hash-daemonset-collision-count.json'), ...items('hash-up-to-date.json')], 'v1.31.2')
    server.forbid({resource: 'controllerrevisions', group: 'apps'})
    try {
      const one = await runCli(['hash', 'daemonset/agent', '--kubeconfig', kubeconfig])
      assert.equal(one.code, 2)
      assert.match(one.stderr, /forbidden/i)
      const all = await run(kubeconfig, ['--all', '--fail-on', 'none'])
      assert.equal(all.code, 0)
      assert.deepEqual(
        all.out.results.map((e: Any) => [e.subject.kind, e.verdict]),
        [['Deployment', 'upToDate']],
      )
      assert.deepEqual(
        all.out.skipped.map((s: Any) => [s.kind, s.name]),
        [['DaemonSet', 'agent']],
      )
      assert.ok(all.out.source.partial.some((p: Any) => /ControllerRevision/.test(p.what) && /Forbidden/.test(p.reason)))
    } finally {
      await server.close()
    }
  })

  test('pods forbidden: the replay still runs, reported as partial', async () => {
    const {server, kubeconfig} = await serve(items('hash-up-to-date.json'), 'v1.31.2')
    server.forbid({resource: 'pods'})
    try {
      const r = await run(kubeconfig, ['deployment/web'])
      assert.equal(r.out.verdict, 'upToDate')
      assert.ok(r.out.source.partial.some((p: Any) => /pods/.test(p.what)))
    } finally {
      await server.close()
    }
  })
})
