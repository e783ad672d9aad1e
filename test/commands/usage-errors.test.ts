// Usage errors: one line on stderr, saying what is wrong and where to look, exit code 2.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {runCli} from '../support/cli.js'

const cases: {args: string[]; message: RegExp}[] = [
  {
    args: ['audit', '-o', 'foo'],
    message:
      /^error: Expected --output=foo to be one of: table, wide, json, yaml, junit, html, name, jsonpath=, jsonpath-file=, jsonpath-as-json=; see `kubectl why audit --help`$/,
  },
  {
    args: ['audit', '--fail-on', 'sometimes'],
    message: /^error: Expected --fail-on=sometimes to be one of: none, info, warning, critical; see `kubectl why audit --help`$/,
  },
  {args: ['snapshot', '--bogus'], message: /^error: Nonexistent flag: --bogus; see `kubectl why snapshot --help`$/},
  // No command is within distance 2 of "nosuch" nor starts with it: cobra's message alone (test/help/suggestions.test.ts has the rest).
  {args: ['nosuch'], message: /^error: unknown command "nosuch" for "kubectl why"$/},
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

test("boolean flags take kubectl's explicit values: --all-namespaces=true, -A=false, --no-color=false", async () => {
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
  const gc = await runCli(['gc', '--all', '-A', '-f', '-', '-o', 'json'], {
    stdin: readFileSync(new URL('../../examples/gc-recreated-deployment.json', import.meta.url)),
  })
  assert.notEqual(gc.code, 2, gc.stderr)
  assert.ok(Array.isArray(JSON.parse(gc.stdout).findings))
})

test('every argument form kubectl takes names the same object: TYPE/NAME, TYPE NAME, short names, a bare NAME of the natural kind', async () => {
  const same: [string[], string[]][] = [
    [
      ['replicas', 'replicaset/cart-7c9d8f6b5', '-n', 'shop', '-f', 'examples/replicas-quota.yaml'],
      ['replicas', 'cart-7c9d8f6b5', '-n', 'shop', '-f', 'examples/replicas-quota.yaml'],
    ],
    [
      ['replicas', 'replicaset/cart-7c9d8f6b5', '-n', 'shop', '-f', 'examples/replicas-quota.yaml'],
      ['replicas', 'rs', 'cart-7c9d8f6b5', '-n', 'shop', '-f', 'examples/replicas-quota.yaml'],
    ],
    [
      ['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', 'examples/node-zone-outage.json'],
      ['evicted', 'web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', 'examples/node-zone-outage.json'],
    ],
    [
      ['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', 'examples/node-zone-outage.json'],
      ['evicted', 'po', 'web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', 'examples/node-zone-outage.json'],
    ],
    [
      ['node', 'worker-c1', '-f', 'examples/node-zone-outage.json'],
      ['node', 'no', 'worker-c1', '-f', 'examples/node-zone-outage.json'],
    ],
    [
      ['gc', 'deployment/api', '-n', 'team-a', '-f', 'examples/gc-stuck-namespace.json'],
      ['gc', 'deploy', 'api', '-n', 'team-a', '-f', 'examples/gc-stuck-namespace.json'],
    ],
    [
      ['hash', 'deployment/web', '-n', 'shop', '-f', 'examples/hash-drift-after-upgrade.json'],
      ['hash', 'deploy', 'web', '-n', 'shop', '-f', 'examples/hash-drift-after-upgrade.json'],
    ],
  ]
  for (const [a, b] of same) {
    const [x, y] = await Promise.all([runCli([...a, '-o', 'json']), runCli([...b, '-o', 'json'])])
    assert.ok(x.code === 0 || x.code === 1, `${a.join(' ')}: ${x.stderr}`)
    assert.equal(y.code, x.code, `${b.join(' ')}: ${y.stderr}`)
    assert.equal(y.stdout, x.stdout, `${b.join(' ')} names what ${a.join(' ')} names`)
  }
})

test('a missing or wrong argument is one line, exit 2, with the form to use', async () => {
  for (const [args, message] of [
    [['evicted'], /^error: which pod\? give its NAME \(or pod\/NAME\); e\.g\. kubectl why evicted /],
    [['evicted', 'deploy/web'], /^error: kubectl why evicted is about a Pod, not "deploy"/],
    [['gc', 'web'], /^error: "web" names no object: give TYPE\/NAME or TYPE NAME/],
  ] as const) {
    const r = await runCli([...args])
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, message)
  }
})
