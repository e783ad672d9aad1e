// -f reads any readable stream, once, from start to end: pipes, /dev/stdin, process substitution, a FIFO given
// directly, gzip anywhere; a directory skips what it cannot read and names it; `snapshot -f` that leaves objects
// out names each and exits non-zero; `snapshot --out` into a missing directory is one line, exit 2. Runs the
// built CLI (npm run build first).
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {execFileSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync} from 'node:fs'
import {writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {gzipSync} from 'node:zlib'
import {BIN, runCli} from '../../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'inputs-'))
const NODE = {apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}
const LIST = JSON.stringify({apiVersion: 'v1', kind: 'List', items: [NODE]})
const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', ['--version'], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
})()

function snapshotNames(stdout: string): string[] {
  return [...stdout.matchAll(/"name":"([^"]+)"/g)].map((m) => m[1])
}

test('-f /dev/stdin: a pipe, read as a stream (no seek)', async () => {
  const r = await runCli(['snapshot', '-f', '/dev/stdin'], {stdin: gzipSync(Buffer.from(LIST))})
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(snapshotNames(r.stdout), ['n1'])
})

test('-f <(zcat dump.json.gz): process substitution', {skip: process.platform === 'win32' ? 'no bash process substitution' : false}, async () => {
  const gz = join(dir, 'dump.json.gz')
  writeFileSync(gz, gzipSync(Buffer.from(LIST)))
  const r = await new Promise<{code: number; stdout: string; stderr: string}>((resolve) => {
    const child = spawn('bash', ['-c', `"${process.execPath}" "${BIN}" snapshot -f <(gzip -dc "${gz}")`], {
      env: {...process.env, KUBECONFIG: '/nonexistent', NO_COLOR: '1'},
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr}))
  })
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(snapshotNames(r.stdout), ['n1'])
})

test('-f FIFO given directly, with a writer: read as a stream', {skip: hasMkfifo ? false : 'mkfifo not available'}, async () => {
  const fifo = join(dir, 'direct.fifo')
  execFileSync('mkfifo', [fifo])
  const run = runCli(['snapshot', '-f', fifo])
  await writeFile(fifo, LIST)
  const r = await run
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(snapshotNames(r.stdout), ['n1'])
})

test('a directory: a dangling link, a FIFO, a socket-like special file and junk are skipped and named; the rest is read', {
  skip: hasMkfifo ? false : 'mkfifo not available',
}, async () => {
  const d = mkdtempSync(join(tmpdir(), 'odd-dir-'))
  writeFileSync(join(d, 'good.json'), LIST)
  symlinkSync(join(d, 'gone.json'), join(d, 'dangling.json'))
  execFileSync('mkfifo', [join(d, 'blocked.json')])
  const r = await runCli(['snapshot', '-f', d])
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(snapshotNames(r.stdout), ['n1'])
  assert.match(r.stderr, /dangling\.json: not read: a symbolic link whose target cannot be read \(no such file or directory\)/)
  assert.match(r.stderr, /blocked\.json: not read: a FIFO, not a file/)
})

test('a directory: an unreadable file or subdirectory is skipped and named', {
  skip: process.getuid?.() === 0 ? 'running as root: permissions do not stop reads' : false,
}, async () => {
  const d = mkdtempSync(join(tmpdir(), 'perm-dir-'))
  writeFileSync(join(d, 'good.json'), LIST)
  writeFileSync(join(d, 'secret.json'), LIST)
  chmodSync(join(d, 'secret.json'), 0)
  mkdirSync(join(d, 'closed'))
  chmodSync(join(d, 'closed'), 0)
  const r = await runCli(['snapshot', '-f', d])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /secret\.json.*permission denied/)
  assert.match(r.stderr, /closed: directory not read: permission denied/)
})

test('snapshot -f that leaves malformed objects out names each (where, what is wrong) and exits 2', async () => {
  // 4 items: 2 objects, a Pod whose kind is lower case, an object without metadata → 2 written, 2 named.
  const path = join(dir, 'malformed-items.json')
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        NODE,
        {apiVersion: 'v1', kind: 'pod', metadata: {name: 'p'}},
        {apiVersion: 'v1', kind: 'ConfigMap'},
        {apiVersion: 'v1', kind: 'Node', metadata: {name: 'n2'}},
      ],
    }),
  )
  const out = join(dir, 'rewritten.json')
  const r = await runCli(['snapshot', '-f', path, '--out', out])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /wrote 2 objects to .*rewritten\.json \(2 left out, listed below\)/)
  assert.match(r.stderr, /error: left out .*items\[1\]: kind "pod" is not a Kubernetes kind: kinds are case-sensitive \(Pod\)/)
  assert.match(r.stderr, /error: left out .*items\[2\]: a ConfigMap without "metadata"/)
})

test('snapshot --out into a missing directory: one line, exit 2, nothing read', async () => {
  const path = join(dir, 'ok.json')
  writeFileSync(path, LIST)
  const r = await runCli(['snapshot', '-f', path, '--out', join(dir, 'no-such-dir', 'x.json')])
  assert.equal(r.code, 2)
  const lines = r.stderr.trim().split('\n')
  assert.equal(lines.length, 1, r.stderr)
  assert.match(lines[0], /^error: --out .*no-such-dir\/x\.json: the directory .*no-such-dir does not exist/)
})

test('a dump whose objects are all unrecognised (kinds in lower case) is an input error, not "No findings"', async () => {
  const path = join(dir, 'lower.yaml')
  writeFileSync(path, 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: node, metadata: {name: n1}}\n')
  const r = await runCli(['node', '-f', path])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^error: no Kubernetes object recognised in .*lower\.yaml: .*kind "node" is not a Kubernetes kind: kinds are case-sensitive \(Node\)/)
})
