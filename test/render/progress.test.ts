import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {Progress} from '../../src/render/progress.js'

function stream(isTTY: boolean) {
  const written: string[] = []
  return {written, isTTY, write: (t: string) => written.push(t)}
}

describe('Progress', () => {
  it('rewrites one line on a terminal and clears it once before the answer', () => {
    const s = stream(true)
    const p = new Progress(s)
    p.line!('listing pods')
    p.line!('listing nodes')
    p.clear()
    p.clear()
    assert.deepEqual(s.written, ['\r\u001B[2Klisting pods', '\r\u001B[2Klisting nodes', '\r\u001B[2K'])
  })

  it('shows nothing when stderr is not a terminal, unless log lines are asked for: then only final ones', () => {
    assert.equal(new Progress(stream(false)).line, undefined)
    const s = stream(false)
    const p = new Progress(s, true)
    p.line!('listing pods 500/1000')
    p.line!('pods listed', true)
    p.clear()
    assert.deepEqual(s.written, ['pods listed\n'])
  })
})
