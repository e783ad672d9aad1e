// The human views of `kubectl why node`: all nodes grouped by zone (problems first) under a one-line cluster
// verdict, or one node with its steps and timeline; and the settings block every view ends with.
import chalk from 'chalk'
import type {Explanation, Severity} from '../explanation.js'
import {renderExplanations} from './explanation-table.js'
import {renderTimeline} from './timeline.js'

const COLOUR: Record<Severity, (s: string) => string> = {
  none: (s) => chalk.green(s),
  info: (s) => chalk.cyan(s),
  warning: (s) => chalk.yellow(s),
  critical: (s) => chalk.red.bold(s),
}
const RANK: Record<Severity, number> = {none: 0, info: 1, warning: 2, critical: 3}

interface NodeLine {name: string; zone: string; verdict: string; severity: Severity; ready: string | null; lastSignOfLife: string; graceExpiry: string; noExecute: string; noExecuteDetail?: string; verdictOnceCaughtUp?: string}
interface ZoneLine {name: string; state: string; counted: number; ready: number; notReady: number; rate: number; rateWhy: string; pendingTaints: number}

export function renderSettings(e: Explanation, wide: boolean): string {
  const settings = e.source.settings ?? {}
  const keys = Object.keys(settings)
  if (keys.length === 0) return ''
  const out = [chalk.bold('Settings used:')]
  const shown = keys.filter((k) => wide || !/^default for/.test(settings[k].from) || ['node-monitor-grace-period', 'node-monitor-period', 'NodeControllerLeaseCircuitBreaker'].includes(k))
  // Both columns as wide as their widest entry, so that every "from" starts in the same column.
  const w = Math.max(...shown.map((k) => k.length))
  const vw = Math.max(...shown.map((k) => String(settings[k].value ?? '—').length))
  for (const k of shown) {
    const {value, from} = settings[k]
    out.push(`  ${k.padEnd(w)}  ${String(value ?? '—').padEnd(vw)}  ${chalk.dim(from)}`)
  }
  if (!wide) out.push(chalk.dim('  (other values are release defaults; -o wide lists them all)'))
  return `${out.join('\n')}\n`
}

/** The verdict's next steps: commands to run or fields to change (never done by the tool). */
export function renderNext(e: Explanation): string {
  const next = e.next ?? []
  if (next.length === 0) return ''
  const out = [chalk.bold('Next:')]
  for (const n of next) out.push(`  ${n.command ? `$ ${n.command}` : `change ${n.change}`}\n      ${chalk.dim(n.why)}`)
  return `${out.join('\n')}\n\n`
}

