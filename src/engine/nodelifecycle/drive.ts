// The node lifecycle controller's reads, made the way it makes them, for `kubectl why node`, `kubectl why evicted`
// and the audit's node and evicted checks alike (I/O only through the ClusterSource handed in; the audit hands a
// façade over its gathered lists). What it reads: the controller-manager's flags (its static pod), every Node, the
// kube-node-lease Leases as its lease informer holds them (the watch cache, `view: 'cached'`), and — only for the
// nodes its first pass finds stale — the live GET of their lease that the circuit breaker makes
// (tryUpdateNodeHealth step 6, nlc.go@2b96ebcf), one lease at a time, as the controller does.
import type {Evidence, Explanation, Problem, SourceDescription} from '../../explanation.js'
import {PAGE_SIZE, pool, readFailure} from '../../cluster/read.js'
import type {ClusterSource, KubeObject} from '../../cluster/source.js'
import {type ChosenVersion, chooseVersion} from '../../cluster/version.js'
import {controllerManagerArgs} from '../../settings/kcm.js'
import type {SettingsOverrides} from '../../settings/flags.js'
import {type ResolvedSettings, resolveSettings} from './settings.js'
import {type MinorVersion, microsOf} from '../../util/parse.js'
import {analyzeCluster, type ClusterAnalysis} from './analyze.js'
import {compareResourceVersions} from './consistency.js'
import {type DataEvidence, dataEvidence} from './evidence.js'
import {type ExplainContext, explainCluster, explainNode, nodeSeverity, orderedNodes} from './explain.js'
import type {LiveLeaseLookup} from './health.js'
import type {LeaseLike, NodeLike} from './types.js'

import {NODE_LEASE_NAMESPACE} from './descriptor.js'

