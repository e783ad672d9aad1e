// One answer per cluster (issue 13.8): the replicas findings of `audit -o json` equal `replicas --all -A -o json`'s —
// same subjects, verdicts, severities, order — on every replicas example, the incident, and a synthetic cluster read
// from a snapshot file and live from the fake API server (where the two read differently: the audit through its one
// gathering and the source façade, the command through the source itself).
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'
import {SyntheticCluster} from '../support/synthetic/index.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any
const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))
const line = (f: Any) => `${f.severity} ${f.verdict} ${f.subject.kind} ${f.subject.namespace}/${f.subject.name}`

async function both(args: string[]): Promise<{command: string[]; audit: string[]}> {
  const c = await runCli(['replicas', '--all', '-A', ...args, '-o', 'json', '--fail-on', 'none'])
  assert.equal(c.code, 0, c.stderr)
  const a = await runCli(['audit', '-A', '--checks', 'replicas', ...args, '-o', 'json', '--fail-on', 'none'])
  assert.notEqual(a.code, 2, a.stderr)
  return {
    command: JSON.parse(c.stdout).findings.map(line),
    audit: JSON.parse(a.stdout)
      .findings.filter((f: Any) => f.controller === 'replicaset')
      .map(line),
  }
}

describe('replicas --all and audit agree', () => {
  const files = ['replicas-adoption.yaml', 'replicas-deletion-cost.yaml', 'replicas-quota.yaml', 'replicas-unobserved-deletes.yaml', 'incident.yaml']
  for (const file of files) {
    test(file, async () => {
      const r = await both(['-f', example(file)])
      assert.ok(r.command.length > 0, 'each of these examples has a ReplicaSet to report')
      assert.deepEqual(r.audit, r.command)
    })
  }

  describe('a synthetic cluster (30 nodes), with ReplicaSets put out of step', () => {
    const options = {seed: 13, nodes: 30, notReadyNodes: 2, danglingOwners: 2}
    const cluster = new SyntheticCluster(options)
    // The generator's ReplicaSets are converged; these edits give each kind of finding: scaled down (willDelete, ties
    // among pods ready at the same second), scaled up (willCreate), a pod orphaned (adoptionPending), a pod relabelled
    // out of its selector (released).
    const objects = structuredClone([...cluster.objects()]) as Any[]
    const sets = objects.filter((o) => o.kind === 'ReplicaSet' && Number(o.spec?.replicas ?? 0) >= 2)
    for (const rs of sets.slice(0, 3)) rs.spec.replicas = Number(rs.spec.replicas) - 1
    for (const rs of sets.slice(3, 5)) rs.spec.replicas = Number(rs.spec.replicas) + 2
    const ownedBy = (rs: Any) => objects.filter((o) => o.kind === 'Pod' && o.metadata.ownerReferences?.some((r: Any) => r.uid === rs.metadata.uid))
    const orphan = ownedBy(sets[5])[0]
    if (orphan) orphan.metadata.ownerReferences = []
    const relabelled = ownedBy(sets[6])[0]
    if (relabelled) relabelled.metadata.labels = {quarantined: 'true'}
    let server: FakeApiServer
    let kubeconfig: string
    const dir = mkdtempSync(join(tmpdir(), 'replicas-agree-'))
    before(async () => {
      server = await FakeApiServer.start({objects: structuredClone(objects), version: 'v1.31.2'})
      kubeconfig = server.writeKubeconfig(dir)
    })
    after(async () => server.close())

    test('from a dump (kubectl get -o json List)', async () => {
      const file = join(dir, 'dump.json')
      writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects}))
      const r = await both(['-f', file, '--now', cluster.plan.o.now])
      assert.ok(r.command.length >= 5, r.command.join('\n'))
      assert.deepEqual(r.audit, r.command)
    })

    test('live', async () => {
      const r = await both(['--kubeconfig', kubeconfig, '--now', cluster.plan.o.now])
      assert.ok(r.command.length >= 5, r.command.join('\n'))
      assert.deepEqual(r.audit, r.command)
    })
  })
})
