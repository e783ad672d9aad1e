// The one driver of the garbage-collector replay, shared by `kubectl why gc` and the audit's gc check: what the
// collector reads and how (metadata-only lists of every monitored type, fresh metadata-only owner GETs by exact
// version), the "replay, read what it needs, replay again" loop, and the --all and --tree scopes. Its only I/O goes
// through the ClusterSource it is given (the audit passes its gathered lists through a GatheredSource); every decision
// stays in the pure files beside it.
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import type {Evidence} from '../../cluster/evidence.js'
import type {ClusterSource, GetRequest, KubeObject, ResourceType} from '../../cluster/source.js'
import {ReadError} from '../../errors.js'
import type {Problem} from '../../explanation.js'
import {DependentsIndex} from './dependents.js'
import {GcDiscovery} from './discovery.js'
import {ACTIONABLE_VERDICTS, compareFindings, explainGc, type GcExplanation, subjectOf} from './explain.js'
import {
  GC_VERDICTS, type GcObject, type GcVerdict, isBeingDeleted, type OwnerRead, type OwnerReadKey, readKeyString, slimObject,
} from './model.js'
import {classifyReferences, type GcReplay, type GcWorld, replayGc} from './replay.js'
import {edgeOf, type GcTree, type GcTreeNode} from './tree.js'

/** How many times a replay may ask for more reads: ownership chains are short; a loop that runs longer is a bug. */
export const MAX_ROUNDS = 20
/** Owner GETs in flight at once. */
export const READ_CONCURRENCY = 16
/** Monitored types listed at once while building the graph. */
export const LIST_CONCURRENCY = 6
export const PAGE_SIZE = 500
/** Dependents shown per node in --tree; the rest are counted. */
export const TREE_CHILDREN = 50

export interface GcDriveOptions {
  now: Date
  /** Control-plane minor version whose rules apply. */
  minor?: number
  maxDepth: number
  progress?: (line: string) => void
  /** Prefix of progress lines ("gc", "audit: gc"). */
  progressPrefix?: string
  /** What the data can prove; default: the source's own (`source.evidence?.()`); absent: absence is proof. */
  evidence?: Evidence
  /** Problems of a snapshot that could not list a kind: an owner of that kind is not read as absent. */
  snapshotGaps?: readonly Problem[]
  /** group/resource never read (the audit has no access to Secrets), with the reason given for their owners. */
  notRead?: {resources: ReadonlySet<string>; why: string}
  /** Whether the list of a type may answer owner reads (only quorum lists do); default: every list. */
  answersReads?: (t: ResourceType) => boolean
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

async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++])
  }
  await Promise.all(Array.from({length: Math.max(0, Math.min(width, items.length))}, worker))
}

function failure(err: unknown): string {
  if (err instanceof ReadError) return `${err.reason}${err.status ? ` (${err.status})` : ''}: ${err.message}`
  return (err as Error).message
}

const SLIM_META = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'finalizers', 'ownerReferences'])

/** An item already in the graph's shape (the audit projects metadata-only lists so) is taken as is: no copy. */
function asGcObject(o: KubeObject, fallback: {apiVersion: string; kind: string}, keepCreation: boolean): GcObject | undefined {
  const m = o.metadata
  if (!keepCreation && o.kind !== 'PartialObjectMetadata' && typeof o.kind === 'string' && typeof o.apiVersion === 'string' && m
    && typeof m.name === 'string' && typeof m.uid === 'string' && Object.keys(o).length === 3 && Object.keys(m).every((k) => SLIM_META.has(k))
    && (m.ownerReferences === undefined || Array.isArray(m.ownerReferences)) && (m.finalizers === undefined || Array.isArray(m.finalizers))) {
    return o as GcObject
  }
  return slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, fallback, {creationTimestamp: keepCreation})
}

/** The owners a replay reads, the way the collector reads them: fresh (quorum) and metadata-only, by exact version. */
class OwnerReader {
  readonly reads = new Map<string, OwnerRead>()
  gets = 0
  constructor(private readonly source: ClusterSource, private readonly options: GcDriveOptions, private readonly keepCreation = false) {}

