// `kubectl why audit -o junit`: JUnit XML as CI systems read it (Jenkins' junit step, GitLab's test reports, GitHub
// test-report actions). One <testsuite> per check that ran (name kubectl-why.<check>), and in it:
//   - one <testcase> per evaluated subject, passing ones too, so that a clean audit has passing cases — or, for a
//     check over more subjects than SUBJECT_CASES (or whose subjects are not known one by one), one per finding;
//   - one case per check, `<check>: evaluated`, which says how many subjects were evaluated and what the check
//     covered: it fails when the check could not run or (with --fail-on-partial) ran on incomplete data;
//   - a <skipped> case per read that failed (with the RBAC rule that grants it) and per piece of evidence missing,
//     and per finding --ignore suppressed (with its reason).
// Case names are the check, the subject's kind and namespace/name only — never the verdict — so a case keeps its
// history when its verdict changes; classname is kubectl-why.<check>.<Kind>. A case fails when its finding is at or
// above --fail-on (the exit code's rule); the failure carries the severity, the summary, the replayed steps and the
// finding's next steps.
import type {CheckName} from '../audit/checks.js'
import type {EvaluatedSubject} from '../audit/context.js'
import {checkOfController} from '../audit/registry.js'
import {type AuditReport, type CheckSummary, sourceNotRead} from '../audit/report.js'
import {evaluatedSubjects, subjectKey} from '../audit/subjects.js'
import {type Explanation, failsOn, type NextStep, type Subject} from '../explanation.js'
import {nextStepText, type SourceInForce} from './next-steps.js'

/** XML 1.0 forbids most control characters even escaped: they are dropped. */
function clean(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 forbids
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
}

