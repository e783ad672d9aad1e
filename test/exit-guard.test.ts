// bin/exit-guard.js: a run that ends 0 having said nothing is a bug (exit 3, one line), and a stdout whose reader
// left early is not a success (141, as a shell reports kubectl's death by SIGPIPE). The first is driven with a
// process that does nothing (the state the silent gzip end left), the second through the built CLI (npm run build).
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {BIN} from './support/cli.js'

const GUARD = fileURLToPath(new URL('../bin/exit-guard.js', import.meta.url))
const run = (body: string) => spawnSync(process.execPath, ['-e', `require(${JSON.stringify(GUARD)}).guardExit();${body}`], {encoding: 'utf8'})

test('exit 0 with nothing written: exit 3 and one line', () => {
  const r = run('')
  assert.equal(r.status, 3)
  assert.equal(r.stdout, '')
  assert.match(r.stderr, /^error: internal error \(a bug in kubectl-why, not in your input\): the run ended without an answer or an error; [^\n]*\n$/)
})

test('an explicit process.exit(0) with nothing written: exit 3 too', () => {
  assert.equal(run('process.exit(0)').status, 3)
})

test('a progress redraw on stderr is not an answer', () => {
  assert.equal(run('process.stderr.write("\\r\\u001b[2Klisting pods")').status, 3)
})

test('an answer on stdout, or a line on stderr (snapshot --out says "wrote N objects"), exits as it chose', () => {
  const out = run('process.stdout.write("ok\\n")')
  assert.equal(out.status, 0)
  assert.equal(out.stdout, 'ok\n')
  assert.equal(run('process.stderr.write("wrote 3 objects to x.json\\n")').status, 0)
  // Other codes are the command's own: untouched.
  assert.equal(run('process.exitCode = 1').status, 1)
  assert.equal(run('process.exit(2)').status, 2)
})

test('the reader of stdout leaves early: exit 141, not 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'epipe-'))
  const items = Array.from({length: 20_000}, (_, i) => ({apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: `cm-${i}`, namespace: 'default'}}))
  const file = join(dir, 'big.json')
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'snapshot', '-f', file], {env: {...process.env, KUBECONFIG: '/nonexistent'}})
    // What `| head -c 1` does: take a little, then close.
    child.stdout.once('data', () => child.stdout.destroy())
    child.on('close', (c) => resolve(c))
  })
  assert.equal(code, 141)
})
