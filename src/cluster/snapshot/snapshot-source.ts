// The snapshot source: answers the ClusterSource operations from saved files, exactly as the live
// source answers them from a cluster (one contract test suite runs against both). Inputs are read as
// streams (src/cluster/snapshot/read-input.ts); objects go into the store as they arrive, optionally slimmed.
import {READ_FAILURES, ReadError, UserError} from '../../errors.js'
import {servedAtRelease} from '../api-lifecycle.js'
import type {Evidence, Problem, SourceDescription} from '../../explanation.js'
import {rfc3339Millis} from '../../util/parse.js'
import {apiVersionOf, splitApiVersion} from '../builtin-kinds.js'
import {inPages} from '../read.js'
import {HEAP_PER_SNAPSHOT_OBJECT, HeapBudget, HeapBudgetError} from '../heap-budget.js'
import {groupKindKey, ObjectStore} from '../object-store.js'
import {resolveKind, typeOfGroupKind} from '../resolve.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult, ResourceType, ServerVersion, SourceOptions, TypeRef} from '../source.js'
import {VersionClues} from '../version.js'
import {NewestWrite} from './clock.js'
import {snapshotDiscovery} from './discovery.js'
import {DocumentCollector, type ListSeen} from './documents.js'
import {clusterInfoDumpNamespaces, snapshotEvidence} from './evidence.js'
import type {Gap, SnapshotHeader} from './header.js'
import {inputsOf, readInput} from './read-input.js'

const DEFAULT_PAGE = 500

function metadataOnly(o: KubeObject): KubeObject {
  return {apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata}
}

const FAILURES = new Set<string>(READ_FAILURES)

/** Snapshots written before gaps were recorded name a failed list only in a problem: "list batch/v1 CronJob", "Forbidden (403): …". */
function legacyGaps(problems: readonly Problem[]): Gap[] {
  const out: Gap[] = []
  for (const p of problems) {
    const what = /^list (\S+) ([A-Z]\w*)(?: in (\S+))?$/.exec(p.what)
    const why = /^(\w+)(?: \((\d+)\))?(?:: (.*))?$/s.exec(p.reason)
    if (!what || !why || !FAILURES.has(why[1])) continue
    out.push({
      apiVersion: what[1],
      kind: what[2],
      ...(what[3] ? {namespace: what[3]} : {}),
      reason: why[1] as Gap['reason'],
      ...(why[2] ? {status: Number(why[2])} : {}),
      message: why[3] ?? p.reason,
    })
  }
  return out
}

export interface SnapshotOpenOptions extends Pick<SourceOptions, 'now'> {
  /** Applied to each object as it arrives (before it is stored): what the run's replays read (slim.ts slimmer). */
  slim?: (o: KubeObject) => KubeObject
  /** Called once the store is packed: `slim` should share no parts between objects from then on (slim.ts stopSharing). */
  stopSharing?: () => void
  /** Where `-` reads from (tests). */
  stdin?: () => NodeJS.ReadableStream
  /**
   * With `slim` (the audit), the store is packed (ObjectStore.compact, packBehind) once it holds more objects than
   * this; default a quarter of what the heap holds, as the audit's own lists are compressed (src/audit/gather.ts
   * spillPolicy). The same answers either way (test/audit/spill.test.ts passes 0).
   */
  compactAbove?: number
}

export class SnapshotSource implements ClusterSource {
  private readonly fresh = new ObjectStore()
  private readonly cached = new ObjectStore()
  private readonly loadProblems: Problem[] = []
  /** Objects of the input that are not in the store: each with where it was and what is wrong. */
  private readonly dropped: Problem[] = []
  private header: SnapshotHeader | undefined
  private readonly trailerProblems: Problem[] = []
  private readonly gaps: Gap[] = []
  private recordedVersion: ServerVersion | undefined
  private version: ServerVersion | undefined
  private types: ResourceType[] = []
  private recordedDiscovery = false
  private clock!: Date
  private clockFrom = ''
  private clockTrust: 'exact' | 'estimated' = 'exact'
  private readonly newest = new NewestWrite()
  private readonly versionClues = new VersionClues()
  private readonly lists: (ListSeen & {file: string})[] = []
  private logBlocks = 0
  private logFiles = 0
  private readonly fileNames: string[] = []
  private evidenceCache: Evidence | undefined

