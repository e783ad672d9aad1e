// What a check is given, and what it gives back. A check is a small adapter: it takes the gathered objects, calls its
// engine (pure) and turns the engine's explanations into findings; its only I/O is the few single-object GETs its
// controller itself would make (owner lookups, the live lease double-check, the recheck before adoption).
import type {Evidence, Explanation, Problem, Severity, SourceDescription, Subject} from '../explanation.js'
import type {ClusterSource, GetRequest, KubeObject, ResourceType} from '../cluster/source.js'
import type {ChosenVersion} from '../cluster/version.js'
import {readFailure} from '../cluster/read.js'
import type {SettingsOverrides} from '../settings/flags.js'
import type {CheckName} from './checks.js'
import type {Gathered, NeedRead} from './gather.js'
import {describeList, type ResolvedNeed} from './plan.js'

export type CheckStatus = 'complete' | 'partial' | 'notRun'

export interface CheckResult {
  check: CheckName
  status: CheckStatus
  /** Objects the check replayed (or judged by the engine's first rules, see each check). */
  evaluated: number
  /** How many of them got each verdict. */
  verdicts: Record<string, number>
  findings: Explanation[]
  /** What the check could not read or use: the result is partial when this is non-empty. */
  problems: Problem[]
  /** What a reader should know about how the check ran. */
  notes: string[]
  /**
   * Optional: every subject the check evaluated, with its verdict and severity (findings included), in the check's
   * order. With it, -o junit has a test case per subject (passing ones too); without it, one passing case per check
   * says how many were evaluated.
   */
  subjects?: EvaluatedSubject[]
}

/** One evaluated object: what -o junit makes a test case of. */
export interface EvaluatedSubject {
  subject: Subject
  /** Absent for a subject known only to have no finding. */
  verdict?: string
  severity: Severity
}

/** What an adapter is built with: the real source's version, description and default namespace (nothing else). */
export interface CheckEnvironment {
  source: Pick<ClusterSource, 'serverVersion' | 'describe' | 'defaultNamespace'>
}

export interface CheckContext {
  gathered: Gathered
  types: readonly ResourceType[]
  /** The audit's namespace; undefined with -A. */
  namespace?: string
  now: Date
  version?: ChosenVersion
  /** The source's description with the version applied; each check adds its own settings and problems. */
  base: SourceDescription
  overrides: SettingsOverrides
  /** A single-object read, counted; refused credentials and an unreachable server still end the audit. */
  get(request: GetRequest): Promise<KubeObject | undefined>
  progress?: (line: string) => void
  /** Results shared between checks (the node lifecycle analysis serves the node and evicted checks). */
  shared: Map<string, Promise<unknown>>
  /**
   * Set (with namespace undefined) for a check whose subjects mix the audit's namespace and cluster-scoped objects
   * (src/audit/scope.ts): the source façade answers a list over every namespace with every list of that kind the
   * audit read — the namespace's objects, the node Leases — and the check replays all it is given.
   */
  wholeGathered?: boolean
  /** What the data can prove (the source's `evidence()`); absent: every read was answered, absence is proof. */
  evidence?: Evidence
}

/** A check's reads are its replay's (needs.ts needsOf, from the descriptor); the adapter runs the replay over them. */
export interface Check {
  name: CheckName
  run(ctx: CheckContext): Promise<CheckResult>
}

export function failureText(err: Error | undefined): string {
  if (!err) return 'the source does not serve this kind'
  return readFailure(err)
}

/** The need a check declared under `key`, resolved against the plan. */
export function needOf(ctx: CheckContext, check: CheckName, key: string): ResolvedNeed {
  const n = ctx.gathered.plan.needs.find((x) => x.check === check && x.key === key)
  if (!n) throw new Error(`internal: check ${check} declared no need "${key}"`)
  return n
}

/** Reads a need; a failure becomes a problem naming the list and what it costs the check. */
export function readNeed(ctx: CheckContext, check: CheckName, key: string, problems: Problem[], consequence: string): NeedRead & {need: ResolvedNeed} {
  const need = needOf(ctx, check, key)
  const r = ctx.gathered.read(need)
  if (!r.ok) {
    const what = need.list ? `list ${describeList(need.list)}` : `list ${need.ref.apiVersion ?? ''} ${need.ref.kind}`.replace('  ', ' ')
    problems.push({what, reason: `${failureText(r.error)}; ${consequence}`})
  }
  // Not {...r, need}: a spread reads the items getter, taking a compressed list back whole for as long as the result
  // is held (the replicas check held every pod so, beside the ReplicaSet driver's own copies, while it ran).
  return Object.assign(r, {need})
}

export function count(verdicts: Record<string, number>, verdict: string, n = 1): void {
  verdicts[verdict] = (verdicts[verdict] ?? 0) + n
}

export function describeWith(base: SourceDescription, problems: readonly Problem[], extra: Partial<SourceDescription> = {}): SourceDescription {
  return {...base, ...extra, partial: [...(base.partial ?? []), ...problems]}
}

export function notRun(check: CheckName, problems: Problem[], why: string): CheckResult {
  return {check, status: 'notRun', evaluated: 0, verdicts: {}, findings: [], problems, notes: [why]}
}
