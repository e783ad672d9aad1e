// `-o html`: one self-contained report from the same data `-o json` prints (an Explanation, a list of them, or a
// command's report), so there is no second decision path — only another rendering.
import type {Explanation, Problem, Severity, SourceDescription} from '../../explanation.js'
import {type Footnotes, renderFinding, subjectText} from './finding.js'
import {h, type Html} from './h.js'
import {renderHeader, renderPage} from './page.js'
import {severityBadge} from './severity.js'
import {renderZoneMap, type ZoneMapInput} from './zones.js'

interface Report {
  kind?: string
  evaluatedAt?: string
  source?: SourceDescription
  findings?: Explanation[]
  results?: Explanation[]
  /** gc --all's pending and stuck deletions (the audit's deleting check, as a section of its own). */
  deletions?: {findings?: Explanation[]}
  summary?: {
    checks?: {
      name: string
      status: string
      evaluated?: number
      findings?: Record<Severity, number>
      problems?: unknown[]
      suppressed?: number
      excluded?: number
    }[]
    failing?: number
    failOn?: string
    exitCode?: number
    findings?: Record<Severity, number>
  }
}

function isExplanation(d: unknown): d is Explanation {
  return typeof d === 'object' && d !== null && 'verdict' in d && 'subject' in d && 'steps' in d
}

const SEVERITIES: Severity[] = ['critical', 'warning', 'info', 'none']

type CheckRow = NonNullable<NonNullable<Report['summary']>['checks']>[number]

/**
 * A check's subjects by severity. The report's `findings` counts findings, and no check lists a subject it found
 * nothing wrong with, so its `none` is 0; the ✓ OK column is the subjects evaluated with no finding: evaluated less
 * every finding, shown, suppressed by --ignore or left out by the selectors (each of those is one evaluated subject).
 */
export function checkCounts(c: CheckRow): Record<Severity, number> {
  const f = c.findings ?? {critical: 0, warning: 0, info: 0, none: 0}
  const withFinding = f.critical + f.warning + f.info + f.none + (c.suppressed ?? 0) + (c.excluded ?? 0)
  return {...f, none: Math.max(0, (c.evaluated ?? 0) - withFinding)}
}

/** The one line a reader needs first: passed or failed against the gate, and the counts behind it. */
function verdictLine(report: Report | undefined, list: readonly Explanation[]): Html {
  const counts = report?.summary?.findings ?? {
    critical: list.filter((e) => e.severity === 'critical').length,
    warning: list.filter((e) => e.severity === 'warning').length,
    info: list.filter((e) => e.severity === 'info').length,
    none: 0,
  }
  const worst: Severity = counts.critical > 0 ? 'critical' : counts.warning > 0 ? 'warning' : counts.info > 0 ? 'info' : 'none'
  const tally = (['critical', 'warning', 'info'] as const).map((s) => `${counts[s]} ${s}`).join(', ')
  const s = report?.summary
  if (s?.exitCode !== undefined) {
    const failed = s.exitCode !== 0
    return h(
      'p',
      {class: `verdict-line sev-${failed ? (worst === 'none' ? 'warning' : worst) : 'none'}`, 'data-gate': failed ? 'failed' : 'passed'},
      h('strong', null, failed ? 'FAILED' : 'PASSED'),
      ` — ${s.failing ?? 0} finding${s.failing === 1 ? '' : 's'} at or above --fail-on ${s.failOn ?? 'warning'} (${tally}); exit ${s.exitCode}`,
    )
  }
  return h(
    'p',
    {class: `verdict-line sev-${worst}`, 'data-gate': worst === 'none' ? 'clean' : worst},
    h('strong', null, worst === 'none' ? 'Nothing to act on' : `Worst: ${worst.toUpperCase()}`),
    ` — ${list.length} result${list.length === 1 ? '' : 's'} (${tally})`,
  )
}

function checksTable(report: Report): Html {
  const checks = report.summary?.checks ?? []
  if (checks.length === 0) return h('span', null)
  // Scrolls inside its own box on a narrow screen (390 px) instead of widening the page.
  return h(
    'div',
    {class: 'table-wrap'},
    h(
      'table',
      {class: 'checks'},
      h('caption', null, `Checks${report.summary?.failOn ? ` (--fail-on ${report.summary.failOn}: ${report.summary.failing ?? 0} failing)` : ''}`),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', null, 'check'),
          h('th', null, 'status'),
          h('th', null, 'evaluated'),
          SEVERITIES.map((s) => h('th', null, severityBadge(s))),
        ),
      ),
      h(
        'tbody',
        null,
        checks.map((c) =>
          h(
            'tr',
            {'data-check': c.name, 'data-status': c.status},
            h('td', null, c.name),
            h('td', null, c.status),
            h('td', null, String(c.evaluated ?? '')),
            SEVERITIES.map((s) => h('td', {'data-count': s}, String(checkCounts(c)[s]))),
          ),
        ),
      ),
    ),
  )
}

