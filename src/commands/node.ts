import {Args} from '@oclif/core'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import type {ClusterSource, KubeObject, ListRequest} from '../cluster/source.js'
import {chooseVersion} from '../cluster/version.js'
import {analyzeCluster, type ClusterAnalysis} from '../engine/nodelifecycle/analyze.js'
import {compareResourceVersions} from '../engine/nodelifecycle/consistency.js'
import {explainCluster, explainNode} from '../engine/nodelifecycle/explain.js'
import type {LiveLeaseLookup} from '../engine/nodelifecycle/health.js'
import {findTaint} from '../engine/nodelifecycle/taints.js'
import type {LeaseLike, NodeLike} from '../engine/nodelifecycle/types.js'
import {processPodOnNode} from '../engine/tainteviction/process.js'
import type {PodLike} from '../engine/tainteviction/types.js'
import {ReadError, UserError} from '../errors.js'
import {type Explanation, type Problem, type SourceDescription} from '../explanation.js'
import {sharedFlags} from '../flags.js'
import {renderCluster, renderNode} from '../render/node.js'
import {formatData} from '../render/output.js'
import {controllerManagerFlags, settingsOverrides} from '../settings/flags.js'
import {controllerManagerArgs} from '../settings/kcm.js'
import {type ResolvedSettings, resolveSettings} from '../settings/resolve.js'

