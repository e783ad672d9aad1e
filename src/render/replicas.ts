// The human view of `kubectl why replicas`: verdict and summary, the replayed steps, the deletion order as a
// table (with the rule that puts each pod before the next), and the expectations window as a timeline.
import type {ReplicasScan} from '../engine/replicaset/drive.js'
import type {ReplicaSetReplay} from '../engine/replicaset/index.js'
import {EXPLANATION_VERSION, type Explanation, type ReportHeader, reportScope} from '../explanation.js'
import {SEVERITY as COLOUR, ROLE} from './colour.js'
import {tableBuilder as table, terminalWidth, wrap} from './layout.js'
import {nextStepLines, type SourceInForce} from './next-steps.js'
import {renderTimeline, type TimelineMark} from './timeline.js'

/** Rows of the deletion order shown without -o wide: the chosen pods and a few kept ones after the cut. */
const KEPT_ROWS = 3

export interface ReplicasReport extends ReportHeader<'ReplicasReport'> {
  replicaSets: number
  pods: number
  counts: Record<string, number>
  findings: Explanation[]
}

/** `replicas --all`'s report (schemas/replicas-report.json): the scan of a namespace (undefined: the cluster). */
export function replicasReport(scan: ReplicasScan, namespace: string | undefined, now: Date): ReplicasReport {
  return {
    apiVersion: EXPLANATION_VERSION,
    kind: 'ReplicasReport',
    scope: reportScope(namespace),
    evaluatedAt: now.toISOString(),
    source: scan.source,
    replicaSets: scan.replicaSets,
    pods: scan.pods,
    counts: scan.counts,
    findings: scan.findings,
  }
}

function replayOf(e: Explanation): ReplicaSetReplay | undefined {
  return e.replicaSet as ReplicaSetReplay | undefined
}

function deletionTable(r: ReplicaSetReplay, wide: boolean): string {
  const rows = r.manage.deleteOrder ?? []
  if (rows.length === 0) return ''
  const shown = wide ? rows : rows.filter((d, i) => d.chosen || i < r.manage.count + KEPT_ROWS)
  const t = table(['#', 'POD', 'NODE', 'PHASE', 'READY', 'COST', 'RANK', 'GOES', 'BEFORE NEXT BECAUSE'])
  for (const d of shown) {
    const cost = d.invalidDeletionCost !== undefined ? `0 (invalid "${d.invalidDeletionCost}")` : d.deletionCost !== undefined ? String(d.deletionCost) : '-'
    const why = d.beforeNext
      ? `${d.beforeNext.rule}. ${d.beforeNext.name}${wide && d.beforeNext.detail ? ` (${d.beforeNext.detail})` : ''}`
      : r.manage.sorted
        ? '='
        : ''
    t.push([
      String(d.position),
      d.name,
      d.node || '(none)',
      d.phase || '(unset)',
      d.ready ? 'yes' : 'no',
      cost,
      String(d.rank),
      d.chosen ? ROLE.heading('delete') : 'keep',
      why,
    ])
  }
  const lines = [
    ROLE.heading(
      `Deletion order${r.manage.sorted ? ' (ActivePodsWithRanks; rank = active related pods on the same node)' : ' (every pod goes: upstream does not sort)'}:`,
    ),
  ]
  lines.push(
    t
      .toString()
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
  )
  if (shown.length < rows.length) lines.push(ROLE.muted(`  … ${rows.length - shown.length} more kept pods (-o wide shows them all)`))
  if (r.manage.tie) {
    const t = r.manage.tie
    lines.push(
      ROLE.warn(
        `  order-dependent: any ${t.slots} of ${t.pods.join(', ')} may go, depending on the informer's list order (Go's unstable sort); ${t.reason === 'equal' ? 'they compare equal on every rule' : `Less is not transitive among them${t.witness ? `: ${t.witness}` : ''}`}`,
      ),
    )
  }
  return `${lines.join('\n')}\n`
}

function expectationTimeline(e: Explanation, r: ReplicaSetReplay, wide: boolean, width: number): string {
  const x = r.expectations
  if (!x.burst && !x.expiresAt) return ''
  const marks: TimelineMark[] = []
  if (x.setAt) marks.push({label: 'expectations set', at: x.setAt, estimated: true})
  const ops = x.burst?.operations ?? []
  const shown = wide ? ops : ops.filter((o) => o.observed === false).concat(ops.filter((o) => o.observed !== false).slice(-3))
  for (const o of shown) {
    const what = o.pod ? `${o.op} ${o.pod}` : `${o.count} × ${o.op}`
    marks.push({label: `${what}${o.observed === false ? ' (not observed)' : ''}`, at: o.at})
  }
  marks.push({label: 'now', at: e.evaluatedAt})
  if (x.expiresAt) marks.push({label: 'expectations expire', at: x.expiresAt, estimated: true})
  const head = `Expectations (${x.state}, ${x.waiting ? 'the controller waits' : 'the controller does not wait'}; inferred, ${x.confidence}):`
  return `${ROLE.heading(head)}\n${renderTimeline(marks, e.evaluatedAt, width).split('\n').slice(1).join('\n')}`
}

