// The one colour map: colours come from src/render/colour.ts only, through chalk, so --color and NO_COLOR (which set
// chalk.level once in the base command) reach every terminal view.
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import {after, before, describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import chalk from 'chalk'
import {ROLE, SEVERITY, stripAnsi, visibleLength} from '../../src/render/colour.js'
import {terminalSafe} from '../../src/render/terminal-safe.js'

const RENDER = fileURLToPath(new URL('../../src/render/', import.meta.url))

let level: typeof chalk.level
before(() => {
  level = chalk.level
})
after(() => {
  chalk.level = level
})

describe('colour map', () => {
  it('paints by severity and role when colours are on, and leaves the text alone when they are off', () => {
    chalk.level = 1
    // As the terminal gets them: the colour map's escapes become ESC where text leaves (src/render/terminal-safe.ts).
    assert.equal(terminalSafe(SEVERITY.critical('x')), '\u001B[31m\u001B[1mx\u001B[22m\u001B[39m') // bold red
    assert.equal(terminalSafe(SEVERITY.none('x')), '\u001B[32mx\u001B[39m') // green
    assert.equal(terminalSafe(ROLE.muted('x')), '\u001B[2mx\u001B[22m') // dim
    chalk.level = 0
    for (const paint of [...Object.values(SEVERITY), ...Object.values(ROLE)]) assert.equal(paint('text'), 'text')
  })

  it('measures text on screen without the escapes', () => {
    chalk.level = 1
    const s = `${ROLE.heading('ab')} ${SEVERITY.warning('cd')}`
    assert.equal(stripAnsi(s), 'ab cd')
    assert.equal(visibleLength(s), 5)
  })

  it('no terminal renderer imports chalk itself', () => {
    // html has its own palette (CSS)
    const pending = new Set<string>()
    const files = readdirSync(RENDER).filter((f) => f.endsWith('.ts') && f !== 'colour.ts' && !pending.has(f))
    assert.ok(files.includes('gc.ts') && files.includes('node.ts'))
    for (const f of files) assert.doesNotMatch(readFileSync(`${RENDER}${f}`, 'utf8'), /from 'chalk'/, f)
  })
})
