// Issue 27.3 end to end for DaemonSets and StatefulSets dumped alone (test/fixtures/{daemonset,statefulset}/
// alone-no-version.yaml: no header, no server version, no Node, no revision). The text says first that the version is
// not known, gives each release's hash in a table and never one release's name as the answer; --k8s-version settles it.
// Hashes: the vectors' p-docs-nginx-defaulted (DaemonSet: ComputeHash, unset count) and cr-p-docs-nginx-defaulted
// (StatefulSet 1.20–1.33, probe 0); the StatefulSet's 1.34 name is worked in test/engine/statefulset/by-release.test.ts.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

const DS = fileURLToPath(new URL('../fixtures/daemonset/alone-no-version.yaml', import.meta.url))
const STS = fileURLToPath(new URL('../fixtures/statefulset/alone-no-version.yaml', import.meta.url))

describe('a DaemonSet or a StatefulSet dumped alone, no version anywhere', () => {
  test('hash daemonset/node-agent: the summary starts with it, the table gives each release', async () => {
    const r = await runCli(['hash', 'daemonset/node-agent', '-n', 'shop', '-f', DS])
    assert.equal(r.code, 0, r.stderr)
    const flat = r.stdout.replace(/\s+/g, ' ')
    assert.match(flat, /rolloutPending \(info\) The Kubernetes version is not known/)
    assert.match(r.stdout, /Version not known: computed now for each release/)
    assert.match(r.stdout, /1\.20–1\.22\s+66b6c48dd5\s+node-agent-66b6c48dd5\s+creates node-agent-66b6c48dd5/)
    assert.match(r.stdout, /1\.36–1\.37\s+6c5f67b5f7\s+node-agent-6c5f67b5f7/)
    // The newest release's create is not printed as the answer (only under "under 1.37 only" in the steps).
    assert.doesNotMatch(r.stdout, /^ {2}snapshot: /m)
    const settled = await runCli(['hash', 'daemonset/node-agent', '-n', 'shop', '-f', DS, '--k8s-version', '1.31', '-o', 'json'])
    const e = JSON.parse(settled.stdout)
    assert.equal(e.daemonSet.byRelease, undefined)
    assert.equal(e.daemonSet.computed.hash, 'd556bf558')
  })

  test("hash statefulset/db: two names by release, 1.20–1.33 the vectors' 8668c76b8d", async () => {
    const r = await runCli(['hash', 'statefulset/db', '-n', 'shop', '-f', STS, '-o', 'json'])
    assert.equal(r.code, 0, r.stderr)
    const e = JSON.parse(r.stdout)
    assert.match(e.summary, /^The Kubernetes version is not known/)
    assert.equal(e.statefulSet.byRelease.answers.length, 2)
    assert.equal(e.statefulSet.byRelease.answers[0].name, 'db-8668c76b8d')
    assert.deepEqual(e.statefulSet.byRelease.answers[1].versions, ['1.34', '1.35', '1.36', '1.37'])
    const text = await runCli(['hash', 'statefulset/db', '-n', 'shop', '-f', STS])
    assert.match(text.stdout, /1\.20–1\.33\s+8668c76b8d\s+db-8668c76b8d\s+creates db-8668c76b8d/)
  })

  test("hash --all: each row says it has answers by release, none names one release's revision", async () => {
    for (const [file, name] of [
      [DS, 'node-agent'],
      [STS, 'db'],
    ]) {
      const r = await runCli(['hash', '--all', '-A', '-f', file])
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout.replace(/\s+/g, ' '), /version not known/)
      assert.match(r.stdout, new RegExp(`creates ${name}-<hash>: \\d+ answers by release`))
    }
  })
})
