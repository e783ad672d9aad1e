// YAML read as the YAML libraries (and kubectl's reader, sigs.k8s.io/yaml over go-yaml) read it: an alias may use
// an anchor of an earlier item (PyYAML writes `&id001` / `*id001` for a value it meets twice), merge keys merge,
// aliases expand only so far (an alias bomb is one line, exit 2, not an internal error), a repeated key is refused
// at the key's line (go-yaml: "already set in map"). Expected values worked by hand from the texts below. Runs the
// built CLI (npm run build first).
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {runCli} from '../../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'yaml-anchors-'))
const write = (name: string, text: string) => {
  const p = join(dir, name)
  writeFileSync(p, text)
  return p
}
const items = (stdout: string) => (JSON.parse(stdout).items as {metadata: {name: string; labels?: unknown}}[]).map((i) => [i.metadata.name, i.metadata.labels])

/** Ten-fold expansion per level: level 9 would be 10^9 strings. */
function bomb(indent: string, levels = 9): string {
  let s = `${indent}a: &a [x,x,x,x,x,x,x,x,x,x]\n`
  for (let i = 1; i < levels; i++) {
    const prev = String.fromCharCode(96 + i)
    s += `${indent}${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${prev}`).join(',')}]\n`
  }
  return s
}

test('an alias to an anchor of an earlier item, as PyYAML writes it; a merge key too', async () => {
  const f = write(
    'pyyaml.yaml',
    `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    labels: &id001
      topology.kubernetes.io/zone: a
    name: n1
- apiVersion: v1
  kind: Node
  metadata:
    labels: *id001
    name: n2
- apiVersion: v1
  kind: Node
  metadata:
    labels:
      <<: *id001
      extra: x
    name: n3
`,
  )
  const r = await runCli(['snapshot', '-f', f])
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(items(r.stdout), [
    ['n1', {'topology.kubernetes.io/zone': 'a'}],
    ['n2', {'topology.kubernetes.io/zone': 'a'}],
    ['n3', {'topology.kubernetes.io/zone': 'a', extra: 'x'}],
  ])
})

test('a later anchor of the same name replaces the earlier one for the items after it', async () => {
  const f = write(
    'redefined.yaml',
    `items:
- {apiVersion: v1, kind: Node, metadata: {name: n1, labels: &l {v: "1"}}}
- apiVersion: v1
  kind: Node
  metadata: {name: n2, labels: &l {v: "2"}}
- apiVersion: v1
  kind: Node
  metadata: {name: n3, labels: *l}
`,
  )
  const r = await runCli(['snapshot', '-f', f])
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(items(r.stdout), [
    ['n1', {v: '1'}],
    ['n2', {v: '2'}],
    ['n3', {v: '2'}],
  ])
})

test('a single object with an anchor, an alias and a merge key', async () => {
  const f = write('single.yaml', 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  annotations: &a {x: "1"}\n  labels:\n    <<: *a\n    y: "2"\n')
  const r = await runCli(['snapshot', '-f', f])
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(items(r.stdout), [['n1', {x: '1', y: '2'}]])
})

test('a repeated key is refused at its line (it was last-wins)', async () => {
  const f = write('dup.yaml', 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n    name: n2\n')
  const r = await runCli(['snapshot', '-f', f])
  assert.equal(r.code, 2, r.stderr)
  // line 8, column 5: the second `name`.
  assert.match(r.stderr, /^error: .*dup\.yaml:8:5: malformed YAML: duplicate key [^\n]*\n$/)
  const single = await runCli(['snapshot', '-f', write('dup1.yaml', 'apiVersion: v1\nkind: Node\nkind: Pod\nmetadata: {name: n1}\n')])
  assert.equal(single.code, 2, single.stderr)
  assert.match(single.stderr, /dup1\.yaml:3:1: malformed YAML: duplicate key/)
})

test('an alias bomb inside one item: one line, exit 2, at the first alias', async () => {
  const f = write('bomb.yaml', `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n  data:\n${bomb('    ')}`)
  const r = await runCli(['snapshot', '-f', f])
  assert.equal(r.code, 2, r.stderr)
  // line 9 is `    b: &b [*a,...`; the first alias is at column 12.
  assert.match(r.stderr, /^error: .*bomb\.yaml:9:12: malformed YAML: its aliases expand beyond 1000 nodes \(an alias bomb\)[^\n]*\n$/)
})

test('an alias bomb across items: one line, exit 2', async () => {
  let s = 'items:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c0}, data: &a0 [x,x,x,x,x,x,x,x,x,x]}\n'
  for (let i = 1; i < 9; i++)
    s += `- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c${i}}\n  data: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(',')}]\n`
  const r = await runCli(['snapshot', '-f', write('bomb2.yaml', s)])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^error: .*bomb2\.yaml:\d+:1: malformed YAML: .*\(an alias bomb\)[^\n]*\n$/)
})

test('an alias with no anchor before it: one line, exit 2 (it was an internal error)', async () => {
  const r = await runCli([
    'snapshot',
    '-f',
    write('unresolved.yaml', 'items:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n    labels: *nowhere\n'),
  ])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^error: .*unresolved\.yaml:6:13: malformed YAML: alias \*nowhere names no anchor before it/)
})

test('hash --template with an alias bomb: one line, exit 2 (it was an internal error)', async () => {
  const f = write(
    'template-bomb.yaml',
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  template:\n    metadata:\n      labels:\n${bomb('        ')}`,
  )
  const r = await runCli(['hash', '--template', f])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^error: .*template-bomb\.yaml:9:16: malformed YAML: its aliases expand beyond 1000 nodes \(an alias bomb\)/)
})
