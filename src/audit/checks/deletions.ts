// The deleting check: `kubectl why gc --all`'s pending-deletions section (src/engine/deletions/drive.ts), the same driver over the audit's gathered lists through the source façade: Terminating
// namespaces and what holds them, objects past deletionTimestamp whose finalizer's holder is absent, not running, or
// waiting, worst first. Apart from the gc check, whose findings are the collector's alone. The audit keeps of
// managedFields only the entries that wrote metadata.finalizers of objects being deleted (src/audit/project.ts
// finalizerWriters), so a finalizer's writer is named here as gc --all names it: the same holder verdict.
import {drivePendingDeletions} from '../../engine/deletions/drive.js'
import {type Check, type CheckContext, type CheckResult, describeWith} from '../context.js'
import {GatheredSource} from '../gathered-source.js'

export const deletionsCheck: Check = {
  name: 'deleting',
  async run(ctx: CheckContext): Promise<CheckResult> {
    const source = new GatheredSource(ctx, {describe: () => ctx.base, serverVersion: async () => undefined, defaultNamespace: () => 'default'})
    const result = await drivePendingDeletions(source, ctx.namespace, {
      now: ctx.now,
      minor: ctx.version?.minor,
      evidence: ctx.evidence,
    })
    const description = describeWith(ctx.base, result.problems, ctx.version ? {k8sVersion: `1.${ctx.version.minor}`} : {})
    for (const f of result.findings) f.source = description
    return {
      check: 'deleting',
      status: result.problems.length > 0 ? 'partial' : 'complete',
      evaluated: result.evaluated,
      verdicts: result.counts as Record<string, number>,
      findings: result.findings,
      problems: result.problems,
      notes: [`${result.evaluated} object(s) being deleted and held by something other than the garbage collector`],
    }
  },
}
