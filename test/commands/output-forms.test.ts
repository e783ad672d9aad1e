// -o name and -o jsonpath on every command with -o, end to end on the examples. The names expected are the subjects
// the examples' worked answers name (examples/*.md), in kubectl's kind.group/name form; a jsonpath result is checked
// against the same field read from -o json. Needs `npm run build`.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {BIN, runCli} from '../support/cli.js'

const ex = (f: string) => fileURLToPath(new URL(`../../examples/${f}`, import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'output-forms-'))

const NAMES: {args: string[]; names: string[]; code: number}[] = [
  // hash-collision.md: collision, warning (exit 1)
  {args: ['hash', 'deployment/web', '-n', 'shop', '-f', ex('hash-collision.json')], names: ['deployment.apps/web'], code: 1},
  {args: ['hash', '--all', '-n', 'shop', '-f', ex('hash-drift-after-upgrade.json')], names: ['deployment.apps/web', 'daemonset.apps/agent'], code: 0},
  {args: ['gc', 'configmap/web-canary-env', '-n', 'shop', '-f', ex('incident.yaml')], names: ['configmap/web-canary-env'], code: 1},
  {args: ['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', ex('node-zone-outage.json')], names: ['pod/web-7d9f4b6c8-x2k9p'], code: 1},
  {args: ['node', 'worker-c1', '-f', ex('node-zone-outage.json')], names: ['node/worker-c1'], code: 1},
  {args: ['replicas', 'rs/cart-7c9d8f6b5', '-n', 'shop', '-f', ex('replicas-quota.yaml')], names: ['replicaset.apps/cart-7c9d8f6b5'], code: 1},
  // incident.md: exactly four findings, worst first
  {
    args: ['audit', '-A', '-f', ex('incident.yaml')],
    names: ['replicaset.apps/checkout-6b5f97d66c', 'configmap/web-canary-env', 'node/worker-c1', 'pod/web-85d7f67c4d-2xk9p'],
    code: 1,
  },
]

for (const c of NAMES) {
  test(`${c.args.slice(0, 2).join(' ')} -o name: ${c.names.join(', ')}`, async () => {
    const r = await runCli([...c.args, '-o', 'name'])
    assert.equal(r.stderr, '')
    assert.equal(r.code, c.code, '-o name keeps --fail-on')
    // hash --all lists every workload's result; the order is the report's
    assert.deepEqual(r.stdout.split('\n').filter(Boolean).sort(), [...c.names].sort())
    if (c.args[0] === 'audit') assert.equal(r.stdout, c.names.map((n) => `${n}\n`).join(''))
  })
}

test('node without a name: -o name names each node evaluated (the subject is the Cluster, no object)', async () => {
  const json = JSON.parse((await runCli(['node', '-f', ex('node-zone-outage.json'), '-o', 'json'])).stdout) as {nodes: {name: string}[]}
  const r = await runCli(['node', '-f', ex('node-zone-outage.json'), '-o', 'name'])
  // node-zone-outage.md: worker-c1..c4 and 9 others
  assert.equal(json.nodes.length, 13)
  assert.equal(r.stdout, json.nodes.map((n) => `node/${n.name}\n`).join(''))
})

test('hash --template: the template file names its object (no apiVersion in the record: the built-in kind)', async () => {
  const file = join(dir, 'deployment.json')
  const {items} = JSON.parse(readFileSync(ex('hash-up-to-date.json'), 'utf8')) as {items: {kind: string}[]}
  writeFileSync(file, JSON.stringify(items.find((o) => o.kind === 'Deployment')))
  const r = await runCli(['hash', '--template', file, '--k8s-version', '1.31', '-o', 'name'])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, 'deployment.apps/web\n')
})

test('-o jsonpath over the -o json document: fields, a range with a tab and a newline, no newline of its own', async () => {
  const args = ['hash', 'deployment/web', '-n', 'shop', '-f', ex('hash-collision.json')]
  const json = JSON.parse((await runCli([...args, '-o', 'json'])).stdout) as {verdict: string; subject: {name: string}; next: {command: string}[]}
  const r = await runCli([...args, '-o', 'jsonpath={.subject.name} {.verdict}'])
  assert.equal(r.code, 1)
  assert.equal(r.stdout, `${json.subject.name} ${json.verdict}`)
  const next = await runCli([...args, '-o', 'jsonpath={range .next[*]}{.command}{"\\n"}{end}'])
  assert.equal(next.stdout, json.next.map((n) => `${n.command}\n`).join(''))
})

