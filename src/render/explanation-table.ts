// The human view of Explanations: one block per subject, verdict first, then the steps (all of them with -o wide).
import chalk from 'chalk'
import type {Explanation, Severity} from '../explanation.js'

const COLOUR: Record<Severity, (s: string) => string> = {
  none: (s) => chalk.green(s),
  info: (s) => chalk.cyan(s),
  warning: (s) => chalk.yellow(s),
  critical: (s) => chalk.red.bold(s),
}

function subjectLine(e: Explanation): string {
  const s = e.subject
  return `${s.kind}/${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

export function renderExplanations(list: Explanation[], wide: boolean): string {
  const out: string[] = []
  for (const e of list) {
    out.push(`${chalk.bold(subjectLine(e))}  ${COLOUR[e.severity](`${e.verdict} (${e.severity})`)}`)
    out.push(`  ${e.summary}`)
    const steps = wide ? e.steps : e.steps.filter((s) => s.result !== 'skipped')
    for (const step of steps) {
      out.push(`  ${chalk.dim('•')} ${step.rule}: ${step.result} — ${step.why}${wide ? chalk.dim(` [${step.upstream}]`) : ''}`)
      if (step.inferred) out.push(`      ${chalk.dim(`inferred (${step.inferred.confidence}): ${step.inferred.evidence}`)}`)
    }
    const partial = e.source.partial ?? []
    if (partial.length > 0) out.push(chalk.yellow(`  partial: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`))
    out.push('')
  }
  return out.join('\n')
}
