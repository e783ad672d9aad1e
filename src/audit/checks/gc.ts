// The gc check: `kubectl why gc --all`'s own driver (src/engine/garbagecollector/drive.ts) over the audit's one read
// of each kind, through a source façade (gathered-source.ts): the same findings in the same order as the command. The
// collector's graph comes from the lists of every monitored type (metadata only, unless another check read the whole
// object); owner lookups are answered from the quorum lists and every dangling reference is confirmed with the fresh,
// metadata-only GET the collector itself sends. Lists read from the watch cache (the node Leases, merged with the node
// check's read) never answer an owner lookup: those owners are read with a GET.
// Secrets are not read at all: the audit's ClusterRole grants nothing on them (RBAC cannot grant metadata alone).
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import type {ResourceType} from '../../cluster/source.js'
import {driveGcAll} from '../../engine/garbagecollector/drive.js'
import {GcDiscovery} from '../../engine/garbagecollector/index.js'
import {type Check, type CheckContext, type CheckResult, describeWith} from '../context.js'
import {GatheredSource} from '../gathered-source.js'
import type {CheckNeeds, ListNeed} from '../needs.js'
import {typeKey} from '../plan.js'

const MAX_DEPTH = 3

/** Kinds the audit never reads. */
export const NOT_READ: ReadonlySet<string> = new Set(['/secrets'])

function auditedTypes(types: readonly ResourceType[]): ResourceType[] {
  return new GcDiscovery(types).monitoredTypes().filter((t) => !NOT_READ.has(typeKey(t)))
}

export const gcCheck: Check = {
  name: 'gc',
  needs(types: readonly ResourceType[]): CheckNeeds {
    const monitored = auditedTypes(types)
    return {
      lists: monitored.map(
        (t): ListNeed => ({
          check: 'gc',
          key: typeKey(t),
          ref: {apiVersion: apiVersionOf(t), kind: t.kind},
          scope: 'audit',
          detail: 'metadata',
          view: 'fresh',
          required: false,
          why: "the collector's graph: every object of every monitored type and its owner references",
        }),
      ),
      gets: monitored.map((t) => ({
        check: 'gc',
        ref: {apiVersion: apiVersionOf(t), kind: t.kind},
        why: 'owner lookups (fresh, metadata-only), as attemptToDeleteItem makes them',
      })),
    }
  },

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