test('-o jsonpath on the audit: each finding, filtered by severity', async () => {
  const args = ['audit', '-A', '-f', ex('incident.yaml')]
  const json = JSON.parse((await runCli([...args, '-o', 'json'])).stdout) as {findings: {severity: string; subject: {name: string}}[]}
  const r = await runCli([...args, '-o', 'jsonpath={.findings[?(@.severity=="warning")].subject.name}'])
  assert.equal(r.code, 1)
  // incident.md: one critical (the ReplicaSet), three warnings
  const warnings = json.findings.filter((f) => f.severity === 'warning').map((f) => f.subject.name)
  assert.equal(warnings.length, 3)
  assert.equal(r.stdout, warnings.join(' '))
})

test('-o jsonpath-file=FILE reads the template from the file', async () => {
  const file = join(dir, 'template.txt')
  writeFileSync(file, '{.subject.kind}/{.subject.name}')
  const r = await runCli(['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', ex('node-zone-outage.json'), '-o', `jsonpath-file=${file}`])
  assert.equal(r.stdout, 'Pod/web-7d9f4b6c8-x2k9p')
})

test('a missing field prints nothing, or with --allow-missing-template-keys=false fails in one line, exit 2', async () => {
  const args = ['node', 'worker-c1', '-f', ex('node-zone-outage.json')]
  const quiet = await runCli([...args, '-o', 'jsonpath=[{.nothing}]'])
  assert.equal(quiet.stdout, '[]')
  const r = await runCli([...args, '-o', 'jsonpath=[{.nothing}]', '--allow-missing-template-keys=false'])
  assert.equal(r.code, 2)
  assert.equal(r.stdout, '')
  assert.equal(r.stderr, 'error: error executing jsonpath "[{.nothing}]": nothing is not found\n')
})

test('templates kubectl refuses are refused before anything is read, in one line, exit 2', async () => {
  const nowhere = ['gc', 'configmap/x', '-f', join(dir, 'no-such-dump.json')]
  const cases: [string, RegExp][] = [
    ['jsonpath={.a[}', /^error: .*error parsing jsonpath \{\.a\[\}, unterminated array; see `kubectl why gc --help`\n$/],
    ['jsonpath', /^error: .*template format specified but no template given; see/],
    ['jsonpath=', /^error: .*template format specified but no template given; see/],
    [`jsonpath-file=${join(dir, 'none.txt')}`, /^error: .*error reading --template .*none\.txt, ENOENT/],
    ['xml', /^error: Expected --output=xml to be one of: table, wide, json, yaml, html, name, jsonpath=, jsonpath-file=, jsonpath-as-json=; see/],
  ]
  for (const [output, message] of cases) {
    const r = await runCli([...nowhere, '-o', output])
    assert.equal(r.code, 2, output)
    assert.match(r.stderr, message)
    assert.equal(r.stderr.split('\n').length, 2, 'one line')
    assert.doesNotMatch(r.stderr, /no-such-dump/, 'the dump is never opened')
  }
})

test('a template that selects nothing prints nothing and exits 0, as kubectl; -o name with no object says so on stderr', async () => {
  const r = await runCli(['node', 'worker-c1', '-f', ex('node-zone-outage.json'), '-o', 'jsonpath={.nothing}'])
  assert.equal(r.code, 1, r.stderr) // worker-c1 is unhealthy (warning): --fail-on still decides
  assert.equal(r.stdout, '')
  assert.equal(r.stderr, '')
  // hash-up-to-date.md: nothing to report (upToDate, exit 0)
  const none = await runCli(['audit', '-A', '-f', ex('hash-up-to-date.json'), '-o', 'name'])
  assert.equal(none.code, 0, none.stderr)
  assert.equal(none.stdout, '')
  assert.equal(none.stderr, 'No resources found.\n')
})

// ESC as written in an owner reference's name, by a hostile or broken client.
const PAYLOAD = '\u001b]0;pwned\u0007\u001b[2J'
const hasScript = spawnSync('script', ['--version']).status === 0
test("-o jsonpath at a terminal shows the data's controls (^[, \\xNN) as every text answer; in a pipe it is exact, as kubectl's", {
  skip: hasScript ? false : 'script(1) is not installed: no pseudo-terminal',
}, async () => {
  const dump = JSON.parse(readFileSync(ex('gc-recreated-deployment.json'), 'utf8'))
  for (const o of dump.items) for (const r of o.metadata.ownerReferences ?? []) r.name = `${r.name}${PAYLOAD}`
  const file = join(dir, 'hostile.json')
  writeFileSync(file, JSON.stringify(dump))
  const args = ['gc', 'rs/web-5d8f7b9c4', '-f', file, '-o', 'jsonpath={.ownerReferences[*].name}']
  const piped = await runCli(args)
  assert.equal(piped.stdout, `web${PAYLOAD}`)
  const tty = spawnSync('script', ['-qec', [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'], {
    encoding: 'utf8',
    env: {...process.env, NO_COLOR: '1', KUBECONFIG: '/nonexistent'},
  })
  assert.equal(tty.stdout, 'web^[]0;pwned\\x07^[[2J')
})