function ago(iso: string, now: number): string {
  const s = Math.round((now - Date.parse(iso)) / 1000)
  if (s < 0) return `in ${-s}s`
  return s >= 3600 ? `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m ago` : s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s ago` : `${s}s ago`
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => stripAnsi(r[i]).length)))
  return rows.map((r) => r.map((c, i) => c + ' '.repeat(widths[i] - stripAnsi(c).length)).join('  ').trimEnd())
}

function stripAnsi(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour escapes are what it strips
  return s.replace(/\u001B\[[0-9;]*m/g, '')
}

export function renderCluster(e: Explanation, wide: boolean): string {
  const now = Date.parse(e.evaluatedAt)
  const zones = (e.zones as ZoneLine[]) ?? []
  const nodes = (e.nodes as NodeLine[]) ?? []
  const out: string[] = []
  out.push(`${chalk.bold(`${e.subject.kind}/${e.subject.name}`)}  ${COLOUR[e.severity](`${e.verdict} (${e.severity})`)}`)
  out.push(`  ${e.summary}`)
  const partial = e.source.partial ?? []
  if (partial.length > 0) out.push(chalk.yellow(`  partial: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`))
  if (wide) for (const s of e.steps) out.push(`  ${chalk.dim('•')} ${s.rule}: ${s.result} — ${s.why}${chalk.dim(` [${s.upstream}]`)}`)
  out.push('')
  const byZone = new Map<string, NodeLine[]>()
  for (const n of nodes) byZone.set(n.zone, [...(byZone.get(n.zone) ?? []), n])
  const worst = (list: NodeLine[]) => Math.max(0, ...list.map((n) => RANK[n.severity]))
  const zoneNames = [...byZone.keys()].sort((a, b) => worst(byZone.get(b)!) - worst(byZone.get(a)!) || a.localeCompare(b))
  for (const zn of zoneNames) {
    const z = zones.find((x) => x.name === zn)
    const list = byZone.get(zn)!.sort((a, b) => RANK[b.severity] - RANK[a.severity] || a.name.localeCompare(b.name))
    out.push(chalk.bold(`Zone ${zn}`) + (z ? `  ${z.state}  ${z.counted} counted (${z.notReady} not ready), rate ${z.rate}/s${z.pendingTaints ? `, ${z.pendingTaints} taint(s) pending` : ''}` : '  (no counted node)'))
    if (z && (wide || z.state !== 'Normal' || e.verdict === 'circuitOpen')) out.push(chalk.dim(`  ${z.rateWhy}`))
    const rows = [['NODE', 'VERDICT', 'READY', 'LAST SIGN OF LIFE', 'GRACE EXPIRES', 'NOEXECUTE TAINT'].map((h) => chalk.dim(h))]
    for (const n of list) {
      rows.push([n.name, COLOUR[n.severity](n.verdict) + (n.verdictOnceCaughtUp ? chalk.dim(` (then ${n.verdictOnceCaughtUp})`) : ''), n.ready ?? '—', ago(n.lastSignOfLife, now), ago(n.graceExpiry, now), n.noExecuteDetail ?? n.noExecute])
    }
    out.push(...table(rows).map((l) => `  ${l}`))
    out.push('')
  }
  const next = renderNext(e)
  if (next) out.push(next.trimEnd(), '')
  out.push(renderSettings(e, wide))
  return out.join('\n')
}

export function renderNode(e: Explanation, wide: boolean): string {
  const t = e.timeline as Record<string, string | null>
  const timeline = renderTimeline([
    {label: 'last heartbeat', at: t.lastHeartbeat},
    {label: 'last renewal', at: t.lastRenewal},
    {label: 'last sign of life', at: t.probeEstimate, estimated: true},
    {label: 'grace expires', at: t.graceExpiry, estimated: true},
    {label: 'marked Unknown', at: t.markedUnknown},
    {label: 'NoExecute taint added', at: t.noExecuteTaintAdded},
    {label: 'taint expected by', at: t.expectedTaintBy, estimated: true},
    {label: 'now', at: t.now},
  ], t.now!)
  const pods = e.pods as {read: boolean; total?: number; evictedAtOnce?: number; evictedAfterSeconds?: Record<string, number>; toleratedForever?: number; unaffected?: number; againstTaints?: string[]} | undefined
  let podLine = ''
  if (pods?.read) {
    const after = Object.entries(pods.evictedAfterSeconds ?? {}).map(([s, n]) => `${n} after ${s}s`)
    const parts = [pods.evictedAtOnce ? `${pods.evictedAtOnce} at once` : '', ...after, pods.toleratedForever ? `${pods.toleratedForever} tolerate it forever` : '', pods.unaffected ? `${pods.unaffected} unaffected` : ''].filter(Boolean)
    podLine = `${chalk.bold(`Pods on this node: ${pods.total}`)}${pods.againstTaints?.length ? ` — against ${pods.againstTaints.join(', ')}: ${parts.join(', ') || 'none'}` : ' — no NoExecute taint present or owed'}\n\n`
  }
  return `${renderExplanations([e], wide)}${renderNext(e)}${podLine}${timeline}\n${renderSettings(e, wide)}`
}