export {NODE_LEASE_NAMESPACE}
const LEASE = {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'}
const GET_CONCURRENCY = 16

export interface DriveOptions {
  /** The version already chosen (the audit); else chosen here from `versionOverride` and the server's /version. */
  version?: ChosenVersion
  versionOverride?: MinorVersion
  overrides: SettingsOverrides
}

export interface NodeLifecycleWorld {
  analysis: ClusterAnalysis
  settings: ResolvedSettings
  nodes: NodeLike[]
  source: SourceDescription
  /** This replay's own read problems (the source's are in source.partial too). */
  problems: Problem[]
  now: number
  /** Live lease GETs made for the circuit breaker's double-check. */
  liveLeaseGets: number
  evidence: DataEvidence
}

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

/** Everything the node lifecycle replay reads, and the replay. Throws (ReadError) only when the nodes cannot be listed. */
export async function readNodeLifecycle(source: ClusterSource, options: DriveOptions): Promise<NodeLifecycleWorld> {
  const problems: Problem[] = []
  const version = options.version ?? chooseVersion(options.versionOverride, await source.serverVersion().catch(() => undefined))

  let kcmMissing: string | undefined
  let kcmPods: KubeObject[] = []
  try {
    kcmPods = (
      await source.list({apiVersion: 'v1', kind: 'Pod', namespace: 'kube-system', labelSelector: 'component=kube-controller-manager', pageSize: PAGE_SIZE})
    ).items
    if (kcmPods.length === 0) kcmMissing = 'no kube-controller-manager pod is visible in kube-system (managed control plane?): release defaults are used'
  } catch (err) {
    kcmMissing = `kube-system pods could not be read (${readFailure(err)}): release defaults are used`
    problems.push({what: 'list pods in kube-system (kube-controller-manager flags)', reason: readFailure(err)})
  }
  const settings = resolveSettings({version, kcm: controllerManagerArgs(kcmPods), kcmMissing, overrides: options.overrides})
  problems.push(...settings.problems)

  // list() restarts once on an expired continue token (410), as client-go's pager does.
  const nodes = (await source.list({apiVersion: 'v1', kind: 'Node', pageSize: PAGE_SIZE})).items as NodeLike[]

  let cached: {items: KubeObject[]; resourceVersion?: string} | undefined
  try {
    cached = await source.list({...LEASE, namespace: NODE_LEASE_NAMESPACE, view: 'cached', pageSize: PAGE_SIZE})
  } catch (err) {
    problems.push({
      what: 'list kube-node-lease Leases (watch cache)',
      reason: `${readFailure(err)}; heartbeats are judged from the nodes' Ready conditions only and the circuit breaker cannot be checked`,
    })
  }
  const cachedLeases = new Map<string, LeaseLike>()
  for (const l of cached?.items ?? []) cachedLeases.set(l.metadata?.name ?? '', l as LeaseLike)
  const syncRV = cached ? cached.resourceVersion || newestRV(cached.items) : undefined

  const sourceEvidence: Evidence | undefined = await source.evidence?.()
  const now = source.now().getTime()
  // --now's microseconds (a MicroTime renewTime is compared at its precision): issue 31 class 5.
  const nowMicros = microsOf(source.now())
  const evidence = dataEvidence(sourceEvidence, {
    leasesRead: cached !== undefined,
    leaseNames: new Set(cachedLeases.keys()),
    file: source.describe().mode === 'snapshot',
    now,
  })
  const run = (live: ReadonlyMap<string, LiveLeaseLookup>) =>
    analyzeCluster({nodes, cachedLeases, liveLeases: live, now, nowMicros, settings: settings.settings, leaseInformerSyncRV: syncRV, evidence})

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
        const lease = await source.get({...LEASE, namespace: NODE_LEASE_NAMESPACE, name, view: 'fresh'})
        if (lease) live.set(name, {kind: 'found', lease: lease as LeaseLike})
      } catch (err) {
        failed++
        lastFailure = readFailure(err)
        live.set(name, {kind: 'unreadable', message: lastFailure})
      }
    })
    if (failed > 0)
      problems.push({what: `get ${failed} of ${lookups.asked.size} node leases (quorum read, the circuit breaker's live double-check)`, reason: lastFailure})
    analysis = run(live)
  }
  if (analysis.panic) problems.push({what: 'node lifecycle controller', reason: analysis.panic})
  const d = source.describe()
  const described: SourceDescription = {
    ...d,
    k8sVersion: settings.version.text,
    settings: {...(d.settings ?? {}), 'k8s-version': {value: settings.version.text, from: settings.version.from}, ...settings.described},
    partial: [...(d.partial ?? source.problems()), ...problems],
  }
  return {analysis, settings, nodes, source: described, problems, now, liveLeaseGets: gets, evidence}
}

/** The explain context of a world. */
export function explainContext(world: NodeLifecycleWorld): ExplainContext {
  return {now: world.now, settings: world.settings.settings, source: world.source}
}

/** The cluster's explanation (`kubectl why node`), named after the context or the file. */
export function explainWorld(world: NodeLifecycleWorld): Explanation {
  const name = world.source.context ?? (world.source.file ? `snapshot ${world.source.file}` : 'cluster')
  return explainCluster(world.analysis, explainContext(world), name)
}

/**
 * The node findings: every node whose severity is above none, worst first and in list order within a severity —
 * the order of `kubectl why node -o json`'s nodes. `only` limits them to some nodes (the audit with -n: the nodes
 * the namespace's pods run on).
 */
export function nodeFindings(
  world: NodeLifecycleWorld,
  only?: ReadonlySet<string>,
): {findings: Explanation[]; verdicts: Record<string, number>; evaluated: number} {
  const verdicts: Record<string, number> = {}
  const findings: Explanation[] = []
  let evaluated = 0
  for (const a of orderedNodes(world.analysis)) {
    if (only && !only.has(a.name)) continue
    evaluated++
    verdicts[a.verdict] = (verdicts[a.verdict] ?? 0) + 1
    if (nodeSeverity(a, world.analysis) !== 'none') findings.push(explainNode(a, world.analysis, explainContext(world)))
  }
  return {findings, verdicts, evaluated}
}