  async read(keys: readonly OwnerReadKey[]): Promise<void> {
    const todo = new Map<string, OwnerReadKey>()
    for (const k of keys) {
      const s = readKeyString(k)
      if (!this.reads.has(s)) todo.set(s, k)
    }
    await pool([...todo], READ_CONCURRENCY, async ([s, k]) => {
      this.reads.set(s, await this.readOne(k))
    })
  }

  /** A reset connection (a stale keep-alive socket) is retried, as client-go retries GETs on connection resets. */
  private async readOne(k: OwnerReadKey): Promise<OwnerRead> {
    if (this.options.notRead?.resources.has(`${k.group}/${k.resource}`)) return {outcome: 'error', reason: 'NotRead', message: this.options.notRead.why}
    let r = await this.readOnce(k)
    for (let attempt = 1; attempt <= 2 && r.outcome === 'error' && r.reason === 'Unreachable' && /reset|socket hang up|EPIPE/i.test(r.message); attempt++) {
      r = await this.readOnce(k)
    }
    return r
  }

  private async readOnce(k: OwnerReadKey): Promise<OwnerRead> {
    this.gets++
    const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`
    const request: GetRequest = {apiVersion, kind: k.kind, namespace: k.namespace, name: k.name, view: 'fresh', metadataOnly: true}
    try {
      const o = await this.source.get(request)
      if (!o) {
        // A snapshot that could not list this kind cannot say the owner is absent.
        const gap = this.options.snapshotGaps?.find((p) => p.what.includes(k.kind) || p.what.includes(k.resource))
        if (gap) return {outcome: 'error', reason: 'NotCaptured', message: `the snapshot did not capture ${apiVersion} ${k.kind} (${gap.what}: ${gap.reason})`}
        return {outcome: 'notFound'}
      }
      const slim = slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, {apiVersion, kind: k.kind}, {creationTimestamp: this.keepCreation})
      if (!slim) return {outcome: 'error', reason: 'BadResponse', message: 'the answer has no metadata.uid'}
      return {outcome: 'found', object: slim}
    } catch (err) {
      if (err instanceof ReadError) return {outcome: 'error', reason: err.reason, status: err.status, message: err.message}
      return {outcome: 'error', reason: 'Error', message: (err as Error).message}
    }
  }
}

interface Graph {
  index: DependentsIndex
  problems: Problem[]
  /** Notes for the engine on what the graph lacks (failed lists, kinds not read). */
  gaps: string[]
  /** group/resource → the namespace its quorum list covers ('' = all), for answering owner reads from the lists. */
  listed: Map<string, string>
  types: number
  restarted: string[]
}

/**
 * The collector's graph, rebuilt: metadata-only lists of every monitored type (across namespaces unless `namespace`
 * limits the namespaced ones), indexed by owner UID. A continue token that expires mid-list (410 Gone) restarts that
 * list once from the start, as client-go's pager falls back to a full list; what still fails is a problem.
 */
async function buildGraph(source: ClusterSource, discovery: GcDiscovery, namespace: string | undefined, o: GcDriveOptions, keepCreation = false): Promise<Graph> {
  const g: Graph = {index: new DependentsIndex(), problems: [], gaps: [], listed: new Map(), types: 0, restarted: []}
  const types = discovery.monitoredTypes()
  g.types = types.length
  let done = 0
  const prefix = o.progressPrefix ?? 'gc'
  await pool(types, LIST_CONCURRENCY, async (t: ResourceType) => {
    const apiVersion = apiVersionOf(t)
    const ns = t.namespaced ? namespace : undefined
    const gr = `${t.group}/${t.resource}`
    const what = `list ${apiVersion} ${t.kind}${ns ? ` in ${ns}` : ''}`
    if (o.notRead?.resources.has(gr)) {
      g.gaps.push(`${gr}: ${o.notRead.why}`)
      done++
      return
    }
    const fallback = {apiVersion, kind: t.kind}
    for (let attempt = 0; ; attempt++) {
      const items: GcObject[] = []
      // A source that restarts the list itself on 410 gives it again from the first item: one consistent list.
      const onRestart = (): void => {
        items.length = 0
        g.restarted.push(what)
      }
      try {
        for await (const page of source.pages({apiVersion, kind: t.kind, namespace: ns, metadataOnly: true, view: 'fresh', pageSize: PAGE_SIZE, onRestart})) {
          for (const x of page) {
            const slim = asGcObject(x, fallback, keepCreation)
            if (slim) items.push(slim)
          }
        }
        for (const x of items) g.index.add(x, gr)
        if (o.answersReads?.(t) ?? true) g.listed.set(gr, ns ?? '')
        break
      } catch (err) {
        if (err instanceof ReadError && err.reason === 'Gone' && attempt === 0) {
          g.restarted.push(what)
          continue
        }
        const reason = `${failure(err)}${attempt > 0 ? ' (after restarting the list once on 410 Gone)' : ''}; its objects are not replayed and are missing from the collector's graph`
        g.problems.push({what, reason})
        g.gaps.push(`${what}: ${reason}`)
        break
      }
    }
    done++
    o.progress?.(`${prefix}: listed ${done}/${types.length} monitored types, ${g.index.size} objects`)
  })
  return g
}