  /**
   * A run that reads through projections (the audit) holds every object to the end: it stops with one line as soon as
   * the count passes what the heap can hold (heap-budget.ts), not with V8's dump when the checks have run for minutes.
   */
  private budget: HeapBudget | undefined
  private kept = 0
  /** Objects read past which the store is packed (SnapshotOpenOptions.compactAbove); undefined: never. */
  private compactAbove: number | undefined
  private packing = false

  private constructor(
    private readonly path: string,
    private slim?: (o: KubeObject) => KubeObject,
    compactAbove?: number,
    private stopSharing?: () => void,
  ) {
    if (slim) {
      this.budget = new HeapBudget(undefined, `reading ${path === '-' ? 'stdin' : path}`, HEAP_PER_SNAPSHOT_OBJECT)
      this.compactAbove = compactAbove ?? Math.floor(this.budget.fits / 4)
    }
  }

  static async open(path: string, options: SnapshotOpenOptions = {}): Promise<SnapshotSource> {
    const source = new SnapshotSource(path, options.slim, options.compactAbove, options.stopSharing)
    const {inputs, directory, skipped, logs} = inputsOf(path, options.stdin as (() => import('node:stream').Readable) | undefined)
    source.loadProblems.push(...skipped)
    source.logFiles = logs
    const strict = !directory
    let documents = 0
    let lists = 0
    for (const input of inputs) {
      source.fileNames.push(input.relative)
      const collector = new DocumentCollector(
        {
          object: (o) => source.add(o),
          problem: ({fatal: _, leftOut, ...p}) => {
            const problem = directory ? {...p, file: input.name} : p
            source.loadProblems.push(problem)
            if (leftOut) source.dropped.push(problem)
          },
          header: (h) => source.absorbHeader(h),
          trailer: (t) => {
            source.trailerProblems.push(...(t.problems ?? []))
            source.gaps.push(...(t.gaps ?? (source.header?.gaps ? [] : legacyGaps(t.problems ?? []))))
          },
          serverVersion: (v) => {
            source.recordedVersion = v
          },
          list: (l) => source.lists.push({...l, file: input.relative}),
        },
        input.name,
        strict,
      )
      try {
        await readInput(input.open(), input.name, {
          ...collector,
          listStart: collector.listStart.bind(collector),
          item: collector.item.bind(collector),
          documentEnd: collector.documentEnd.bind(collector),
          logs: () => source.logBlocks++,
        })
        collector.finish(input.name)
      } catch (err) {
        // A file of a directory that cannot be read is a problem of that file; a heap that cannot hold the data is not.
        if (strict || !(err instanceof UserError) || err instanceof HeapBudgetError) throw err
        const reason = err.message.replace(`cannot read ${input.name}: `, '').replace(`${input.name}: `, '').replace(`${input.name}:`, 'line ')
        // "not read" first: the file's objects (or those past the error) are missing, so the audit is incomplete
        // (src/audit/report.ts sourceNotRead), not only noted.
        source.loadProblems.push({
          what: input.name,
          reason: collector.objects > 0 ? `not read past its first ${collector.objects} objects: ${reason}` : `not read: ${reason}`,
          file: input.name,
        })
      }
      documents += collector.documents
      lists += collector.lists
    }
    if (source.fresh.count() === 0) {
      // An empty List is an answer (a cluster with none of these objects); objects none of which were recognised are not.
      const where = path === '-' ? 'stdin' : path
      if (source.dropped.length > 0) {
        throw new UserError(
          `no Kubernetes object recognised in ${where}: ${source.dropped[0].what}: ${source.dropped[0].reason}${source.dropped.length > 1 ? ` (and ${source.dropped.length - 1} more)` : ''}`,
          'every item of a snapshot must be a Kubernetes object with apiVersion, kind (as the API spells it, e.g. Pod) and metadata',
        )
      }
      if (lists === 0 && (documents === 0 || source.loadProblems.length > 0)) {
        throw new UserError(`no Kubernetes objects found in ${where}`, 'pass what `kubectl get -o json|yaml` or `kubectl why snapshot` wrote')
      }
    }
    // Its interner's tables (a key per distinct shared structure) would otherwise live as long as the source.
    source.slim = undefined
    source.stopSharing = undefined
    source.budget = undefined
    source.finish(options.now)
    source.evidenceCache = source.buildEvidence()
    if (source.packing) {
      source.fresh.compact()
      source.cached.compact()
    }
    return source
  }