function claimsLine(r: ReplicaSetReplay): string {
  const parts: string[] = [`${r.claims.owned} owned`]
  if (r.claims.adopt.length) parts.push(`${r.claims.adopt.length} to adopt (${r.claims.adopt.slice(0, 5).join(', ')}${r.claims.adopt.length > 5 ? ', …' : ''})`)
  if (r.claims.release.length) parts.push(`${r.claims.release.length} to release (${r.claims.release.slice(0, 5).join(', ')})`)
  if (r.claims.ignore.length)
    parts.push(
      `${r.claims.ignore.length} matching but ignored (${r.claims.ignore
        .slice(0, 3)
        .map((i) => `${i.pod}: ${i.why}`)
        .join('; ')})`,
    )
  return `Pods: ${parts.join(', ')}; selector ${r.selector}`
}

export function renderReplicaSet(e: Explanation, wide: boolean, src: SourceInForce = {}, width = terminalWidth()): string {
  const s = e.subject
  const out: string[] = []
  out.push(`${ROLE.heading(`ReplicaSet ${s.namespace ? `${s.namespace}/` : ''}${s.name}`)}  ${COLOUR[e.severity](`${e.verdict} (${e.severity})`)}`)
  out.push(...wrap(e.summary, width, {indent: 2}))
  const r = replayOf(e)
  if (r) out.push(`  ${ROLE.muted(claimsLine(r))}`)
  const steps = wide ? e.steps : e.steps.filter((x) => x.result !== 'skipped' || x.rule === 'manageReplicas')
  for (const step of steps) {
    // Wrapped at word boundaries under the bullet (issue 28.3), as every view's steps are.
    out.push(
      ...wrap(`${ROLE.muted('•')} ${step.rule}: ${step.result} — ${step.why}${wide ? ROLE.muted(` [${step.upstream}]`) : ''}`, width, {indent: 2, hanging: 4}),
    )
    if (step.inferred && wide) out.push(`      ${ROLE.muted(`inferred (${step.inferred.confidence})`)}`)
  }
  if (r) {
    const del = deletionTable(r, wide)
    if (del) out.push(del.replace(/^/gm, '  ').trimEnd())
    const tl = expectationTimeline(e, r, wide, width)
    if (tl) out.push(tl.replace(/^/gm, '  ').trimEnd())
  }
  out.push(...nextStepLines(e.next, src, width, 2))
  const partial = e.source.partial ?? []
  if (partial.length > 0)
    out.push(...wrap(`partial: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`, width, {indent: 2, hanging: 4}).map(ROLE.warn))
  return `${out.join('\n')}\n`
}

export function renderReplicas(list: readonly Explanation[], wide: boolean, src: SourceInForce = {}): string {
  return list.map((e) => renderReplicaSet(e, wide, src)).join('\n')
}

/**
 * `replicas --all`: the counts, a table of the findings, then each finding's summary and next steps whole (issue
 * 28.3: a command is never cut with "…", in any width or pipe; the source in force is added so that it pastes).
 */
export function renderReplicasReport(r: ReplicasReport, src: SourceInForce = {}, columns = 100): string {
  const out: string[] = []
  const scope = 'allNamespaces' in r.scope ? 'all namespaces' : `namespace ${r.scope.namespace}`
  // Wrapped at word boundaries, as the gc report's header is (issue 28.3).
  out.push(
    ...wrap(`ReplicaSet controller replay — ${scope}: ${r.replicaSets} ReplicaSets, ${r.pods} pods, evaluated at ${r.evaluatedAt}`, columns, {
      hanging: 2,
    }).map(ROLE.heading),
  )
  out.push(
    `  ${
      Object.entries(r.counts)
        .map(([v, n]) => `${v} ${n}`)
        .join(', ') || 'no ReplicaSets'
    }`,
  )
  const partial = r.source.partial ?? []
  if (partial.length > 0)
    out.push(...wrap(`partial: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`, columns, {indent: 2, hanging: 4}).map(ROLE.warn))
  out.push('')
  if (r.findings.length === 0) {
    out.push(ROLE.good('Every ReplicaSet is converged.'))
    return `${out.join('\n')}\n`
  }
  const t = table(['VERDICT', 'REPLICASET', 'ACTIVE', 'DESIRED'])
  for (const f of r.findings) {
    const x = replayOf(f)
    t.push([COLOUR[f.severity](f.verdict), `${f.subject.namespace}/${f.subject.name}`, String(x?.active ?? ''), String(x?.desired ?? '')])
  }
  out.push(t.toString())
  for (const f of r.findings) {
    out.push('', ROLE.heading(`${f.subject.namespace}/${f.subject.name}`))
    out.push(...wrap(f.summary.replace(/\s+/g, ' '), columns, {indent: 2}))
    out.push(...nextStepLines(f.next, src, columns, 2))
  }
  return `${out.join('\n')}\n`
}
