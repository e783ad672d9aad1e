// `kubectl why audit -o junit`: JUnit XML, so CI systems show the audit natively. One <testsuite> per check that ran,
// one <testcase> per finding: a <failure> for warning and critical (type = the severity), a passing case with the
// summary as output for info. A kind that could not be read is a <skipped> case in the suites it would have fed.
import type {AuditReport, CheckSummary} from '../audit/report.js'
import type {Explanation} from '../explanation.js'
import {CHECK_OF_CONTROLLER} from './audit.js'

/** XML 1.0 forbids most control characters even escaped: they are dropped. */
function clean(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
}

export function xmlText(s: string): string {
  return clean(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export function xmlAttr(s: string | number): string {
  return xmlText(String(s)).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')
}

function subjectText(e: Explanation): string {
  const s = e.subject
  return `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

function details(e: Explanation): string {
  const lines = [e.summary, '']
  for (const s of e.steps) lines.push(`- ${s.rule}: ${s.result} — ${s.why} [${s.upstream}]`)
  return lines.join('\n')
}

interface Case {
  xml: string
  failure: boolean
  skipped: boolean
}

function findingCase(e: Explanation): Case {
  const name = `${e.verdict}: ${subjectText(e)}`
  const head = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(`kubectl-why.${CHECK_OF_CONTROLLER[e.controller] ?? e.controller}.${e.subject.kind}`)}">`
  if (e.severity === 'warning' || e.severity === 'critical') {
    return {failure: true, skipped: false, xml: `${head}\n      <failure message="${xmlAttr(`${e.severity}: ${e.summary}`)}" type="${e.severity}">${xmlText(details(e))}</failure>\n    </testcase>`}
  }
  return {failure: false, skipped: false, xml: `${head}\n      <system-out>${xmlText(`${e.severity}: ${details(e)}`)}</system-out>\n    </testcase>`}
}

function suite(r: AuditReport, c: CheckSummary): {xml: string; tests: number; failures: number; skipped: number} {
  const cases: Case[] = r.findings.filter((e) => CHECK_OF_CONTROLLER[e.controller] === c.name).map(findingCase)
  for (const n of r.summary.notChecked.filter((x) => x.checks.includes(c.name))) {
    const what = `${n.kind}${n.apiVersion.includes('/') ? `.${n.apiVersion.split('/')[0]}` : ''}${n.namespace ? ` in ${n.namespace}` : ''}`
    const message = `${n.reason}: ${n.message}${n.command ? `; grant it with: ${n.command}` : ''}`
    cases.push({failure: false, skipped: true, xml: `    <testcase name="${xmlAttr(`not checked: ${what}`)}" classname="kubectl-why.${c.name}.notChecked">\n      <skipped message="${xmlAttr(message)}"/>\n    </testcase>`})
  }
  const failures = cases.filter((x) => x.failure).length
  const skipped = cases.filter((x) => x.skipped).length
  const props = [
    ['status', c.status], ['controller', c.controller], ['evaluated', String(c.evaluated)],
    ...Object.entries(c.verdicts).map(([v, n]) => [`verdict.${v}`, String(n)]),
    ...c.problems.map((p, i) => [`problem.${i + 1}`, `${p.what}: ${p.reason}`]),
  ]
  const xml = [
    `  <testsuite name="${xmlAttr(`kubectl-why audit: ${c.name}`)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${xmlAttr(r.evaluatedAt.replace(/\.\d+Z$|Z$/, ''))}" time="0">`,
    '    <properties>',
    ...props.map(([k, v]) => `      <property name="${xmlAttr(k)}" value="${xmlAttr(v)}"/>`),
    '    </properties>',
    ...cases.map((x) => x.xml),
    '  </testsuite>',
  ].join('\n')
  return {xml, tests: cases.length, failures, skipped}
}

/** The document a piece at a time (one test suite per piece): thousands of findings need not be held as one string. */
export function* junitChunks(r: AuditReport): Generator<string> {
  const ran = r.summary.checks.filter((c) => c.status === 'complete' || c.status === 'partial' || c.status === 'notRun')
  const suites = ran.map((c) => suite(r, c))
  const sum = (k: 'tests' | 'failures' | 'skipped') => suites.reduce((n, s) => n + s[k], 0)
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kubectl-why audit" tests="${sum('tests')}" failures="${sum('failures')}" errors="0" skipped="${sum('skipped')}">\n`
  for (const s of suites) yield `${s.xml}\n`
  yield '</testsuites>\n'
}

export function renderJunit(r: AuditReport): string {
  return [...junitChunks(r)].join('')
}