/** The audit's node findings drawn as a zone map (the nodes with findings, in their zones). */
function auditZones(findings: readonly Explanation[]): Html | undefined {
  const nodes = findings.filter((f) => f.controller === 'nodelifecycle' && f.subject.kind === 'Node')
  if (nodes.length === 0) return undefined
  const zones = new Map<string, ZoneMapInput['zones'][number]>()
  for (const n of nodes) {
    const z = n.zone as {name?: string; state?: string; rate?: number} | undefined
    if (z?.name && !zones.has(z.name)) zones.set(z.name, {name: z.name, state: z.state, rate: z.rate})
  }
  return h(
    'section',
    null,
    h('h3', null, 'Zones (nodes with findings)'),
    renderZoneMap({
      zones: [...zones.values()],
      nodes: nodes.map((n) => ({
        name: n.subject.name,
        zone: (n.zone as {name?: string} | undefined)?.name,
        verdict: n.verdict,
        severity: n.severity,
        summary: n.summary,
      })),
      masterDisruption: nodes.some((n) => n.masterDisruption === true),
      circuitBreaker: {open: nodes.some((n) => (n.circuitBreaker as {open?: boolean} | undefined)?.open === true)},
    }),
  )
}

/** Above this many findings of one check and verdict, the rest are rows of a table, not full cards. */
export const CARDS_PER_GROUP = 25

function groupKey(e: Explanation): string {
  return `${e.controller}\u0000${e.verdict}`
}

function compactRows(rest: readonly Explanation[]): Html {
  return h(
    'table',
    {class: 'compact', 'data-compact': rest.length},
    h('caption', null, `${rest.length} more ${rest[0].controller} ${rest[0].verdict} finding${rest.length === 1 ? '' : 's'} (every one is in -o json)`),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['severity', 'object', 'summary'].map((c) => h('th', {scope: 'col'}, c)),
      ),
    ),
    h(
      'tbody',
      null,
      rest.map((e) =>
        h(
          'tr',
          {'data-subject': subjectText(e.subject)},
          h('td', null, severityBadge(e.severity)),
          h('td', null, subjectText(e.subject)),
          h('td', null, e.summary),
        ),
      ),
    ),
  )
}

/** The findings as cards, the first CARDS_PER_GROUP of each check and verdict; the rest of a group as one table after its cards. */
function* findingPieces(list: readonly Explanation[], notes: Footnotes, related: readonly Explanation[]): Generator<Html> {
  const seen = new Map<string, number>()
  const overflow = new Map<string, Explanation[]>()
  for (const e of list) {
    const key = groupKey(e)
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    if (n <= CARDS_PER_GROUP) yield renderFinding(e, notes, related)
    else overflow.set(key, [...(overflow.get(key) ?? []), e])
  }
  for (const rest of overflow.values()) yield compactRows(rest)
}

/** Controllers whose answers rest on the Nodes and their Leases (the node lifecycle world; the taint manager acts on it). */
const NODE_WORLD = new Set(['nodelifecycle', 'tainteviction'])

/**
 * Whether an answer on the page rests on a missing piece of evidence. The Nodes and their Leases matter to the node
 * lifecycle and taint-eviction answers, and to any other whose objects include a Node (a gc graph with a Node
 * owner); every other gap (a list not read, the clock, the version) is taken to matter, as the source reports it.
 */
function dependsOnFor(list: readonly Explanation[]): (p: Problem) => boolean {
  const nodeGap = (p: Problem) => p.what === 'Nodes' || p.what.startsWith('node Leases')
  const needsNodes = list.some(
    (e) =>
      NODE_WORLD.has(e.controller) ||
      /"kind":"Node"/.test(JSON.stringify({s: e.subject, t: (e as {tree?: unknown}).tree, o: (e as {ownerReferences?: unknown}).ownerReferences})),
  )
  return (p) => !nodeGap(p) || needsNodes
}

/** The report as pieces of markup, in order (write them one after another). */
export function renderHtmlChunks(data: unknown, command: string): Generator<string> {
  const notes: Footnotes = {next: 1, items: []}
  let list: Explanation[]
  let report: Report | undefined
  if (Array.isArray(data)) list = data.filter(isExplanation)
  else if (isExplanation(data)) list = [data]
  else {
    report = data as Report
    list = (report.findings ?? report.results ?? []).filter(isExplanation)
  }
  const deletions = (report?.deletions?.findings ?? []).filter(isExplanation)
  // Every answer on the page: a namespace's picture draws the held objects' own holders from theirs.
  const everything = [...list, ...deletions]
  const first = list[0] ?? deletions[0]
  const source = report?.source ?? first?.source
  const evaluatedAt = report?.evaluatedAt ?? first?.evaluatedAt
  const title = `kubectl why ${command}${list.length === 1 && !report ? ` — ${subjectText(list[0].subject)}` : ''}`
  // The verdict, then the findings with their next steps; the zone map and the checks table after them.
  function* body(): Generator<Html> {
    yield verdictLine(report, everything)
    if (list.length === 0 && deletions.length === 0) yield h('p', {class: 'none-found'}, 'No findings.')
    else yield* findingPieces(list, notes, everything)
    if (deletions.length > 0) {
      yield h('h2', {class: 'section', 'data-section': 'deletions'}, "Pending and stuck deletions (the audit's deleting check)")
      yield* findingPieces(deletions, notes, everything)
    }
    if (report?.kind === 'AuditReport') {
      const zones = auditZones(list)
      if (zones) yield zones
    }
    if (report) yield checksTable(report)
  }
  return renderPage(title, renderHeader(title, source, evaluatedAt, dependsOnFor(everything)), body(), notes.items)
}

export function renderHtml(data: unknown, command: string): string {
  return [...renderHtmlChunks(data, command)].join('')
}
