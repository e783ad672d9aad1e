// The gc check: `kubectl why gc --all`'s own driver (src/engine/garbagecollector/drive.ts) over the audit's one read
// of each kind, through a source façade (gathered-source.ts): the same findings in the same order as the command. The
// collector's graph comes from the lists of every monitored type (metadata only, unless another check read the whole
// object); owner lookups are answered from the quorum lists and every dangling reference is confirmed with the fresh,
// metadata-only GET the collector itself sends. Lists read from the watch cache (the node Leases, merged with the node
// check's read) never answer an owner lookup: those owners are read with a GET.
// Secrets are not read at all: the audit's ClusterRole grants nothing on them (RBAC cannot grant metadata alone).
import {driveGcAll} from '../../engine/garbagecollector/drive.js'
import {NOT_READ} from '../../engine/garbagecollector/descriptor.js'
import {type Check, type CheckContext, type CheckResult, describeWith} from '../context.js'
import {GatheredSource} from '../gathered-source.js'
import {typeKey} from '../plan.js'

const MAX_DEPTH = 3

export const gcCheck: Check = {
  name: 'gc',
  async run(ctx: CheckContext): Promise<CheckResult> {
    const source = new GatheredSource(ctx, {describe: () => ctx.base, serverVersion: async () => undefined, defaultNamespace: () => 'default'})
    const quorum = new Set<string>()
    for (const need of ctx.gathered.plan.needs) {
      if (need.check !== 'gc' || !need.type) continue
      const r = ctx.gathered.read(need)
      if (r.ok && r.view === 'fresh') quorum.add(typeKey(need.type))
    }
    const result = await driveGcAll(source, ctx.namespace, {
      now: ctx.now,
      minor: ctx.version?.minor,
      maxDepth: MAX_DEPTH,
      progress: ctx.progress,
      progressPrefix: 'audit: gc',
      evidence: ctx.evidence,
      snapshotGaps: ctx.base.mode === 'snapshot' ? (ctx.base.partial ?? []) : [],
      notRead: {resources: NOT_READ, why: 'the audit does not read Secrets; `kubectl why gc` does, as metadata'},
      answersReads: (t) => quorum.has(typeKey(t)),
    })
    const description = describeWith(ctx.base, result.problems, ctx.version ? {k8sVersion: `1.${ctx.version.minor}`} : {})
    for (const f of result.findings) f.source = description
    const notes = [
      `${result.objects} objects of ${result.monitoredTypes} monitored types in the graph; ${result.ownerGets} owner GET(s)`,
      'Secrets are not read (the audit has no access to them): run `kubectl why gc --all` for them',
    ]
    return {
      check: 'gc',
      status: result.problems.length > 0 ? 'partial' : 'complete',
      evaluated: result.evaluated,
      verdicts: result.counts as Record<string, number>,
      findings: result.findings,
      problems: result.problems,
      notes,
    }
  },
}