const LEASES = {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-node-lease'}
const PAGE_SIZE = 500

export type NodeLifecycleFlags = CommonFlags & Partial<Record<keyof typeof controllerManagerFlags, string>>

export interface NodeLifecycleWorld {
  analysis: ClusterAnalysis
  settings: ResolvedSettings
  nodes: NodeLike[]
  source: SourceDescription
  now: number
}

function readFailure(err: unknown): string {
  return err instanceof ReadError ? `${err.reason}${err.status ? ` (${err.status})` : ''}: ${err.message}` : (err as Error).message
}

async function listAll(source: ClusterSource, request: ListRequest): Promise<{items: KubeObject[]; resourceVersion?: string}> {
  const r = await source.list({pageSize: PAGE_SIZE, ...request})
  return {items: r.items, resourceVersion: r.resourceVersion}
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

/**
 * Everything the node lifecycle replay reads: the controller-manager's flags, every node, and the node Leases
 * twice (watch cache and quorum read). A read that fails is reported as partial, never guessed; without nodes
 * there is nothing to replay.
 */
export async function readNodeLifecycle(source: ClusterSource, flags: NodeLifecycleFlags, versionOverride: ReturnType<WhyCommand['versionOverride']>): Promise<NodeLifecycleWorld> {
  const problems: Problem[] = []
  const overrides = settingsOverrides(flags)
  const version = chooseVersion(versionOverride, await source.serverVersion().catch(() => undefined))

  let kcmMissing: string | undefined
  let kcmPods: KubeObject[] = []
  try {
    kcmPods = (await listAll(source, {apiVersion: 'v1', kind: 'Pod', namespace: 'kube-system', labelSelector: 'component=kube-controller-manager'})).items
    if (kcmPods.length === 0) kcmMissing = 'no kube-controller-manager pod is visible in kube-system (managed control plane?): release defaults are used'
  } catch (err) {
    kcmMissing = `kube-system pods could not be read (${readFailure(err)}): release defaults are used`
    problems.push({what: 'list pods in kube-system (kube-controller-manager flags)', reason: readFailure(err)})
  }
  const settings = resolveSettings({version, kcm: controllerManagerArgs(kcmPods), kcmMissing, overrides})
  problems.push(...settings.problems)

  const nodes = (await listAll(source, {apiVersion: 'v1', kind: 'Node'})).items as NodeLike[]

  let cached: {items: KubeObject[]; resourceVersion?: string} | undefined
  let fresh: {items: KubeObject[]; resourceVersion?: string} | undefined
  try {
    cached = await listAll(source, {...LEASES, view: 'cached'})
  } catch (err) {
    problems.push({what: 'list kube-node-lease Leases from the watch cache', reason: `${readFailure(err)}; the circuit breaker cannot be checked, the quorum read stands in for the cache`})
  }
  try {
    fresh = await listAll(source, {...LEASES, view: 'fresh'})
  } catch (err) {
    problems.push({what: 'list kube-node-lease Leases (quorum read)', reason: `${readFailure(err)}; the live lease double-check cannot be replayed`})
  }
  const byName = (items: readonly KubeObject[]) => new Map(items.map((l) => [l.metadata?.name ?? '', l as LeaseLike]))
  const cachedLeases = byName((cached ?? fresh)?.items ?? [])
  const liveLeases = new Map<string, LiveLeaseLookup>()
  if (fresh) for (const [name, lease] of byName(fresh.items)) liveLeases.set(name, {kind: 'found', lease})
  else for (const n of nodes) liveLeases.set(n.metadata?.name ?? '', {kind: 'unreadable', message: 'the quorum read of leases failed'})

  const now = source.now().getTime()
  const analysis = analyzeCluster({
    nodes, cachedLeases, liveLeases, now, settings: settings.settings,
    leaseInformerSyncRV: cached ? (cached.resourceVersion || newestRV(cached.items)) : undefined,
  })
  if (analysis.panic) problems.push({what: 'node lifecycle controller', reason: analysis.panic})
  const d = source.describe()
  const sourceDesc: SourceDescription = {
    ...d,
    k8sVersion: settings.version.text,
    settings: {...(d.settings ?? {}), 'k8s-version': {value: settings.version.text, from: settings.version.from}, ...settings.described},
    partial: [...(d.partial ?? source.problems()), ...problems],
  }
  return {analysis, settings, nodes, source: sourceDesc, now}
}

export default class Node extends WhyCommand {
  static override summary = 'Replay node lifecycle: heartbeats, leases, grace periods, zone state and taints, on a timeline.'
  static override description = `Recomputes node health from the NodeReady heartbeat and the kube-node-lease Lease as the node lifecycle
controller observes them, with the grace periods in force, the lease-cache circuit breaker, the zone
disruption state and its eviction rate, and says which taints each node should carry and when.

Node verdicts: healthy, withinGrace, unhealthy, taintPending, taintBlocked, circuitOpen, excluded.
Cluster verdicts: healthy, degraded, masterDisruption, circuitOpen.
Controller-manager settings come from its static pod in kube-system when visible, else the release defaults;
the flags below override either, and the output says which values were used and where they came from.`

  static override examples = [
    {description: 'Why was node worker-3 tainted?', command: '<%= config.bin %> node worker-3'},
    {description: 'All nodes, grouped by zone, problems first', command: '<%= config.bin %> node'},
    {description: 'As of a given instant, from a dump', command: '<%= config.bin %> node -f dump.json --now 2026-11-29T03:00:00Z'},
    {description: 'With a longer grace period than the cluster uses', command: '<%= config.bin %> node --node-monitor-grace-period=2m'},
  ]

  static override args = {
    target: Args.string({description: 'NAME of one node, or node/NAME (all nodes when omitted)', required: false, ignoreStdin: true}),
  }

  static override flags = {...sharedFlags, ...controllerManagerFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Node)
    this.setupOutput(flags)
    const name = args.target?.replace(/^(node|nodes|no)\//, '')
    if (name !== undefined && (name === '' || name.includes('/'))) throw new UserError(`"${args.target}" is not a node name`, 'write NAME or node/NAME')
    const source = await this.openSource(flags)
    try {
      const world = await readNodeLifecycle(source, flags, this.versionOverride(flags))
      const ctx = {now: world.now, settings: world.settings.settings, source: world.source}
      const format = flags.output ?? 'table'
      let e: Explanation
      if (name === undefined) {
        e = explainCluster(world.analysis, ctx, world.source.context ?? (world.source.file ? `snapshot ${world.source.file}` : 'cluster'))
        if (format === 'json' || format === 'yaml') this.write(formatData(e, format))
        else this.write(renderCluster(e, format === 'wide'))
      } else {
        const a = world.analysis.nodes.find((n) => n.name === name)
        if (!a) throw new UserError(`node "${name}" not found`, `${world.nodes.length} nodes exist; run \`kubectl why node\` to list them`)
        e = explainNode(a, world.analysis, ctx)
        e.pods = await this.podsOn(source, world, name)
        if (format === 'json' || format === 'yaml') this.write(formatData(e, format))
        else this.write(renderNode(e, format === 'wide'))
      }
      this.failOnFindings([e], flags)
    } finally {
      await source.close?.()
    }
  }

  /** What the node's NoExecute taint (present or owed) means for its pods, by taint-eviction decision. */
  private async podsOn(source: ClusterSource, world: NodeLifecycleWorld, name: string): Promise<Record<string, unknown>> {
    const a = world.analysis.nodes.find((n) => n.name === name)!
    const node = world.nodes.find((n) => n.metadata?.name === name)!
    let pods: PodLike[]
    try {
      pods = (await listAll(source, {apiVersion: 'v1', kind: 'Pod', fieldSelector: `spec.nodeName=${name}`})).items as PodLike[]
    } catch (err) {
      world.source.partial = [...(world.source.partial ?? []), {what: `list pods on node ${name}`, reason: readFailure(err)}]
      return {read: false}
    }
    const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute')
    if (a.noExecute.expected && !findTaint(taints, a.noExecute.expected)) taints.push(a.noExecute.expected)
    const counts = {total: pods.length, evictedAtOnce: 0, evictedAfterSeconds: {} as Record<string, number>, toleratedForever: 0, unaffected: 0}
    for (const p of pods) {
      const d = processPodOnNode(taints, p.spec?.tolerations ?? [])
      if (d.kind === 'noTaints') counts.unaffected++
      else if (d.kind === 'forever') counts.toleratedForever++
      else if (d.kind === 'notAllTolerated' || d.minMs <= 0) counts.evictedAtOnce++
      else counts.evictedAfterSeconds[String(d.minMs / 1000)] = (counts.evictedAfterSeconds[String(d.minMs / 1000)] ?? 0) + 1
    }
    return {read: true, againstTaints: taints.map((t) => `${t.key}:${t.effect}`), ...counts}
  }
}
