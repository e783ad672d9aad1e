// A file of a dump directory that could not be read (no permission), or not past an error (corrupt YAML), may have
// held any kind: the audit of the rest is incomplete — in the text summary, the JSON summary (complete: false, the
// file in incomplete) and the JUnit report (an error case) — and --fail-on-partial makes it exit 1. Before, the file
// was only listed: "complete", exit 0 with --fail-on none, and the corrupt file a passing JUnit case. Runs the built
// CLI (npm run build first).
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {chmodSync, copyFileSync, mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {BIN, runCli} from '../../support/cli.js'

const EXAMPLE = fileURLToPath(new URL('../../../examples/node-zone-outage.json', import.meta.url))

function dumpWith(name: string, text: string): string {
  const root = mkdtempSync(join(tmpdir(), 'unread-incomplete-'))
  chmodSync(root, 0o755)
  const dir = join(root, 'dump')
  mkdirSync(dir, {mode: 0o755})
  copyFileSync(EXAMPLE, join(dir, 'cluster.json'))
  chmodSync(join(dir, 'cluster.json'), 0o644)
  writeFileSync(join(dir, name), text)
  return dir
}

/** --fail-on none: findings alone never fail, so the exit code is the completeness verdict. */
async function audit(dir: string, format: string, extra: string[] = [], run = runCli) {
  return run(['audit', '-f', dir, '--fail-on', 'none', '-o', format, ...extra])
}

function checkIncomplete(file: string, r: {table: string; json: string; junit: string}) {
  const report = JSON.parse(r.json) as {summary: {complete: boolean; incomplete: string[]; exitCode: number}}
  assert.equal(report.summary.complete, false)
  assert.equal(report.summary.exitCode, 1)
  assert.ok(
    report.summary.incomplete.some((l) => l.startsWith(`source: ${file}: not read`)),
    report.summary.incomplete.join('\n'),
  )
  assert.match(r.table, new RegExp(`incomplete: source: ${file.replaceAll('.', '\\.')}: not read`))
  assert.match(r.junit, /<testsuites name="kubectl-why audit" tests="\d+" failures="\d+" errors="1"/)
  assert.match(
    r.junit,
    new RegExp(
      `<testcase name="source: ${file.replaceAll('.', '\\.')}" classname="kubectl-why.source" time="0">\\s*<error message="[^"]*not read[^"]*" type="notRead">`,
    ),
  )
}

test('a corrupt YAML file in a dump directory: the audit is incomplete in text, JSON and JUnit, exit 1', async () => {
  const dir = dumpWith('corrupt.yaml', 'kind: List\nitems: [\n  - {')
  const out: Record<string, string> = {}
  for (const format of ['table', 'json', 'junit']) {
    const r = await audit(dir, format)
    assert.equal(r.code, 1, `${format}: ${r.stderr}`)
    out[format] = r.stdout
  }
  checkIncomplete(join(dir, 'corrupt.yaml'), out as {table: string; json: string; junit: string})
  // --no-fail-on-partial passes on the findings alone (none count with --fail-on none), still saying it is incomplete.
  const lenient = await audit(dir, 'json', ['--no-fail-on-partial'])
  assert.equal(lenient.code, 0, lenient.stderr)
  assert.equal((JSON.parse(lenient.stdout) as {summary: {complete: boolean}}).summary.complete, false)
})

test('a file without read permission (chmod 000) in a dump directory: incomplete, exit 1', async (t) => {
  const dir = dumpWith('locked.json', '{}')
  chmodSync(join(dir, 'locked.json'), 0o000)
  // root reads any file: run as nobody (setpriv) when the test runs as root.
  const root = process.getuid?.() === 0
  if (root && spawnSync('setpriv', ['--version']).status !== 0) return t.skip('running as root without setpriv: a chmod 000 file stays readable')
  const run = (args: string[]) =>
    new Promise<{code: number; stdout: string; stderr: string}>((resolve, reject) => {
      const argv = root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args] : [process.execPath, BIN, ...args]
      const child = spawn(argv[0], argv.slice(1), {env: {PATH: process.env.PATH ?? '', HOME: tmpdir(), NO_COLOR: '1'}})
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString()
      })
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString()
      })
      child.on('error', reject)
      child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr}))
    })
  const out: Record<string, string> = {}
  for (const format of ['table', 'json', 'junit']) {
    const r = await audit(dir, format, [], run as typeof runCli)
    assert.equal(r.code, 1, `${format}: ${r.stderr}`)
    out[format] = r.stdout
  }
  checkIncomplete(join(dir, 'locked.json'), out as {table: string; json: string; junit: string})
  assert.match(out.table, /locked\.json: not read: permission denied/)
})
