// The one driver of the garbage-collector replay, shared by `kubectl why gc` and the audit's gc check: the "replay,
// read what it needs, replay again" loop over the collector's reads (read.ts), and the --all, single-object and --tree
// scopes. Its only I/O goes through the ClusterSource it is given (the audit passes its gathered lists through a
// GatheredSource); every decision stays in the pure files beside it.
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import type {Evidence, Problem} from '../../explanation.js'
import type {ClusterSource, KubeObject, ResourceType} from '../../cluster/source.js'
import {buildTree} from './drive-tree.js'
import {GcDiscovery} from './discovery.js'
import {ACTIONABLE_VERDICTS, compareFindings, explainGc, type GcExplanation} from './explain.js'
import {GC_VERDICTS, type GcObject, type GcVerdict, type OwnerRead, type OwnerReadKey, readKeyString, slimObject} from './model.js'
import {buildGraph, type GcDriveOptions, type Graph, MAX_ROUNDS, namesShown, OwnerReader} from './read.js'
import {type GcReplay, type GcWorld, replayGc} from './replay.js'
import type {GcTree} from './tree.js'

export {type GcDriveOptions, LIST_CONCURRENCY, MAX_ROUNDS, READ_CONCURRENCY, TREE_CHILDREN} from './read.js'

/**
 * The discovery the collector's reads resolve through. `minor` is the control-plane minor chosen once for the run
 * (chooseVersion: --k8s-version, else the server's or the snapshot's recorded version), not parsed again from the
 * evidence's version text: a second parse could disagree with the version in force (a --k8s-version override).
 */
async function discoveryOf(source: ClusterSource, evidence: Evidence | undefined, minor: number | undefined): Promise<GcDiscovery> {
  const inferred = evidence?.inferredDiscovery
  return new GcDiscovery(
    await source.discovery(),
    undefined,
    evidence?.servedVersions ?? [],
    inferred && {customGroups: inferred.customGroups, ...(minor !== undefined ? {minor} : {})},
  )
}

export interface GcAllResult {
  findings: GcExplanation[]
  counts: Partial<Record<GcVerdict, number>>
  evaluated: number
  monitoredTypes: number
  objects: number
  ownerGets: number
  /** Lists that could not be read even after a restart: the result is partial. */
  problems: Problem[]
  /** Lists that hit 410 Gone and were read again from the start. */
  restarted: string[]
}

