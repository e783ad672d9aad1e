// The AuditReport: what `kubectl why audit -o json|yaml` prints (schemas/audit-report.json is its contract), and
// what the table and JUnit views are drawn from. Findings are the engines' own Explanations, worst first.
import type {Explanation, Problem, Severity, SourceDescription} from '../explanation.js'
import {EXPLANATION_VERSION, failsOn, type ReportHeader, reportScope, SEVERITIES, severityRank} from '../explanation.js'
import {CHECK_NAMES, type CheckName, CONTROLLER_OF, DESCRIPTION, UNAVAILABLE} from './checks.js'
import type {CheckResult} from './context.js'
import type {Gathered} from './gather.js'
import {checkOfController} from './registry.js'
import {type Coverage, coverage} from './scope.js'
import {objectIndex, type SelectionSummary} from './select.js'
import type {SuppressionSummary} from './suppress.js'
import type {PolicyRule} from './rbac.js'
import {ruleCommand, ruleForType} from './rbac.js'
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import {compareStrings} from '../util/compare.js'

/** The report's apiVersion: the one version of every output (src/explanation.ts). */
export const AUDIT_REPORT_VERSION = EXPLANATION_VERSION

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
  /** What its subjects were: the namespace(s), and whether cluster-scoped objects (always the whole cluster's). */
  coverage: Coverage
  /** Findings --ignore suppressed (listed in the report's `suppressed`). */
  suppressed: number
  /** Findings -l/--field-selector left out. */
  excluded: number
}

/** --sort: severity (worst first, the default), age (oldest subject first), name (namespace/name). */
export type SortOrder = 'severity' | 'age' | 'name'

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

export interface AuditReport extends ReportHeader<'AuditReport'> {
  summary: {
    failOn: Severity
    /** Findings at or above failOn: what the exit code follows. */
    failing: number
    findings: SeverityCounts
    checks: CheckSummary[]
    notChecked: NotChecked[]
    reads: {lists: number; gets: number; objects: number}
    /** Every selected check ran over everything it needs (no check partial or not run, nothing unread). */
    complete: boolean
    /** Why the audit is incomplete, one line each; empty when complete. */
    incomplete: string[]
    /** --fail-on-partial: an incomplete audit exits 1. A check that read nothing, or did not run, always does. */
    failOnPartial: boolean
    /** 0 or 1: what the run exits with (2 is never a report). */
    exitCode: 0 | 1
    sort: SortOrder
    /** The line a CI log shows: the outcome, counts per severity and per check, what was suppressed or left out. */
    line: string
    selection?: SelectionSummary
  }
  /** --ignore: the rules, and the findings they suppressed (which are not in `findings`). */
  suppressed?: SuppressionSummary
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
    const entry: NotChecked = {
      apiVersion: apiVersionOf(t),
      kind: t.kind,
      resource: t.resource,
      ...(o.list.namespace !== undefined ? {namespace: o.list.namespace} : {}),
      ...(o.list.labelSelector ? {labelSelector: o.list.labelSelector} : {}),
      reason: err.reason ?? 'Error',
      ...(err.status ? {status: err.status} : {}),
      message: err.message,
      checks,
    }
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
    out.push({
      apiVersion: n.ref.apiVersion ?? '',
      kind: n.ref.kind,
      resource: '',
      reason: 'NotServed',
      message: `the source does not serve ${n.ref.apiVersion ?? ''} ${n.ref.kind}`.replace('  ', ' '),
      checks: [n.check],
    })
  }
  return out
}

export interface ReportInput {
  namespace?: string
  now: Date
  source: SourceDescription
  failOn: Severity
  failOnPartial?: boolean
  selected: readonly CheckName[]
  results: readonly CheckResult[]
  gathered: Gathered
  gets: number
  selection?: SelectionSummary
  suppressed?: SuppressionSummary
  sort?: SortOrder
}

const ORDER = new Map(CHECK_NAMES.map((c, i) => [c, i]))

