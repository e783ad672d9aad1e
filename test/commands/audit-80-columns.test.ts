// Issue 28.3: the audit's default table at 80 columns (COLUMNS=80, as a terminal of that width gives it; LINES large
// so that every finding is shown). Every line fits, except a next step's command, which stands whole past the width
// rather than being cut or broken (it is pasted); the header and the COVERED cells wrap at word boundaries, so their
// words read back in order; nothing is cut with "…". In a pipe (no COLUMNS) each line stays whole, as kubectl's do.
// Run `npm run build` first.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))
const columns = (line: string) => [...line].length
// biome-ignore lint/suspicious/noExplicitAny: the report's JSON, read field by field
type Any = any

describe('audit at 80 columns', () => {
  for (const name of ['incident.yaml', 'gc-forbidden-owner.json', 'node-zone-outage.json']) {
    test(`${name}: every line within 80 columns but whole commands; the header's words in order`, async () => {
      const args = ['audit', '-A', '-f', example(name), '--fail-on', 'none']
      const [tty, pipe, json] = await Promise.all([runCli(args, {env: {COLUMNS: '80', LINES: '1000'}}), runCli(args), runCli([...args, '-o', 'json'])])
      assert.ok(tty.code === 0 || tty.code === 1, tty.stderr) // 1: an incomplete audit fails whatever --fail-on says
      const commands = new Set<string>()
      for (const f of JSON.parse(json.stdout).findings as Any[]) for (const n of f.next ?? []) if (n.commandInForce) commands.add(n.commandInForce)
      const lines = tty.stdout.split('\n')
      for (const l of lines) {
        if (columns(l) <= 80) continue
        // Past the width only a command to paste (a next step's, or the rule a refused read needs), alone on its line.
        assert.ok(commands.has(l.trim()) || /^ +kubectl create (cluster)?role /.test(l), `wider than 80 columns: ${l}`)
      }
      assert.doesNotMatch(tty.stdout, /\S…(\s|$)/, 'nothing cut with "…"')
      // The header: one line in a pipe; at 80 columns the same words, wrapped between words (continuations indented).
      const header = pipe.stdout.split('\n')[0]
      assert.match(header, /^kubectl why audit — /)
      const wrapped = [lines[0]]
      for (const l of lines.slice(1)) {
        if (!/^ {2}\S/.test(l) || /^CHECK /.test(l)) break
        wrapped.push(l.trim())
      }
      assert.ok(columns(header) <= 80 || wrapped.length > 1, 'a header wider than 80 columns is wrapped')
      assert.equal(wrapped.join(' '), header)
      // COVERED: each check's coverage text read back whole from its cell and the continuation lines under it.
      const summary = JSON.parse(json.stdout).summary.checks as Any[]
      const at = lines.findIndex((l) => /^CHECK +STATUS/.test(l))
      const col = lines[at].indexOf('COVERED')
      for (const c of summary.filter((x) => x.status === 'complete' || x.status === 'partial')) {
        const row = lines.findIndex((l, i) => i > at && l.startsWith(`${c.name} `))
        const cell = [lines[row].slice(col)]
        for (let i = row + 1; i < lines.length && /^ +\S/.test(lines[i]) && lines[i].search(/\S/) === col; i++) cell.push(lines[i].slice(col))
        assert.equal(cell.join(' '), c.coverage.text, `the ${c.name} row's COVERED cell`)
      }
    })
  }
})

describe('the --all reports at 80 columns (a pipe: prose wraps to 80)', () => {
  for (const args of [
    ['replicas', '--all', '-A', '-f', example('replicas-quota.yaml')],
    ['gc', '--all', '-A', '-f', example('gc-recreated-deployment.json')],
  ]) {
    test(`${args[0]} --all: every line but a command within 80 columns; the header wrapped between words`, async () => {
      const r = await runCli(args)
      assert.ok(r.code === 0 || r.code === 1, r.stderr)
      const lines = r.stdout.split('\n')
      // The header's first line, then its continuation (indented 2), hold the report's scope and instant whole.
      assert.match(`${lines[0]} ${lines[1].trim()}`, /replay — all namespaces: .* evaluated at \d{4}-\d\d-\d\dT[\d:.]+Z$/)
      for (const [i, l] of lines.entries()) {
        if (columns(l) <= 80) continue
        // A next step's command stands whole past the width: the line after it is its why, a shell comment.
        assert.match(l, /^ +kubectl /, `wider than 80 columns: ${l}`)
        assert.match(lines[i + 1], /^ +# /)
      }
    })
  }
})
