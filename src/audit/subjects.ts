// The subjects each check evaluated, for -o junit's one test case per subject: the adapter's own list when it gives
// one (CheckResult.subjects), else the objects of the lists the registry names as the check's subjects, each with its
// finding's verdict or none — used only when their number is exactly the number the check says it evaluated, so
// that no case is invented. Above SUBJECT_CASES a check gets one case per finding and one saying how many passed.
import type {Subject} from '../explanation.js'
import type {CheckName} from './checks.js'
import type {CheckContext, CheckResult, EvaluatedSubject} from './context.js'
import {entryOf} from './registry.js'
import type {AuditReport} from './report.js'

/** Test cases per check at most: a JUnit file CI systems still load quickly (~1,000 cases ≈ 0.5 MB). */
export const SUBJECT_CASES = 1000

export const subjectKey = (s: Subject) => `${s.kind}\u0000${s.namespace ?? ''}\u0000${s.name}`

export function subjectsOf(check: CheckName, result: CheckResult, ctx: CheckContext): EvaluatedSubject[] | undefined {
  if (result.evaluated > SUBJECT_CASES || result.status === 'notRun') return undefined
  if (result.subjects?.length === result.evaluated) return result.subjects
  const keys = entryOf(check).subjects
  const findings = new Map(result.findings.map((f) => [subjectKey(f.subject), f]))
  const out: EvaluatedSubject[] = []
  const seen = new Set<string>()
  for (const need of ctx.gathered.plan.needs) {
    if (need.check !== check || !need.type || (keys !== 'all' && !keys.includes(need.key))) continue
    const r = ctx.gathered.read(need)
    if (!r.ok) continue
    for (const o of r.items) {
      const subject: Subject = {
        kind: need.type.kind,
        ...(o.metadata?.namespace ? {namespace: o.metadata.namespace} : {}),
        name: o.metadata?.name ?? '',
        ...(o.metadata?.uid ? {uid: o.metadata.uid as string} : {}),
      }
      const k = subjectKey(subject)
      if (seen.has(k)) continue
      seen.add(k)
      const f = findings.get(k)
      out.push(f ? {subject: f.subject, verdict: f.verdict, severity: f.severity} : {subject, severity: 'none'})
      if (out.length > SUBJECT_CASES) return undefined
    }
  }
  // Findings about objects no list holds (pods known from their eviction events only).
  for (const [k, f] of findings) if (!seen.has(k)) out.push({subject: f.subject, verdict: f.verdict, severity: f.severity})
  return out.length === result.evaluated ? out : undefined
}

const KEPT = new WeakMap<AuditReport, Map<CheckName, EvaluatedSubject[]>>()

/** Kept beside the report, not in it: -o json stays the findings; -o junit reads these. */
export function keepSubjects(report: AuditReport, results: readonly CheckResult[]): void {
  const m = new Map<CheckName, EvaluatedSubject[]>()
  for (const r of results) if (r.subjects) m.set(r.check, r.subjects)
  KEPT.set(report, m)
}

export function evaluatedSubjects(report: AuditReport, check: CheckName): EvaluatedSubject[] | undefined {
  return KEPT.get(report)?.get(check)
}