/** `--all`: every object in scope replayed; those the collector acts on or is stuck on, worst first. */
export async function driveGcAll(source: ClusterSource, namespace: string | undefined, options: GcDriveOptions): Promise<GcAllResult> {
  const evidence = options.evidence ?? (await source.evidence?.())
  const discovery = await discoveryOf(source, evidence, options.minor)
  const g = await buildGraph(source, discovery, namespace, options)
  const {index, listed} = g
  const reader = new OwnerReader(source, options)
  const shown = await namesShown(source, discovery, index.objects(), evidence)

  // Owner reads are first answered from the quorum lists just read (the view a fresh GET gives). Owners of types that
  // were not listed are read with a GET, and every ref that comes out dangling from the lists is confirmed with a
  // fresh metadata-only GET before anything is said to be deleted or patched.
  const fromLists = new Map<string, OwnerRead>()
  const answerFromLists = (k: OwnerReadKey): OwnerRead | undefined => {
    const scope = listed.get(`${k.group}/${k.resource}`)
    if (scope === undefined || (scope !== '' && scope !== (k.namespace ?? ''))) return undefined
    const o = index.named(`${k.group}/${k.resource}`, k.namespace, k.name)
    return o ? {outcome: 'found', object: o} : {outcome: 'notFound'}
  }
  const world: GcWorld = {
    discovery,
    dependents: index,
    indexGaps: g.gaps,
    now: options.now,
    minor: options.minor,
    evidence,
    shownByName: shown,
    reads: {get: (s: string) => reader.reads.get(s) ?? fromLists.get(s)},
  }
  const replayOptions = {maxDepth: options.maxDepth}
  /** Replays with list answers only; undefined when a GET is needed. */
  const fromListsOnly = (o: GcObject): GcReplay | undefined => {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const r = replayGc(o, world, replayOptions)
      if (r.needs.reads.length === 0) return r
      for (const k of r.needs.reads) {
        const a = answerFromLists(k)
        if (!a) return undefined
        fromLists.set(readKeyString(k), a)
      }
    }
    return undefined
  }
  const unconfirmed = (r: GcReplay): OwnerReadKey[] =>
    r.refs.filter((x) => x.outcome === 'dangling' && x.lookup && !reader.reads.get(readKeyString(x.lookup.key))).map((x) => x.lookup!.key)

  const counts: Partial<Record<GcVerdict, number>> = {}
  const findings: GcExplanation[] = []
  let evaluated = 0
  const record = (r: GcReplay): void => {
    evaluated++
    counts[r.verdict] = (counts[r.verdict] ?? 0) + 1
    if (ACTIONABLE_VERDICTS.has(r.verdict)) findings.push(explainGc(r, options.now, {mode: source.describe().mode}))
  }
  const needGets: GcObject[] = []
  for (const o of index.objects()) {
    if (namespace !== undefined && o.metadata.namespace !== namespace) continue
    const r = fromListsOnly(o)
    if (!r || unconfirmed(r).length > 0) needGets.push(o)
    else record(r)
  }
  if (needGets.length > 0) {
    options.progress?.(`${options.progressPrefix ?? 'gc'}: reading the owners of ${needGets.length} objects`)
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const keys = new Map<string, OwnerReadKey>()
      for (const o of needGets) {
        const r = replayGc(o, world, replayOptions)
        for (const k of [...r.needs.reads, ...unconfirmed(r)]) keys.set(readKeyString(k), k)
      }
      if (keys.size === 0) break
      await reader.read([...keys.values()])
    }
    for (const o of needGets) record(replayGc(o, world, replayOptions))
  }
  findings.sort(compareFindings)
  return {
    findings,
    evaluated,
    monitoredTypes: g.types,
    objects: index.size,
    ownerGets: reader.gets,
    problems: g.problems,
    restarted: g.restarted,
    counts: Object.fromEntries(GC_VERDICTS.filter((v) => counts[v]).map((v) => [v, counts[v]])),
  }
}

export interface GcOneResult {
  replay: GcReplay
  /** The dependents' lists that failed (built only when the replay needed them, or for --tree). */
  problems: Problem[]
  restarted: string[]
  tree?: GcTree
}

/** One object, replayed until nothing is missing; with `tree`, the graph around it. */
export async function driveGcOne(
  source: ClusterSource,
  item: KubeObject,
  type: ResourceType,
  options: GcDriveOptions & {tree?: boolean},
): Promise<GcOneResult | undefined> {
  const evidence = options.evidence ?? (await source.evidence?.())
  const discovery = await discoveryOf(source, evidence, options.minor)
  const slim = slimObject(
    item as KubeObject & {metadata?: Record<string, unknown>},
    {apiVersion: apiVersionOf(type), kind: type.kind},
    {creationTimestamp: options.tree === true},
  )
  if (!slim) return undefined
  const reader = new OwnerReader(source, options, options.tree === true)
  let g: Graph | undefined
  let shown = await namesShown(source, discovery, [slim], evidence)
  const build = async (): Promise<Graph> => {
    g = await buildGraph(source, discovery, undefined, options, options.tree === true)
    shown = await namesShown(source, discovery, g.index.objects(), evidence)
    return g
  }
  if (options.tree) await build()
  const world = (): GcWorld => ({
    discovery,
    reads: reader.reads,
    dependents: g?.index,
    indexGaps: g?.gaps,
    now: options.now,
    minor: options.minor,
    evidence,
    shownByName: shown,
  })
  const settle = async (o: GcObject): Promise<GcReplay> => {
    let r = replayGc(o, world(), {maxDepth: options.maxDepth})
    for (let round = 0; round < MAX_ROUNDS && (r.needs.reads.length > 0 || (r.needs.dependents && !g)); round++) {
      if (r.needs.dependents && !g) await build()
      await reader.read(r.needs.reads)
      r = replayGc(o, world(), {maxDepth: options.maxDepth})
    }
    return r
  }
  const replay = await settle(slim)
  const result: GcOneResult = {replay, problems: g?.problems ?? [], restarted: g?.restarted ?? []}
  if (options.tree && g) result.tree = await buildTree(slim, replay, world, reader, settle, options.maxDepth, g)
  return result
}
