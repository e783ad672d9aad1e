// The human views of `kubectl why gc`: the --all report (counts, then findings worst first) and the --tree view of
// the owner/dependent graph around one object, each edge marked with its classification and blockOwnerDeletion.
import chalk from 'chalk'
import type {GcExplanation, GcVerdict} from '../engine/garbagecollector/index.js'
import type {Severity, SourceDescription, Subject} from '../explanation.js'

const COLOUR: Record<Severity, (s: string) => string> = {
  none: (s) => chalk.green(s),
  info: (s) => chalk.cyan(s),
  warning: (s) => chalk.yellow(s),
  critical: (s) => chalk.red.bold(s),
}

export interface GcReport {
  apiVersion: string
  kind: 'GcReport'
  scope: {allNamespaces: true} | {namespace: string}
  evaluatedAt: string
  source: SourceDescription
  objects: number
  monitoredTypes: number
  ownerGets: number
  counts: Partial<Record<GcVerdict, number>>
  findings: GcExplanation[]
}

function subjectText(s: Subject): string {
  return `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

export function renderGcReport(r: GcReport): string {
  const out: string[] = []
  const scope = 'allNamespaces' in r.scope ? 'all namespaces' : `namespace ${r.scope.namespace}`
  out.push(chalk.bold(`Garbage collector replay — ${scope}: ${r.objects} objects of ${r.monitoredTypes} monitored types, evaluated at ${r.evaluatedAt}`))
  const counts = Object.entries(r.counts).map(([v, n]) => `${v} ${n}`).join(', ')
  out.push(`  ${counts || 'nothing to evaluate'}`)
  const partial = r.source.partial ?? []
  if (partial.length > 0) out.push(chalk.yellow(`  partial: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`))
  out.push('')
  if (r.findings.length === 0) {
    out.push('The collector has nothing to delete, patch or finish, and is stuck on nothing.')
    out.push('')
    return out.join('\n')
  }
  const width = Math.max(...r.findings.map((f) => f.verdict.length + (f.propagationPolicy ? f.propagationPolicy.length + 1 : 0)))
  for (const f of r.findings) {
    const verdict = `${f.verdict}${f.propagationPolicy ? ` ${f.propagationPolicy}` : ''}`
    out.push(`${COLOUR[f.severity](f.severity.padEnd(8))}  ${verdict.padEnd(width)}  ${chalk.bold(subjectText(f.subject))}`)
    out.push(`${' '.repeat(10)}${f.summary}`)
  }
  out.push('')
  return out.join('\n')
}

/** One node of the tree view: an object (or a missing owner) and the edge that leads to it. */
export interface GcTreeNode {
  subject: Subject
  /** Absent for owners that do not exist (dangling) or could not be read. */
  exists: boolean
  verdict?: GcVerdict
  propagationPolicy?: string
  deleting?: boolean
  finalizers?: string[]
  /** The ownerReference this edge stands for, from the dependent's side. */
  edge?: {classification: string; reason?: string; blockOwnerDeletion: boolean; controller: boolean}
  children: GcTreeNode[]
  /** Children not shown (depth or count bound). */
  more?: number
  /** Already shown elsewhere in the tree (an ownership cycle). */
  cycle?: boolean
}

export interface GcTree {
  /** The object's owners, each with its own owners beneath it (upwards). */
  owners: GcTreeNode[]
  /** The object, with its dependents beneath it (downwards). */
  object: GcTreeNode
}

function nodeText(n: GcTreeNode, self = false): string {
  const parts = [self ? chalk.bold(subjectText(n.subject)) : subjectText(n.subject)]
  if (n.subject.uid) parts.push(chalk.dim(`uid ${n.subject.uid}`))
  if (n.edge) {
    const e = [n.edge.classification + (n.edge.reason ? ` (${n.edge.reason})` : '')]
    if (n.edge.controller) e.push('controller')
    if (n.edge.blockOwnerDeletion) e.push('blockOwnerDeletion')
    const colour = n.edge.classification === 'solid' ? chalk.green : n.edge.classification === 'dangling' ? chalk.red : chalk.yellow
    parts.push(colour(`[${e.join(', ')}]`))
  }
  if (!n.exists) parts.push(chalk.red('(absent)'))
  if (n.deleting) parts.push(chalk.yellow(`deleting${n.finalizers && n.finalizers.length > 0 ? ` (${n.finalizers.join(', ')})` : ''}`))
  if (n.verdict) parts.push(`→ ${n.verdict}${n.propagationPolicy ? ` ${n.propagationPolicy}` : ''}`)
  if (n.cycle) parts.push(chalk.dim('(cycle: shown above)'))
  return parts.join('  ')
}

function renderChildren(nodes: GcTreeNode[], prefix: string, out: string[], more?: number): void {
  nodes.forEach((n, i) => {
    const last = i === nodes.length - 1 && !more
    out.push(`${prefix}${last ? '└── ' : '├── '}${nodeText(n)}`)
    renderChildren(n.children, `${prefix}${last ? '    ' : '│   '}`, out, n.more)
  })
  if (more) out.push(`${prefix}└── ${chalk.dim(`… ${more} more`)}`)
}

export function renderGcTree(tree: GcTree, e: GcExplanation): string {
  const out: string[] = []
  if (tree.owners.length > 0) {
    out.push(chalk.dim('owners (each edge: how the collector classifies the reference)'))
    renderChildren(tree.owners, '', out)
    out.push('')
  }
  out.push(nodeText(tree.object, true))
  renderChildren(tree.object.children, '', out, tree.object.more)
  out.push('')
  out.push(`${COLOUR[e.severity](`${e.verdict}${e.propagationPolicy ? ` ${e.propagationPolicy}` : ''} (${e.severity})`)}  ${e.summary}`)
  out.push('')
  return out.join('\n')
}
