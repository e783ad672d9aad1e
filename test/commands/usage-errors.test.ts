// Usage errors: one line on stderr, saying what is wrong and where to look, exit code 2.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {runCli} from '../support/cli.js'

const cases: {args: string[]; message: RegExp}[] = [
  {args: ['audit', '-o', 'foo'], message: /^error: Expected --output=foo to be one of: table, wide, json, yaml(, junit)?; see `kubectl why audit --help`$/},
  {args: ['audit', '--fail-on', 'sometimes'], message: /^error: Expected --fail-on=sometimes to be one of: none, info, warning, critical; see `kubectl why audit --help`$/},
  {args: ['snapshot', '--bogus'], message: /^error: Nonexistent flag: --bogus; see `kubectl why snapshot --help`$/},
  {args: ['nosuch'], message: /^error: unknown command "nosuch"; the commands are: audit, completion, evicted, gc, hash, node, replicas, snapshot \(/},
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
    // kubectl execs the plugin in place, so it cannot tell how it was called; users type the kubectl form.
    assert.match(help.stdout, new RegExp(`\\$ kubectl why ${cmd}\\b`), `${cmd} examples are runnable command lines`)
    assert.doesNotMatch(help.stdout, /kubectl-why /, `${cmd} --help speaks of kubectl why`)
  }
})

test('-h is --help, as in kubectl', async () => {
  const short = await runCli(['node', '-h'])
  const long = await runCli(['node', '--help'])
  assert.equal(short.code, 0, short.stderr)
  assert.equal(short.stdout, long.stdout)
})

test('boolean flags take kubectl\'s explicit values: --all-namespaces=true, -A=false, --no-color=false', async () => {
  const file = new URL('../../examples/node-zone-outage.json', import.meta.url).pathname
  const plain = await runCli(['node', '-f', file, '-o', 'json'])
  for (const extra of [['--all-namespaces=true'], ['-A=false'], ['--no-color=false'], ['--debug=0']]) {
    const r = await runCli(['node', '-f', file, '-o', 'json', ...extra])
    assert.equal(r.code, plain.code, `${extra}: ${r.stderr}`)
    assert.equal(r.stdout, plain.stdout, `${extra} changes nothing for node over a whole-cluster dump`)
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
