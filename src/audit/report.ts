// The AuditReport: what `kubectl why audit -o json|yaml` prints (schemas/audit-report.json is its contract), and
// what the table and JUnit views are drawn from. Findings are the engines' own Explanations, worst first.
import type {Explanation, Problem, Severity, SourceDescription} from '../explanation.js'
import {SEVERITIES, severityRank} from '../explanation.js'
import {CHECK_NAMES, type CheckName, CONTROLLER_OF, DESCRIPTION, UNAVAILABLE} from './checks.js'
import type {CheckResult} from './context.js'
import type {Gathered} from './gather.js'
import type {PolicyRule} from './rbac.js'
import {ruleCommand, ruleForType} from './rbac.js'
import {apiVersionOf} from '../cluster/builtin-kinds.js'

export const AUDIT_REPORT_VERSION = 'kubectl-why/v1'

export type SeverityCounts = Record<Severity, number>

export interface CheckSummary {
  name: CheckName
  controller: string
  description: string
  status: 'complete' | 'partial' | 'notRun' | 'notSelected' | 'unavailable'
  evaluated: number
  findings: SeverityCounts
  verdicts: Record<string, number>
  problems: Problem[]
  notes: string[]
}

/** A read the audit could not make: the kinds behind it were not checked. */
export interface NotChecked {
  apiVersion: string
  kind: string
  resource: string
  /** Absent: every namespace (or a cluster-scoped kind). */
  namespace?: string
  labelSelector?: string
  reason: string
  status?: number
  message: string
  checks: CheckName[]
  /** For a 403: the RBAC rule that grants the read. */
  rule?: PolicyRule
  /** The same rule as a kubectl command. */
  command?: string
}

export interface AuditReport {
  apiVersion: string
  kind: 'AuditReport'
  scope: {allNamespaces: true} | {namespace: string}
  evaluatedAt: string
  source: SourceDescription
  summary: {
    failOn: Severity
    /** Findings at or above failOn: what the exit code follows. */
    failing: number
    findings: SeverityCounts
    checks: CheckSummary[]
    notChecked: NotChecked[]
    reads: {lists: number; gets: number; objects: number}
  }
  findings: Explanation[]
}

function zero(): SeverityCounts {
  return {critical: 0, warning: 0, info: 0, none: 0}
}

function counts(list: readonly Explanation[]): SeverityCounts {
  const c = zero()
  for (const e of list) c[e.severity]++
  return c
}

function notChecked(gathered: Gathered): NotChecked[] {
  const out: NotChecked[] = []
  for (const o of gathered.failed()) {
    const err = o.error as Error & {reason?: string; status?: number}
    const t = o.list.type
    const checks = CHECK_NAMES.filter((c) => o.list.needs.some((n) => n.check === c))
    const entry: NotChecked = {apiVersion: apiVersionOf(t), kind: t.kind, resource: t.resource, ...(o.list.namespace !== undefined ? {namespace: o.list.namespace} : {}),
      ...(o.list.labelSelector ? {labelSelector: o.list.labelSelector} : {}), reason: err.reason ?? 'Error', ...(err.status ? {status: err.status} : {}), message: err.message, checks}
    if (err.reason === 'Forbidden') {
      entry.rule = ruleForType(t, gathered.plan)
      entry.command = ruleCommand(entry.rule, o.list.namespace)
    }
    out.push(entry)
  }
  for (const n of gathered.plan.needs) {
    if (n.type) continue
    if (out.some((x) => x.kind === n.ref.kind && x.reason === 'NotServed')) {
      const x = out.find((y) => y.kind === n.ref.kind && y.reason === 'NotServed')!
      if (!x.checks.includes(n.check)) x.checks.push(n.check)
      continue
    }
    out.push({apiVersion: n.ref.apiVersion ?? '', kind: n.ref.kind, resource: '', reason: 'NotServed', message: `the source does not serve ${n.ref.apiVersion ?? ''} ${n.ref.kind}`.replace('  ', ' '), checks: [n.check]})
  }
  return out
}

export interface ReportInput {
  namespace?: string
  now: Date
  source: SourceDescription
  failOn: Severity
  selected: readonly CheckName[]
  results: readonly CheckResult[]
  gathered: Gathered
  gets: number
}

export function buildReport(input: ReportInput): AuditReport {
  const checks: CheckSummary[] = CHECK_NAMES.map((name) => {
    const r = input.results.find((x) => x.check === name)
    const base = {name, controller: CONTROLLER_OF[name], description: DESCRIPTION[name]}
    if (r) return {...base, status: r.status, evaluated: r.evaluated, findings: counts(r.findings), verdicts: r.verdicts, problems: r.problems, notes: r.notes}
    const why = UNAVAILABLE[name]
    return {...base, status: why ? 'unavailable' : 'notSelected', evaluated: 0, findings: zero(), verdicts: {}, problems: [], notes: why ? [why] : ['not in --checks']}
  })
  // Worst first; within a severity, in check order, each check's own order kept (the sort is stable).
  const findings = input.results.flatMap((r) => r.findings)
  findings.sort((a, b) => severityRank(b.severity) - severityRank(a.severity))
  const all = counts(findings)
  const failing = input.failOn === 'none' ? 0 : findings.filter((f) => severityRank(f.severity) >= severityRank(input.failOn)).length
  return {
    apiVersion: AUDIT_REPORT_VERSION,
    kind: 'AuditReport',
    scope: input.namespace === undefined ? {allNamespaces: true} : {namespace: input.namespace},
    evaluatedAt: input.now.toISOString(),
    source: input.source,
    summary: {
      failOn: input.failOn,
      failing,
      findings: all,
      checks,
      notChecked: notChecked(input.gathered),
      reads: {lists: input.gathered.plan.lists.length, gets: input.gets, objects: input.gathered.objects},
    },
    findings,
  }
}

export {SEVERITIES}
