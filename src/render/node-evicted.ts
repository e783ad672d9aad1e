// The human view of `kubectl why evicted pod/NAME`: verdict and steps, who acted (one line per actor: actor, action,
// at, rule; -o wide adds each one's evidence and next steps), each NoExecute taint with the toleration that matched
// it first, and the timeline from the node's last sign of life to the eviction deadline.
import type {Actor, Explanation} from '../explanation.js'
import {ROLE} from './colour.js'
import {renderExplanations} from './explanation-table.js'
import {terminalWidth, wrap} from './layout.js'
import {nextStepLines, type SourceInForce} from './next-steps.js'
import {renderNext, renderSettings} from './node.js'
import {renderTimeline} from './timeline.js'

interface TolerationLine {
  taint: string
  index: number | null
  tolerationSeconds: number | null
  origin: string | null
}

export function renderEvicted(e: Explanation, wide: boolean, width = terminalWidth(), src: SourceInForce = {}): string {
  const out: string[] = [renderExplanations([e], wide, width).trimEnd(), '']
  const next = renderNext(e, width, src)
  if (next) out.push(next.trimEnd(), '')
  const actors = (e.actors as Actor[] | undefined) ?? []
  if (actors.length > 0) {
    out.push(ROLE.heading('Actors:'))
    for (const a of actors) {
      out.push(
        `  ${a.actor}  ${a.action === 'evicted' || a.action === 'deleted' || a.action === 'refusesEviction' ? ROLE.bad(a.action) : a.action}  ${a.at ?? '-'}  ${ROLE.muted(a.rule)}`,
      )
      if (!wide) continue
      for (const line of a.evidence) out.push(...wrap(line, width, {indent: 6, hanging: 8}).map(ROLE.muted))
      out.push(...nextStepLines(a.next, src, width, 6))
    }
    out.push('')
  }
  const tolerations = (e.tolerations as TolerationLine[]) ?? []
  if (tolerations.length > 0) {
    out.push(ROLE.heading('NoExecute taints and the first toleration that matches each:'))
    for (const t of tolerations) {
      out.push(
        `  ${t.taint}  →  ${t.index === null ? ROLE.bad('none: evicted at once') : `toleration #${t.index}, ${t.tolerationSeconds === null ? 'forever' : `${t.tolerationSeconds}s`}${t.origin && t.origin !== 'podSpec' ? ROLE.muted(` (${t.origin === 'admissionDefault' ? 'DefaultTolerationSeconds admission plugin' : 'DaemonSet controller'})`) : ''}`}`,
      )
    }
    out.push('')
  }
  const t = e.timeline as Record<string, string | null>
  out.push(
    renderTimeline(
      [
        {label: 'last heartbeat', at: t.lastHeartbeat},
        {label: 'last renewal', at: t.lastRenewal},
        {label: 'grace expires', at: t.graceExpiry, estimated: true},
        {label: 'taint added', at: t.taintAdded},
        {label: 'controller saw taint', at: t.controllerSawTaint, estimated: true},
        {label: 'eviction deadline', at: t.evictionDeadline, estimated: true},
        {label: 'marked for deletion', at: t.markedForDeletion},
        ...actors.filter((a) => a.at && a.actor !== 'taint-eviction-controller').map((a) => ({label: `${a.actor} ${a.action}`, at: a.at!})),
        {label: 'now', at: t.now},
      ],
      t.now!,
      width,
    ),
  )
  out.push(renderSettings(e, wide, width))
  return out.join('\n')
}
