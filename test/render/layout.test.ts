// The one layout: prose wrapped at word boundaries, kubectl's table style, the aligned key/value block. Expected
// lines worked by hand (column widths counted in the comments).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ROLE, stripAnsi} from '../../src/render/colour.js'
import {keyValues, PIPE_WIDTH, table, tableWidth, terminalWidth, wrap} from '../../src/render/layout.js'
import chalk from 'chalk'
import {withoutColours} from '../support/plain-colours.js'

withoutColours()

const SUMMARY =
  'Will be evicted at ≈ 2026-11-29T04:01:22Z, in 51m22s: 1h (the smallest first-match tolerationSeconds when the timer was armed) after the controller first saw it with the taint (≈ 2026-11-29T03:01:22Z, timeAdded of node.kubernetes.io/unreachable:NoExecute), owner uid 6f1c2a9e-3b7d-4c8e-9a0f-1d2e3f4a5b6c.'
const words = SUMMARY.split(' ')

describe('wrap', () => {
  for (const width of [40, 80, 120]) {
    it(`at ${width} columns: no word cut, no line too long unless it is one word, nothing lost`, () => {
      const lines = wrap(SUMMARY, width, {indent: 2, hanging: 4})
      for (const l of lines) {
        const text = l.trim()
        assert.ok(l.length <= width || !text.includes(' '), `too long at ${width}: ${JSON.stringify(l)}`)
        // every piece of every line is a whole word of the text: a word cut in two would leave a piece that is not
        for (const piece of text.split(' ')) assert.ok(words.includes(piece), `cut word ${JSON.stringify(piece)}`)
      }
      assert.deepEqual(
        lines
          .map((l) => l.trim())
          .join(' ')
          .split(' '),
        words,
      )
      assert.ok(lines[0].startsWith('  Will'))
      for (const l of lines.slice(1)) assert.match(l, /^ {4}\S/)
    })
  }

  it('a worked example: three lines of at most 10 columns', () => {
    assert.deepEqual(wrap('the quick brown fox jumps', 10), ['the quick', 'brown fox', 'jumps'])
    // "  aaa bbb" is 9 columns; "ccc" goes to a line indented by the hanging 4
    assert.deepEqual(wrap('aaa bbb ccc', 9, {indent: 2, hanging: 4}), ['  aaa bbb', '    ccc'])
  })

  it('leaves an unbreakable token (a uid) whole on its own line, past the width', () => {
    const uid = '6f1c2a9e-3b7d-4c8e-9a0f-1d2e3f4a5b6c' // 36 columns
    assert.deepEqual(wrap(`owner uid ${uid} is gone`, 20), ['owner uid', uid, 'is gone'])
  })

  it('measures colour escapes as taking no room', () => {
    chalk.level = 1
    try {
      const lines = wrap(`${ROLE.heading('aaa')} ${ROLE.bad('bbb')} ccc`, 7)
      assert.deepEqual(lines.map(stripAnsi), ['aaa bbb', 'ccc'])
    } finally {
      chalk.level = 0
    }
  })

  it("keeps the text's own line breaks", () => {
    assert.deepEqual(wrap('one\ntwo three', 5), ['one', 'two', 'three'])
  })
})

describe("table (kubectl's style)", () => {
  it('left-aligned columns two spaces apart, as wide as their widest cell, trailing spaces trimmed', () => {
    // column 1 is 4 wide ("long"), column 2 is 2 wide ("BB")
    assert.deepEqual(
      table(
        ['A', 'BB'],
        [
          ['x', 'y'],
          ['long', 'z'],
        ],
      ),
      ['A     BB', 'x     y', 'long  z'],
    )
  })

  it('aligns on what shows: a coloured cell takes its visible width', () => {
    chalk.level = 1
    try {
      const lines = table(
        ['V', 'N'],
        [
          [ROLE.bad('bad'), 'a'],
          ['ok', 'b'],
        ],
      ).map(stripAnsi)
      assert.deepEqual(lines, ['V    N', 'bad  a', 'ok   b'])
    } finally {
      chalk.level = 0
    }
  })

  it('wraps the wrap column at word boundaries when a row is too wide, cutting nothing else', () => {
    // widths 2 + 16 + 2 spaces = 20 > 14: REASON narrows by 6 to 10; "alpha beta" fits, "gamma" continues
    const lines = table(['N', 'REASON'], [['n1', 'alpha beta gamma']], {width: 14, wrapColumn: 1, minWrapWidth: 4})
    assert.deepEqual(lines, ['N   REASON', 'n1  alpha beta', '    gamma'])
  })

  it('never narrows the wrap column below its longest word, so the next column stays aligned', () => {
    // "deleting(foregroundDeletion)" is 28 columns and is not cut: the column keeps 28 although 20 would fit
    const lines = table(
      ['R', 'AGE'],
      [
        ['waiting ctrl block', '5h'],
        ['deleting(foregroundDeletion)', '2d'],
      ],
      {width: 20, wrapColumn: 0, minWrapWidth: 4},
    )
    assert.deepEqual(lines, ['R                             AGE', 'waiting ctrl block            5h', 'deleting(foregroundDeletion)  2d'])
  })

  it('indents every row', () => {
    assert.deepEqual(table(['A'], [['x']], {indent: 2}), ['  A', '  x'])
  })
})

describe('keyValues (the settings block)', () => {
  it('starts every value in one column and every note in the next', () => {
    // keys 8 wide, values 2 wide: notes at 2 + 8 + 2 + 2 + 2 = column 16
    const lines = keyValues(
      [
        {key: 'a', value: '1', note: 'x'},
        {key: 'long-key', value: '22', note: 'y'},
      ],
      80,
    )
    assert.deepEqual(lines, ['  a         1   x', '  long-key  22  y'])
  })

  it('a value too wide for the value column puts its note underneath, in the note column', () => {
    // room for values: (80 - 2 - 3 - 4) / 3 = 23 columns; the 40-column value does not widen the column
    const long = 'kube-system/kube-controller-manager-cp-1'
    const lines = keyValues(
      [
        {key: 'kcm', value: long, note: 'its static pod'},
        {key: 'k8s', value: '1.33', note: 'the server'},
      ],
      80,
    )
    assert.deepEqual(lines, [`  kcm  ${long}`, '             its static pod', '  k8s  1.33  the server'])
  })

  it('wraps a long note at word boundaries, every line in the note column', () => {
    const lines = keyValues([{key: 'k', value: 'v', note: 'default for Kubernetes 1.33 (the server version)'}], 30)
    // note column 2 + 1 + 2 + 1 + 2 = 6
    assert.deepEqual(lines, ['  k  v  default for Kubernetes', '        1.33 (the server', '        version)'])
  })
})

describe('terminalWidth', () => {
  it("is the terminal's columns, or 80 through a pipe", () => {
    assert.equal(terminalWidth({isTTY: true, columns: 132}), 132)
    assert.equal(terminalWidth({isTTY: false, columns: 132}), PIPE_WIDTH)
    assert.equal(terminalWidth({}), 80)
  })
  it("tables: the terminal's columns, no limit through a pipe (rows stay whole for grep, as kubectl's)", () => {
    assert.equal(tableWidth({isTTY: true, columns: 100}), 100)
    assert.equal(tableWidth({isTTY: false, columns: 100}), undefined)
  })
})
