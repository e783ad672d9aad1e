// Bad snapshot input: one line on stderr naming the file (and line where there is one), exit code 2,
// no stack trace. Runs the built CLI as a user would.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {gzipSync} from 'node:zlib'
import {runCli} from '../../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'malformed-'))
const NODE = '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}'

const cases: {name: string; file: string; content: string | Buffer; message: RegExp}[] = [
  {
    name: 'truncated JSON',
    file: 'truncated.json',
    content: `{"apiVersion":"v1","kind":"List","items":[\n${NODE},\n{"apiVersion":"v1","kind":"Po`,
    message: /truncated\.json:3:\d+: malformed JSON/,
  },
  {
    name: 'YAML indented with tabs',
    file: 'tabs.yaml',
    content: 'apiVersion: v1\nkind: Node\nmetadata:\n\tname: n1\n',
    message: /tabs\.yaml:4:1: malformed YAML: Tabs are not allowed/,
  },
  {
    name: 'a List with a non-object item',
    file: 'list.json',
    content: `{"apiVersion":"v1","kind":"List","items":[${NODE},"oops"]}`,
    message: /list\.json items\[1\]: not an object \(a string\)/,
  },
  {name: 'an empty file', file: 'empty.json', content: '', message: /empty\.json: the file is empty/},
  {name: 'a file of blanks', file: 'blank.yaml', content: '\n  \n', message: /blank\.yaml: the file is empty/},
  {
    name: 'a binary file',
    file: 'binary.json',
    content: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]),
    message: /binary\.json: not a text file/,
  },
  {name: 'invalid UTF-8', file: 'latin1.yaml', content: Buffer.from('kind: N\xe9ud\n', 'latin1'), message: /latin1\.yaml: not UTF-8 text/},
  {
    name: 'corrupt gzip',
    file: 'cut.json.gz',
    content: gzipSync(Buffer.from(`{"items":[${NODE}]}`)).subarray(0, 20),
    message: /cut\.json\.gz: corrupt gzip data/,
  },
  {
    name: 'an object without kind',
    file: 'nokind.json',
    content: '{"apiVersion":"v1","metadata":{"name":"x"}}',
    message: /nokind\.json: an object without "kind"/,
  },
  {name: 'a scalar document', file: 'scalar.yaml', content: 'just a string\n', message: /scalar\.yaml: not a Kubernetes object or list/},
]

for (const c of cases) {
  test(`malformed snapshot: ${c.name} → exit 2 with a clear line`, async () => {
    const path = join(dir, c.file)
    writeFileSync(path, c.content)
    const r = await runCli(['snapshot', '-f', path])
    assert.equal(r.code, 2, r.stderr)
    const lines = r.stderr.trim().split('\n')
    assert.equal(lines.length, 1, `one line expected, got:\n${r.stderr}`)
    assert.match(lines[0], /^error: /)
    assert.match(lines[0], c.message)
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace without --debug')
    assert.equal(r.stdout, '')
  })
}

test('a missing snapshot path is a usage error, not a crash', async () => {
  const r = await runCli(['snapshot', '-f', join(dir, 'does-not-exist.json')])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /^error: cannot read snapshot .*does-not-exist\.json: no such file or directory/)
})

test('--debug adds the stack trace', async () => {
  const path = join(dir, 'debug-empty.json')
  writeFileSync(path, '')
  const r = await runCli(['snapshot', '-f', path, '--debug'])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /\n\s+at /)
})

test('a directory keeps what it can read and reports the rest by file name', async () => {
  const d = mkdtempSync(join(tmpdir(), 'mixed-'))
  writeFileSync(join(d, 'good.json'), `{"apiVersion":"v1","kind":"List","items":[${NODE}]}`)
  writeFileSync(join(d, 'bad.yaml'), 'a:\n\tb: 1\n')
  writeFileSync(join(d, 'notes.txt'), 'hello')
  const r = await runCli(['snapshot', '-f', d])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /bad\.yaml.*Tabs are not allowed/)
  assert.match(r.stderr, /notes\.txt: not a \.json or \.yaml file/)
  assert.match(r.stdout, /"name":"n1"/)
})
