// The terminal sanitiser and the colour map together: every control a text output carries is shown (kubectl's "^["
// for ESC and "\r" for CR, from staging/src/k8s.io/cli-runtime/pkg/printers/terminal.go; \xNN for the other C0
// controls, DEL and C1), newline and tab are kept, and only the colour map's own escapes reach the terminal as ESC.
import assert from 'node:assert/strict'
import {after, before, describe, it} from 'node:test'
import chalk from 'chalk'
import {ROLE, SEVERITY, stripAnsi, visibleLength} from '../../src/render/colour.js'
import {COLOUR_MARK, escapeControls, terminalSafe} from '../../src/render/terminal-safe.js'

let level: typeof chalk.level
before(() => {
  level = chalk.level
})
after(() => {
  chalk.level = level
})

describe('terminalSafe', () => {
  it('shows ESC as ^[ and CR as \\r, as kubectl does', () => {
    assert.equal(terminalSafe('a\u001b[2Jb\rc'), 'a^[[2Jb\\rc')
  })

  it('shows the other C0 controls, DEL and C1 as \\xNN; keeps newline and tab', () => {
    assert.equal(terminalSafe('\u0000\u0007\u0008\u000b\u000c\u001f\u007f\u0080\u009b\u009f'), '\\x00\\x07\\x08\\x0b\\x0c\\x1f\\x7f\\x80\\x9b\\x9f')
    assert.equal(terminalSafe('one\ttwo\nthree'), 'one\ttwo\nthree')
    // Printable text around them, and characters just outside the ranges (space, ~, U+00A0, é), untouched.
    assert.equal(terminalSafe(' ~\u00a0é'), ' ~\u00a0é')
  })

  it('an OSC window title and an OSC 8 link are shown, not obeyed', () => {
    assert.equal(terminalSafe('\u001b]0;pwned\u0007'), '^[]0;pwned\\x07')
    assert.equal(terminalSafe('\u001b]8;;https://evil\u001b\\click\u001b]8;;\u001b\\'), '^[]8;;https://evil^[\\click^[]8;;^[\\')
  })

  it('is the identity on text without controls (the common case costs a test)', () => {
    const s = 'Node worker-c1 status is now: NodeNotReady'
    assert.equal(terminalSafe(s), s)
    assert.equal(escapeControls(s), s)
  })
})

describe('colour map and sanitiser', () => {
  it('the colour map paints with marks that become ESC only at the exit', () => {
    chalk.level = 1
    const painted = SEVERITY.critical('x')
    assert.ok(!painted.includes('\u001b'))
    assert.equal(terminalSafe(painted), '\u001B[31m\u001B[1mx\u001B[22m\u001B[39m') // bold red, as chalk writes it
    assert.equal(terminalSafe(ROLE.muted('x')), '\u001B[2mx\u001B[22m')
  })

  it('data painted by the colour map keeps its controls shown: colour around a hostile string cannot free it', () => {
    chalk.level = 1
    const hostile = 'web\u001b[8m\u001b[2J'
    assert.equal(terminalSafe(ROLE.bad(hostile)), '\u001B[31mweb^[[8m^[[2J\u001B[39m')
    // The same string unpainted, next to a painted one.
    assert.equal(terminalSafe(`${hostile} ${ROLE.good('ok')}`), 'web^[[8m^[[2J \u001B[32mok\u001B[39m')
  })

  it('a raw SGR in the data is not a colour: it is shown (no forged colour, no conceal)', () => {
    chalk.level = 0
    assert.equal(terminalSafe('\u001b[31mFAKE\u001b[0m'), '^[[31mFAKE^[[0m')
  })

  it('nested paints re-open the outer style, as chalk does with raw escapes', () => {
    chalk.level = 1
    const nested = terminalSafe(ROLE.muted(`a ${ROLE.heading('b')} c`))
    // dim, then bold b; bold's close (22) also ends dim, so chalk re-opens dim (2) before " c".
    assert.equal(nested, '\u001B[2ma \u001B[1mb\u001B[22m\u001B[2m c\u001B[22m')
  })

  it('measures what the terminal shows: marks take no room, a shown control takes its shown width', () => {
    chalk.level = 1
    assert.equal(visibleLength(`${ROLE.heading('ab')} ${SEVERITY.warning('cd')}`), 5)
    assert.equal(stripAnsi(ROLE.heading('ab')), 'ab')
    // ESC[2J from the data is shown as ^[[2J: 5 columns.
    assert.equal(visibleLength('\u001b[2J'), 5)
  })

  it('the mark is private-use text no dump can be written to hold ahead of the run', () => {
    assert.equal(COLOUR_MARK.length, 4)
    for (const c of COLOUR_MARK) assert.ok(c.charCodeAt(0) >= 0xe000 && c.charCodeAt(0) < 0xf900)
  })
})
