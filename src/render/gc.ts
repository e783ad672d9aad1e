// The human views of `kubectl why gc`: one object (the explanation and its next steps), the --all report (counts,
// then findings worst first) and the --tree view of the owner/dependent graph around one object, in kubectl-tree's
// layout (NAMESPACE NAME VERDICT REASON AGE), each edge marked with its classification and blockOwnerDeletion.
import type {PendingDeletionsResult} from '../engine/deletions/drive.js'
import type {DeletionExplanation, DeletionVerdict} from '../engine/deletions/pending.js'
import type {GcAllResult} from '../engine/garbagecollector/drive.js'
import type {GcExplanation, GcTree, GcTreeNode, GcVerdict} from '../engine/garbagecollector/index.js'
import type {Actor, NextStep, SourceDescription, Subject} from '../explanation.js'
import {EXPLANATION_VERSION, type ReportHeader, reportScope} from '../explanation.js'
import {kubectlAge} from '../util/duration.js'
import {ROLE, SEVERITY} from './colour.js'
import {renderExplanations} from './explanation-table.js'
import {table, tableWidth, terminalWidth, wrap as wrapTo} from './layout.js'
import {nextStepLines, type SourceInForce} from './next-steps.js'

export type {GcTree, GcTreeNode} from '../engine/garbagecollector/index.js'

export interface GcReport extends ReportHeader<'GcReport'> {
  objects: number
  monitoredTypes: number
  ownerGets: number
  counts: Partial<Record<GcVerdict, number>>
  findings: GcExplanation[]
  /** Pending and stuck deletions (the audit's deleting check): what holds each object past its deletionTimestamp. */
  deletions?: {counts: Partial<Record<DeletionVerdict, number>>; findings: DeletionExplanation[]}
}

/** The --all report, every finding carrying the run's source description. */
export function gcReport(r: GcAllResult & {deletions?: PendingDeletionsResult}, namespace: string | undefined, now: Date, source: SourceDescription): GcReport {
  for (const f of r.findings) f.source = source
  for (const f of r.deletions?.findings ?? []) f.source = source
  return {
    apiVersion: EXPLANATION_VERSION,
    kind: 'GcReport',
    scope: reportScope(namespace),
    evaluatedAt: now.toISOString(),
    source,
    objects: r.evaluated,
    monitoredTypes: r.monitoredTypes,
    ownerGets: r.ownerGets,
    counts: r.counts,
    findings: r.findings,
    ...(r.deletions ? {deletions: {counts: r.deletions.counts, findings: r.deletions.findings}} : {}),
  }
}