/** The findings in --sort order; the sort is stable, so each check's own order stays within its ties. */
function sortFindings(findings: Explanation[], order: SortOrder, gathered: Gathered): void {
  const checkRank = (e: Explanation) => ORDER.get(checkOfController(e.controller) ?? CHECK_NAMES[0]) ?? 0
  const bySeverity = (a: Explanation, b: Explanation) => severityRank(b.severity) - severityRank(a.severity)
  if (order === 'severity') {
    findings.sort(bySeverity)
    return
  }
  if (order === 'name') {
    const name = (e: Explanation) => `${e.subject.namespace ?? ''}/${e.subject.name}`
    findings.sort(
      (a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0) || compareStrings(a.subject.kind, b.subject.kind) || checkRank(a) - checkRank(b),
    )
    return
  }
  // age: the subject's creationTimestamp as listed; subjects the audit did not list (or without one) last.
  const find = objectIndex(
    gathered,
    findings.map((e) => e.subject),
  )
  const born = new Map<Explanation, number>()
  for (const e of findings) {
    const t = Date.parse(String(find(e.subject)?.metadata?.creationTimestamp ?? ''))
    born.set(e, Number.isNaN(t) ? Number.POSITIVE_INFINITY : t)
  }
  findings.sort((a, b) => {
    const x = born.get(a)!
    const y = born.get(b)!
    return (x === y ? 0 : x < y ? -1 : 1) || bySeverity(a, b)
  })
}

