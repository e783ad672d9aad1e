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
  assert.match(out, new RegExp(`${escapeRegExp(CLEAR)}(\\[[#-]{10}\\] )?audit: listed \\d+/\\d+ kinds, \\d+ objects read`))
  assert.ok(out.includes(`${CLEAR}audit: replicas: replaying`))
  // The line is cleared, then the report starts.
  assert.ok(out.includes(`${CLEAR}kubectl why audit — all namespaces`))
})

// What a person sees: the screen of a real terminal emulator (tmux) at 80 and 100 columns after the audit, read with
// capture-pane. A progress line longer than the width wraps, and `\r\x1b[2K` erases only the cursor's row, so an uncut
// line leaves its first rows on the screen (issue 28: 33 stale rows at 80 columns); the screen must hold none.
const hasTmux = spawnSync('tmux', ['-V']).status === 0
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

async function tmuxScreen(columns: number, args: string[]): Promise<{screen: string; joined: string; raw: string}> {
  const {mkdtempSync, readFileSync, rmSync} = await import('node:fs')
  const {join} = await import('node:path')
  const {tmpdir} = await import('node:os')
  const dir = mkdtempSync(join(tmpdir(), 'why-tty-'))
  const socket = `why-tty-${process.pid}-${columns}`
  const tmux = (...a: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...a], {encoding: 'utf8'})
  try {
    const command = [process.execPath, BIN, ...args].map(sh).join(' ')
    // The command waits for "go" so that the raw stream is recorded (pipe-pane) from its first byte.
    const script = `tmux -L ${socket} wait-for go; NO_COLOR=1 ${command}; echo __DONE__; sleep 60`
    assert.equal(tmux('new-session', '-d', '-x', String(columns), '-y', '200', 'bash', '-c', script).status, 0)
    tmux('pipe-pane', '-o', `cat > ${sh(join(dir, 'raw'))}`)
    tmux('wait-for', '-S', 'go')
    let screen = ''
    for (let i = 0; i < 300 && !screen.includes('__DONE__'); i++) {
      await new Promise((r) => setTimeout(r, 100))
      screen = tmux('capture-pane', '-p', '-S', '-').stdout
    }
    assert.ok(screen.includes('__DONE__'), `the audit did not finish in the terminal:\n${screen}`)
    // -J: the screen's rows with the terminal's own soft wraps joined, as a copy from it gives them: a command wider
    // than the terminal is one line that wraps there, and copied it is whole (the tool never breaks it).
    const joined = tmux('capture-pane', '-p', '-J', '-S', '-').stdout
    return {screen, joined, raw: readFileSync(join(dir, 'raw'), 'utf8')}
  } finally {
    tmux('kill-server')
    rmSync(dir, {recursive: true, force: true})
  }
}

for (const columns of [80, 100]) {
  test(`at ${columns} columns the progress leaves no residue and each finding shows a pasteable next step`, {
    skip: hasTmux ? false : 'tmux is not installed: no terminal emulator to read the screen of',
  }, async () => {
    const {screen, joined, raw} = await tmuxScreen(columns, ['audit', '-A', '-f', INCIDENT, '--fail-on', 'none'])
    // The progress was shown (the raw stream holds it), and cut: no progress write is wider than the terminal.
    const writes = raw
      .split('\r\u001B[2K')
      .slice(1)
      .map((w) => w.split('\n')[0])
    assert.ok(
      writes.some((w) => w.includes('audit: listed')),
      'a progress line was written',
    )
    for (const w of writes.filter((x) => x.includes('audit:'))) assert.ok([...w].length < columns, `progress write wider than ${columns}: ${w}`)
    // ...and the screen keeps none of it.
    assert.doesNotMatch(screen, /audit: (listed|listing|reading|replaying|replicas:|gc:|node:|evicted:|hash:)/)
    assert.match(screen, /^kubectl why audit/m)
    // Every finding line (severity first) is followed, before the next finding, by a next step naming the dump.
    const lines = screen.split('\n')
    const findings = lines.map((l, i) => [l, i] as const).filter(([l]) => /^(critical|warning|info) {2,}\w/.test(l))
    assert.equal(findings.length, 4, 'the incident has four findings')
    for (const [, i] of findings) {
      const rest = lines.slice(i + 1)
      const end = rest.findIndex((l) => /^(critical|warning|info) {2,}\w|^\S/.test(l))
      const block = rest.slice(0, end < 0 ? undefined : end).join('\n')
      assert.match(block, /^ +kubectl (why )?\S.*$/m, `a next step under ${lines[i]}`)
    }
    assert.ok(joined.includes(`-f ${INCIDENT}`), 'next steps carry the dump they read')
    // Every kubectl-why command shown, copied from the screen, reads the same dump; none is cut with "…".
    const whyLines = joined.split('\n').filter((l) => /^ +kubectl why /.test(l))
    assert.ok(whyLines.length > 0, 'a kubectl-why next step is shown')
    for (const l of whyLines) assert.ok(l.trimEnd().endsWith(`-f ${INCIDENT}`), `whole, with the dump: ${l}`)
    assert.doesNotMatch(joined, /^ +kubectl.*…/m)
  })
}
