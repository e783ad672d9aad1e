// The node lifecycle controller's reads, made the way it makes them, for `kubectl why node`, `kubectl why evicted`
// and the audit's node and evicted checks alike (I/O only through the ClusterSource handed in; the audit hands a
// façade over its gathered lists). What it reads: the controller-manager's flags (its static pod), every Node, the
// kube-node-lease Leases as its lease informer holds them (the watch cache, `view: 'cached'`), and — only for the
// nodes its first pass finds stale — the live GET of their lease that the circuit breaker makes
// (tryUpdateNodeHealth step 6, nlc.go@2b96ebcf), one lease at a time, as the controller does.
import type {Evidence, Explanation, Problem, SourceDescription} from '../../explanation.js'
import {PAGE_SIZE, pool, readFailure} from '../../cluster/read.js'
import type {ClusterSource, KubeObject, TableResult} from '../../cluster/source.js'
import {type ChosenVersion, chooseVersion} from '../../cluster/version.js'
import {controllerManagerArgs} from '../../settings/kcm.js'
import type {SettingsOverrides} from '../../settings/flags.js'
import {type ResolvedSettings, resolveSettings} from './settings.js'
import {type NodeByRelease, nodeAnswersByRelease} from './by-release.js'
import {type MinorVersion, microsOf} from '../../util/parse.js'
import {analyzeCluster, type ClusterAnalysis} from './analyze.js'
import {compareResourceVersions} from './consistency.js'
import {type DataEvidence, dataEvidence} from './evidence.js'
import {type ExplainContext, explainCluster, explainNode, nodeSeverityIn, orderedNodes} from './explain.js'
import type {LiveLeaseLookup} from './health.js'
import type {LeaseLike, NodeLike} from './types.js'
import {getZoneKey, LABEL_EXCLUDE_DISRUPTION, zoneDisplayName} from './zone.js'

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
  /** What was read, named for the output (node NAME, evicted pod/NAME): each list or get and what it held. */
  reads: NodeRead[]
  /** The release is not settled: the answers under each release set (by-release.ts). */
  byRelease?: NodeByRelease
  /** The lease circuit breaker held some node in a replay of this world (under some release). */
  breakerHeld?: boolean
}

