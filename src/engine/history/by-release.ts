// When the data does not settle the controller's release (HashSettings.candidates), the DaemonSet and StatefulSet
// replays answer for every candidate release, one answer per distinct result — never the newest release's alone —
// as the Deployment replay does (src/engine/deployment/releases.ts). The shapes both share, and the grouping.
import type {Step} from '../../explanation.js'
import {versionRange} from './label-check.js'
import type {HashSettings} from './types.js'

/** What the controller does with its revisions under a set of releases. */
export type RevisionOutcome =
  /** DaemonSet: a revision's data Matches the patch these releases write; it is current. */
  | 'current'
  /** StatefulSet: the latest revision is equal to the candidate. */
  | 'latest'
  /** StatefulSet: an older revision is equal: renumbered, a rollback. */
  | 'rollback'
  /** StatefulSet: StatefulSetSemanticRevisionComparison reuses the latest revision. */
  | 'semanticReuse'
  /** A new revision is created (after any collision bumps, when the first names are free or equal). */
  | 'creates'
  /** The first name is held by a revision with the same data: it is returned (created earlier). */
  | 'returnsExisting'
  /** The first name is held by a revision with other data: collisionCount is bumped. */
  | 'collision'
  /** The revisions are not in the data (only pods or status name them): what the controller does cannot be told. */
  | 'notInData'

export interface RevisionAnswer {
  /** The releases (oldest first) whose controllers give this answer. */
  versions: string[]
  /** The hash a new revision of the template is named with under these releases. */
  hash: string
  /** The ControllerRevision name it gives. */
  name: string
  outcome: RevisionOutcome
  /** The revision the outcome names (the current, reused, rolled-back-to or finally created one). */
  revision?: string
  /** StatefulSet, no revision equal: whether these releases compare revisions semantically (null: not known). */
  semanticGate?: boolean | null
}

export interface RevisionByRelease {
  /** The releases the data leaves possible. */
  candidates: string[]
  /** Why the data does not settle the release. */
  why: string
  /** One per distinct answer, oldest releases first; at least two (else the answer does not depend on the release). */
  answers: RevisionAnswer[]
  /** The evidence that would settle it. */
  settle: string[]
  /** Labels in the data (pods', status's) and the candidate releases whose hash they are. */
  agreeing?: {what: string; label: string; versions: string[]}
}

const minorOf = (v: string) => Number(v.split('.')[1])

/** The candidate releases when the data leaves more than one, else undefined. */
export function candidateReleases(s: HashSettings): {versions: string[]; why: string} | undefined {
  return s.candidates && s.candidates.versions.length > 1 ? s.candidates : undefined
}

/**
 * One answer per distinct result of `answer` over the releases (oldest first): releases that agree on every field
 * share an entry.
 */
export function groupByRelease(versions: readonly string[], answer: (v: string) => Omit<RevisionAnswer, 'versions'>): RevisionAnswer[] {
  const groups = new Map<string, RevisionAnswer>()
  for (const v of [...versions].sort((a, b) => minorOf(a) - minorOf(b))) {
    const a = answer(v)
    const key = JSON.stringify([a.hash, a.name, a.outcome, a.revision ?? null, a.semanticGate ?? null])
    const g = groups.get(key)
    if (g) g.versions.push(v)
    else groups.set(key, {versions: [v], ...a})
  }
  return [...groups.values()].sort((a, b) => minorOf(a.versions[0]) - minorOf(b.versions[0]))
}

/** "1.20–1.33: 8668c76b8d; 1.34–1.37: 6fc8c9d6d6" */
export function revisionAnswersText(answers: readonly RevisionAnswer[], what: (a: RevisionAnswer) => string = (a) => a.hash): string {
  return answers.map((a) => `${versionRange(a.versions)}: ${what(a)}`).join('; ')
}

/** The outcome in words, for summaries and the table. */
export function outcomeText(a: RevisionAnswer): string {
  switch (a.outcome) {
    case 'current':
      return `${a.revision} is current`
    case 'latest':
      return `${a.revision} stays the update revision`
    case 'rollback':
      return `rolls back to ${a.revision}`
    case 'semanticReuse':
      return `reuses ${a.revision} (semantic comparison${a.semanticGate === null ? ', if the patch release has it' : ''})`
    case 'creates':
      return `creates ${a.revision ?? a.name}`
    case 'returnsExisting':
      return `returns ${a.revision ?? a.name}`
    case 'collision':
      return `collision${a.revision ? ` → ${a.revision}` : ''}`
    case 'notInData':
      return 'revisions not in the data'
  }
}

/** The evidence that settles the release, for a workload of this kind. */
export function settleRelease(kind: 'DaemonSet' | 'StatefulSet', namespace: string | undefined): string[] {
  const ns = namespace ?? 'default'
  return [
    "--k8s-version X.Y with the cluster's version (`kubectl version` prints it as Server Version)",
    kind === 'DaemonSet'
      ? `a ControllerRevision of this DaemonSet in the data (kubectl get controllerrevisions -n ${ns} -o yaml): its controller-revision-hash label is the hash its controller's release computed, and picks the releases that agree`
      : `a ControllerRevision of this StatefulSet in the data (kubectl get controllerrevisions -n ${ns} -o yaml): its data holds the bytes its controller's release wrote, and picks the releases that agree`,
  ]
}

/** What the summary says first when the release is not settled: that, every answer, and what would settle it. */
export function revisionPreamble(kind: 'DaemonSet' | 'StatefulSet', b: RevisionByRelease): string {
  const agree = b.agreeing
    ? ` ${b.agreeing.what}'s controller-revision-hash ${b.agreeing.label} is what ${versionRange(b.agreeing.versions)} compute${b.agreeing.versions.length === 1 ? 's' : ''}: of these, the release${b.agreeing.versions.length === 1 ? '' : 's'} that agree${b.agreeing.versions.length === 1 ? 's' : ''} with the data.`
    : ''
  const outcomes = new Set(b.answers.map((a) => a.outcome))
  const what =
    outcomes.size > 1 || b.answers.some((a) => a.outcome !== 'creates') ? `; what the controller does: ${revisionAnswersText(b.answers, outcomeText)}.` : '.'
  return (
    `The Kubernetes version is not known (${b.why}), and the ${kind}'s controller-revision-hash depends on it: ${revisionAnswersText(b.answers)}${what}${agree}` +
    ` --k8s-version X.Y (from \`kubectl version\`) or a ControllerRevision of this ${kind} settles it.`
  )
}

/** Steps that name one release's hash or name (the one label checks compare with) say it is that release's only. */
export function markOneRelease(steps: readonly Step[], version: string | undefined, rules: readonly string[]): void {
  for (const st of steps)
    if (rules.includes(st.rule)) st.why = `under ${version} only, one of the releases the data leaves possible (the by-release step gives each): ${st.why}`
}

/** The step that gives every release's answer: each distinct hash with its outcome (and its revision's name when the controller keeps another). */
export function answersByReleaseStep(
  rule: string,
  upstream: string,
  cands: {versions: string[]; why: string},
  collisionCount: number | null | undefined,
  answers: readonly RevisionAnswer[],
): Step {
  return {
    rule,
    upstream,
    inputs: {versions: cands.versions, collisionCount},
    result: `${answers.length} answers by release`,
    why: `${cands.why}; by release: ${revisionAnswersText(answers, (a) => `${a.hash} (${a.outcome}${a.revision && a.revision !== a.name ? ` ${a.revision}` : ''})`)}`,
  }
}