  private add(o: KubeObject): void {
    this.newest.add(o)
    this.versionClues.add(o)
    const kept = this.slim ? this.slim(o) : o
    this.budget?.check(++this.kept)
    this.fresh.add(kept)
    this.cached.share(kept)
    if (this.packing) this.fresh.packBehind(kept)
    else if (this.compactAbove !== undefined && this.kept > this.compactAbove) {
      // Held to the end of an audit, whole, beside each check's own projection of it: packed from here on (what is
      // read already, then each kind's namespace once complete), a snapshot audit needs what a live one does.
      this.packing = true
      this.stopSharing?.()
      this.fresh.compact()
    }
  }

  private absorbHeader(h: SnapshotHeader): void {
    this.header = h
    const cached: unknown[] = Array.isArray(h.cached) ? h.cached : []
    // Projected as the fresh objects are, so that an object both views recorded alike is one object (ObjectStore.share).
    for (const o of cached)
      if (o !== null && typeof o === 'object' && !Array.isArray(o)) this.cached.add(this.slim ? this.slim(o as KubeObject) : (o as KubeObject))
    if (h.cached !== undefined && (!Array.isArray(h.cached) || cached.some((o) => o === null || typeof o !== 'object' || Array.isArray(o)))) {
      this.loadProblems.push({what: 'the snapshot header', reason: 'kubectlWhy.cached is not a list of objects: what is not an object in it is not read'})
    }
    this.gaps.push(...(h.gaps ?? legacyGaps(h.problems ?? [])))
  }

  private finish(now: Date | undefined): void {
    this.version = this.header?.serverVersion ?? this.recordedVersion ?? this.versionClues.result()
    const {types, guessed} = snapshotDiscovery(this.header?.resources as ResourceType[] | undefined, this.fresh)
    this.types = types
    this.recordedDiscovery = guessed.length === 0 && (this.header?.resources?.length ?? 0) > 0
    for (const g of guessed)
      this.loadProblems.push({what: `kind ${g}`, reason: 'not described by the snapshot: its resource name and scope are guessed from its objects'})
    if (now) {
      this.clock = now
      this.clockFrom = '--now'
    } else if (this.header?.capturedAt) {
      this.clock = new Date(typeof this.header.capturedAt === 'string' ? (rfc3339Millis(this.header.capturedAt) ?? Number.NaN) : Number.NaN)
      if (Number.isNaN(this.clock.getTime()))
        throw new UserError(
          `the snapshot's capture time (kubectlWhy.capturedAt) is not an RFC 3339 time: ${JSON.stringify(String(this.header.capturedAt)).slice(0, 60)}`,
          'fix it in the file, or pass --now 2026-11-29T03:00:00Z',
        )
      this.clockFrom = typeof this.header.clockFrom === 'string' ? this.header.clockFrom : 'capture time'
      if (typeof this.header.clockFrom === 'string') this.clockTrust = 'estimated'
    } else {
      const newest = this.newest.newest()
      this.clock = newest ? new Date(newest.at) : new Date()
      this.clockTrust = 'estimated'
      this.clockFrom = newest
        ? `newest timestamp in the dump (${newest.what}): no capture time recorded, and the dump was taken at or after it`
        : 'current time (the dump has no timestamps)'
    }
  }