export interface NodeRead {
  read: string
  objects?: number
  why: string
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

interface CachedLeases {
  cached?: {items: KubeObject[]; resourceVersion?: string}
  /** The same Leases by name (the lease lister's key), made once. */
  byName: Map<string, LeaseLike>
  problem?: Problem
}

async function readCachedLeases(source: ClusterSource): Promise<CachedLeases> {
  try {
    const cached = await source.list({...LEASE, namespace: NODE_LEASE_NAMESPACE, view: 'cached', pageSize: PAGE_SIZE})
    const byName = new Map<string, LeaseLike>()
    for (const l of cached.items) byName.set(l.metadata?.name ?? '', l as LeaseLike)
    return {cached, byName}
  } catch (err) {
    return {
      byName: new Map(),
      problem: {
        what: 'list kube-node-lease Leases (watch cache)',
        reason: `${readFailure(err)}; heartbeats are judged from the nodes' Ready conditions only and the circuit breaker cannot be checked`,
      },
    }
  }
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
  return readWith(source, options, async () => {
    const nodes = (await source.list({apiVersion: 'v1', kind: 'Node', pageSize: PAGE_SIZE})).items as NodeLike[]
    return {nodes, reads: [{read: 'list nodes', objects: nodes.length, why: 'every Node: zones, their states and master disruption mode'}]}
  })
}

/**
 * What a node reader may use: the controller's monitor grace (the shortest of the releases the data leaves possible,
 * so that a node fresh under it is fresh under each) and the evaluation instant.
 */
interface ReaderContext {
  grace: number
  now: number
}
interface NodesRead {
  nodes: NodeLike[]
  reads: NodeRead[]
  /** Nodes not in `nodes`, counted Ready in their zone (replay.ts ReplayInput.unlistedReady). */
  unlistedReady?: ReadonlyMap<string, number>
}
type NodeReader = (ctx: ReaderContext) => Promise<NodesRead>

/** The controller-manager's settings: the version and its static pod's flags. */
interface SettingsRead {
  settings: ResolvedSettings
  problems: Problem[]
}

async function readSettings(source: ClusterSource, options: DriveOptions): Promise<SettingsRead> {
  const problems: Problem[] = []
  const [version, kcm] = await Promise.all([
    options.version ??
      source.serverVersion().then(
        (v) => chooseVersion(options.versionOverride, v),
        () => chooseVersion(options.versionOverride, undefined),
      ),
    source.list({apiVersion: 'v1', kind: 'Pod', namespace: 'kube-system', labelSelector: 'component=kube-controller-manager', pageSize: PAGE_SIZE}).then(
      (l) => ({pods: l.items, err: undefined as unknown}),
      (err: unknown) => ({pods: [] as KubeObject[], err}),
    ),
  ])
  let kcmMissing: string | undefined
  if (kcm.err !== undefined) {
    kcmMissing = `kube-system pods could not be read (${readFailure(kcm.err)}): release defaults are used`
    problems.push({what: 'list pods in kube-system (kube-controller-manager flags)', reason: readFailure(kcm.err)})
  } else if (kcm.pods.length === 0) kcmMissing = 'no kube-controller-manager pod is visible in kube-system (managed control plane?): release defaults are used'
  const settings = resolveSettings({version, kcm: controllerManagerArgs(kcm.pods), kcmMissing, overrides: options.overrides})
  problems.push(...settings.problems)
  return {settings, problems}
}

/** Reads that do not depend on the nodes, started together (neither promise rejects). */
interface Prefetch {
  settings: Promise<SettingsRead>
  leases: Promise<CachedLeases>
}
const prefetch = (source: ClusterSource, options: DriveOptions): Prefetch => ({settings: readSettings(source, options), leases: readCachedLeases(source)})

async function readWith(source: ClusterSource, options: DriveOptions, readNodes: NodeReader, pre = prefetch(source, options)): Promise<NodeLifecycleWorld> {
  const problems: Problem[] = []
  const {settings, problems: settingsProblems} = await pre.settings
  problems.push(...settingsProblems)

  // list() restarts once on an expired continue token (410), as client-go's pager does.
  const grace = Math.min(settings.settings.nodeMonitorGracePeriod, ...(settings.candidates?.groups ?? []).map((g) => g.settings.nodeMonitorGracePeriod))
  const {nodes, reads, unlistedReady} = await readNodes({grace, now: source.now().getTime()})

  const leaseRead = await pre.leases
  const cached = leaseRead.cached
  if (leaseRead.problem) problems.push(leaseRead.problem)
  reads.push({
    read: 'list leases -n kube-node-lease (watch cache, resourceVersion=0)',
    objects: cached?.items.length,
    why: "node heartbeats as the controller's lease informer holds them, and the informer's sync resourceVersion (circuit breaker)",
  })
  const cachedLeases = leaseRead.byName
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
  // Whether the lease circuit breaker held a node in any replay (under any release): a count of unlisted nodes
  // cannot say which of them it would have held (drive order), so the caller reads them whole then.
  let breakerHeld = false
  const run = (live: ReadonlyMap<string, LiveLeaseLookup>, under = settings.settings) => {
    const a = analyzeCluster({
      nodes,
      cachedLeases,
      liveLeases: live,
      now,
      nowMicros,
      settings: under,
      leaseInformerSyncRV: syncRV,
      evidence,
      ...(unlistedReady ? {unlistedReady} : {}),
    })
    if (a.nodes.some((n) => n.circuit !== undefined)) breakerHeld = true
    return a
  }

  // First pass: which nodes does the controller look up live? (Only stale ones, and only with the gate on.)
  const lookups = new RecordingLookups()
  let analysis = run(lookups)
  let liveUsed: ReadonlyMap<string, LiveLeaseLookup> = lookups
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
    liveUsed = live
  }
  // The release is not settled: the replay under each distinct set of settings the possible releases give (issue 27.3).
  const byRelease = settings.candidates ? nodeAnswersByRelease(settings.candidates, settings.settings, analysis, (s) => run(liveUsed, s)) : undefined
  if (analysis.panic) problems.push({what: 'node lifecycle controller', reason: analysis.panic})
  if (gets > 0)
    reads.push({
      read: `get ${gets} node lease(s) -n kube-node-lease (quorum read)`,
      objects: gets,
      why: "the circuit breaker's live double-check of stale nodes",
    })
  const d = source.describe()
  const described: SourceDescription = {
    ...d,
    k8sVersion: settings.version.text,
    settings: {...(d.settings ?? {}), 'k8s-version': {value: settings.version.text, from: settings.version.from}, ...settings.described},
    partial: [...(d.partial ?? source.problems()), ...problems],
  }
  return {
    analysis,
    settings,
    nodes,
    source: described,
    problems,
    now,
    liveLeaseGets: gets,
    evidence,
    reads,
    ...(byRelease ? {byRelease} : {}),
    ...(breakerHeld ? {breakerHeld} : {}),
  }
}

