// `hash --template FILE` takes what -f takes: gzip by its magic bytes (a file or stdin), never gzip read as text
// (issue 19: it was). The expectation is the plain file's own answer: gzip changes the bytes, not the template.
// Needs `npm run build`.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {gzipSync} from 'node:zlib'
import {runCli} from '../support/cli.js'

/** The records without `source`, which names the file read. */
const records = (stdout: string) => (JSON.parse(stdout) as {source?: string}[]).map(({source: _, ...r}) => r)

const EXAMPLE = fileURLToPath(new URL('../../examples/hash-up-to-date.json', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'hash-template-'))
const deployment = (JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {items: {kind: string}[]}).items.find((o) => o.kind === 'Deployment')
const plain = join(dir, 'deployment.json')
writeFileSync(plain, JSON.stringify(deployment))
const gz = join(dir, 'deployment.json.gz')
writeFileSync(gz, gzipSync(readFileSync(plain)))
const noSuffix = join(dir, 'deployment')
writeFileSync(noSuffix, gzipSync(readFileSync(plain)))

test("a gzipped template file gives the plain file's answer, whatever its name", async () => {
  const expected = await runCli(['hash', '--template', plain, '--k8s-version', '1.31', '-o', 'json'])
  assert.equal(expected.code, 0, expected.stderr)
  for (const file of [gz, noSuffix]) {
    const r = await runCli(['hash', '--template', file, '--k8s-version', '1.31', '-o', 'json'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(records(r.stdout), records(expected.stdout))
  }
})

test('gzip on stdin (--template -) too', async () => {
  const expected = await runCli(['hash', '--template', plain, '--k8s-version', '1.31', '-o', 'json'])
  const r = await runCli(['hash', '--template', '-', '--k8s-version', '1.31', '-o', 'json'], {stdin: readFileSync(gz)})
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(records(r.stdout), records(expected.stdout))
})

test('a truncated gzip stream is an input error (exit 2, one line), not a template read as text', async () => {
  const bytes = readFileSync(gz)
  const cut = join(dir, 'cut.json.gz')
  writeFileSync(cut, bytes.subarray(0, bytes.length - 12))
  const r = await runCli(['hash', '--template', cut])
  assert.equal(r.code, 2, r.stderr)
  assert.equal(r.stderr.trim().split('\n').length, 1)
  assert.match(r.stderr, /cut\.json\.gz/)
})