  describe(): SourceDescription {
    const description: SourceDescription = {
      mode: 'snapshot',
      file: this.path,
      context: this.header?.context,
      serverVersion: this.version?.gitVersion,
      capturedAt: this.header?.capturedAt ?? (this.clockFrom === '--now' ? undefined : this.clock.toISOString()),
      settings: {clock: {value: this.clock.toISOString(), from: this.clockFrom}},
      partial: this.problems(),
    }
    if (this.evidenceCache) description.evidence = this.evidenceCache
    return description
  }

  async evidence(): Promise<Evidence> {
    this.evidenceCache ??= this.buildEvidence()
    return this.evidenceCache
  }

  private buildEvidence(): Evidence {
    return snapshotEvidence({
      store: this.fresh,
      header: this.header,
      gaps: this.gaps,
      clusterInfoDump: clusterInfoDumpNamespaces(this.lists, this.fileNames),
      types: this.types,
      recordedDiscovery: this.recordedDiscovery,
      clock: {at: this.clock.toISOString(), from: this.clockFrom, trust: this.clockFrom === '--now' ? 'exact' : this.clockTrust},
      version: this.version
        ? {
            text: this.version.gitVersion,
            from:
              typeof this.version.inferredFrom === 'string'
                ? this.version.inferredFrom
                : this.header?.serverVersion
                  ? "recorded by kubectl why snapshot (the server's /version)"
                  : 'a version record in the dump',
          }
        : undefined,
      logs: this.logBlocks + this.logFiles,
    })
  }

  /** Objects of the input left out of the replay, each with where it was and what is wrong. */
  leftOut(): Problem[] {
    return [...this.dropped]
  }

  /** The snapshot's header, when it is kubectl-why's own (for rewriting a dump). */
  recordedHeader(): SnapshotHeader | undefined {
    return this.header
  }

  async serverVersion(): Promise<ServerVersion | undefined> {
    return this.version
  }

  async discovery(): Promise<ResourceType[]> {
    return this.types
  }

  private typeOf(ref: TypeRef): ResourceType {
    const t = resolveKind(this.types, ref) ?? this.servedByData(ref)
    if (!t) throw new ReadError('NotServed', `the snapshot's API does not serve ${ref.apiVersion ?? ''}${ref.apiVersion ? ' ' : ''}${ref.kind}`, {status: 404})
    return t
  }

  /**
   * A version the discovery in force omits but the data shows served (objects stored at it, as `servedVersions` in the
   * evidence): the API server serves every version of a group's kind from one stored object, converting between them
   * (upstream TestConflictingData, "good child -> existing owner with non-preferred accessible API version": the
   * collector GETs the owner at the version its reference names and finds it). The store is keyed by group and kind,
   * so the object is found whichever of the group's versions it was written at. With no recorded discovery, a
   * built-in version the cluster's release still serves (src/cluster/api-lifecycle.ts) is served too.
   */
  private servedByData(ref: TypeRef): ResourceType | undefined {
    if (ref.apiVersion === undefined) return undefined
    const minor = this.version?.major === '1' ? Number.parseInt(this.version.minor, 10) : undefined
    const byRelease = !this.recordedDiscovery && servedAtRelease(ref.apiVersion, ref.kind, Number.isNaN(minor) ? undefined : minor)
    if (!byRelease && !this.evidenceCache?.servedVersions.includes(ref.apiVersion)) return undefined
    const {group, version} = splitApiVersion(ref.apiVersion)
    const other = typeOfGroupKind(this.types, group, ref.kind)
    return other && {...other, version}
  }

  /** The watch-cache view where the snapshot recorded one for this kind; otherwise both views are the same. */
  private view(view: GetRequest['view'], key: string): ObjectStore {
    return view === 'cached' && this.cached.kinds().includes(key) ? this.cached : this.fresh
  }

