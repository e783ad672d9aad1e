// The human view of `kubectl why audit`: the header (what was covered, from where), a summary table (each check:
// status, objects, findings by severity, coverage), what could not be read and the RBAC rule that would let it be,
// what --ignore suppressed, then the findings grouped by check and by verdict with their counts — the first few of
// each group (--limit; by default as many as keep each check's group within one terminal screen), the rest in
// -o wide and -o json — and last the summary line a CI log shows. With -o wide every finding, each in its own
// command's view (the registry's renderer) or with every replayed step. Colours as WhyCommand.setupOutput decides.
import {CHECK_NAMES, type CheckName} from '../audit/checks.js'
import {checkOfController, entryOf} from '../audit/registry.js'
import {findingView} from './views.js'
import type {AuditReport} from '../audit/report.js'
import {type Explanation, type Severity, severityRank} from '../explanation.js'
import {ROLE, SEVERITY} from './colour.js'
import {table, wrap} from './layout.js'
import {nextStepLines, type SourceInForce} from './next-steps.js'

export const COLOUR: Record<Severity, (s: string) => string> = SEVERITY

const STATUS: Record<string, (s: string) => string> = {
  complete: ROLE.good,
  partial: ROLE.warn,
  notRun: ROLE.bad,
  notSelected: ROLE.muted,
  unavailable: ROLE.muted,
}

/** The check of each Explanation.controller, from the registry. */
export const CHECK_OF_CONTROLLER: Record<string, string> = Object.fromEntries(CHECK_NAMES.flatMap((c) => entryOf(c).controllers.map((ctl) => [ctl, c])))

/** The screen the default table is sized for: the terminal's, else $LINES and $COLUMNS, else 24 rows and no width limit (a log). */
export interface Screen {
  rows: number
  columns: number
}

export interface AuditViewOptions {
  wide?: boolean
  /** Findings shown per check and verdict; 0: all; undefined: as many as fit one screen per check. */
  limit?: number
  screen?: Screen
  /** The command line's source options, added to each next step so that it reproduces this view (next-steps.ts). */
  source?: SourceInForce
}

export function terminalScreen(stream: {rows?: number; columns?: number} = process.stdout, env: NodeJS.ProcessEnv = process.env): Screen {
  const num = (v: string | undefined) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined)
  return {rows: stream.rows || num(env.LINES) || 24, columns: stream.columns || num(env.COLUMNS) || Number.POSITIVE_INFINITY}
}

