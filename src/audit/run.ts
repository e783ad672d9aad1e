// The audit, end to end but for flags and output: discovery, the read plan of every selected check, one gathering,
// each check over it, the report. The command (src/commands/audit.ts) only turns flags into these options.
import type {ClusterSource, GetRequest} from '../cluster/source.js'
import type {ChosenVersion} from '../cluster/version.js'
import {UserError} from '../errors.js'
import type {Severity} from '../explanation.js'
import type {SettingsOverrides} from '../settings/resolve.js'
import type {CheckName} from './checks.js'
import {evictedCheck} from './checks/evicted.js'
import {gcCheck} from './checks/gc.js'
import {hashCheckWith} from './checks/hash.js'
import {nodeCheck} from './checks/node.js'
import {replicasCheck} from './checks/replicas.js'
import type {Check, CheckContext, CheckResult} from './context.js'
import {gather} from './gather.js'
import type {CheckNeeds} from './needs.js'
import {planReads, type ReadPlan} from './plan.js'
import {type AuditReport, buildReport} from './report.js'
import type {ResourceType} from '../cluster/source.js'

/** The checks; the hash check reads the real source's version and description (and nothing else) through its façade. */
function checksFor(source?: Pick<ClusterSource, 'serverVersion' | 'describe' | 'defaultNamespace'>): Record<CheckName, Check> {
  const real = source ?? {serverVersion: async () => undefined, describe: () => ({mode: 'live' as const}), defaultNamespace: () => 'default'}
  return {hash: hashCheckWith(real), gc: gcCheck, node: nodeCheck, evicted: evictedCheck, replicas: replicasCheck}
}

export interface AuditOptions {
  checks: readonly CheckName[]
  /** undefined: every namespace (-A). */
  namespace?: string
  version?: ChosenVersion
  overrides: SettingsOverrides
  failOn: Severity
  /** A status line; `final` marks lines worth keeping in a log (a kind listed, a check started). */
  progress?: (line: string, final?: boolean) => void
}

function checkOf(name: CheckName, source?: ClusterSource): Check {
  return checksFor(source)[name]
}

/** Every read the selected checks declare, merged into one plan (also what deploy/clusterrole.yaml is derived from). */
export function auditPlan(checks: readonly CheckName[], types: readonly ResourceType[], namespace: string | undefined): ReadPlan {
  const needs: CheckNeeds[] = checks.map((c) => checkOf(c).needs(types))
  return planReads(needs.flatMap((n) => n.lists), needs.flatMap((n) => n.gets), types, namespace)
}

export async function runAudit(source: ClusterSource, options: AuditOptions): Promise<AuditReport> {
  const types = await source.discovery()
  const plan = auditPlan(options.checks, types, options.namespace)
  const gathered = await gather(source, plan, options.progress)
  const described = source.describe()
  const base = {...described, ...(options.version ? {k8sVersion: options.version.text} : {})}
  let gets = 0
  const ctx: CheckContext = {
    gathered, types, namespace: options.namespace, now: source.now(), version: options.version, base, overrides: options.overrides,
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
    results.push(await checkOf(name, source).run(ctx))
  }
  if (results.every((r) => r.status === 'notRun')) {
    const first = results.flatMap((r) => r.problems)[0]
    throw new UserError(`nothing could be audited${first ? `: ${first.what}: ${first.reason}` : ''}`, 'check your access (kubectl auth can-i list pods -A) or audit a snapshot with -f')
  }
  return buildReport({namespace: options.namespace, now: source.now(), source: base, failOn: options.failOn, selected: options.checks, results, gathered, gets})
}
