// The human view of `kubectl why audit`: a summary table (each check: status, objects, findings by severity), what
// could not be read and the RBAC rule that would let it be, then the findings worst first, one line and a summary
// each (with -o wide, every replayed step). Colours only on a terminal (WhyCommand.setupOutput turns them off).
import chalk from 'chalk'
import Table from 'cli-table3'
import type {AuditReport} from '../audit/report.js'
import type {Explanation, Severity} from '../explanation.js'

const COLOUR: Record<Severity, (s: string) => string> = {
  none: (s) => chalk.green(s),
  info: (s) => chalk.cyan(s),
  warning: (s) => chalk.yellow(s),
  critical: (s) => chalk.red.bold(s),
}

const STATUS: Record<string, (s: string) => string> = {
  complete: (s) => chalk.green(s),
  partial: (s) => chalk.yellow(s),
  notRun: (s) => chalk.red(s),
  notSelected: (s) => chalk.dim(s),
  unavailable: (s) => chalk.dim(s),
}

export const CHECK_OF_CONTROLLER: Record<string, string> = {
  garbagecollector: 'gc', nodelifecycle: 'node', tainteviction: 'evicted', replicaset: 'replicas', deployment: 'hash', daemonset: 'hash', statefulset: 'hash',
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
  return n === 0 ? chalk.dim('0') : COLOUR[severity](String(n))
}

export function renderAudit(r: AuditReport, wide: boolean): string {
  const out: string[] = []
  const scope = 'allNamespaces' in r.scope ? 'all namespaces' : `namespace ${r.scope.namespace}`
  out.push(chalk.bold(`kubectl why audit — ${scope}, ${sourceText(r)}, evaluated at ${r.evaluatedAt}`))
  const t = new Table({
    head: ['CHECK', 'STATUS', 'OBJECTS', 'CRITICAL', 'WARNING', 'INFO'].map((h) => chalk.bold(h)),
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right'],
    style: {head: [], border: [], compact: true},
    chars: {top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  '},
  })
  for (const c of r.summary.checks) {
    if (c.status === 'notSelected' || c.status === 'unavailable') {
      t.push([c.name, STATUS[c.status](c.status === 'unavailable' ? 'not available' : 'not selected'), '', '', '', ''])
      continue
    }
    t.push([c.name, STATUS[c.status](c.status === 'notRun' ? 'not run' : c.status), String(c.evaluated), count(c.findings.critical, 'critical'), count(c.findings.warning, 'warning'), count(c.findings.info, 'info')])
  }
  out.push(t.toString())
  for (const c of r.summary.checks) {
    if (c.status === 'unavailable' && wide) out.push(chalk.dim(`${c.name}: not available: ${c.notes[0]}`))
    for (const p of c.problems) out.push(chalk.yellow(`${c.name}: ${p.what}: ${p.reason}`))
    if (wide) for (const n of c.notes) if (c.status !== 'unavailable') out.push(chalk.dim(`${c.name}: ${n}`))
  }
  const partial = r.source.partial ?? []
  if (partial.length > 0) out.push(chalk.yellow(`source: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`))
  if (r.summary.notChecked.length > 0) {
    out.push('')
    out.push(chalk.bold.yellow(`Not checked (${r.summary.notChecked.length}):`))
    for (const n of r.summary.notChecked) {
      out.push(`  ${n.kind}${n.apiVersion.includes('/') ? `.${n.apiVersion.split('/')[0]}` : ''}${n.namespace ? ` in ${n.namespace}` : ''} (${n.checks.join(', ')}): ${n.reason}${n.status ? ` ${n.status}` : ''} — ${n.message}`)
      if (n.rule) out.push(`    needs: apiGroups [${n.rule.apiGroups.map((g) => JSON.stringify(g)).join(', ')}], resources [${n.rule.resources.join(', ')}], verbs [${n.rule.verbs.join(', ')}]: ${n.command}`)
    }
  }
  out.push('')
  const f = r.summary.findings
  if (r.findings.length === 0) {
    out.push(chalk.green('No findings.'))
    out.push('')
    return out.join('\n')
  }
  out.push(chalk.bold(`Findings, worst first: ${f.critical} critical, ${f.warning} warning, ${f.info} info${f.none ? `, ${f.none} none` : ''}`))
  for (const e of r.findings) {
    out.push(`${COLOUR[e.severity](e.severity.padEnd(8))}  ${(CHECK_OF_CONTROLLER[e.controller] ?? e.controller).padEnd(8)}  ${e.verdict}  ${chalk.bold(subjectText(e))}`)
    out.push(`${' '.repeat(10)}${e.summary}`)
    if (wide) {
      for (const s of e.steps) {
        out.push(`${' '.repeat(10)}${chalk.dim('•')} ${s.rule}: ${s.result} — ${s.why}${chalk.dim(` [${s.upstream}]`)}`)
        if (s.inferred) out.push(`${' '.repeat(14)}${chalk.dim(`inferred (${s.inferred.confidence}): ${s.inferred.evidence}`)}`)
      }
    }
  }
  out.push('')
  return out.join('\n')
}
