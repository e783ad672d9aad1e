// The replicas check: every ReplicaSet in scope replayed by the ReplicaSet driver (src/engine/replicaset/drive.ts
// driveScope), the one `kubectl why replicas --all` runs, over the audit's gathered lists through the source façade
// (gathered-source.ts): no list of its own; its only requests are the uncached recheck GET before an adoption and the
// leader Lease. The controller acts on its informer's pods (the watch cache), so the pods need asks for that view (the
// plan then reads the audit's one pod list from it); a quorum read of the ReplicaSets will do.
import {DEFAULT_MINOR, describeReplicas, driveScope, type ReplicasScan} from '../../engine/replicaset/drive.js'
import type {Problem} from '../../explanation.js'
import {type Check, type CheckContext, type CheckResult, notRun, readNeed} from '../context.js'
import {GatheredSource} from '../gathered-source.js'

/** The driver over the audit's gathering (`kubectl why replicas --all` runs it over the source itself: drive.ts replicasScan). */
async function scanGathered(ctx: CheckContext): Promise<{scan?: ReplicasScan; result: CheckResult}> {
  const problems: Problem[] = []
  const rsRead = readNeed(ctx, 'replicas', 'replicasets', problems, 'no ReplicaSet can be replayed')
  const podsRead = readNeed(ctx, 'replicas', 'pods', problems, 'no ReplicaSet can be replayed')
  if (!rsRead.ok || !podsRead.ok) return {result: notRun('replicas', problems, 'ReplicaSets and pods are both needed')}
  const scan = await driveScope(new GatheredSource(ctx, NO_REAL), ctx.namespace, {
    minor: ctx.version?.minor ?? DEFAULT_MINOR,
    describe: (p) => describeReplicas(ctx.base, ctx.version, [...problems, ...p]),
    progress: ctx.progress ? (line) => ctx.progress!(`audit: ${line}`) : undefined,
  })
  const all = [...problems, ...scan.problems]
  const view =
    podsRead.view === 'cached'
      ? "from the watch cache, as the controller's informer holds them"
      : 'by quorum (the source has no watch-cache view): the informer is taken to have caught up'
  const notes = [
    `${scan.pods} pods read once, ${view}; \`kubectl why replicas rs/NAME\` also compares a quorum read to name unobserved operations with more evidence`,
  ]
  if (scan.rechecks > 0) notes.push(`${scan.rechecks} uncached recheck GET(s) before adoption`)
  return {
    scan,
    result: {
      check: 'replicas',
      status: all.length > 0 ? 'partial' : 'complete',
      evaluated: scan.evaluated,
      verdicts: scan.counts,
      findings: scan.findings,
      problems: all,
      notes,
    },
  }
}

/** The façade reads nothing of the real source but what the context has (the driver asks for no version). */
const NO_REAL: ConstructorParameters<typeof GatheredSource>[1] = {
  serverVersion: async () => undefined,
  describe: () => ({mode: 'live'}),
  defaultNamespace: () => 'default',
}

export const replicasCheck: Check = {
  name: 'replicas',
  run: async (ctx) => (await scanGathered(ctx)).result,
}
