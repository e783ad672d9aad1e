// The human views of `kubectl why node`: all nodes grouped by zone (problems first) under a one-line cluster
// verdict, or one node with its steps and timeline; and the settings block every view ends with.
import type {Explanation, Severity} from '../explanation.js'
import {relativeTime} from '../util/duration.js'
import {ROLE, SEVERITY} from './colour.js'
import {partialLines, renderExplanations, stepLines, verdictLine} from './explanation-table.js'
import {keyValues, table, tableWidth, terminalWidth, wrap} from './layout.js'
import {nextStepBlock, type SourceInForce} from './next-steps.js'
import {renderTimeline} from './timeline.js'
import {compareStrings} from '../util/compare.js'

const RANK: Record<Severity, number> = {none: 0, info: 1, warning: 2, critical: 3}

interface NodeLine {
  name: string
  zone: string
  verdict: string
  severity: Severity
  ready: string | null
  lastSignOfLife: string
  graceExpiry: string
  noExecute: string
  noExecuteDetail?: string
  verdictOnceCaughtUp?: string
}
interface ZoneLine {
  name: string
  state: string
  counted: number
  ready: number
  notReady: number
  rate: number
  rateWhy: string
  pendingTaints: number
}

export function renderSettings(e: Explanation, wide: boolean, width = terminalWidth()): string {
  const settings = e.source.settings ?? {}
  const keys = Object.keys(settings)
  if (keys.length === 0) return ''
  const shown = keys.filter(
    (k) =>
      wide || !/^default for/.test(settings[k].from) || ['node-monitor-grace-period', 'node-monitor-period', 'NodeControllerLeaseCircuitBreaker'].includes(k),
  )
  const out = [
    ROLE.heading('Settings used:'),
    ...keyValues(
      shown.map((k) => ({key: k, value: String(settings[k].value ?? '—'), note: settings[k].from})),
      width,
    ),
  ]
  if (!wide) out.push(ROLE.muted('  (other values are release defaults; -o wide lists them all)'))
  return `${out.join('\n')}\n`
}

/**
 * The verdict's next steps (never done by the tool) in the one style of src/render/next-steps.ts: each command alone on
 * its line with the source in force, so that it pastes, its why as shell comments under it.
 */
export function renderNext(e: Explanation, width = terminalWidth(), src: SourceInForce = {}): string {
  const block = nextStepBlock(e.next, src, width)
  return block.length === 0 ? '' : `${block.join('\n')}\n\n`
}

function ago(iso: string, now: number): string {
  return relativeTime(Date.parse(iso), now)
}

export function renderCluster(e: Explanation, wide: boolean, width = terminalWidth(), src: SourceInForce = {}): string {
  const now = Date.parse(e.evaluatedAt)
  const zones = (e.zones as ZoneLine[]) ?? []
  const nodes = (e.nodes as NodeLine[]) ?? []
  const out: string[] = []
  out.push(verdictLine(e))
  out.push(...wrap(e.summary, width, {indent: 2}))
  out.push(...partialLines(e, width))
  if (wide) for (const s of e.steps) out.push(...stepLines(s, true, width))
  out.push('')
  const byZone = new Map<string, NodeLine[]>()
  for (const n of nodes) byZone.set(n.zone, [...(byZone.get(n.zone) ?? []), n])
  const worst = (list: NodeLine[]) => Math.max(0, ...list.map((n) => RANK[n.severity]))
  const zoneNames = [...byZone.keys()].sort((a, b) => worst(byZone.get(b)!) - worst(byZone.get(a)!) || compareStrings(a, b))
  for (const zn of zoneNames) {
    const z = zones.find((x) => x.name === zn)
    const list = byZone.get(zn)!.sort((a, b) => RANK[b.severity] - RANK[a.severity] || compareStrings(a.name, b.name))
    out.push(
      ROLE.heading(`Zone ${zn}`) +
        (z
          ? `  ${z.state}  ${z.counted} counted (${z.notReady} not ready), rate ${z.rate}/s${z.pendingTaints ? `, ${z.pendingTaints} taint(s) pending` : ''}`
          : '  (no counted node)'),
    )
    if (z && (wide || z.state !== 'Normal' || e.verdict === 'circuitOpen')) out.push(...wrap(z.rateWhy, width, {indent: 2}).map(ROLE.muted))
    const rows = list.map((n) => [
      n.name,
      SEVERITY[n.severity](n.verdict) + (n.verdictOnceCaughtUp ? ROLE.muted(` (then ${n.verdictOnceCaughtUp})`) : ''),
      n.ready ?? '—',
      ago(n.lastSignOfLife, now),
      ago(n.graceExpiry, now),
      n.noExecuteDetail ?? n.noExecute,
    ])
    out.push(
      ...table(['NODE', 'VERDICT', 'READY', 'LAST SIGN OF LIFE', 'GRACE EXPIRES', 'NOEXECUTE TAINT'], rows, {indent: 2, width: tableWidth(), wrapColumn: 5}),
    )
    out.push('')
  }
  const next = renderNext(e, width, src)
  if (next) out.push(next.trimEnd(), '')
  out.push(renderSettings(e, wide, width))
  return out.join('\n')
}

