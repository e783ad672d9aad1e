// A gzipped dump the reader rejects at its start ends in one line and exit 2 whatever its size and however it
// arrives (file, stdin, FIFO, inside a directory, -o junit). Above about 2 MB of compressed bytes the feeder of the
// gunzip stream used to wait for a `drain` that never came once the reader had thrown, the event loop emptied and
// the process exited 0 with no output at all. The dumps are made here (nothing big is committed): compressed
// sizes above the 1 MiB read chunk are what it takes, so the data is random (gzip cannot shrink it). Runs the built
// CLI (npm run build first).
import assert from 'node:assert/strict'
import {execFileSync} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {gzipSync} from 'node:zlib'
import {runCli} from '../../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'silent-end-'))
const NODE = {apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}
const LIST = JSON.stringify({apiVersion: 'v1', kind: 'List', items: [NODE]})

/** NUL bytes after a JSON start: 2 MB compressed (random bytes do not compress). */
const nul2mb = join(dir, 'nul.json.gz')
writeFileSync(nul2mb, gzipSync(Buffer.concat([Buffer.from('{"items":[\0'), randomBytes(2_000_000)])))
/** YAML inside a *.json.gz, read as JSON by its name: about 8 MB compressed, the "large gzip" of the report. */
const yamlInJson = join(dir, 'yaml.json.gz')
writeFileSync(yamlInJson, gzipSync(`items:\n${randomBytes(8_000_000).toString('base64').replace(/.{72}/g, '- name: $&\n')}`, {level: 1}))

const NOT_TEXT = /^error: .*nul\.json\.gz: not a text file \(it contains NUL bytes\); pass JSON or YAML, optionally gzipped\n$/
const MALFORMED = /^error: .*yaml\.json\.gz:1:1: malformed JSON: unexpected text "items:" where a JSON document should start; /

test('the generated dumps are the sizes where it happened (more than one 1 MiB read chunk compressed)', () => {
  assert.ok(readFileSync(nul2mb).length > 2_000_000)
  assert.ok(readFileSync(yamlInJson).length > 8_000_000)
})

test('2 MB gzip with NUL bytes, as a file: one line, exit 2', async () => {
  const r = await runCli(['audit', '-f', nul2mb])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, NOT_TEXT)
  assert.equal(r.stdout, '')
})

test('large gzip of YAML named *.json.gz: one line, exit 2', async () => {
  const r = await runCli(['node', '-f', yamlInJson])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, MALFORMED)
  assert.equal(r.stderr.split('\n').length, 2, 'one line')
})

test('the same dumps on stdin: one line, exit 2', async () => {
  const r = await runCli(['audit', '-f', '-'], {stdin: readFileSync(nul2mb)})
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^error: <stdin>: not a text file \(it contains NUL bytes\)/)
  const y = await runCli(['snapshot', '-f', '/dev/stdin'], {stdin: readFileSync(yamlInJson)})
  // Named /dev/stdin, not *.json: read as YAML by its first character, which it is (a List of names, no objects).
  assert.notEqual(y.code, 0, 'never a silent success')
  assert.ok(y.stdout !== '' || y.stderr !== '', 'something said')
})

test('through a FIFO: one line, exit 2', {skip: process.platform === 'win32' ? 'no mkfifo' : false}, async () => {
  const fifo = join(dir, 'dump.json.gz.fifo')
  try {
    execFileSync('mkfifo', [fifo])
  } catch {
    return
  }
  const run = runCli(['audit', '-f', fifo])
  // The reader stops early: the writer sees EPIPE, which is not this test's concern.
  await writeFile(fifo, readFileSync(nul2mb)).catch(() => undefined)
  const r = await run
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /not a text file \(it contains NUL bytes\)/)
})

test('inside a dump directory: the other files are still read, the bad one is named (text and -o junit)', async () => {
  const d = join(dir, 'dump')
  mkdirSync(d)
  writeFileSync(join(d, 'a.json'), LIST)
  writeFileSync(join(d, 'b.json.gz'), readFileSync(nul2mb))
  writeFileSync(join(d, 'c.json.gz'), readFileSync(yamlInJson))
  const text = await runCli(['audit', '-f', d])
  assert.match(text.stdout, /source: .*b\.json\.gz: not read: not a text file \(it contains NUL bytes\)/)
  assert.match(text.stdout, /source: .*c\.json\.gz: not read: line 1:1: malformed JSON/)
  // a.json's Node was read: the node check saw one object.
  assert.match(text.stdout, /^node +\S+ +1 /m)
  const junit = await runCli(['audit', '-f', d, '-o', 'junit'])
  assert.match(junit.stdout, /^<\?xml /)
  // The report is whole (it used to be empty): a.json's Node is a test case.
  assert.match(junit.stdout, /<testcase name="node Node n1"/)
  assert.match(junit.stdout, /<\/testsuites>\n?$/)
})

test('a large valid gzip is still read to its end (the feeder waits for room and finishes)', async () => {
  const items = []
  const names = randomBytes(3_000_000).toString('base64url')
  for (let i = 0; i + 60 <= names.length; i += 60)
    items.push({apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: names.slice(i, i + 60), namespace: 'default'}})
  items.push({apiVersion: 'v1', kind: 'Node', metadata: {name: 'last-node'}})
  const gz = join(dir, 'big-valid.json.gz')
  writeFileSync(gz, gzipSync(JSON.stringify({apiVersion: 'v1', kind: 'List', items}), {level: 1}))
  assert.ok(readFileSync(gz).length > 2_000_000)
  const r = await runCli(['node', 'last-node', '-f', gz, '-o', 'json'])
  assert.equal(r.code === 0 || r.code === 1, true, r.stderr)
  assert.equal(JSON.parse(r.stdout).subject.name, 'last-node')
})