/**
 * Owners the data shows by name through another field: a pod's spec.nodeName shows that a Node of that name exists
 * (the scheduler or the kubelet bound it there, and a mirror pod is created by that node's kubelet), not the uid the
 * Node has now — a Node deleted and registered again keeps its name and gets a new uid. Read only when the data cannot
 * prove a Node's absence and some object names a Node as its owner.
 */
async function namesShown(source: ClusterSource, discovery: GcDiscovery, objects: Iterable<GcObject>, evidence: Evidence | undefined): Promise<Map<string, string> | undefined> {
  if (!evidence || evidence.coverage('', 'Node').absenceIsProof) return undefined
  const node = discovery.restMapping('v1', 'Node')
  if (!node) return undefined
  let named = false
  for (const x of objects) if ((x.metadata.ownerReferences ?? []).some((r) => r?.kind === 'Node')) named = true
  if (!named) return undefined
  const shown = new Map<string, string>()
  try {
    for await (const page of source.pages({apiVersion: 'v1', kind: 'Pod', pageSize: PAGE_SIZE})) {
      for (const p of page) {
        const nodeName = (p.spec as {nodeName?: unknown} | undefined)?.nodeName
        if (typeof nodeName !== 'string' || nodeName === '') continue
        const key = readKeyString({group: node.group, version: node.version, resource: node.resource, kind: node.kind, name: nodeName})
        // A mirror pod naming this Node as its owner is the most direct witness: the kubelet of that node created it.
        const mirror = (p.metadata?.ownerReferences ?? []).some((r) => r?.kind === 'Node' && r.name === nodeName)
        if (!shown.has(key) || mirror && !shown.get(key)!.startsWith('spec.nodeName of mirror')) {
          shown.set(key, `spec.nodeName of ${mirror ? 'mirror ' : ''}Pod ${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`)
        }
      }
    }
  } catch {
    // Without the pods' specs, nothing is shown by name: those owners stay unknown, which is what the data supports.
  }
  return shown
}

async function discoveryOf(source: ClusterSource, evidence: Evidence | undefined): Promise<GcDiscovery> {
  return new GcDiscovery(await source.discovery(), undefined, evidence?.servedVersions ?? [])
}