export function renderNode(e: Explanation, wide: boolean, width = terminalWidth(), src: SourceInForce = {}): string {
  const t = e.timeline as Record<string, string | null>
  const timeline = renderTimeline(
    [
      {label: 'last heartbeat', at: t.lastHeartbeat},
      {label: 'last renewal', at: t.lastRenewal},
      {label: 'last sign of life', at: t.probeEstimate, estimated: true},
      {label: 'grace expires', at: t.graceExpiry, estimated: true},
      {label: 'marked Unknown', at: t.markedUnknown},
      {label: 'NoExecute taint added', at: t.noExecuteTaintAdded},
      {label: 'NoExecute taint removed (master disruption entry)', at: t.noExecuteTaintRemoved},
      {label: 'taint expected by', at: t.expectedTaintBy, estimated: true},
      {label: 'now', at: t.now},
    ],
    t.now!,
    width,
  )
  const pods = e.pods as
    | {
        read: boolean
        total?: number
        evictedAtOnce?: number
        evictedAfterSeconds?: Record<string, number>
        toleratedForever?: number
        unaffected?: number
        againstTaints?: string[]
      }
    | undefined
  let podLine = ''
  if (pods?.read) {
    const after = Object.entries(pods.evictedAfterSeconds ?? {}).map(([s, n]) => `${n} after ${s}s`)
    const parts = [
      pods.evictedAtOnce ? `${pods.evictedAtOnce} at once` : '',
      ...after,
      pods.toleratedForever ? `${pods.toleratedForever} tolerate it forever` : '',
      pods.unaffected ? `${pods.unaffected} unaffected` : '',
    ].filter(Boolean)
    const text = `${ROLE.heading(`Pods on this node: ${pods.total}`)}${pods.againstTaints?.length ? ` — against ${pods.againstTaints.join(', ')}: ${parts.join(', ') || 'none'}` : ' — no NoExecute taint present or owed'}`
    podLine = `${wrap(text, width, {hanging: 2}).join('\n')}\n\n`
  }
  return `${renderExplanations([e], wide, width)}${renderNext(e, width, src)}${podLine}${timeline}${subSecond(t, width)}${readLines(e, wide, width)}\n${renderSettings(e, wide, width)}`
}

/** What was read to answer: each read and its object count; why with -o wide, and always for what was not read. */
function readLines(e: Explanation, wide: boolean, width: number): string {
  const reads = e.reads as {read: string; objects?: number; why: string}[] | undefined
  if (!reads?.length) return ''
  const out = [ROLE.heading('Read:')]
  for (const r of reads) {
    const count = r.objects === undefined ? '' : ` (${r.objects})`
    const text = wide || r.objects === undefined ? `${r.read}${count}: ${r.why}` : `${r.read}${count}`
    out.push(...wrap(text, width, {indent: 2, hanging: 4}).map((l, i) => (i === 0 ? l : ROLE.muted(l))))
  }
  return `\n${out.join('\n')}\n`
}

/** The sub-second part of an RFC 3339 instant in µs (".0003" → 300). */
const fractionMicros = (iso: string) => Number((/\.(\d+)/.exec(iso)?.[1] ?? '').padEnd(6, '0').slice(0, 6))

/** The whole-second part of an RFC 3339 instant, as the timeline shows it. */
const secondOf = (iso: string) => iso.slice(0, 19)

/**
 * The timeline shows whole seconds; the replay compares now with the grace expiry at µs (issue 31 class 5). When
 * both fall in one shown second but differ, the verdict would look contradicted ("now 12:00:50, grace expires
 * 12:00:50, stale"): say the instants in full.
 */
function subSecond(t: Record<string, string | null>, width: number): string {
  const grace = t.graceExpiry
  const now = t.now
  if (!grace || !now || grace === now || secondOf(grace) !== secondOf(now)) return ''
  const after = fractionMicros(now) > fractionMicros(grace)
  const text = `now ${now} is ${after ? 'after' : 'not after'} the grace expiry ${grace}: the controller compares at microseconds (now.After).`
  return `${wrap(text, width, {indent: 2}).map(ROLE.muted).join('\n')}\n`
}
