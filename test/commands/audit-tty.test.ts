// On a terminal the audit shows a progress line on stderr (kinds listed, objects read, the check running), rewritten in
// place and cleared before the report; off a terminal it says nothing on stderr unless --progress (audit.test.ts).
// The terminal is a pseudo-terminal from util-linux script(1); skipped, saying so, where there is none.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {BIN} from '../support/cli.js'

const INCIDENT = fileURLToPath(new URL('../../examples/incident.yaml', import.meta.url))
const hasScript = spawnSync('script', ['--version']).status === 0
const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')

test('a progress line on a terminal, cleared before the report', {
  skip: hasScript ? false : 'script(1) is not installed: no pseudo-terminal to run the CLI on',
}, async () => {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const command = [process.execPath, BIN, 'audit', '-A', '-f', INCIDENT, '--fail-on', 'none'].map(quote).join(' ')
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {env: {...process.env, NO_COLOR: '1', COLUMNS: '200'}})
    let text = ''
    child.stdout.on('data', (d: Buffer) => (text += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}: ${text}`))))
    child.stdin.end()
  })
  // What a terminal gets: the line cleared (CR, then ESC [2K erase line) and rewritten.
  const CLEAR = '\r\u001B[2K'
  assert.match(out, new RegExp(`${escapeRegExp(CLEAR)}audit: listed \\d+/\\d+ kinds, \\d+ objects read`))
  assert.ok(out.includes(`${CLEAR}audit: replicas: replaying`))
  // The line is cleared, then the report starts.
  assert.ok(out.includes(`${CLEAR}kubectl why audit — all namespaces`))
})
