import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {displayWidth, fitColumns, Progress, progressLine} from '../../src/render/progress.js'

function stream(isTTY: boolean, columns?: number) {
  const written: string[] = []
  return {written, isTTY, columns, write: (t: string) => written.push(t)}
}

describe('Progress', () => {
  it('rewrites one line on a terminal and clears it once before the answer', () => {
    const s = stream(true, 80)
    const p = new Progress(s)
    p.line!('listing pods')
    p.line!('listing nodes')
    p.clear()
    p.clear()
    assert.deepEqual(s.written, ['\r\u001B[2Klisting pods', '\r\u001B[2Klisting nodes', '\r\u001B[2K'])
  })

  it('shows nothing when stderr is not a terminal, unless always: then only final ones', () => {
    assert.equal(new Progress(stream(false)).line, undefined)
    const s = stream(false)
    const p = new Progress(s, 'always')
    p.line!('listing pods 500/1000')
    p.line!('pods listed', true)
    p.clear()
    assert.deepEqual(s.written, ['pods listed\n'])
  })

  it('never: nothing, even on a terminal', () => {
    assert.equal(new Progress(stream(true, 80), 'never').line, undefined)
  })

  it('keeps a long line within width-1 columns of its terminal, read at each line', () => {
    const s = stream(true, 20)
    const p = new Progress(s)
    p.line!('audit: listing pods in namespace shop-production')
    s.columns = 30
    p.line!('audit: listing pods in namespace shop-production')
    // 19 and 29 columns: 18 and 28 characters of text, then the ellipsis.
    assert.deepEqual(s.written, ['\r\u001B[2Kaudit: listing pod…', '\r\u001B[2Kaudit: listing pods in names…'])
  })

  it('a terminal reporting no width is taken as 80 columns', () => {
    const s = stream(true)
    new Progress(s).line!('x'.repeat(200))
    assert.equal(s.written[0], `\r\u001B[2K${'x'.repeat(78)}…`)
  })
})

describe('progressLine', () => {
  it('a count gives a bar with it first: 23/48 fills round(23/48*10) = 5 of 10 cells', () => {
    assert.equal(progressLine('audit: listed 23/48 kinds, 900 objects read', 100), '[#####-----] audit: listed 23/48 kinds, 900 objects read')
  })
  it('a newline in the text stays on one row', () => {
    assert.equal(progressLine('reading\nfile a', 80), 'reading file a')
  })
})

describe('display width', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    // 名前 are CJK ideographs (EastAsianWidth W); e + U+0301 is one column.
    assert.equal(displayWidth('ns/名前'), 7)
    assert.equal(displayWidth('e\u0301'), 1)
    // 6 columns of room: "ab" (2) + "名" (2) = 4, the next "前" would make 6 with no room for "…".
    assert.equal(fitColumns('ab名前cd', 6), 'ab名…')
  })
})
