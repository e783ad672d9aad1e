// The timeline of one node or pod, to scale: heartbeats, Lease renewals, grace expiry, conditions set Unknown, taints
// added, the taint-eviction timer, eviction deadlines, events and "now". Instants the tool estimated (the
// controller's in-memory probe time, the moment it saw a taint) are drawn hollow and dashed, with the reason in the
// title and in a numbered footnote for print.
import {h, type Html} from './h.js'
import {relativeTime} from '../../util/duration.js'
import {makeAxis} from './time-axis.js'

interface Mark {
  key: string
  label: string
  t: number
  estimated?: string
}

/** What each timeline field of the node and evicted explanations means, and why some are estimates. */
const KNOWN: Record<string, {label: string; estimated?: string}> = {
  lastHeartbeat: {label: 'Ready heartbeat'},
  lastRenewal: {label: 'Lease renewed'},
  probeEstimate: {
    label: 'controller saw last sign of life',
    estimated: 'the controller measures from when it noticed the heartbeat or renewal (its in-memory probe time): estimated as the newer of the two',
  },
  graceExpiry: {label: 'grace period ends', estimated: 'last sign of life as the controller saw it (estimated) plus the grace period'},
  markedUnknown: {label: 'conditions set Unknown'},
  noExecuteTaintAdded: {label: 'NoExecute taint added'},
  noExecuteTaintRemoved: {label: 'NoExecute taint removed (handleDisruption: entering master disruption mode)'},
  expectedTaintBy: {label: 'taint expected by', estimated: 'when the rate-limited taint queue should reach this node, from the zone rate'},
  taintAdded: {label: 'taint added'},
  controllerSawTaint: {
    label: 'eviction timer starts',
    estimated: "the taint-eviction controller starts its timer when its informer delivers the taint: taken as the taint's timeAdded",
  },
  evictionDeadline: {label: 'eviction deadline', estimated: "the timer's start (estimated) plus the smallest tolerationSeconds"},
  // Observed: the pod's own record (its TaintManagerEviction event or DisruptionTarget condition), as the terminal and
  // the JSON (an instant, not the `estimate` object) have it.
  markedForDeletion: {label: 'marked for deletion'},
  disruptedAt: {label: 'disrupted (the actor the pod names)'},
  now: {label: 'now'},
}

function labelOf(key: string): string {
  return KNOWN[key]?.label ?? key.replace(/([A-Z])/g, ' $1').toLowerCase()
}

export function timelineMarks(timeline: Record<string, unknown>, estimatedKeys: ReadonlySet<string> = new Set()): Mark[] {
  const marks: Mark[] = []
  for (const [key, value] of Object.entries(timeline)) {
    if (typeof value !== 'string') continue
    const t = Date.parse(value)
    if (Number.isNaN(t)) continue
    const estimated = KNOWN[key]?.estimated ?? (estimatedKeys.has(key) ? 'estimated by the replay' : undefined)
    marks.push({key, label: labelOf(key), t, ...(estimated ? {estimated} : {})})
  }
  return marks.sort((a, b) => a.t - b.t)
}

const WIDTH = 880
const LEFT = 20
const RIGHT = 20

/** One SVG timeline and its footnotes; `footnoteStart` numbers footnotes across the page. */
export function renderTimeline(title: string, timeline: Record<string, unknown>, footnoteStart = 1): {svg: Html; footnotes: Html[]; count: number} {
  const marks = timelineMarks(timeline)
  if (marks.length === 0) return {svg: h('p', {class: 'muted'}, 'No instants recorded.'), footnotes: [], count: 0}
  const now = marks.find((m) => m.key === 'now')?.t ?? marks.at(-1)!.t
  const axis = makeAxis(
    marks.map((m) => m.t),
    LEFT,
    WIDTH - LEFT - RIGHT,
  )
  const rows = marks.length
  const axisY = 30 + rows * 22
  const height = axisY + 34
  const footnotes: Html[] = []
  let n = footnoteStart
  const items = marks.map((m, i) => {
    const x = axis.x(m.t)
    const y = 24 + i * 22
    const when = `${new Date(m.t).toISOString()} (${relativeTime(m.t, now)})`
    const note = m.estimated ? n++ : undefined
    if (note !== undefined) footnotes.push(h('li', {value: note, 'data-footnote': m.key}, h('strong', null, m.label), ` — estimated: ${m.estimated}.`))
    const anchorEnd = x > WIDTH * 0.6
    const text = `${m.label}${note !== undefined ? ` [${note}]` : ''} · ${new Date(m.t).toISOString().slice(11, 19)}Z`
    return h(
      'g',
      {class: `mark${m.estimated ? ' estimated' : ''}${m.key === 'now' ? ' now' : ''}`, 'data-key': m.key, 'data-time': new Date(m.t).toISOString()},
      h('title', null, `${m.label}: ${when}${m.estimated ? ` — estimated: ${m.estimated}` : ''}`),
      h('line', {x1: x, y1: y + 4, x2: x, y2: axisY, class: 'stem'}),
      m.estimated
        ? h('rect', {x: x - 5, y: y - 5, width: 10, height: 10, transform: `rotate(45 ${x} ${y})`, class: 'dot'})
        : h('circle', {cx: x, cy: y, r: 5, class: 'dot'}),
      h('text', {x: anchorEnd ? x - 9 : x + 9, y: y + 4, 'text-anchor': anchorEnd ? 'end' : 'start'}, text),
    )
  })
  const ticks = axis.ticks.map((tk) =>
    h(
      'g',
      {class: 'tick'},
      h('line', {x1: axis.x(tk.t), y1: axisY, x2: axis.x(tk.t), y2: axisY + 6}),
      h('text', {x: axis.x(tk.t), y: axisY + 20, 'text-anchor': 'middle'}, tk.label),
    ),
  )
  const svg = h(
    'svg',
    {class: 'timeline', viewBox: `0 0 ${WIDTH} ${height}`, width: '100%', role: 'img', 'aria-label': `${title}: timeline of ${marks.length} instants`},
    h('title', null, `${title}: timeline`),
    h('line', {x1: LEFT, y1: axisY, x2: WIDTH - RIGHT, y2: axisY, class: 'axis'}),
    ticks,
    items,
    h('text', {x: WIDTH - RIGHT, y: height - 2, 'text-anchor': 'end', class: 'axis-label'}, 'UTC'),
  )
  return {svg, footnotes, count: marks.length}
}
