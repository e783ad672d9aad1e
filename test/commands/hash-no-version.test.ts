// Issue 27.3 end to end: a Deployment dumped alone (test/fixtures/deployment/alone-no-version.yaml: no header, no
// server version, no Node, no ReplicaSet). `hash --all` and the audit's hash check say first that the version is not
// known and give each release's hash (the vectors' p-docs-nginx-defaulted: 1.20–1.22 66b6c48dd5 … 1.36–1.37
// 6c5f67b5f7); --k8s-version settles it to the one answer.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

const FIXTURE = fileURLToPath(new URL('../fixtures/deployment/alone-no-version.yaml', import.meta.url))

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, read field by field
type Any = any

async function json(args: string[]): Promise<Any> {
  const r = await runCli([...args, '-o', 'json'])
  assert.equal(r.code, 0, r.stderr)
  return JSON.parse(r.stdout)
}

describe('a Deployment dumped alone, no version anywhere', () => {
  test('hash deployment/web: the distinct hashes by release, at the top; --k8s-version 1.31 gives the one', async () => {
    const e = await json(['hash', 'deployment/web', '-n', 'shop', '-f', FIXTURE])
    assert.match(e.summary, /^The Kubernetes version is not known/)
    assert.equal(e.deployment.byRelease.answers.length, 13)
    assert.deepEqual(e.deployment.byRelease.answers[0], {
      versions: ['1.20', '1.21', '1.22'],
      hash: '66b6c48dd5',
      name: 'web-66b6c48dd5',
      create: 'creates',
      creates: 'web-66b6c48dd5',
    })
    const settled = await json(['hash', 'deployment/web', '-n', 'shop', '-f', FIXTURE, '--k8s-version', '1.31'])
    assert.equal(settled.deployment.byRelease, undefined)
    assert.equal(settled.deployment.computed.hash, 'd556bf558')
  })

  test("hash --all: the report says the version is not known; the row does not name one release's ReplicaSet", async () => {
    const r = await json(['hash', '--all', '-A', '-f', FIXTURE])
    assert.equal(r.releases.versions.length, 18)
    const table = await runCli(['hash', '--all', '-A', '-f', FIXTURE])
    assert.match(table.stdout.replace(/\s+/g, ' '), /version not known/)
    assert.match(table.stdout, /creates web-<hash>: 13 answers by release/)
    assert.doesNotMatch(table.stdout, /web-6c5f67b5f7/)
  })

  test("audit --checks hash: its first note says so, and the finding's summary starts with it", async () => {
    const a = await json(['audit', '-A', '--checks', 'hash', '-f', FIXTURE, '--fail-on', 'none'])
    const check = a.summary.checks.find((c: Any) => c.name === 'hash')
    assert.match(check.notes[0], /^the Kubernetes version is not known/)
    assert.equal(a.findings.length, 1)
    assert.equal(a.findings[0].severity, 'info')
    assert.match(a.findings[0].summary, /^The Kubernetes version is not known/)
  })

  test('the same Deployment as a running one is dumped (status counts replicas, revision 1): what the data lacks, exit 2', async () => {
    // The controller has synced it (status.replicas 3, the revision annotation), so a ReplicaSet exists that the dump
    // lacks: no hash is an answer, and the hint names the lists that would give one (not "check the dump").
    const running = readFileSync(FIXTURE, 'utf8')
      .replace(
        "    creationTimestamp: '2026-11-29T09:58:40Z'\n",
        "    creationTimestamp: '2026-11-29T09:58:40Z'\n    annotations: {deployment.kubernetes.io/revision: '1'}\n",
      )
      .replace('  status: {}', '  status: {observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3}')
    const file = join(mkdtempSync(join(tmpdir(), 'hash-no-version-')), 'running.yaml')
    writeFileSync(file, running)
    const r = await runCli(['hash', 'deployment/web', '-n', 'shop', '-f', file])
    assert.equal(r.code, 2)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(
      r.stderr,
      /none of its ReplicaSets — nor pods that would reveal them — is in the data; add them to the dump: kubectl get replicasets,pods -n shop -o yaml/,
    )
  })
})
