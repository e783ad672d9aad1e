// The human view of Explanations: one block per subject, verdict first, then the steps (all of them with -o wide),
// prose wrapped to the terminal's width at word boundaries.
import type {Explanation, Step} from '../explanation.js'
import {ROLE, SEVERITY} from './colour.js'
import {terminalWidth, wrap} from './layout.js'

function subjectLine(e: Explanation): string {
  const s = e.subject
  return `${s.kind}/${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

/** "Kind/ns/name  verdict (severity)". */
export function verdictLine(e: Explanation): string {
  return `${ROLE.heading(subjectLine(e))}  ${SEVERITY[e.severity](`${e.verdict} (${e.severity})`)}`
}

/** One step as a bullet, its continuation lines under the text; the upstream citation with -o wide. */
export function stepLines(step: Step, wide: boolean, width: number, indent = 2): string[] {
  const out = wrap(`${ROLE.muted('•')} ${step.rule}: ${step.result} — ${step.why}${wide ? ` ${ROLE.muted(`[${step.upstream}]`)}` : ''}`, width, {
    indent,
    hanging: indent + 2,
  })
  if (step.inferred) out.push(...wrap(`inferred (${step.inferred.confidence}): ${step.inferred.evidence}`, width, {indent: indent + 4}).map(ROLE.muted))
  return out
}

/** "partial: what: reason; …", wrapped, in the warning colour; nothing when the data was whole. */
export function partialLines(e: Pick<Explanation, 'source'>, width: number, indent = 2): string[] {
  const partial = e.source.partial ?? []
  if (partial.length === 0) return []
  return wrap(`partial: ${partial.map((p) => `${p.what}: ${p.reason}`).join('; ')}`, width, {indent, hanging: indent + 2}).map(ROLE.warn)
}

export function renderExplanations(list: Explanation[], wide: boolean, width = terminalWidth()): string {
  const out: string[] = []
  for (const e of list) {
    out.push(verdictLine(e))
    out.push(...wrap(e.summary, width, {indent: 2}))
    const steps = wide ? e.steps : e.steps.filter((s) => s.result !== 'skipped')
    for (const step of steps) out.push(...stepLines(step, wide, width))
    out.push(...partialLines(e, width))
    out.push('')
  }
  return out.join('\n')
}