function subjectText(s: Subject): string {
  return `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

/** Words wrapped to the terminal's width, every line indented. */
function wrap(text: string, indent: number, width = terminalWidth()): string[] {
  return wrapTo(text, width, {indent})
}

/** Next steps in the one style (src/render/next-steps.ts): each command whole with the source in force, why as comments. */
function nextLines(next: readonly NextStep[] | undefined, indent: number, src: SourceInForce, width = terminalWidth()): string[] {
  return nextStepLines(next, src, width, indent)
}

/**
 * Who acts on the object (issue 26 item 7): one line each — actor, action, at, rule — with its own next steps under
 * it; -o wide adds the evidence. Only when some mechanism besides the collector has something to say.
 */
function actorLines(actors: readonly Actor[], wide: boolean, indent: number, src: SourceInForce): string[] {
  const out: string[] = [`${' '.repeat(indent)}${ROLE.heading('actors:')}`]
  for (const a of actors) {
    out.push(...wrap(`${ROLE.heading(a.actor)} ${a.action}${a.at ? ` at ${a.at}` : ''} (${a.rule})`, indent + 2))
    if (wide) for (const ev of a.evidence) out.push(...wrap(`- ${ev}`, indent + 4))
    out.push(...nextLines(a.next, indent + 4, src))
  }
  return out
}

/** One object: the explanation, then who acts on it with their next steps (or the collector's next steps alone). */
export function renderGcExplanation(e: GcExplanation, wide: boolean, src: SourceInForce = {}): string {
  const text = renderExplanations([e], wide).replace(/\n+$/, '')
  const actors = e.actors ?? []
  const tail = actors.length > 1 ? actorLines(actors, wide, 2, src) : nextLines(e.next, 2, src)
  return `${[text, ...tail, ''].join('\n')}\n`
}

export function renderGcReport(r: GcReport, src: SourceInForce = {}): string {
  const out: string[] = []
  const scope = 'allNamespaces' in r.scope ? 'all namespaces' : `namespace ${r.scope.namespace}`
  out.push(
    ...wrapTo(
      `Garbage collector replay — ${scope}: ${r.objects} objects of ${r.monitoredTypes} monitored types, evaluated at ${r.evaluatedAt}`,
      terminalWidth(),
      {hanging: 2},
    ).map(ROLE.heading),
  )
  const counts = Object.entries(r.counts)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ')
  out.push(`  ${counts || 'nothing to evaluate'}`)
  const partial = r.source.partial ?? []
  if (partial.length > 0) out.push(...wrap(`partial: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`, 2).map(ROLE.warn))
  out.push('')
  if (r.findings.length === 0) {
    out.push('The collector has nothing to delete, patch or finish, and is stuck on nothing.')
    out.push('')
    out.push(...deletionLines(r, src))
    return out.join('\n')
  }
  const width = Math.max(...r.findings.map((f) => f.verdict.length + (f.propagationPolicy ? f.propagationPolicy.length + 1 : 0)))
  for (const f of r.findings) {
    const verdict = `${f.verdict}${f.propagationPolicy ? ` ${f.propagationPolicy}` : ''}`
    out.push(`${SEVERITY[f.severity](f.severity.padEnd(8))}  ${verdict.padEnd(width)}  ${ROLE.heading(subjectText(f.subject))}`)
    out.push(...wrap(f.summary, 10))
    out.push(...nextLines(f.next, 10, src))
  }
  out.push('')
  out.push(...deletionLines(r, src))
  return out.join('\n')
}

/** The pending-deletions section: each object held past its deletionTimestamp, worst first, its holders one line each. */
function deletionLines(r: GcReport, src: SourceInForce): string[] {
  const d = r.deletions
  if (!d) return []
  const out: string[] = []
  const counts = Object.entries(d.counts)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ')
  out.push(ROLE.heading(`Pending and stuck deletions (the audit's deleting check): ${counts || 'none'}`))
  if (d.findings.length === 0) {
    out.push('  Nothing past its deletionTimestamp is held by a namespace or finalizer holder.')
    out.push('')
    return out
  }
  const width = Math.max(...d.findings.map((f) => f.verdict.length))
  for (const f of d.findings) {
    out.push(`${SEVERITY[f.severity](f.severity.padEnd(8))}  ${f.verdict.padEnd(width)}  ${ROLE.heading(subjectText(f.subject))}`)
    out.push(...wrap(f.summary, 10))
    out.push(...nextLines(f.next, 10, src))
  }
  out.push('')
  return out
}

/** Compact edge text for the REASON column: classification, its reason, and the ref's flags. */
function reasonText(n: GcTreeNode): string {
  const parts: string[] = []
  if (n.edge) {
    // Short words for a narrow column; -o json has the full classification.
    const c = n.edge.classification === 'waitingForDependentsDeletion' ? 'waiting' : n.edge.classification
    parts.push(c + (n.edge.reason ? `:${n.edge.reason}` : ''))
    if (n.edge.controller) parts.push('ctrl')
    if (n.edge.blockOwnerDeletion) parts.push('block')
  }
  if (!n.exists) parts.push('absent')
  if (n.deleting) parts.push(`deleting${n.finalizers && n.finalizers.length > 0 ? `(${n.finalizers.join(',')})` : ''}`)
  if (n.cycle) parts.push('cycle:shown above')
  return parts.join(' ')
}

function age(from: string | undefined, now: Date): string {
  if (!from) return '-'
  const ms = now.getTime() - new Date(from).getTime()
  return Number.isFinite(ms) ? kubectlAge(ms) : '-'
}

interface Row {
  namespace: string
  name: string
  verdict: string
  reason: string
  age: string
  uid: string
  colour: (s: string) => string
}

function row(n: GcTreeNode, prefix: string, now: Date, self = false): Row {
  const colour = !n.edge
    ? self
      ? ROLE.heading
      : ROLE.plain
    : n.edge.classification === 'solid'
      ? ROLE.good
      : n.edge.classification === 'dangling'
        ? ROLE.bad
        : ROLE.warn
  return {
    namespace: n.subject.namespace ?? '',
    name: `${prefix}${n.subject.kind}/${n.subject.name}`,
    verdict: n.verdict ? `${n.verdict}${n.propagationPolicy ? ` ${n.propagationPolicy}` : ''}` : '-',
    reason: reasonText(n),
    age: age(n.creationTimestamp, now),
    uid: n.subject.uid ?? '',
    colour,
  }
}

function dependentRows(nodes: readonly GcTreeNode[], prefix: string, now: Date, out: Row[], more?: number): void {
  nodes.forEach((n, i) => {
    const last = i === nodes.length - 1 && !more
    out.push(row(n, `${prefix}${last ? '└─' : '├─'}`, now))
    dependentRows(n.children, `${prefix}${last ? '  ' : '│ '}`, now, out, n.more)
  })
  if (more) out.push({namespace: '', name: `${prefix}└─… ${more} more`, verdict: '', reason: '', age: '', uid: '', colour: ROLE.muted})
}

/** Owners above the object, farthest first, so the page reads top-down as ownership does. */
function ownerRows(nodes: readonly GcTreeNode[], depth: number, now: Date, out: Row[]): void {
  for (const n of nodes) {
    ownerRows(n.children, depth + 1, now, out)
    out.push(row(n, `${'  '.repeat(depth - 1)}↑ `, now))
  }
}

export function renderGcTree(tree: GcTree, e: GcExplanation, opts: {wide?: boolean; now?: Date; width?: number; src?: SourceInForce} = {}): string {
  const now = opts.now ?? new Date(e.evaluatedAt)
  const width = opts.width ?? terminalWidth()
  const rowWidth = opts.width ?? tableWidth()
  const rows: Row[] = []
  ownerRows(tree.owners, 1, now, rows)
  rows.push(row(tree.object, '', now, true))
  dependentRows(tree.object.children, '', now, rows, tree.object.more)
  // kubectl-tree's columns (NAMESPACE NAME READY REASON AGE), VERDICT for READY; uids only with -o wide. On a
  // terminal, a row too wide wraps its REASON (words: classification, flags) rather than cutting a name.
  const cols: (keyof Omit<Row, 'colour'>)[] = ['namespace', 'name', 'verdict', 'reason', 'age', ...(opts.wide ? ['uid' as const] : [])]
  const head = ['NAMESPACE', 'NAME', 'VERDICT', 'REASON', 'AGE', ...(opts.wide ? ['UID'] : [])]
  const out = table(
    head,
    rows.map((r) => cols.map((k) => r[k])),
    {width: rowWidth, wrapColumn: 3, paintRow: (i, line) => rows[i].colour(line)},
  )
  for (const p of tree.partial ?? [])
    out.push(...wrap(`partial: ${p.what}: ${p.reason} — dependents of that kind may be missing above`, 0, width).map(ROLE.warn))
  out.push('')
  out.push(...wrap(`${SEVERITY[e.severity](`${e.verdict}${e.propagationPolicy ? ` ${e.propagationPolicy}` : ''} (${e.severity})`)}  ${e.summary}`, 0, width))
  out.push(...nextLines(e.next, 0, opts.src ?? {}, width))
  out.push('')
  return out.join('\n')
}
