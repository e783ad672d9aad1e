// --ignore FILE: findings a team has looked at and accepted, each with its reason (as Popeye's spinach file and
// kube-linter's ignore annotations give their users). A suppressed finding leaves the exit code and the failures,
// but is counted and listed in the report, never dropped; a rule past its expiry date no longer applies and the report
// says so. The file (YAML):
//
//   suppressions:
//     - check: gc                      # required: one of the audit's checks
//       verdict: delete                # optional; patterns: * any run of characters, ? one character
//       kind: ConfigMap                # optional pattern
//       namespace: shop                # optional pattern
//       name: web-canary-*             # optional pattern
//       reason: the release job collects canary configs   # required
//       expires: 2026-12-31            # optional: a date (the rule applies through that day, UTC) or an RFC 3339 time
import {readFileSync} from 'node:fs'
import {UserError} from '../errors.js'
import type {Explanation, Severity, Subject} from '../explanation.js'
import {rfc3339Millis} from '../util/parse.js'
import {yamlLib} from '../util/yaml-lib.js'
import {CHECK_NAMES, type CheckName, checkHint} from './checks.js'
import type {CheckResult} from './context.js'

export interface Suppression {
  check: CheckName
  verdict?: string
  kind?: string
  namespace?: string
  name?: string
  reason: string
  /** The instant the rule stops applying (RFC 3339). */
  expires?: string
}

/** A rule as the report lists it: how many findings it suppressed, or that it has expired. */
export interface SuppressionRule extends Suppression {
  index: number
  expired: boolean
  matched: number
}

export interface SuppressedFinding {
  rule: number
  reason: string
  check: CheckName
  verdict: string
  severity: Severity
  subject: Subject
  summary: string
}

export interface SuppressionSummary {
  file?: string
  count: number
  rules: SuppressionRule[]
  findings: SuppressedFinding[]
  /** Findings an expired rule would have suppressed: they count again. */
  expiredMatches: number
}

const KEYS = ['check', 'verdict', 'kind', 'namespace', 'name', 'reason', 'expires']

function bad(file: string, where: string, what: string): UserError {
  return new UserError(
    `--ignore ${file}: ${where}: ${what}`,
    'each entry needs check and reason; verdict, kind, namespace, name and expires (YYYY-MM-DD) are optional',
  )
}

function expiryOf(file: string, where: string, v: unknown): string {
  const text = v instanceof Date ? v.toISOString() : String(v)
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (day) {
    const end = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]) + 1)
    const check = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])))
    if (check.getUTCMonth() !== Number(day[2]) - 1 || check.getUTCDate() !== Number(day[3])) throw bad(file, where, `expires "${text}" is not a calendar date`)
    return new Date(end).toISOString()
  }
  const ms = rfc3339Millis(text)
  if (ms === undefined) throw bad(file, where, `expires "${text}" is neither a date (YYYY-MM-DD) nor an RFC 3339 time`)
  return new Date(ms).toISOString()
}

/** Reads and checks the file: a usage error (exit 2) names the entry and the field. */
export function readSuppressions(file: string): Suppression[] {
  let doc: unknown
  try {
    doc = yamlLib().parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new UserError(`--ignore ${file}: ${(err as Error).message.split('\n')[0]}`, 'give a readable YAML file')
  }
  const list = Array.isArray(doc) ? doc : (doc as {suppressions?: unknown} | null)?.suppressions
  if (!Array.isArray(list)) throw new UserError(`--ignore ${file}: no suppressions list`, 'write `suppressions:` followed by a list of entries')
  return list.map((e, i): Suppression => {
    const where = `entry ${i + 1}`
    if (!e || typeof e !== 'object' || Array.isArray(e)) throw bad(file, where, 'not a mapping')
    const o = e as Record<string, unknown>
    for (const k of Object.keys(o)) if (!KEYS.includes(k)) throw bad(file, where, `unknown field "${k}"`)
    for (const k of KEYS) if (k !== 'expires' && o[k] !== undefined && typeof o[k] !== 'string') throw bad(file, where, `${k} must be a string`)
    if (!o.check) throw bad(file, where, 'check is required')
    if (!(CHECK_NAMES as readonly string[]).includes(o.check as string)) throw bad(file, where, `unknown check "${o.check}" (${checkHint(String(o.check))})`)
    if (!o.reason || !(o.reason as string).trim()) throw bad(file, where, 'reason is required: say why the finding is accepted')
    const s: Suppression = {check: o.check as CheckName, reason: (o.reason as string).trim()}
    for (const k of ['verdict', 'kind', 'namespace', 'name'] as const) if (o[k] !== undefined) s[k] = o[k] as string
    if (o.expires !== undefined && o.expires !== null) s.expires = expiryOf(file, where, o.expires)
    return s
  })
}

/** A shell-style pattern: * any run of characters, ? one; nothing else is special. */
export function pattern(p: string): RegExp {
  return new RegExp(
    `^${p
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  )
}

function matcher(s: Suppression): (check: CheckName, e: Explanation) => boolean {
  const verdict = s.verdict !== undefined ? pattern(s.verdict) : undefined
  const kind = s.kind !== undefined ? pattern(s.kind) : undefined
  const namespace = s.namespace !== undefined ? pattern(s.namespace) : undefined
  const name = s.name !== undefined ? pattern(s.name) : undefined
  return (check, e) =>
    check === s.check &&
    (!verdict || verdict.test(e.verdict)) &&
    (!kind || kind.test(e.subject.kind)) &&
    (!namespace || namespace.test(e.subject.namespace ?? '')) &&
    (!name || name.test(e.subject.name))
}

/**
 * Takes the suppressed findings out of each result (the first rule in force that matches takes a finding) and lists
 * them; a finding only an expired rule matches stays, and that rule counts it.
 * `now` is the audit's evaluation instant: a rule whose expiry is at or before it has expired.
 */
export function applySuppressions(results: CheckResult[], rules: readonly Suppression[], now: Date, file?: string): SuppressionSummary | undefined {
  if (rules.length === 0) return undefined
  const summary: SuppressionSummary = {...(file ? {file} : {}), count: 0, rules: [], findings: [], expiredMatches: 0}
  const compiled = rules.map((s, i) => {
    const rule: SuppressionRule = {...s, index: i + 1, expired: s.expires !== undefined && Date.parse(s.expires) <= now.getTime(), matched: 0}
    summary.rules.push(rule)
    return {rule, test: matcher(s)}
  })
  for (const r of results) {
    r.findings = r.findings.filter((f) => {
      const hit = compiled.find((c) => !c.rule.expired && c.test(r.check, f))
      if (!hit) {
        const lapsed = compiled.find((c) => c.rule.expired && c.test(r.check, f))
        if (lapsed) {
          lapsed.rule.matched++
          summary.expiredMatches++
        }
        return true
      }
      hit.rule.matched++
      summary.count++
      summary.findings.push({
        rule: hit.rule.index,
        reason: hit.rule.reason,
        check: r.check,
        verdict: f.verdict,
        severity: f.severity,
        subject: f.subject,
        summary: f.summary,
      })
      return false
    })
  }
  return summary
}
