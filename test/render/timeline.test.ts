// The text timeline fits the room its view has: the axis shrinks (down to 12 cells) so that label, axis, time and age
// fit, and stays at 48 cells when there is room. Widths worked by hand from the row's parts.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {renderTimeline} from '../../src/render/timeline.js'

process.env.NO_COLOR = '1'
const marks = [
  {label: 'last heartbeat', at: '2026-11-29T02:57:40Z'},
  {label: 'grace expires', at: '2026-11-29T03:00:48Z', estimated: true},
  {label: 'now', at: '2026-11-29T03:10:00Z'},
]
const rows = (s: string) => s.split('\n').filter((l) => l.includes('●'))
const axis = (row: string) => (row.match(/[·●]+ */)?.[0] ?? '').length

test('with room the axis is 48 cells; at 80 columns a row is 2 + 15 (the widest label, "grace expires ~") + 2 + axis + 2 + 8 + 2 + 10 ("12m20s ago") = 80', () => {
  const wide = rows(renderTimeline(marks, '2026-11-29T03:10:00Z'))
  assert.equal(axis(wide[1]), 48 + 2) // the axis and the two spaces before the time
  const at80 = rows(renderTimeline(marks, '2026-11-29T03:10:00Z', 80))
  // 80 - (2 + 15 + 2 + 2 + 8 + 2 + 10) = 39 cells.
  assert.equal(axis(at80[1]), 39 + 2)
  for (const r of at80) assert.ok([...r].length <= 80, r)
  // The heartbeat at the left end, now at the right end of the 39 cells.
  assert.match(at80[0], /^ {2}last heartbeat {3}● {38} {2}02:57:40/)
  assert.match(at80[2], /^ {2}now {14}·{38}● {2}03:10:00/)
})

test('never narrower than 12 cells: a row may then pass a very narrow width rather than lose the scale', () => {
  const r = rows(renderTimeline(marks, '2026-11-29T03:10:00Z', 20))
  assert.equal(axis(r[1]), 12 + 2)
})
