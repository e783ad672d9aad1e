// One finding as the terminal shows it: subject, verdict and severity, summary, the upstream rules re-executed (with
// what was inferred and how surely), and the next steps — then whichever picture its data allows.
import type {Explanation} from '../../explanation.js'
import type {NextStepInForce} from '../next-steps.js'
import {heldView, namespaceView, renderHeldPicture, renderNamespacePicture} from './deletion.js'
import {fragment, h, type Html} from './h.js'
import {isSeverity, severityBadge} from './severity.js'
import {hasTree, renderOwnershipGraph} from './graph.js'
import {renderTimeline} from './timeline.js'
import {deleteOrderOf, renderRanking, renderRevisionLine, revisionsOf} from './workloads.js'
import {hasZoneMap, renderZoneMap} from './zones.js'

export function subjectText(s: Explanation['subject']): string {
  return `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

/** Text whose `backticked` parts are commands: drawn as code, never as literal backticks. */
export function inlineCode(text: string): Html[] {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? h('code', null, part) : fragment(part)))
}

export interface Footnotes {
  next: number
  items: Html[]
}

/** `related`: the page's other answers, where a Terminating namespace's picture finds the held objects' own holders. */
export function renderFinding(e: Explanation, notes: Footnotes, related: readonly Explanation[] = []): Html {
  const extra = e as Record<string, unknown>
  const pictures: Html[] = []
  const ns = namespaceView(e, related)
  if (ns) pictures.push(h('h3', null, 'What remains'), renderNamespacePicture(ns))
  const held = ns ? undefined : heldView(e)
  if (held) pictures.push(h('h3', null, 'What holds it'), renderHeldPicture(held))
  if (hasZoneMap(extra)) pictures.push(h('h3', null, 'Zones'), renderZoneMap(extra))
  if (typeof extra.timeline === 'object' && extra.timeline !== null) {
    const t = renderTimeline(subjectText(e.subject), extra.timeline as Record<string, unknown>, notes.next)
    notes.next += t.footnotes.length
    notes.items.push(...t.footnotes)
    pictures.push(h('h3', null, 'Timeline'), t.svg)
  }
  if (hasTree(extra)) pictures.push(h('h3', null, 'Ownership'), renderOwnershipGraph(extra.tree))
  const ranking = deleteOrderOf(extra)
  if (ranking && ranking.length > 0) pictures.push(h('h3', null, 'Deletion ranking'), renderRanking(ranking))
  const revisions = revisionsOf(extra)
  if (revisions && revisions.revisions.length > 0) pictures.push(h('h3', null, 'Revisions'), renderRevisionLine(revisions))
  const severity = isSeverity(e.severity) ? e.severity : 'none'
  return h(
    'article',
    {
      class: `finding sev-${severity}`,
      'data-controller': e.controller,
      'data-verdict': e.verdict,
      'data-severity': severity,
      'data-subject': subjectText(e.subject),
    },
    h(
      'header',
      null,
      severityBadge(severity),
      ' ',
      h('h2', null, subjectText(e.subject)),
      ' ',
      h('code', {class: 'verdict'}, e.verdict),
      h('span', {class: 'muted'}, ` · ${e.controller}`),
    ),
    h('p', {class: 'summary'}, e.summary),
    e.next && e.next.length > 0
      ? h(
          'div',
          {class: 'next'},
          h('h3', null, 'Next steps'),
          h(
            'ul',
            null,
            // The command as the terminal prints it (commandInForce: with -f FILE and --context in force, a change's
            // kubectl edit command), so that copied it reproduces this report's view; the engine's own when absent.
            (e.next as NextStepInForce[]).map((n) => {
              const command = n.commandInForce ?? n.command
              return h(
                'li',
                {'data-next': ''},
                command ? h('code', {class: 'command'}, command) : '',
                command && n.change ? ' ' : '',
                n.change ? h('span', null, `change ${n.change}`) : '',
                ' — ',
                inlineCode(n.why),
              )
            }),
          ),
        )
      : '',
    pictures,
    e.steps.length > 0
      ? h(
          'details',
          // Collapsed: the summary and next steps answer the on-call's question; the rules are for checking it.
          {class: 'steps'},
          h('summary', null, `${e.steps.length} upstream rule${e.steps.length === 1 ? '' : 's'} re-executed`),
          h(
            'ol',
            null,
            e.steps.map((s) =>
              h(
                'li',
                {'data-rule': s.rule},
                h('strong', null, s.rule),
                ' → ',
                h('code', null, s.result),
                ': ',
                s.why,
                h('br', null),
                h('span', {class: 'muted'}, s.upstream),
                // An inference whose evidence is the step's own why is said once, as its confidence.
                s.inferred
                  ? h(
                      'p',
                      {class: 'inferred'},
                      s.inferred.evidence === s.why ? `Inferred (${s.inferred.confidence}).` : `Inferred (${s.inferred.confidence}): ${s.inferred.evidence}`,
                    )
                  : '',
              ),
            ),
          ),
        )
      : '',
  )
}
