// The node lifecycle analysis the node and evicted checks share, built once from the gathered objects: the
// controller-manager's flags (its mirror pod), every node, the kube-node-lease Leases as the controller's informer
// holds them (the watch cache), and — for the nodes the controller finds stale — the live GET of their lease that
// the circuit breaker makes (tryUpdateNodeHealth step 6), made here the same way, one lease at a time.
import type {KubeObject} from '../../cluster/source.js'
import {analyzeCluster, type ClusterAnalysis} from '../../engine/nodelifecycle/analyze.js'
import {compareResourceVersions} from '../../engine/nodelifecycle/consistency.js'
import type {LiveLeaseLookup} from '../../engine/nodelifecycle/health.js'
import type {LeaseLike, NodeLike} from '../../engine/nodelifecycle/types.js'
import type {Problem, SourceDescription} from '../../explanation.js'
import {controllerManagerArgs} from '../../settings/kcm.js'
import {type ResolvedSettings, resolveSettings} from '../../settings/resolve.js'
import type {CheckName} from '../checks.js'
import {type CheckContext, describeWith, failureText, readNeed} from '../context.js'
import type {ListNeed} from '../needs.js'
import {pool} from '../pool.js'

export const NODE_LEASE_NAMESPACE = 'kube-node-lease'
const GET_CONCURRENCY = 16

/** What both checks list for the node lifecycle replay. */
export function nodeLifecycleNeeds(check: CheckName): ListNeed[] {
  return [
    {check, key: 'nodes', ref: {apiVersion: 'v1', kind: 'Node'}, scope: 'cluster', detail: 'full', view: 'fresh', required: true, why: 'node health, zones and taints'},
    {check, key: 'leases', ref: {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'}, scope: {namespace: NODE_LEASE_NAMESPACE}, detail: 'full', view: 'cached', required: false,
      why: 'node heartbeats as the controller\'s lease informer holds them (watch cache)'},
    {check, key: 'kcm', ref: {apiVersion: 'v1', kind: 'Pod'}, scope: {namespace: 'kube-system'}, labelSelector: 'component=kube-controller-manager', detail: 'full', view: 'fresh', required: false,
      why: 'kube-controller-manager flags (its static pod\'s command line)'},
  ]
}

export interface NodeLifecycleWorld {
  analysis: ClusterAnalysis
  settings: ResolvedSettings
  nodes: NodeLike[]
  source: SourceDescription
  problems: Problem[]
  now: number
  liveLeaseGets: number
}

export type NodeLifecycleOutcome = {ok: true; world: NodeLifecycleWorld} | {ok: false; problems: Problem[]; why: string}

/** The newest resourceVersion among objects: a lower bound of the list's own when the source does not give one. */
function newestRV(items: readonly KubeObject[]): string | undefined {
  let best: string | undefined
  for (const o of items) {
    const rv = o.metadata?.resourceVersion
    if (rv && (best === undefined || (compareResourceVersions(rv, best) ?? 0) > 0)) best = rv
  }
  return best
}

/** A lease lookup table that remembers which nodes the controller looked up live. */
class RecordingLookups extends Map<string, LiveLeaseLookup> {
  readonly asked = new Set<string>()
  override get(name: string): LiveLeaseLookup | undefined {
    this.asked.add(name)
    return super.get(name)
  }
}

export function nodeLifecycle(ctx: CheckContext, check: CheckName): Promise<NodeLifecycleOutcome> {
  let p = ctx.shared.get('nodelifecycle') as Promise<NodeLifecycleOutcome> | undefined
  if (!p) {
    p = build(ctx, check)
    ctx.shared.set('nodelifecycle', p)
  }
  return p
}

async function build(ctx: CheckContext, check: CheckName): Promise<NodeLifecycleOutcome> {
  const problems: Problem[] = []
  const kcm = readNeed(ctx, check, 'kcm', problems, 'release defaults are used for the controller-manager settings')
  const kcmPods = kcm.ok ? kcm.items : []
  const kcmMissing = !kcm.ok
    ? `kube-system pods could not be read (${failureText(kcm.error)}): release defaults are used`
    : kcmPods.length === 0 ? 'no kube-controller-manager pod is visible in kube-system (managed control plane?): release defaults are used' : undefined
  const settings = resolveSettings({version: ctx.version, kcm: controllerManagerArgs(kcmPods), kcmMissing, overrides: ctx.overrides})
  problems.push(...settings.problems)

  const nodesRead = readNeed(ctx, check, 'nodes', problems, 'without nodes there is nothing to replay')
  if (!nodesRead.ok) return {ok: false, problems, why: 'the nodes could not be listed'}
  const nodes = nodesRead.items as NodeLike[]

  const leases = readNeed(ctx, check, 'leases', problems, 'heartbeats are judged from the nodes\' Ready conditions only and the circuit breaker cannot be checked')
  const cachedLeases = new Map<string, LeaseLike>()
  let syncRV: string | undefined
  if (leases.ok) {
    for (const l of leases.items) cachedLeases.set(l.metadata?.name ?? '', l as LeaseLike)
    // The informer's sync point is the watch-cache list's resourceVersion; a merged quorum list only bounds it.
    syncRV = leases.view === 'cached' ? (leases.resourceVersion || newestRV(leases.items)) : newestRV(leases.items)
  }
  const now = ctx.now.getTime()
  const run = (live: ReadonlyMap<string, LiveLeaseLookup>) => analyzeCluster({nodes, cachedLeases, liveLeases: live, now, settings: settings.settings, leaseInformerSyncRV: syncRV})

  // First pass: which nodes does the controller look up live? (Only stale ones, and only with the gate on.)
  const lookups = new RecordingLookups()
  let analysis = run(lookups)
  let gets = 0
  if (lookups.asked.size > 0) {
    const live = new Map<string, LiveLeaseLookup>()
    let failed = 0
    let lastFailure = ''
    await pool([...lookups.asked], GET_CONCURRENCY, async (name) => {
      gets++
      try {
        const lease = await ctx.get({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NODE_LEASE_NAMESPACE, name, view: 'fresh'})
        if (lease) live.set(name, {kind: 'found', lease: lease as LeaseLike})
      } catch (err) {
        failed++
        lastFailure = failureText(err as Error)
        live.set(name, {kind: 'unreadable', message: lastFailure})
      }
    })
    if (failed > 0) problems.push({what: `get ${failed} of ${lookups.asked.size} node leases (quorum read, the circuit breaker's live double-check)`, reason: lastFailure})
    analysis = run(live)
  }
  if (analysis.panic) problems.push({what: 'node lifecycle controller', reason: analysis.panic})
  const source = describeWith(ctx.base, problems, {
    k8sVersion: settings.version.text,
    settings: {...(ctx.base.settings ?? {}), 'k8s-version': {value: settings.version.text, from: settings.version.from}, ...settings.described},
  })
  return {ok: true, world: {analysis, settings, nodes, source, problems, now, liveLeaseGets: gets}}
}
