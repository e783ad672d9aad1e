// The audit, end to end but for flags and output: discovery, the read plan of every selected check, one gathering,
// each check over it (in its own scope, scope.ts), the selection and suppressions, the report. The command
// (src/commands/audit.ts) only turns flags into these options.
import type {ClusterSource, GetRequest, ResourceType} from '../cluster/source.js'
import type {ChosenVersion} from '../cluster/version.js'
import {UserError} from '../errors.js'
import type {Severity} from '../explanation.js'
import type {SettingsOverrides} from '../settings/flags.js'
import type {CheckName} from './checks.js'
import type {Check, CheckContext, CheckEnvironment, CheckResult} from './context.js'
import {HeapBudget} from '../cluster/heap-budget.js'
import {gather, spillPolicy} from './gather.js'
import {type CheckNeeds, needsOf} from './needs.js'
import {planReads, type ReadPlan} from './plan.js'
import {entryOf} from './registry.js'
import {type AuditReport, buildReport, readNothing, type SortOrder} from './report.js'
import {scopeNeeds, checkNamespace} from './scope.js'
import {applySelection, type Selection} from './select.js'
import {subjectsOf, keepSubjects} from './subjects.js'
import {applySuppressions, type Suppression} from './suppress.js'

const NO_SOURCE: CheckEnvironment['source'] = {
  serverVersion: async () => undefined,
  describe: () => ({mode: 'live' as const}),
  defaultNamespace: () => 'default',
}

function checkOf(name: CheckName, source?: CheckEnvironment['source']): Check {
  return entryOf(name).adapter({source: source ?? NO_SOURCE})
}

export interface AuditOptions {
  checks: readonly CheckName[]
  /** undefined: every namespace (-A). */
  namespace?: string
  version?: ChosenVersion
  overrides: SettingsOverrides
  failOn: Severity
  /** Whether an incomplete audit fails (exit 1); default true. */
  failOnPartial?: boolean
  /** -l and --field-selector: which subjects are reported. */
  selection?: Selection
  /** --ignore FILE, parsed, and its name. */
  suppressions?: readonly Suppression[]
  ignoreFile?: string
  sort?: SortOrder
  /**
   * Keep every fully read object whole instead of projecting it to the fields its reads name: the same answers, more
   * memory (test/replays/fields.test.ts holds the two together, which is how a field read but not named is found).
   */
  wholeObjects?: boolean
  /**
   * Objects held before the largest lists are kept compressed (gather.ts SpillPolicy); default: a quarter of what the
   * heap holds. The same answers either way: 0 compresses from the first object (the tests hold the two together).
   */
  spillAt?: number
  /** A status line; `final` marks lines worth keeping in a log (a kind listed, a check started). */
  progress?: (line: string, final?: boolean) => void
}

/** Every read the selected checks declare, merged into one plan (also what deploy/clusterrole.yaml is derived from). */
export function auditPlan(checks: readonly CheckName[], types: readonly ResourceType[], namespace: string | undefined): ReadPlan {
  const needs: CheckNeeds[] = checks.map((c) => scopeNeeds(c, needsOf(c, types), namespace))
  return planReads(
    needs.flatMap((n) => n.lists),
    needs.flatMap((n) => n.gets),
    types,
    namespace,
  )
}

/**
 * One check over its own fields of the lists kept compressed (gather.ts forCheck), in a call of its own: when it
 * returns, nothing on the audit's stack still holds that check's lists (a suspended loop's temporaries did: two
 * checks' lists at once), so the heap holds one check's at a time.
 */
async function runCheck(name: CheckName, source: ClusterSource, ctx: CheckContext, auditNamespace: string | undefined): Promise<CheckResult> {
  // Cluster-scoped subjects are the whole cluster's whatever -n says (scope.ts).
  const namespace = checkNamespace(name, auditNamespace)
  const own = {...ctx, gathered: ctx.gathered.forCheck(name)}
  const result = await checkOf(name, source).run({...own, namespace, ...(namespace !== auditNamespace ? {wholeGathered: true} : {})})
  result.subjects = subjectsOf(name, result, own)
  return result
}

export async function runAudit(source: ClusterSource, options: AuditOptions): Promise<AuditReport> {
  const types = await source.discovery()
  const plan = auditPlan(options.checks, types, options.namespace)
  const selection = options.selection ?? {}
  const keep = {labels: selection.labelSelector !== undefined, creationTimestamp: options.sort === 'age', whole: options.wholeObjects === true}
  const budget = new HeapBudget()
  const gathered = await gather(source, plan, options.progress, keep, budget, options.spillAt !== undefined ? {at: options.spillAt} : spillPolicy(budget))
  const described = source.describe()
  const base = {...described, ...(options.version ? {k8sVersion: options.version.text} : {})}
  let gets = 0
  // What the data can prove (a dump's recorded gaps): the checks do not take an unread kind for an absent object.
  const evidence = await source.evidence?.()
  const ctx: CheckContext = {
    ...(evidence ? {evidence} : {}),
    gathered,
    types,
    namespace: options.namespace,
    now: source.now(),
    version: options.version,
    base,
    overrides: options.overrides,
    get: (request: GetRequest) => {
      gets++
      return source.get(request)
    },
    progress: options.progress ? (line) => options.progress!(line, true) : undefined,
    shared: new Map(),
  }
  const results: CheckResult[] = []
  for (const name of options.checks) {
    options.progress?.(`audit: ${name}: replaying`, true)
    results.push(await runCheck(name, source, ctx, options.namespace))
  }
  // Nothing read for any check (every list refused, say): an access problem, not an audit — never a clean one.
  if (results.every((r) => r.status === 'notRun' || readNothing(r.check, gathered))) {
    const first = results.flatMap((r) => r.problems)[0]
    throw new UserError(
      `nothing could be audited${first ? `: ${first.what}: ${first.reason}` : ''}`,
      'check your access (kubectl auth can-i list pods -A) or audit a snapshot with -f',
    )
  }
  const selected = applySelection(results, gathered, selection)
  const suppressed = applySuppressions(results, options.suppressions ?? [], source.now(), options.ignoreFile)
  const report = buildReport({
    namespace: options.namespace,
    now: source.now(),
    source: base,
    failOn: options.failOn,
    failOnPartial: options.failOnPartial ?? true,
    selected: options.checks,
    results,
    gathered,
    gets,
    selection: selected,
    suppressed,
    sort: options.sort ?? 'severity',
  })
  keepSubjects(report, results)
  return report
}