  /**
   * A list in the watch-cache view: where the capture recorded that view (the node Leases, in kube-node-lease), from
   * it; in every other namespace from the quorum view, which is all the capture read there (the leader-election
   * Leases in kube-system) — as a live cached list over every namespace would hold both.
   */
  private listView(view: ListRequest['view'], key: string, request: Pick<ListRequest, 'namespace' | 'labelSelector' | 'fieldSelector'>): KubeObject[] {
    if (view !== 'cached' || !this.cached.kinds().includes(key)) return this.fresh.list(key, request)
    const covered = this.cached.spread(key).namespaces
    if (request.namespace !== undefined) return (covered.has(request.namespace) ? this.cached : this.fresh).list(key, request)
    const rest = this.fresh.list(key, request).filter((o) => !covered.has(o.metadata?.namespace ?? ''))
    if (rest.length === 0) return this.cached.list(key, request)
    // etcd key order, "namespace/name", as both stores keep it.
    const order = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`
    return [...this.cached.list(key, request), ...rest].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
  }

  /**
   * A list the capture could not make fails on replay as it failed live (the same reason, status and message) —
   * unless another list that succeeded covers the namespace asked for (node Leases, when all Leases were refused).
   */
  private replayGap(t: ResourceType, namespace: string | undefined): void {
    const key = groupKindKey(apiVersionOf(t), t.kind)
    const gaps = this.gaps.filter((g) => groupKindKey(g.apiVersion, g.kind) === key)
    if (gaps.length === 0) return
    const covered =
      namespace !== undefined &&
      !gaps.some((g) => g.namespace === namespace) &&
      (this.header?.lists ?? []).some((l) => groupKindKey(l.apiVersion, l.kind) === key && l.namespace === namespace)
    if (covered) return
    const gap = gaps.find((g) => g.namespace === undefined || namespace === undefined || g.namespace === namespace)
    if (gap) throw new ReadError(gap.reason, gap.message, {status: gap.status, hint: gap.hint})
  }

  async get(request: GetRequest): Promise<KubeObject | undefined> {
    const t = this.typeOf(request)
    const key = groupKindKey(apiVersionOf(t), t.kind)
    const ns = t.namespaced ? request.namespace : undefined
    const found = this.view(request.view, key).get(key, ns, request.name)
    if (!found) this.replayGap(t, ns)
    return found && request.metadataOnly ? metadataOnly(found) : found
  }

  async list(request: ListRequest): Promise<ListResult> {
    const t = this.typeOf(request)
    const key = groupKindKey(apiVersionOf(t), t.kind)
    const namespace = t.namespaced ? request.namespace : undefined
    this.replayGap(t, namespace)
    let items = this.listView(request.view, key, {...request, namespace})
    if (request.metadataOnly) items = items.map(metadataOnly)
    return {items, resourceVersion: this.header ? '' : undefined}
  }

  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    const size = request.pageSize ?? DEFAULT_PAGE
    const t = this.typeOf(request)
    const key = groupKindKey(apiVersionOf(t), t.kind)
    const namespace = t.namespaced ? request.namespace : undefined
    // From one store, a namespace at a time (a packed store takes back no more at once); a watch-cache list that mixes
    // the two views is made whole, as list() makes it.
    if (request.view === 'cached' && this.cached.kinds().includes(key)) {
      yield* inPages([(await this.list(request)).items], size)
      return
    }
    this.replayGap(t, namespace)
    yield* inPages(this.fresh.pagesOf(key, {...request, namespace}), size, undefined, request.metadataOnly ? metadataOnly : undefined)
  }

  now(): Date {
    return this.clock
  }

  defaultNamespace(): string {
    return this.header?.namespace ?? 'default'
  }

  problems(): Problem[] {
    return [...(this.header?.problems ?? []), ...this.trailerProblems, ...this.loadProblems]
  }
}
