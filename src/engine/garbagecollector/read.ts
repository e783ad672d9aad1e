// How the garbage-collector driver reads (drive.ts): the collector's graph from metadata-only lists of every monitored
// type, owner GETs (fresh, metadata-only, by exact version; a reset connection retried), and owners shown only by name
// through another field. I/O through the ClusterSource it is given, nothing else.
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import type {Evidence, Problem} from '../../explanation.js'
import type {ClusterSource, GetRequest, KubeObject, ResourceType} from '../../cluster/source.js'
import {PAGE_SIZE, pool, readFailure} from '../../cluster/read.js'
import {ReadError} from '../../errors.js'
import {DependentsIndex} from './dependents.js'
import type {GcDiscovery} from './discovery.js'
import {type GcObject, type OwnerRead, type OwnerReadKey, readKeyString, slimObject} from './model.js'

/** How many times a replay may ask for more reads: ownership chains are short; a loop that runs longer is a bug. */
export const MAX_ROUNDS = 20
/** Owner GETs in flight at once. */
export const READ_CONCURRENCY = 16
/** Monitored types listed at once while building the graph. */
export const LIST_CONCURRENCY = 6
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

const SLIM_META = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'finalizers', 'ownerReferences'])

/** An item already in the graph's shape (the audit projects metadata-only lists so) is taken as is: no copy. */
function asGcObject(o: KubeObject, fallback: {apiVersion: string; kind: string}, keepCreation: boolean): GcObject | undefined {
  const m = o.metadata
  if (
    !keepCreation &&
    o.kind !== 'PartialObjectMetadata' &&
    typeof o.kind === 'string' &&
    typeof o.apiVersion === 'string' &&
    m &&
    typeof m.name === 'string' &&
    typeof m.uid === 'string' &&
    Object.keys(o).length === 3 &&
    Object.keys(m).every((k) => SLIM_META.has(k)) &&
    (m.ownerReferences === undefined || Array.isArray(m.ownerReferences)) &&
    (m.finalizers === undefined || Array.isArray(m.finalizers))
  ) {
    return o as GcObject
  }
  return slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, fallback, {creationTimestamp: keepCreation})
}

/** The owners a replay reads, the way the collector reads them: fresh (quorum) and metadata-only, by exact version. */
export class OwnerReader {
  readonly reads = new Map<string, OwnerRead>()
  gets = 0
  constructor(
    private readonly source: ClusterSource,
    private readonly options: GcDriveOptions,
    private readonly keepCreation = false,
  ) {}

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
        return this.source.describe().mode === 'live' ? {outcome: 'notFound', proven: true} : {outcome: 'notFound'}
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

export interface Graph {
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
export async function buildGraph(
  source: ClusterSource,
  discovery: GcDiscovery,
  namespace: string | undefined,
  o: GcDriveOptions,
  keepCreation = false,
): Promise<Graph> {
  const g: Graph = {index: new DependentsIndex(), problems: [], gaps: [], listed: new Map(), types: 0, restarted: []}
  const types = discovery.monitoredTypes()
  g.types = types.filter((t) => !o.notRead?.resources.has(`${t.group}/${t.resource}`)).length
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
        const reason = `${readFailure(err)}${attempt > 0 ? ' (after restarting the list once on 410 Gone)' : ''}; its objects are not replayed and are missing from the collector's graph`
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
export async function namesShown(
  source: ClusterSource,
  discovery: GcDiscovery,
  objects: Iterable<GcObject>,
  evidence: Evidence | undefined,
): Promise<Map<string, string> | undefined> {
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
        if (!shown.has(key) || (mirror && !shown.get(key)!.startsWith('spec.nodeName of mirror'))) {
          shown.set(key, `spec.nodeName of ${mirror ? 'mirror ' : ''}Pod ${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`)
        }
      }
    }
  } catch {
    // Without the pods' specs, nothing is shown by name: those owners stay unknown, which is what the data supports.
  }
  return shown
}