/** `--all`: every object in scope replayed; those the collector acts on or is stuck on, worst first. */
export async function driveGcAll(source: ClusterSource, namespace: string | undefined, options: GcDriveOptions): Promise<GcAllResult> {
  const evidence = options.evidence ?? (await source.evidence?.())
  const discovery = await discoveryOf(source, evidence)
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
    discovery, dependents: index, indexGaps: g.gaps, now: options.now, minor: options.minor, evidence, shownByName: shown,
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
    findings, evaluated, monitoredTypes: g.types, objects: index.size, ownerGets: reader.gets, problems: g.problems, restarted: g.restarted,
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
export async function driveGcOne(source: ClusterSource, item: KubeObject, type: ResourceType, options: GcDriveOptions & {tree?: boolean}): Promise<GcOneResult | undefined> {
  const evidence = options.evidence ?? (await source.evidence?.())
  const discovery = await discoveryOf(source, evidence)
  const slim = slimObject(item as KubeObject & {metadata?: Record<string, unknown>}, {apiVersion: apiVersionOf(type), kind: type.kind}, {creationTimestamp: options.tree === true})
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
  const world = (): GcWorld => ({discovery, reads: reader.reads, dependents: g?.index, indexGaps: g?.gaps, now: options.now, minor: options.minor, evidence, shownByName: shown})
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

/** The owner/dependent graph around one object, each node replayed, each edge classified as the collector does. */
async function buildTree(item: GcObject, replay: GcReplay, world: () => GcWorld, reader: OwnerReader, settle: (o: GcObject) => Promise<GcReplay>,
  maxDepth: number, g: Graph): Promise<GcTree> {
  const seen = new Set<string>([item.metadata.uid])
  const state = (o: GcObject): Partial<GcTreeNode> => ({
    ...(o.metadata.creationTimestamp ? {creationTimestamp: o.metadata.creationTimestamp} : {}),
    ...(isBeingDeleted(o) ? {deleting: true, ...(o.metadata.finalizers ? {finalizers: o.metadata.finalizers} : {})} : {}),
  })
  const verdictOf = (n: GcTreeNode, r: GcReplay): void => {
    n.verdict = r.verdict
    if (r.propagationPolicy) n.propagationPolicy = r.propagationPolicy
  }
  /** The collector's classification of every ref of `o`, with the owner reads it needs done. */
  const classified = async (o: GcObject): Promise<ReturnType<typeof classifyReferences>> => {
    let c = classifyReferences(o, world())
    for (let round = 0; round < MAX_ROUNDS && c.needs.reads.length > 0; round++) {
      await reader.read(c.needs.reads)
      c = classifyReferences(o, world())
    }
    return c
  }

  const owners = async (o: GcObject, depth: number): Promise<GcTreeNode[]> => {
    const nodes: GcTreeNode[] = []
    for (const x of (await classified(o)).refs) {
      const read = x.lookup ? world().reads.get(readKeyString(x.lookup.key)) : undefined
      const found = read?.outcome === 'found' && read.object.metadata.uid === x.ref.uid ? read.object : undefined
      const node: GcTreeNode = {
        subject: found ? subjectOf(found) : {kind: x.ref.kind, apiVersion: x.ref.apiVersion, ...(x.lookup?.namespace ? {namespace: x.lookup.namespace} : {}), name: x.ref.name, uid: x.ref.uid},
        exists: found !== undefined, edge: edgeOf(x), children: [],
      }
      if (found) {
        Object.assign(node, state(found))
        if (seen.has(found.metadata.uid)) node.cycle = true
        else if (depth < maxDepth) {
          seen.add(found.metadata.uid)
          verdictOf(node, await settle(found))
          node.children = await owners(found, depth + 1)
        }
      }
      nodes.push(node)
    }
    return nodes
  }

  const dependents = async (o: GcObject, depth: number): Promise<{children: GcTreeNode[]; more?: number}> => {
    const all = g.index.dependentsOf(o.metadata.uid)
    const children: GcTreeNode[] = []
    for (const d of all.slice(0, TREE_CHILDREN)) {
      // Graph edges are keyed by owner uid (graph_builder.go:370): the ref naming this uid is the edge, classified by
      // the collector's own rule from the dependent's side (by name, in the dependent's namespace).
      const x = (await classified(d)).refs.find((r) => r.ref.uid === o.metadata.uid)!
      const node: GcTreeNode = {subject: subjectOf(d), exists: true, ...state(d), edge: edgeOf(x), children: []}
      verdictOf(node, await settle(d))
      if (seen.has(d.metadata.uid)) node.cycle = true
      else if (depth < maxDepth) {
        seen.add(d.metadata.uid)
        const sub = await dependents(d, depth + 1)
        node.children = sub.children
        if (sub.more) node.more = sub.more
      } else if (g.index.dependentsOf(d.metadata.uid).length) node.more = g.index.dependentsOf(d.metadata.uid).length
      children.push(node)
    }
    return {children, ...(all.length > TREE_CHILDREN ? {more: all.length - TREE_CHILDREN} : {})}
  }

  // Owners first: they are drawn above the object, so an object met again below them is the one marked as a cycle.
  const up = await owners(item, 1)
  const top = await dependents(item, 1)
  const object: GcTreeNode = {subject: subjectOf(item), exists: true, ...state(item), children: top.children, ...(top.more ? {more: top.more} : {})}
  verdictOf(object, replay)
  return {owners: up, object, ...(g.problems.length > 0 ? {partial: g.problems} : {})}
}