function subjectText(e: Explanation): string {
  const s = e.subject
  return `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

function sourceText(r: AuditReport): string {
  const s = r.source
  const where = s.mode === 'snapshot' ? `snapshot ${s.file ?? ''}${s.capturedAt ? ` (captured ${s.capturedAt})` : ''}` : `context ${s.context ?? '?'}`
  return `${where}${s.serverVersion ? `, ${s.serverVersion}` : ''}`
}

function count(n: number, severity: Severity): string {
  return n === 0 ? ROLE.muted('0') : COLOUR[severity](String(n))
}

/** What the audit covered, check by check where they differ from the scope asked for. */
function scopeText(r: AuditReport): string {
  const asked = 'allNamespaces' in r.scope ? 'all namespaces' : `namespace ${r.scope.namespace}`
  const ran = r.summary.checks.filter((c) => c.status !== 'notSelected' && c.status !== 'unavailable')
  const other = ran.filter((c) => c.coverage.text !== asked)
  return other.length === 0 ? asked : `${asked}; ${other.map((c) => `${c.name}: ${c.coverage.text}`).join('; ')}`
}

interface Group {
  check: CheckName
  verdicts: {verdict: string; severity: Severity; findings: Explanation[]}[]
  worst: number
}

function groups(findings: readonly Explanation[]): Group[] {
  const byCheck = new Map<CheckName, Group>()
  for (const e of findings) {
    const check = checkOfController(e.controller) ?? CHECK_NAMES[0]
    let g = byCheck.get(check)
    if (!g) {
      g = {check, verdicts: [], worst: -1}
      byCheck.set(check, g)
    }
    let v = g.verdicts.find((x) => x.verdict === e.verdict)
    if (!v) {
      v = {verdict: e.verdict, severity: e.severity, findings: []}
      g.verdicts.push(v)
    }
    v.findings.push(e)
    if (severityRank(e.severity) > severityRank(v.severity)) v.severity = e.severity
    g.worst = Math.max(g.worst, severityRank(e.severity))
  }
  const out = [...byCheck.values()]
  for (const g of out) g.verdicts.sort((a, b) => severityRank(b.severity) - severityRank(a.severity))
  // Worst group first; ties in the registry's order.
  return out.sort((a, b) => b.worst - a.worst || CHECK_NAMES.indexOf(a.check) - CHECK_NAMES.indexOf(b.check))
}

function findingLines(e: Explanation, check: string, wide: boolean, columns: number, src: SourceInForce): string[] {
  const head = `${COLOUR[e.severity](e.severity.padEnd(8))}  ${check.padEnd(8)}  ${e.verdict}  ${ROLE.heading(subjectText(e))}`
  // The summary wrapped at word boundaries, never cut: its key clause is often its last (issue 28.3).
  const width = Number.isFinite(columns) ? columns : Number.POSITIVE_INFINITY
  if (!wide) return [head, ...wrap(e.summary.replace(/\s+/g, ' '), width, {indent: 10}), ...nextStepLines(e.next, src, width, 10)]
  const own = findingView(entryOf(check as CheckName).views)
  if (own)
    return [
      head,
      // Drawn in the room left after the indent, so that its wrapped lines stay within the terminal.
      ...own(e, true, src, Number.isFinite(width) ? Math.max(40, width - 10) : undefined)
        .trimEnd()
        .split('\n')
        .map((l) => `${' '.repeat(10)}${l}`),
    ]
  const out = [head, ...wrap(e.summary.replace(/\s+/g, ' '), width, {indent: 10})]
  for (const s of e.steps) {
    out.push(...wrap(`${ROLE.muted('•')} ${s.rule}: ${s.result} — ${s.why}${ROLE.muted(` [${s.upstream}]`)}`, width, {indent: 10, hanging: 12}))
    if (s.inferred) out.push(...wrap(`inferred (${s.inferred.confidence}): ${s.inferred.evidence}`, width, {indent: 14}).map(ROLE.muted))
  }
  out.push(...nextStepLines(e.next, src, width, 10))
  return out
}

export function renderAudit(r: AuditReport, wideOrOptions: boolean | AuditViewOptions = false): string {
  const o: AuditViewOptions = typeof wideOrOptions === 'boolean' ? {wide: wideOrOptions} : wideOrOptions
  const wide = o.wide === true
  const screen = o.screen ?? terminalScreen()
  const out: string[] = []
  // At a terminal every line is wrapped at word boundaries to its width (issue 28.3: the header wrapped mid-word at 80
  // columns); in a pipe (no width) each stays one line, as kubectl's do, for grep.
  const columns = screen.columns
  const lines = (text: string, opts: {indent?: number; hanging?: number} = {}) => wrap(text, columns, opts)
  out.push(...lines(`kubectl why audit — ${scopeText(r)} — ${sourceText(r)}, evaluated at ${r.evaluatedAt}`, {hanging: 2}).map(ROLE.heading))
  const rows: string[][] = []
  for (const c of r.summary.checks) {
    if (c.status === 'notSelected' || c.status === 'unavailable') {
      rows.push([c.name, STATUS[c.status](c.status === 'unavailable' ? 'not available' : 'not selected'), '', '', '', '', ''])
      continue
    }
    rows.push([
      c.name,
      STATUS[c.status](c.status === 'notRun' ? 'not run' : c.status),
      String(c.evaluated),
      count(c.findings.critical, 'critical'),
      count(c.findings.warning, 'warning'),
      count(c.findings.info, 'info'),
      c.coverage.text,
    ])
  }
  // COVERED, the last column, wraps at word boundaries to keep a row within the terminal; the others are never cut.
  out.push(
    ...table(['CHECK', 'STATUS', 'OBJECTS', 'CRITICAL', 'WARNING', 'INFO', 'COVERED'], rows, {
      width: Number.isFinite(columns) ? columns : undefined,
      wrapColumn: 6,
    }),
  )
  for (const c of r.summary.checks) {
    if (c.status === 'unavailable' && wide) out.push(...lines(`${c.name}: not available: ${c.notes[0]}`, {hanging: 2}).map(ROLE.muted))
    for (const p of c.problems) out.push(...lines(`${c.name}: ${p.what}: ${p.reason}`, {hanging: 2}).map(ROLE.warn))
    if (wide) for (const n of c.notes) if (c.status !== 'unavailable') out.push(...lines(`${c.name}: ${n}`, {hanging: 2}).map(ROLE.muted))
  }
  const partial = r.source.partial ?? []
  if (partial.length > 0) out.push(...lines(`source: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`, {hanging: 2}).map(ROLE.warn))
  if (r.summary.notChecked.length > 0) {
    out.push('')
    out.push(ROLE.warnHeading(`Not checked (${r.summary.notChecked.length}):`))
    for (const n of r.summary.notChecked) {
      out.push(
        ...lines(
          `${n.kind}${n.apiVersion.includes('/') ? `.${n.apiVersion.split('/')[0]}` : ''}${n.namespace ? ` in ${n.namespace}` : ''} (${n.checks.join(', ')}): ${n.reason}${n.status ? ` ${n.status}` : ''} — ${n.message}`,
          {indent: 2, hanging: 4},
        ),
      )
      // The rule wrapped; the command that checks it whole on its own line, so that it pastes.
      if (n.rule) {
        out.push(
          ...lines(
            `needs: apiGroups [${n.rule.apiGroups.map((g) => JSON.stringify(g)).join(', ')}], resources [${n.rule.resources.join(', ')}], verbs [${n.rule.verbs.join(', ')}]:`,
            {indent: 4, hanging: 6},
          ),
        )
        out.push(`      ${n.command}`)
      }
    }
  }
  const sel = r.summary.selection
  if (sel) {
    const excluded = Object.values(sel.excluded).reduce((a, b) => a + (b ?? 0), 0)
    out.push(
      ROLE.muted(
        `selected: ${[sel.labelSelector && `-l ${sel.labelSelector}`, sel.fieldSelector && `--field-selector ${sel.fieldSelector}`].filter(Boolean).join(' ')}; ${excluded} finding(s) of other objects left out`,
      ),
    )
  }
  const sup = r.suppressed
  if (sup) {
    out.push('')
    out.push(ROLE.heading(`Suppressed by --ignore${sup.file ? ` ${sup.file}` : ''}: ${sup.count} finding(s)`))
    for (const rule of sup.rules) {
      const what = [rule.check, rule.verdict, rule.kind, [rule.namespace, rule.name].filter((x) => x !== undefined).join('/')].filter(Boolean).join(' ')
      if (rule.expired)
        out.push(
          ROLE.warn(
            `  rule ${rule.index} (${what}) expired at ${rule.expires}: no longer applies${rule.matched > 0 ? ` — ${rule.matched} finding(s) it matched are reported again` : ''}`,
          ),
        )
      else out.push(`  rule ${rule.index} (${what}): ${rule.matched} — ${rule.reason}${rule.expires ? ROLE.muted(` (until ${rule.expires})`) : ''}`)
    }
  }
  out.push('')
  if (r.findings.length === 0) {
    out.push(ROLE.good('No findings.'))
  } else {
    const f = r.summary.findings
    out.push(
      ...lines(`Findings by check and verdict, worst first: ${f.critical} critical, ${f.warning} warning, ${f.info} info${f.none ? `, ${f.none} none` : ''}`, {
        hanging: 2,
      }).map(ROLE.heading),
    )
    let hidden = 0
    for (const g of groups(r.findings)) {
      const n = g.verdicts.reduce((a, v) => a + v.findings.length, 0)
      out.push(
        ...lines(`${g.check} — ${n} finding${n === 1 ? '' : 's'}: ${g.verdicts.map((v) => `${v.verdict} ${v.findings.length}`).join(', ')}`, {hanging: 2}).map(
          ROLE.heading,
        ),
      )
      const fixed = wide || o.limit === 0 ? Number.POSITIVE_INFINITY : o.limit
      // By default as many findings as fit one screen: each verdict its share of the rows left after the check's
      // line and each verdict's two, a finding taking its lines (the summary wrapped, its next steps).
      const share = Math.max(0, Math.floor((screen.rows - 1 - 2 * g.verdicts.length) / g.verdicts.length))
      for (const v of g.verdicts) {
        const rendered = v.findings.map((e) => findingLines(e, g.check, wide, screen.columns, o.source ?? {}))
        let limit = fixed ?? 0
        if (fixed === undefined) for (let used = 0; limit < rendered.length && used + rendered[limit].length <= share; ) used += rendered[limit++].length
        if (g.verdicts.length > 1 || limit < v.findings.length)
          out.push(
            `  ${COLOUR[v.severity](v.verdict)} (${v.severity}): ${v.findings.length}${limit === 0 ? '' : limit < v.findings.length ? `, the first ${limit}` : ''}`,
          )
        for (const lines of rendered.slice(0, limit)) out.push(...lines)
        if (limit < v.findings.length) {
          hidden += v.findings.length - limit
          if (limit > 0) out.push(ROLE.muted(`  … and ${v.findings.length - limit} more ${v.verdict}`))
        }
      }
    }
    if (hidden > 0)
      out.push(
        ...lines(`${hidden} finding(s) not shown: -o wide lists every finding, -o json is the whole report (--limit N, --limit 0 for all)`).map(ROLE.muted),
      )
  }
  out.push('')
  out.push(...lines(r.summary.line, {hanging: 2}).map(ROLE.heading))
  for (const x of r.summary.incomplete) out.push(...lines(`incomplete: ${x}`, {indent: 2, hanging: 4}).map(ROLE.warn))
  out.push('')
  return out.join('\n')
}
