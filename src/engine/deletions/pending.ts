// Pending and stuck deletions (issue 26 item 7): every object past its deletionTimestamp that something other than the
// garbage collector holds — a Namespace's "kubernetes" finalizer (the namespace controller), a finalizer's holder
// (pvc-protection, pv-protection, the job controller, the component that wrote it) — with what holds it, whether
// that holder runs in the data, and its next step; worst first. The holders' answers come from their own replays
// (namespace/, finalizers/), composed by the driver (garbagecollector/drive-actors.ts drivePendingDeletions); this
// file only ranks and words them. Pure.
import type {Actor, Explanation, NextStep, Severity, Step, Subject} from '../../explanation.js'
import {severityRank} from '../../explanation.js'
import {compareStrings} from '../../util/compare.js'
import {kubectlAge} from '../../util/duration.js'

// A holder's state is the finalizer replay's vocabulary (finalizers/replay.ts HolderState), a type only: the
// namespace controller's verdicts are mapped onto it by the driver.
import type {HolderState} from '../finalizers/index.js'

export type {HolderState}

/** stuck: a holder will not release it; holderAbsent: the writer of a finalizer runs nowhere in the data; unknown: the data cannot tell; pending: every holder runs or releases. */
export const DELETION_VERDICTS = ['stuck', 'holderAbsent', 'unknown', 'pending'] as const
export type DeletionVerdict = (typeof DELETION_VERDICTS)[number]

/** The controllers a finding names (Explanation.controller): the holder of the worst finalizer, or "finalizer" for any other writer. */
export const DELETION_CONTROLLERS = ['namespace', 'pvc-protection', 'pv-protection', 'job', 'finalizer'] as const

const STATE_RANK: Record<HolderState, number> = {releases: 0, waits: 1, unknown: 2, absent: 3, stuck: 4}
const VERDICT_OF: Record<HolderState, DeletionVerdict> = {releases: 'pending', waits: 'pending', unknown: 'unknown', absent: 'holderAbsent', stuck: 'stuck'}
const SEVERITY_OF: Record<DeletionVerdict, Severity> = {stuck: 'warning', holderAbsent: 'warning', unknown: 'info', pending: 'info'}

/** One holder's answer, from its replay. */
export interface HolderPart {
  actor: Actor
  state: HolderState
  /** One clause: what holds it and what would release it. */
  text: string
  steps: Step[]
  /** The replay's own severity, when it has one (the namespace controller's). */
  severity?: Severity
  /** The finalizer it holds (metadata.finalizers, or spec.finalizers "kubernetes" of a Namespace). */
  finalizer: string
}

export interface Holder {
  finalizer: string
  actor: string
  state: HolderState
  text: string
}

export interface DeletionExplanation extends Explanation {
  controller: (typeof DELETION_CONTROLLERS)[number]
  verdict: DeletionVerdict
  deletionTimestamp: string
  /** metadata.finalizers as the data shows them. */
  finalizers: string[]
  /** A Namespace's spec.finalizers (the namespace controller's "kubernetes", other components' tokens). */
  specFinalizers?: string[]
  holders: Holder[]
  actors: Actor[]
}

const KCM_HOLDERS: ReadonlySet<string> = new Set(['namespace', 'pvc-protection', 'pv-protection', 'job'])

export function explainPendingDeletion(
  subject: Subject,
  deletionTimestamp: string,
  finalizers: readonly string[],
  parts: readonly HolderPart[],
  now: Date,
  specFinalizers?: readonly string[],
): DeletionExplanation {
  const ranked = [...parts].sort((a, b) => STATE_RANK[b.state] - STATE_RANK[a.state])
  const worst = ranked[0]
  const verdict: DeletionVerdict = worst ? VERDICT_OF[worst.state] : 'unknown'
  const severity = parts.reduce<Severity>((s, p) => (p.severity && severityRank(p.severity) > severityRank(s) ? p.severity : s), SEVERITY_OF[verdict])
  const ago = kubectlAge(now.getTime() - Date.parse(deletionTimestamp))
  const what = `${subject.kind} ${subject.namespace ? `${subject.namespace}/` : ''}${subject.name}`
  const lead: Record<DeletionVerdict, string> = {
    stuck: 'is stuck',
    holderAbsent: 'is held by a finalizer whose writer runs nowhere in the data',
    unknown: 'is held, and the data cannot tell whether its holder will let go',
    pending: 'is held until its holders finish',
  }
  const texts = ranked.map((p) => p.text).filter(Boolean)
  const next: NextStep[] = worst ? worst.actor.next : []
  return {
    subject,
    controller: worst && KCM_HOLDERS.has(worst.actor.actor) ? (worst.actor.actor as DeletionExplanation['controller']) : 'finalizer',
    verdict,
    severity,
    summary: `${what} ${lead[verdict]}: deleted ${ago} ago (${deletionTimestamp})${texts.length > 0 ? `; ${texts.join('; ')}` : ''}.`,
    steps: parts.flatMap((p) => p.steps),
    evaluatedAt: now.toISOString(),
    source: {mode: 'live'},
    ...(next.length > 0 ? {next} : {}),
    deletionTimestamp,
    finalizers: [...finalizers],
    ...(specFinalizers ? {specFinalizers: [...specFinalizers]} : {}),
    holders: ranked.map((p) => ({finalizer: p.finalizer, actor: p.actor.actor, state: p.state, text: p.text})),
    actors: ranked.map((p) => p.actor),
  }
}

/** Worst first: verdict, then the oldest deletion, then kind, namespace, name. */
export function compareDeletions(a: DeletionExplanation, b: DeletionExplanation): number {
  const v = DELETION_VERDICTS.indexOf(a.verdict) - DELETION_VERDICTS.indexOf(b.verdict)
  if (v !== 0) return v
  const s = severityRank(b.severity) - severityRank(a.severity)
  if (s !== 0) return s
  const t = Date.parse(a.deletionTimestamp) - Date.parse(b.deletionTimestamp)
  if (t !== 0) return t
  return (
    compareStrings(a.subject.kind, b.subject.kind) ||
    compareStrings(a.subject.namespace ?? '', b.subject.namespace ?? '') ||
    compareStrings(a.subject.name, b.subject.name)
  )
}
