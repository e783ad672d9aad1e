// -o junit names every file of a dump directory that could not be read, one error case each: before, the table said
// "source: broken.json: not read: …" and the JUnit report dropped it, so a CI gate showed an audit of the rest as
// whole. Runs the built CLI (npm run build first).
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {copyFileSync, mkdirSync, mkdtempSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../../support/cli.js'

test('-o junit: an error case per unreadable file of a dump directory (a broken link, a FIFO), counted in errors', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'junit-unread-')), 'dump')
  mkdirSync(dir)
  copyFileSync(fileURLToPath(new URL('../../../examples/node-zone-outage.json', import.meta.url)), join(dir, 'cluster.json'))
  symlinkSync('/nonexistent/gone.json', join(dir, 'broken.json'))
  const fifo = spawnSync('mkfifo', [join(dir, 'pipe.json')]).status === 0
  const r = await runCli(['audit', '-f', dir, '-o', 'junit'])
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  const unread = fifo ? ['broken.json', 'pipe.json'] : ['broken.json']
  for (const name of unread) {
    const at = r.stdout.indexOf(`<testcase name="source: ${name}" classname="kubectl-why.source"`)
    assert.ok(at >= 0, `${name} has its case:\n${r.stdout.slice(0, 800)}`)
    assert.match(
      r.stdout.slice(at, r.stdout.indexOf('</testcase>', at)),
      new RegExp(`<error message="${name.replace('.', '\\.')}: not read: [^"]+" type="notRead">`),
    )
  }
  // The totals count them: errors = the unreadable files (no check errs otherwise).
  assert.match(r.stdout, new RegExp(`<testsuites name="kubectl-why audit" tests="\\d+" failures="\\d+" errors="${unread.length}"`))
  assert.ok(!r.stdout.includes('cluster.json: not read'), 'the readable file is not named as unread')
})
