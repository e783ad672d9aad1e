// The rest of issue 30's crash list, each once an internal error (exit 3) and now one line with exit 2: a
// 100k-deep JSON value (through the snapshot reader and `hash --template`), deep YAML, and `kubectlWhy` header
// fields of the wrong type (they were read as typed, and crashed deep inside: lists[0] = 1, metadataOnly[0] = 5).
// Runs the built CLI (npm run build first).
import assert from 'node:assert/strict'
import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'crash-list-'))
const N = 100_000
const write = (name: string, text: string) => {
  const p = join(dir, name)
  writeFileSync(p, text)
  return p
}
const oneLine = (stderr: string) => assert.equal(stderr.trim().split('\n').length, 1, stderr)

test('100k-deep JSON inside an item: one line, exit 2', async () => {
  const f = write(
    'deep.json',
    `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"spec":${'{"a":'.repeat(N)}1${'}'.repeat(N)}}]}`,
  )
  for (const args of [['snapshot'], ['node'], ['audit', '-A']]) {
    const r = await runCli([...args, '-f', f])
    assert.equal(r.code, 2, `${args}: ${r.stderr}`)
    assert.match(r.stderr, /^error: .*deep\.json items\[0\]: nested deeper than 1000 levels/)
    oneLine(r.stderr)
  }
})

test('100k-deep JSON and 1,001-deep JSON in hash --template: one line, exit 2; 1,000 deep is read', async () => {
  const deep = (n: number) => `{"apiVersion":"apps/v1","kind":"Deployment","spec":{"template":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`
  const r = await runCli(['hash', '--template', write('tdeep.json', deep(N))])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^error: .*tdeep\.json: nested deeper than 1000 levels/)
  // Levels: the document 1, spec 2, template's value 3 ... the last {"a":1} is level n + 2.
  assert.equal((await runCli(['hash', '--template', write('t999.json', deep(999))])).stderr.includes('nested deeper'), true)
  assert.equal((await runCli(['hash', '--template', write('t998.json', deep(998))])).stderr.includes('nested deeper'), false)
})

test('deep YAML: one line, exit 2', async () => {
  const f = write('deep.yaml', `items:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n}\n  spec: ${'['.repeat(N)}${']'.repeat(N)}\n`)
  const r = await runCli(['snapshot', '-f', f])
  assert.equal(r.code, 2, r.stderr)
  oneLine(r.stderr)
  assert.doesNotMatch(r.stderr, /internal error/)
})

const example = () => JSON.parse(readFileSync(fileURLToPath(new URL('../../../examples/node-zone-outage.json', import.meta.url)), 'utf8'))
const HEADER_CASES: [string, (h: Record<string, unknown>) => void, RegExp][] = [
  ['lists[0] a number (was TypeError)', (h) => (h.lists = [1]), /kubectlWhy\.lists\[0\] is number 1, want an object/],
  ['metadataOnly[0] a number (was TypeError)', (h) => (h.metadataOnly = [5]), /kubectlWhy\.metadataOnly\[0\] is number 5, want a string GROUP\/KIND/],
  [
    'gaps[0].reason not a read failure',
    (h) => (h.gaps = [{apiVersion: 'v1', kind: 'Pod', reason: 'Nope', message: 'm'}]),
    /kubectlWhy\.gaps\[0\]\.reason is string Nope, want one of NotFound, /,
  ],
  [
    'serverVersion.major a number',
    (h) => (h.serverVersion = {major: 1, minor: '33', gitVersion: 'v1.33.4'}),
    /kubectlWhy\.serverVersion\.major is number 1, want a string/,
  ],
  [
    'resources[0] without resource',
    (h) => (h.resources = [{group: '', version: 'v1', kind: 'Pod', namespaced: true}]),
    /kubectlWhy\.resources\[0\]\.resource is undefined/,
  ],
  ['context a list', (h) => (h.context = ['a']), /kubectlWhy\.context is a list, want a string/],
  ['problems a string', (h) => (h.problems = 'x'), /kubectlWhy\.problems is string x, want a list/],
]

for (const [name, damage, message] of HEADER_CASES) {
  test(`kubectlWhy header: ${name}: one line naming the field, exit 2`, async () => {
    const d = example()
    damage(d.kubectlWhy)
    const r = await runCli(['audit', '-A', '-f', write('header.json', JSON.stringify(d))])
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, message)
    oneLine(r.stderr)
  })
}

test('a damaged header in a dump directory: that header is not read, the objects are, and the problem is named', async () => {
  const d = example()
  d.kubectlWhy.lists = [1]
  const sub = join(dir, 'dumpdir')
  mkdirSync(sub)
  writeFileSync(join(sub, 'a.json'), JSON.stringify(d))
  const r = await runCli(['node', '-f', sub])
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  assert.match(r.stdout, /kubectlWhy\.lists\[0\] is number 1, want an object: the header is not read/)
  assert.match(r.stdout, /13 nodes/)
})