export function xmlText(s: string): string {
  return clean(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export function xmlAttr(s: string | number): string {
  return xmlText(String(s)).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')
}

/** An attribute on one line: the whole text is in the element's body, and not every reader decodes &#10;. */
function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ')
}

function subjectText(s: Subject): string {
  return `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

/** The stable name of a subject's case: check, kind, namespace/name. */
export function caseName(check: string, s: Subject): string {
  return `${check} ${subjectText(s)}`
}

/** Next steps in the one style (src/render/next-steps.ts), unpainted: each command whole with the source in force, then `# why`. */
export function nextText(next: readonly NextStep[] | undefined, src: SourceInForce = {}): string[] {
  return nextStepText(next, src, Number.POSITIVE_INFINITY, 0).map((l) => l.text)
}

function details(e: Explanation, src: SourceInForce): string {
  const lines = [`${e.severity}: ${e.verdict}: ${e.summary}`, '']
  for (const s of e.steps) lines.push(`- ${s.rule}: ${s.result} — ${s.why} [${s.upstream}]`)
  const next = nextText(e.next, src)
  if (next.length > 0) lines.push('', ...next)
  return lines.join('\n')
}

interface Case {
  xml: string
  failure: boolean
  skipped: boolean
}

function open(name: string, classname: string): string {
  return `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(classname)}" time="0">`
}

function findingCase(check: string, e: Explanation, failOn: AuditReport['summary']['failOn'], src: SourceInForce): Case {
  const head = open(caseName(check, e.subject), `kubectl-why.${check}.${e.subject.kind}`)
  if (failsOn(e.severity, failOn)) {
    return {
      failure: true,
      skipped: false,
      xml: `${head}\n      <failure message="${xmlAttr(oneLine(`${e.severity}: ${e.summary}`))}" type="${e.severity}">${xmlText(details(e, src))}</failure>\n    </testcase>`,
    }
  }
  return {failure: false, skipped: false, xml: `${head}\n      <system-out>${xmlText(details(e, src))}</system-out>\n    </testcase>`}
}

function passingCase(check: string, s: EvaluatedSubject): Case {
  const what = s.verdict ? `${s.verdict} (${s.severity})` : 'no finding'
  return {
    failure: false,
    skipped: false,
    xml: `${open(caseName(check, s.subject), `kubectl-why.${check}.${s.subject.kind}`)}\n      <system-out>${xmlText(what)}</system-out>\n    </testcase>`,
  }
}

function skippedCase(name: string, classname: string, message: string): Case {
  return {failure: false, skipped: true, xml: `${open(name, classname)}\n      <skipped message="${xmlAttr(oneLine(message))}"/>\n    </testcase>`}
}

/** The check's own case: how many subjects it evaluated and what it covered; fails when it did not run or ran short. */
function checkCase(r: AuditReport, c: CheckSummary): Case {
  const verdicts = Object.entries(c.verdicts)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ')
  const text = [`${c.evaluated} evaluated${verdicts ? ` (${verdicts})` : ''}; covered: ${c.coverage.text}`, ...c.notes].join('\n')
  const head = open(`${c.name}: evaluated`, `kubectl-why.${c.name}`)
  const gaps = r.summary.incomplete.filter((x) => x.startsWith(`${c.name}:`))
  if (c.status === 'notRun' || (gaps.length > 0 && (r.summary.failOnPartial || gaps.some((g) => g.includes('none of its lists'))))) {
    const message = gaps[0] ?? `${c.name}: ${c.status}`
    return {
      failure: true,
      skipped: false,
      xml: `${head}\n      <failure message="${xmlAttr(oneLine(message))}" type="incomplete">${xmlText([...gaps, '', text].join('\n'))}</failure>\n    </testcase>`,
    }
  }
  return {failure: false, skipped: false, xml: `${head}\n      <system-out>${xmlText(text)}</system-out>\n    </testcase>`}
}

function suite(r: AuditReport, c: CheckSummary, src: SourceInForce): {xml: string; tests: number; failures: number; skipped: number} {
  const check = c.name as CheckName
  const findings = r.findings.filter((e) => checkOfController(e.controller) === check)
  const suppressed = (r.suppressed?.findings ?? []).filter((f) => f.check === check)
  const cases: Case[] = [checkCase(r, c)]
  const subjects = evaluatedSubjects(r, check)
  // Evidence a check could not use that is not a failed list (those are below): a subject not replayed, a GET refused.
  // A subject's own problem is its case, skipped; the others are cases of their own.
  const problems = new Map(c.problems.filter((x) => !x.what.startsWith('list ')).map((x) => [x.what, x]))
  if (subjects) {
    const byKey = new Map(findings.map((e) => [subjectKey(e.subject), e]))
    const hidden = new Map(suppressed.map((f) => [subjectKey(f.subject), f]))
    for (const s of subjects) {
      const k = subjectKey(s.subject)
      const e = byKey.get(k)
      const h = hidden.get(k)
      const p = problems.get(subjectText(s.subject))
      if (p) problems.delete(p.what)
      if (e) cases.push(findingCase(check, e, r.summary.failOn, src))
      else if (p) cases.push(skippedCase(caseName(check, s.subject), `kubectl-why.${check}.${s.subject.kind}`, `${p.what}: ${p.reason}`))
      else if (h)
        cases.push(
          skippedCase(
            caseName(check, s.subject),
            `kubectl-why.${check}.${s.subject.kind}`,
            `suppressed by --ignore rule ${h.rule} (${h.reason}): ${h.severity} ${h.verdict}: ${h.summary}`,
          ),
        )
      else cases.push(passingCase(check, s))
    }
  } else {
    for (const e of findings) cases.push(findingCase(check, e, r.summary.failOn, src))
    for (const h of suppressed)
      cases.push(
        skippedCase(
          caseName(check, h.subject),
          `kubectl-why.${check}.${h.subject.kind}`,
          `suppressed by --ignore rule ${h.rule} (${h.reason}): ${h.severity} ${h.verdict}: ${h.summary}`,
        ),
      )
  }
  for (const n of r.summary.notChecked.filter((x) => x.checks.includes(check))) {
    const what = `${n.kind}${n.apiVersion.includes('/') ? `.${n.apiVersion.split('/')[0]}` : ''}${n.namespace ? ` in ${n.namespace}` : ''}`
    const message = `not read: ${n.reason}${n.status ? ` ${n.status}` : ''}: ${n.message}${n.rule ? `; needs apiGroups [${n.rule.apiGroups.map((g) => JSON.stringify(g)).join(', ')}] resources [${n.rule.resources.join(', ')}] verbs [${n.rule.verbs.join(', ')}]: ${n.command}` : ''}`
    cases.push(skippedCase(`${check} not read: ${what}`, `kubectl-why.${check}.${n.kind}`, message))
  }
  for (const p of problems.values()) {
    cases.push(skippedCase(`${check} missing: ${p.what}`, `kubectl-why.${check}`, `${p.what}: ${p.reason}`))
  }
  const failures = cases.filter((x) => x.failure).length
  const skipped = cases.filter((x) => x.skipped).length
  const props = [
    ['status', c.status],
    ['controller', c.controller],
    ['evaluated', String(c.evaluated)],
    ['coverage', c.coverage.text],
    ...Object.entries(c.verdicts).map(([v, n]) => [`verdict.${v}`, String(n)]),
    ...c.problems.map((p, i) => [`problem.${i + 1}`, `${p.what}: ${p.reason}`]),
  ]
  const xml = [
    `  <testsuite name="${xmlAttr(`kubectl-why.${check}`)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${xmlAttr(r.evaluatedAt.replace(/\.\d+Z$|Z$/, ''))}" time="0">`,
    '    <properties>',
    ...props.map(([k, v]) => `      <property name="${xmlAttr(k)}" value="${xmlAttr(v)}"/>`),
    '    </properties>',
    ...cases.map((x) => x.xml),
    '  </testsuite>',
  ].join('\n')
  return {xml, tests: cases.length, failures, skipped}
}

/**
 * The source's own notes (source.partial), one case each: a file of a dump directory that could not be read (a
 * broken link, no permission, not a file) is an error, so a CI reader sees the file by name rather than an audit of
 * the rest that looks whole; a note about what was read (a scope a dump had to guess) is a passing case saying it.
 */
function sourceSuite(r: AuditReport): {xml: string; tests: number; failures: number; skipped: number; errors: number} | undefined {
  const partial = r.source.partial ?? []
  if (partial.length === 0) return undefined
  const cases = partial.map((p) => {
    const head = open(`source: ${p.what}`, 'kubectl-why.source')
    const unread = sourceNotRead(p)
    const body = unread
      ? `<error message="${xmlAttr(oneLine(`${p.what}: ${p.reason}`))}" type="notRead">${xmlText(`${p.what}: ${p.reason}`)}</error>`
      : `<system-out>${xmlText(`${p.what}: ${p.reason}`)}</system-out>`
    return {error: unread, xml: `${head}\n      ${body}\n    </testcase>`}
  })
  const errors = cases.filter((c) => c.error).length
  const xml = [
    `  <testsuite name="kubectl-why.source" tests="${cases.length}" failures="0" errors="${errors}" skipped="0" timestamp="${xmlAttr(r.evaluatedAt.replace(/\.\d+Z$|Z$/, ''))}" time="0">`,
    ...cases.map((c) => c.xml),
    '  </testsuite>',
  ].join('\n')
  return {xml, tests: cases.length, failures: 0, skipped: 0, errors}
}

/** The document a piece at a time (one test suite per piece): thousands of findings need not be held as one string. */
export function* junitChunks(r: AuditReport, src: SourceInForce = {}): Generator<string> {
  const ran = r.summary.checks.filter((c) => c.status === 'complete' || c.status === 'partial' || c.status === 'notRun')
  const source = sourceSuite(r)
  const suites = [...(source ? [source] : []), ...ran.map((c) => ({...suite(r, c, src), errors: 0}))]
  const sum = (k: 'tests' | 'failures' | 'skipped' | 'errors') => suites.reduce((n, s) => n + s[k], 0)
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kubectl-why audit" tests="${sum('tests')}" failures="${sum('failures')}" errors="${sum('errors')}" skipped="${sum('skipped')}" time="0">\n`
  for (const s of suites) yield `${s.xml}\n`
  yield '</testsuites>\n'
}

export function renderJunit(r: AuditReport, src: SourceInForce = {}): string {
  return [...junitChunks(r, src)].join('')
}