/** The explain context of a world. */
export function explainContext(world: NodeLifecycleWorld): ExplainContext {
  return {now: world.now, settings: world.settings.settings, source: world.source, ...(world.byRelease ? {byRelease: world.byRelease} : {})}
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
    if (nodeSeverityIn(a, world.analysis, world.byRelease) !== 'none') findings.push(explainNode(a, world.analysis, explainContext(world)))
  }
  return {findings, verdicts, evaluated}
}

/** How many of a zone's nodes are read one GET each (their Table row does not settle them) before the zone is listed whole. */
const ZONE_GET_LIMIT = 64

/** printNode's STATUS for a node whose Ready condition is True: "Ready", then ",SchedulingDisabled" when cordoned. */
const readyInTable = (status: unknown) => typeof status === 'string' && status.split(',')[0] === 'Ready'

const ZONE_BETA = 'failure-domain.beta.kubernetes.io/zone'
const ZONE_GA = 'topology.kubernetes.io/zone'
const REGION_BETA = 'failure-domain.beta.kubernetes.io/region'
const REGION_GA = 'topology.kubernetes.io/region'
const byName = (a: NodeLike, b: NodeLike) =>
  (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0

/**
 * GetZoneKey's reading of one of its two values as label selectors: the beta label whenever its key exists (even
 * empty), else the GA label, else "". So value V is the nodes with the beta label V, and those without the beta
 * label whose GA label is V — and for "", also those with neither label.
 */
function valueSelectors(beta: string, ga: string, value: string): string[] {
  return value === '' ? [`${beta}=`, `!${beta},${ga}=`, `!${beta},!${ga}`] : [`${beta}=${value}`, `!${beta},${ga}=${value}`]
}

/**
 * The label selectors that list exactly one zone's Nodes, as GetZoneKey (component-helpers/node/topology) builds
 * the zone key from a zone and a region (region + ":\0:" + zone): each way its zone can be read, with each way its
 * region can be read — 4 selectors (6 when the region is ""), whose lists are disjoint and together the zone.
 * Undefined when the node has no zone value (the zone of unlabelled nodes is found among every Node).
 */
export function zoneSelectors(node: NodeLike): string[] | undefined {
  const labels = node.metadata?.labels ?? {}
  const zone = ZONE_BETA in labels ? labels[ZONE_BETA] : labels[ZONE_GA]
  if (!zone) return undefined
  const region = (REGION_BETA in labels ? labels[REGION_BETA] : labels[REGION_GA]) ?? ''
  const regions = valueSelectors(REGION_BETA, REGION_GA, region)
  return valueSelectors(ZONE_BETA, ZONE_GA, zone).flatMap((z) => regions.map((r) => `${z},${r}`))
}

/** A Table's rows as name and STATUS, or why they cannot be read so. */
function tableRows(t: TableResult): {rows: {name: string; status: unknown}[]} | {unreadable: string} {
  const nameAt = t.columns.findIndex((c) => c.toLowerCase() === 'name')
  const statusAt = t.columns.findIndex((c) => c.toLowerCase() === 'status')
  if (nameAt < 0 || statusAt < 0) return {unreadable: 'the Table carried no NAME or STATUS column'}
  const rows: {name: string; status: unknown}[] = []
  for (const r of t.rows) {
    const name = r.cells[nameAt]
    if (typeof name !== 'string' || name === '') return {unreadable: 'a Table row carried no NAME'}
    rows.push({name, status: r.cells[statusAt]})
  }
  return {rows}
}

/**
 * `kubectl why node NAME` against a live cluster (issue 29 point 3): the Node, the node Leases, and its zone's
 * Nodes only — other zones only when the decision can depend on them. From handleDisruption
 * (nlc.go@2b96ebcf:1033-1121): a zone's rate comes from that zone's own state and size (setLimiterInZone); other
 * zones enter only through master disruption mode, entered when every zone is FullDisruption after the pass
 * (allAreFullyDisrupted) and left when every zone was before it (allWasFullyDisrupted). If this zone is
 * FullDisruption neither before nor after the pass, both are false whatever the other zones hold, so they cannot
 * change the answer. The lease circuit breaker (nlc.go@2b96ebcf tryUpdateNodeHealth step 0/6) is controller-wide: a
 * stale node elsewhere whose live Lease moved blocks every later node; the Leases (all read: a Lease carries no zone,
 * so no narrower read finds the zone's) show which nodes elsewhere could be stale (a cached renewTime older than the
 * grace, or none), and when there is one, every Node is read. Undefined when the Node does not exist.
 *
 * The zone's Nodes come as the server-side Table's NAME and STATUS only (includeObject=None, from the watch cache as
 * the controller's node informer holds them): a row Ready whose Lease was renewed within the grace is counted Ready
 * in its zone without being read (replay.ts ReplayInput.unlistedReady); every other row is read whole by GET.
 */
export async function readNodeLifecycleFor(source: ClusterSource, name: string, options: DriveOptions): Promise<NodeLifecycleWorld | undefined> {
  // The settings and the Leases do not depend on the node: read while it is.
  const pre = prefetch(source, options)
  const target = (await source.get({apiVersion: 'v1', kind: 'Node', name, view: 'fresh'})) as NodeLike | undefined
  if (!target) return undefined
  const selectors = zoneSelectors(target)
  const everything = async (why: string) => {
    const nodes = (await source.list({apiVersion: 'v1', kind: 'Node', pageSize: PAGE_SIZE})).items as NodeLike[]
    return {
      nodes,
      reads: [
        {read: `get node ${name}`, objects: 1, why: 'the node asked about'},
        {read: 'list nodes', objects: nodes.length, why},
      ],
    }
  }
  if (!selectors)
    return readWith(source, options, () => everything('the node has no zone label: its zone (the unlabelled nodes) can only be found among every Node'), pre)

  const key = getZoneKey(target)
  const zoneReadWhy = `the nodes of zone ${zoneDisplayName(key)}, one of the ways GetZoneKey reads a zone and a region (the beta label whenever its key exists)`
  const sameZone = (n: NodeLike) => getZoneKey(n) === key
  // Every node of the zone by name (the asked node, those read whole, those counted from their row).
  const zoneNames = new Set<string>([name])
  let countedFromRows = 0
  // The zone's Nodes whole (the fallback when the Table is refused or settles too little).
  const wholeZone = async (because?: string): Promise<NodesRead> => {
    const lists = await Promise.all(selectors.map((labelSelector) => source.list({apiVersion: 'v1', kind: 'Node', labelSelector, pageSize: PAGE_SIZE})))
    const seen = new Map<string, NodeLike>()
    for (const l of lists) for (const n of l.items as NodeLike[]) if (sameZone(n)) seen.set(n.metadata?.name ?? '', n)
    // The server lists in key (name) order; the lists merged keep it, as the controller's lister would.
    const nodes = [...seen.values()].sort(byName)
    for (const n of nodes) zoneNames.add(n.metadata?.name ?? '')
    const reads: NodeRead[] = [
      {read: `get node ${name}`, objects: 1, why: 'the node asked about, and its zone labels'},
      ...selectors.map((s, i) => ({
        read: `list nodes -l '${s}'`,
        objects: lists[i].items.length,
        why: `${zoneReadWhy}${because ? `; whole: ${because}` : ''}`,
      })),
    ]
    return {nodes, reads}
  }
  // The zone's Table (NAME and STATUS) and which nodes of the cluster carry the exclusion label: asked for now, while
  // the settings and the Leases are read. Neither promise rejects (a failure is the whole zone's reason).
  const table = (labelSelector: string) =>
    source.listTable!({apiVersion: 'v1', kind: 'Node', labelSelector, includeObject: 'None', view: 'cached', pageSize: PAGE_SIZE})
  const tablesRead = source.listTable
    ? Promise.all([Promise.all(selectors.map(table)), table(LABEL_EXCLUDE_DISRUPTION)]).then(
        ([zone, excluded]) => ({zone, excluded}),
        (err: unknown) => ({failure: readFailure(err)}),
      )
    : undefined
  const zoneRead = async ({grace, now}: ReaderContext): Promise<NodesRead> => {
    if (!tablesRead) return wholeZone()
    const tables = await tablesRead
    if ('failure' in tables) return wholeZone(`the server refused the server-side Table (${tables.failure})`)
    const leaseByName = (await pre.leases).byName
    const excludedRows = tableRows(tables.excluded)
    if ('unreadable' in excludedRows) return wholeZone(excludedRows.unreadable)
    const excluded = new Set(excludedRows.rows.map((r) => r.name))
    let counted = 0
    let notCounted = 0
    const whole: string[] = []
    const rowCounts: number[] = []
    for (const t of tables.zone) {
      const rows = tableRows(t)
      if ('unreadable' in rows) return wholeZone(rows.unreadable)
      rowCounts.push(rows.rows.length)
      for (const row of rows.rows) {
        if (zoneNames.has(row.name)) continue
        zoneNames.add(row.name)
        const renew = leaseByName.get(row.name)?.spec?.renewTime
        // Ready True and not stale this pass: now is before renewTime + grace, so before the controller's probe +
        // grace (its probe is never before the renewal it noticed): nlc.go@2b96ebcf:946 leaves Ready as it is.
        if (readyInTable(row.status) && renew && now < Date.parse(renew) + grace) {
          if (excluded.has(row.name)) notCounted++
          else counted++
        } else whole.push(row.name)
      }
    }
    if (whole.length > ZONE_GET_LIMIT)
      return wholeZone(`${whole.length} of its nodes are not Ready in the Table or have no Lease renewed within the grace, more than ${ZONE_GET_LIMIT} GETs`)
    const got: NodeLike[] = []
    try {
      await pool(whole, GET_CONCURRENCY, async (n) => {
        const o = (await source.get({apiVersion: 'v1', kind: 'Node', name: n, view: 'fresh'})) as NodeLike | undefined
        // Gone since the Table was read: the controller's lister would not hold it either.
        if (o && sameZone(o)) got.push(o)
      })
    } catch (err) {
      return wholeZone(`a GET of one of its nodes failed (${readFailure(err)})`)
    }
    const nodes = [target, ...got].sort(byName)
    const zoneName = zoneDisplayName(key)
    const reads: NodeRead[] = [
      {read: `get node ${name}`, objects: 1, why: 'the node asked about, and its zone labels'},
      ...selectors.map((s, i) => ({
        read: `list nodes -l '${s}' (server-side Table, includeObject=None, watch cache)`,
        objects: rowCounts[i],
        why: `${zoneReadWhy}: each row's NAME and STATUS, as the controller's node informer holds them`,
      })),
      {
        read: `list nodes -l '${LABEL_EXCLUDE_DISRUPTION}' (server-side Table, includeObject=None, watch cache)`,
        objects: excluded.size,
        why: 'the nodes not counted in their zone (isNodeExcludedFromDisruptionChecks: the label key, any value)',
      },
      {
        read: `${counted} node(s) of zone ${zoneName} counted Ready from their Table row`,
        objects: counted,
        why: `STATUS Ready (printNode: the Ready condition is True) and a Lease in the watch cache renewed within --node-monitor-grace-period: tryUpdateNodeHealth leaves their Ready condition as it is (nlc.go@2b96ebcf:828-1031) and ComputeZoneState counts only Ready != True (nlc.go@2b96ebcf:1318-1336), so each is one more Ready node of the zone and of its size (setLimiterInZone); nothing else about them reaches this node's answer. Their conditions, taints and heartbeats were not read${notCounted > 0 ? `; ${notCounted} more such row(s) carry ${LABEL_EXCLUDE_DISRUPTION} and are not counted` : ''}`,
      },
    ]
    if (whole.length > 0)
      reads.push({
        read: `get ${whole.length} node(s) of zone ${zoneName}`,
        objects: got.length,
        why: "not Ready in the Table, or no Lease renewed within the grace: the controller's view of them needs their conditions, heartbeats and taints",
      })
    countedFromRows = counted
    return {nodes, reads, ...(counted > 0 ? {unlistedReady: new Map([[key, counted]])} : {})}
  }
  let zoneWorld = await readWith(source, options, zoneRead, pre)
  // The lease circuit breaker held a node: which nodes it holds depends on their order, which a count does not have.
  if (zoneWorld.breakerHeld && countedFromRows > 0)
    zoneWorld = await readWith(
      source,
      options,
      () => wholeZone('the lease circuit breaker held a node in this pass, and which nodes it holds depends on their order'),
      pre,
    )
  const zone = zoneWorld.analysis.zones.find((z) => z.key === key)
  const full = (s: string | undefined) => s === 'FullDisruption'
  const zoneFull = full(zone?.state) || full(zone?.previous)
  const groups = zoneWorld.settings.candidates?.groups ?? []
  const grace = Math.min(zoneWorld.settings.settings.nodeMonitorGracePeriod, ...groups.map((g) => g.settings.nodeMonitorGracePeriod))
  const breakerOn = zoneWorld.settings.settings.leaseCircuitBreaker || groups.some((g) => g.settings.leaseCircuitBreaker)
  const staleElsewhere = breakerOn
    ? ((await pre.leases).cached?.items ?? []).filter((l) => {
        if (zoneNames.has(l.metadata?.name ?? '')) return false
        const renew = (l as LeaseLike).spec?.renewTime
        return !renew || zoneWorld.now > Date.parse(renew) + grace
      }).length
    : 0
  if (zoneFull || staleElsewhere > 0) {
    const why = zoneFull
      ? `zone ${zoneDisplayName(key)} is FullDisruption ${full(zone?.state) ? 'after' : 'before'} this pass: master disruption mode (handleDisruption) depends on every other zone`
      : `${staleElsewhere} node Lease(s) outside zone ${zoneDisplayName(key)} are older than the grace: those nodes may be stale, and the lease circuit breaker is controller-wide`
    return readWith(source, options, () => everything(why), pre)
  }
  zoneWorld.reads.push({
    read: 'other zones not read',
    why: `zone ${zoneDisplayName(key)} is ${zone?.state ?? 'not counted'}, not FullDisruption before or after this pass, so handleDisruption can neither enter nor leave master disruption mode whatever the other zones hold (nlc.go@2b96ebcf:1033-1121)${breakerOn ? '; every node Lease outside the zone was renewed within the grace, so no node there can trip the lease circuit breaker' : ''}. The cluster-wide figures below count this zone only`,
  })
  return zoneWorld
}
