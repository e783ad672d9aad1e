// Usage errors: one line on stderr, saying what is wrong and where to look, exit code 2.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {runCli} from '../support/cli.js'

const cases: {args: string[]; message: RegExp}[] = [
  {args: ['audit', '-o', 'foo'], message: /^error: Expected --output=foo to be one of: table, wide, json, yaml(, junit)?; see `kubectl why audit --help`$/},
  {args: ['audit', '--fail-on', 'sometimes'], message: /^error: Expected --fail-on=sometimes to be one of: none, info, warning, critical; see `kubectl why audit --help`$/},
  {args: ['snapshot', '--bogus'], message: /^error: Nonexistent flag: --bogus; see `kubectl why snapshot --help`$/},
  {args: ['nosuch'], message: /^error: unknown command "nosuch"; the commands are: audit, evicted, gc, hash, node, replicas, snapshot/},
]

for (const c of cases) {
  test(`usage error: kubectl why ${c.args.join(' ')}`, async () => {
    const r = await runCli(c.args)
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr.trim(), c.message)
  })
}

test('--help lists every command with its summary, and each command shows real examples', async () => {
  const top = await runCli(['--help'])
  assert.equal(top.code, 0)
  for (const cmd of ['audit', 'evicted', 'gc', 'hash', 'node', 'replicas', 'snapshot']) {
    assert.match(top.stdout, new RegExp(`\\n  ${cmd} +\\S`), `${cmd} listed`)
    const help = await runCli([cmd, '--help'])
    assert.equal(help.code, 0, help.stderr)
    assert.match(help.stdout, /EXAMPLES\n/, `${cmd} --help has examples`)
    assert.match(help.stdout, new RegExp(`\\$ kubectl-why ${cmd}\\b`), `${cmd} examples are runnable command lines`)
  }
})

test('a snapshot piped on stdin (-f -) is read as the snapshot, never taken for the missing KIND/NAME', async () => {
  const {readFileSync} = await import('node:fs')
  const outage = readFileSync(new URL('../../examples/node-zone-outage.json', import.meta.url))
  const nodes = await runCli(['node', '-f', '-', '-o', 'json'], {stdin: outage})
  assert.notEqual(nodes.code, 2, nodes.stderr)
  assert.equal(JSON.parse(nodes.stdout).subject.kind, 'Cluster')
  const gc = await runCli(['gc', '--all', '-A', '-f', '-', '-o', 'json'], {stdin: readFileSync(new URL('../../examples/gc-recreated-deployment.json', import.meta.url))})
  assert.notEqual(gc.code, 2, gc.stderr)
  assert.ok(Array.isArray(JSON.parse(gc.stdout).findings))
})