/** Whether every list a check reads failed (or its kinds are not served): it saw nothing of its kinds. */
export function readNothing(check: CheckName, gathered: Gathered): boolean {
  const needs = gathered.plan.needs.filter((n) => n.check === check)
  return needs.length > 0 && needs.every((n) => !gathered.read(n).ok)
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`
}

function summaryLine(
  exitCode: number,
  all: SeverityCounts,
  checks: readonly CheckSummary[],
  incomplete: readonly string[],
  suppressed: number,
  excluded: number,
): string {
  const ran = checks.filter((c) => c.status !== 'notSelected' && c.status !== 'unavailable')
  const per = ran.map((c) => {
    const parts = (['critical', 'warning', 'info'] as const).filter((s) => c.findings[s] > 0).map((s) => `${c.findings[s]} ${s}`)
    return `${c.name} ${parts.length > 0 ? parts.join(', ') : 'clean'}${c.status === 'complete' ? '' : ` (${c.status === 'notRun' ? 'not run' : c.status})`}`
  })
  return [
    `kubectl-why audit ${exitCode === 0 ? 'passed' : 'FAILED'}: ${all.critical} critical, ${all.warning} warning, ${all.info} info`,
    per.join('; '),
    ...(suppressed > 0 ? [`${suppressed} suppressed`] : []),
    ...(excluded > 0 ? [`${excluded} left out by the selectors`] : []),
    ...(incomplete.length > 0 ? [`incomplete: ${plural(incomplete.length, 'gap')}`] : []),
  ].join(' — ')
}

/**
 * One evidence block per report: every finding's source carries the run's Evidence (what the data can prove, built
 * once per run, about 8 KiB for a snapshot), which the report's own `source.evidence` already holds. A finding whose
 * evidence is that block goes without it (its source keeps everything else) and refers to the report's; one whose
 * evidence differs keeps its own. That halves a snapshot report of thousands of findings (issue 29).
 */
export function shareEvidence(findings: Explanation[], source: SourceDescription): Explanation[] {
  const shared = source.evidence
  if (shared === undefined) return findings
  let sharedText: string | undefined
  const same = new Map<object, boolean>()
  for (const f of findings) {
    const own = f.source?.evidence
    if (own === undefined) continue
    let isShared = own === shared ? true : same.get(own)
    if (isShared === undefined) {
      sharedText ??= JSON.stringify(shared)
      isShared = JSON.stringify(own) === sharedText
      same.set(own, isShared)
    }
    if (!isShared) continue
    const {evidence: _shared, ...rest} = f.source
    f.source = rest
  }
  return findings
}

/** A source note saying a file (or directory) of the input was not read, wholly or past an error. */
export const sourceNotRead = (p: Problem): boolean => /^(directory )?not read\b/.test(p.reason)

export function buildReport(input: ReportInput): AuditReport {
  const checks: CheckSummary[] = CHECK_NAMES.map((name) => {
    const r = input.results.find((x) => x.check === name)
    const base = {name, controller: CONTROLLER_OF[name], description: DESCRIPTION[name]}
    const extra = {
      coverage: coverage(name, input.namespace),
      suppressed: input.suppressed?.findings.filter((f) => f.check === name).length ?? 0,
      excluded: input.selection?.excluded[name] ?? 0,
    }
    if (r)
      return {
        ...base,
        status: r.status,
        evaluated: r.evaluated,
        findings: counts(r.findings),
        verdicts: r.verdicts,
        problems: r.problems,
        notes: r.notes,
        ...extra,
      }
    const why = UNAVAILABLE[name]
    return {
      ...base,
      status: why ? 'unavailable' : 'notSelected',
      evaluated: 0,
      findings: zero(),
      verdicts: {},
      problems: [],
      notes: why ? [why] : ['not in --checks'],
      ...extra,
    }
  })
  const findings = shareEvidence(
    input.results.flatMap((r) => r.findings),
    input.source,
  )
  const sort = input.sort ?? 'severity'
  sortFindings(findings, sort, input.gathered)
  const all = counts(findings)
  const failing = findings.filter((f) => failsOn(f.severity, input.failOn)).length
  const notRead = notChecked(input.gathered)
  // Partial is partial: every gap that cost a check data (a failed list, a subject not replayed, a refused GET), and
  // every list nobody could read. The source's own notes (source.partial: a kind whose scope a dump had to guess) are
  // shown but count only through what they cost a check — a snapshot's recorded gaps fail its lists as live ones do.
  const incomplete: string[] = []
  let blocking = false
  for (const r of input.results) {
    if (r.status === 'notRun') {
      blocking = true
      incomplete.push(`${r.check}: not run — ${r.notes[0] ?? r.problems[0]?.reason ?? 'a read it cannot do without failed'}`)
    } else if (readNothing(r.check, input.gathered)) {
      blocking = true
      incomplete.push(`${r.check}: none of its lists could be read`)
    } else if (r.status === 'partial') {
      incomplete.push(`${r.check}: partial — ${r.problems.map((p) => p.what).join('; ')}`)
    }
  }
  // A file of a dump directory that could not be read, or not past an error, may have held any kind: every check
  // may lack its objects, so the audit is incomplete, as a list that could not be read makes it.
  for (const p of input.source.partial ?? []) if (sourceNotRead(p)) incomplete.push(`source: ${p.what}: ${p.reason}`)
  for (const n of notRead)
    if (!n.checks.some((c) => input.results.find((r) => r.check === c)?.status !== 'complete')) {
      incomplete.push(`not read: ${n.kind}${n.namespace ? ` in ${n.namespace}` : ''} (${n.reason})`)
    }
  const failOnPartial = input.failOnPartial ?? true
  const exitCode: 0 | 1 = failing > 0 || blocking || (failOnPartial && incomplete.length > 0) ? 1 : 0
  const suppressedCount = input.suppressed?.count ?? 0
  const excluded = Object.values(input.selection?.excluded ?? {}).reduce((a, b) => a + (b ?? 0), 0)
  return {
    apiVersion: AUDIT_REPORT_VERSION,
    kind: 'AuditReport',
    scope: reportScope(input.namespace),
    evaluatedAt: input.now.toISOString(),
    source: input.source,
    summary: {
      failOn: input.failOn,
      failing,
      findings: all,
      checks,
      notChecked: notRead,
      reads: {lists: input.gathered.plan.lists.length, gets: input.gets, objects: input.gathered.objects},
      complete: incomplete.length === 0,
      incomplete,
      failOnPartial,
      exitCode,
      sort,
      line: summaryLine(exitCode, all, checks, incomplete, suppressedCount, excluded),
      ...(input.selection ? {selection: input.selection} : {}),
    },
    ...(input.suppressed ? {suppressed: input.suppressed} : {}),
    findings,
  }
}

export {SEVERITIES}
