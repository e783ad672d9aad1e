// A report far larger than a pipe's buffer arrives whole, with exit code 1 for its findings: the exit
// code must not be set by process.exit while stdout is still draining into the pipe.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {runCli} from '../support/cli.js'
import {writeSnapshot} from '../support/synthetic/index.js'

test('gc --all -A -o json over a cluster with 1,500 dangling owners: complete JSON, exit 1', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'large-')), 'snap.json')
  await writeSnapshot(path, {seed: 3, nodes: 20, pods: 200, otherOwned: 3000, danglingOwners: 1500, events: 0})
  const r = await runCli(['gc', '--all', '-A', '-f', path, '-o', 'json'])
  assert.equal(r.code, 1, r.stderr)
  assert.ok(r.stdout.length > 1 << 20, `expected more than 1 MiB of JSON, got ${r.stdout.length} bytes`)
  const report = JSON.parse(r.stdout) as {findings: {verdict: string}[]}
  assert.ok(report.findings.filter((f) => f.verdict === 'delete').length >= 1500)
})
