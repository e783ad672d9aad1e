// An ASCII timeline, to scale: one row per instant (label, marker at its place between the earliest and the
// latest instant, the time), and an axis. Used by `kubectl why node NAME` and `kubectl why evicted pod/NAME`.
import {relativeTime} from '../util/duration.js'
import {ROLE} from './colour.js'

export interface TimelineMark {
  label: string
  /** RFC 3339, or null/undefined when the instant does not apply. */
  at: string | null | undefined
  /** Marks an estimate rather than something the API shows. */
  estimated?: boolean
}

/** The axis at its widest, and the narrowest it is drawn at before a row may pass the terminal's width. */
const WIDTH = 48
const MIN_WIDTH = 12

function clock(ms: number, sameDay: boolean): string {
  const s = new Date(ms).toISOString()
  return sameDay ? s.slice(11, 19) : s.replace('.000Z', 'Z').replace('T', ' ')
}

/**
 * `columns`: the room the view has (the terminal's width less the view's indent). The axis shrinks so that each row —
 * label, axis, time and age — fits it, down to MIN_WIDTH; the scale is then coarser, never cut.
 */
export function renderTimeline(marks: readonly TimelineMark[], nowIso: string, columns = Number.POSITIVE_INFINITY): string {
  const points = marks
    .filter((m) => m.at)
    .map((m) => ({...m, ms: Date.parse(m.at!)}))
    .sort((a, b) => a.ms - b.ms)
  if (points.length === 0) return ''
  const now = Date.parse(nowIso)
  const min = points[0].ms
  const max = points.at(-1)!.ms
  const span = max - min
  const sameDay = new Date(min).toISOString().slice(0, 10) === new Date(max).toISOString().slice(0, 10)
  const labelWidth = Math.max(...points.map((p) => p.label.length + (p.estimated ? 2 : 0)))
  const tail = Math.max(...points.map((p) => clock(p.ms, sameDay).length + 2 + relativeTime(p.ms, now).length))
  const width = Math.max(MIN_WIDTH, Math.min(WIDTH, columns - (2 + labelWidth + 2 + 2 + tail)))
  const out: string[] = []
  out.push(ROLE.heading(`Timeline (to scale, ${clock(min, false)} → ${clock(max, sameDay)}${sameDay ? ' UTC' : ''}):`))
  for (const p of points) {
    const pos = span === 0 ? 0 : Math.round(((p.ms - min) / span) * (width - 1))
    const line = `${'·'.repeat(pos)}●${' '.repeat(width - 1 - pos)}`
    const label = `${p.label}${p.estimated ? ' ~' : ''}`.padEnd(labelWidth)
    out.push(`  ${label}  ${p.label === 'now' ? ROLE.heading(line) : line}  ${clock(p.ms, sameDay)}  ${ROLE.muted(relativeTime(p.ms, now))}`)
  }
  out.push(`  ${' '.repeat(labelWidth)}  ${ROLE.muted(`└${'─'.repeat(Math.max(0, width - 2))}┘`)}`)
  if (points.some((p) => p.estimated)) out.push(ROLE.muted('  ~ estimated: the controller keeps these instants in memory only'))
  return `${out.join('\n')}\n`
}
