// The garbage collector's decision for one object, re-executed from outside (gc.md §3, §4, §6.2, §7, §10).
//
// Pure: the caller supplies discovery, the owner reads it has done and (once built) the dependents index. When
// the replay needs a read it has not been given, it says so in `needs`; the command performs those reads and
// calls again, until nothing is missing. The answer never rests on a guess: an owner that could not be read
// makes the verdict `unknown`, never "dangling".
import type {Evidence, Step} from '../../explanation.js'
import type {OwnerReference} from '../../cluster/source.js'
import {blockingDependents, type DependentsIndex} from './dependents.js'
import type {GcDiscovery, Mapping, MonitorStatus} from './discovery.js'
import {
  type Classification,
  describeObject,
  FINALIZER_FOREGROUND,
  FINALIZER_ORPHAN,
  type GcObject,
  type GcVerdict,
  hasFinalizer,
  isBeingDeleted,
  isDeletingDependents,
  isNamespace,
  type OwnerRead,
  type OwnerReadKey,
  ownerReadPath,
  type PropagationPolicy,
  readKeyString,
  resourcePath,
} from './model.js'
import {
  deleteOwnerRefJsonMergePatch,
  deleteOwnerRefStrategicMergePatch,
  JSON_MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
  unblockOwnerRefsJsonMergePatch,
  unblockOwnerRefsStrategicMergePatch,
} from './patches.js'

const GC = 'pkg/controller/garbagecollector'

export interface GcWorld {
  discovery: GcDiscovery
  /** Fresh, metadata-only owner GETs done so far, by readKeyString(key). */
  reads: {get(key: string): OwnerRead | undefined}
  /** The dependents index (metadata-only lists of every monitored type); undefined until built. */
  dependents?: DependentsIndex
  /** Lists that failed while building the index: dependents of those types may be missing. */
  indexGaps?: readonly string[]
  now: Date
  /** Control-plane minor version whose rules apply (1.x); undefined: the v1.28 baseline. */
  minor?: number
  /**
   * What the data can prove (src/cluster/evidence.ts). Absent: every read was answered, as a live cluster answers
   * them, so a 404 is proof the owner is gone.
   */
  evidence?: Pick<Evidence, 'coverage'>
  /**
   * Owners the data shows to exist by name only, through another field (a pod's spec.nodeName names its Node), by
   * readKeyString(key): the field that shows it. Such an owner is not gone, but its uid is not shown.
   */
  shownByName?: {get(key: string): string | undefined}
}

export interface GcReplayOptions {
  /** How deep blocking dependents are explained (the owner is depth 0). */
  maxDepth?: number
  /** How many blocking dependents are explained per owner; the rest are only counted. */
  maxBlockingExplained?: number
}

export type RefOutcome = Classification | 'unresolvable' | 'invalidScope' | 'unknown' | 'pending'

export interface RefReport {
  index: number
  ref: OwnerReference
  outcome: RefOutcome
  /** dangling: notFound (404) or uidMismatch (found by name with another uid). */
  danglingReason?: 'notFound' | 'uidMismatch'
  /**
   * unknown: readError (the owner could not be read), notInData (absent from data that cannot prove absence), or
   * nameOnly (the data shows an owner of that name exists, not its uid).
   */
  unknownReason?: 'readError' | 'notInData' | 'nameOnly' | 'servedUnknown'
  why: string
  /** The fresh metadata-only GET the collector sends for this ref (absent when it sends none). */
  lookup?: {path: string; key: OwnerReadKey; namespace?: string; status?: number | 'error'; error?: string; foundUid?: string}
  /** The owner as read, when found with the same uid. */
  owner?: {deletionTimestamp?: string; finalizers?: string[]}
  /** False for refs after the one that aborted classification: upstream never looks at them. */
  reachedByCollector: boolean
}

export interface CollectorRequest {
  method: 'GET' | 'DELETE' | 'PATCH'
  path: string
  contentType?: string
  body?: string
  note?: string
}

export interface GcEvent {
  type: 'Warning' | 'Normal'
  reason: string
  message: string
  involvedObject: {kind: string; apiVersion: string; namespace?: string; name: string; uid: string}
}

export interface BlockingReport {
  dependent: GcObject
  /** The dependent's own replay, when within the depth and count bounds. */
  replay?: GcReplay
  /** Why it was not explained (cycle, depth or count bound). */
  notExplained?: string
}

export interface GcReplay {
  item: GcObject
  verdict: GcVerdict
  steps: Step[]
  refs: RefReport[]
  monitor: MonitorStatus
  propagationPolicy?: PropagationPolicy
  unblockOwnerRefsFirst?: boolean
  removeOwnerUIDs?: string[]
  /** removeFinalizer / orphan: the finalizer the collector removes. */
  finalizer?: string
  blocking?: BlockingReport[]
  /** orphan: every graph dependent, whatever its blockOwnerDeletion. */
  dependentsToOrphan?: GcObject[]
  /** The graph dependents counted (S2) or listed (tree). */
  dependentCount?: number
  /** What the collector sends on its next visit, in order (HTTP method and path, as upstream tests write them). */
  collectorRequests: CollectorRequest[]
  events: GcEvent[]
  /** The object is evaluated as a never-observed virtual node (an unmonitored type referenced as an owner). */
  virtual?: boolean
  /** The ref index whose error aborted classification. */
  abortedAt?: number
  /** What is still missing: owner reads, and whether the dependents index is needed. */
  needs: {reads: OwnerReadKey[]; dependents: boolean}
}

/** DeleteOptions as the collector sends it (operations.go:52-61; resourceVersion precondition from 1.34, gc.md §11). */
function deleteBody(item: GcObject, policy: PropagationPolicy, minor: number | undefined): string {
  const preconditions: Record<string, string> = {uid: item.metadata.uid}
  if (minor !== undefined && minor >= 34 && item.metadata.resourceVersion) preconditions.resourceVersion = item.metadata.resourceVersion
  return JSON.stringify({preconditions, propagationPolicy: policy})
}

/** removeFinalizer (operations.go:85-130): a GET, then a JSON merge patch of the new finalizer list with resourceVersion. */
function removeFinalizerRequests(item: GcObject, path: string, finalizer: string): CollectorRequest[] {
  const rest = (item.metadata.finalizers ?? []).filter((f) => f !== finalizer)
  return [
    {method: 'GET', path},
    {
      method: 'PATCH',
      path,
      contentType: JSON_MERGE_PATCH,
      body: JSON.stringify({metadata: {resourceVersion: item.metadata.resourceVersion ?? '', finalizers: rest.length === 0 ? null : rest}}),
    },
  ]
}

function refText(r: OwnerReference): string {
  return `${r.apiVersion}/${r.kind} ${r.name} (uid ${r.uid})`
}

function age(from: string | null | undefined, now: Date): string | undefined {
  if (!from) return undefined
  const ms = now.getTime() - new Date(from).getTime()
  if (!Number.isFinite(ms) || ms < 0) return undefined
  const s = Math.floor(ms / 1000)
  if (s < 120) return `${s}s`
  if (s < 7200) return `${Math.floor(s / 60)}m`
  if (s < 172_800) return `${Math.floor(s / 3600)}h`
  return `${Math.floor(s / 86_400)}d`
}

export function itemMapping(world: GcWorld, item: GcObject): Mapping | undefined {
  return world.discovery.restMapping(item.apiVersion, item.kind)
}

function itemPath(world: GcWorld, item: GcObject): string {
  const m = itemMapping(world, item)
  if (!m) return `(${item.apiVersion}/${item.kind} not served) ${item.metadata.namespace ?? ''}/${item.metadata.name}`
  return resourcePath(m, m.namespaced ? item.metadata.namespace : undefined, item.metadata.name)
}

/** Replays the collector for one object. */
export function replayGc(item: GcObject, world: GcWorld, options: GcReplayOptions = {}): GcReplay {
  return replay(item, world, {maxDepth: options.maxDepth ?? 3, maxBlockingExplained: options.maxBlockingExplained ?? 20}, 0, new Set())
}

function replay(item: GcObject, world: GcWorld, opts: Required<GcReplayOptions>, depth: number, visiting: Set<string>): GcReplay {
  const steps: Step[] = []
  const path = itemPath(world, item)
  const r: GcReplay = {
    item,
    verdict: 'keep',
    steps,
    refs: [],
    monitor: {monitored: false, why: 'notServed'},
    collectorRequests: [],
    events: [],
    needs: {reads: [], dependents: false},
  }
  const meta = item.metadata
  const deleting = isBeingDeleted(item)
  const finalizers = meta.finalizers ?? []

  // §9: the monitored set.
  const monitor = world.discovery.monitorStatus(item.apiVersion, item.kind)
  r.monitor = monitor
  if (!monitor.monitored) {
    const why =
      monitor.why === 'ignored'
        ? `${item.kind} is in the collector's ignored resources (events are ignored by default)`
        : monitor.why === 'verbs'
          ? `its resource does not support all of delete, list and watch (it has: ${monitor.type?.verbs.join(', ') || 'none'})`
          : `${item.apiVersion}/${item.kind} is not served by this API server`
    const referenced = world.dependents?.dependentsOf(meta.uid) ?? []
    if ((meta.ownerReferences ?? []).length > 0 && world.dependents === undefined) r.needs.dependents = true
    if (referenced.length > 0 && (meta.ownerReferences ?? []).length > 0) {
      steps.push({
        rule: 'GetDeletableResources',
        upstream: `${GC}/garbagecollector.go:831-860; graph_builder.go:203-205`,
        result: 'not monitored',
        why: `${why}; but ${referenced.length} monitored object(s) name it as an owner, so it is a virtual node in the graph and is evaluated like one`,
        inferred: {
          evidence:
            'graph_builder.go:369-391 creates a virtual node for an owner UID no informer observed; garbagecollector.go:412-418 requeues it after each successful pass (no upstream test covers this path)',
          confidence: 'possible',
        },
      })
      r.virtual = true
      return dependentView(r, world, opts, depth, visiting, path)
    }
    r.verdict = 'notMonitored'
    steps.push({
      rule: 'GetDeletableResources',
      upstream: `${GC}/garbagecollector.go:831-860; graph_builder.go:203-205`,
      result: 'not monitored',
      why: `${why}: the collector never watches it, never evaluates its owner references, never deletes it and never counts it as a blocking dependent`,
    })
    if (deleting && (finalizers.includes(FINALIZER_FOREGROUND) || finalizers.includes(FINALIZER_ORPHAN))) {
      steps.push({
        rule: 'processTransitions',
        upstream: `${GC}/graph_builder.go:594-609`,
        result: 'finalizer never removed',
        why: `it is being deleted with the ${finalizers.includes(FINALIZER_ORPHAN) ? FINALIZER_ORPHAN : FINALIZER_FOREGROUND} finalizer, which only the collector removes; since it does not watch this type, someone has to remove it by hand`,
      })
    }
    return r
  }
  steps.push({
    rule: 'GetDeletableResources',
    upstream: `${GC}/garbagecollector.go:831-860`,
    result: 'monitored',
    why: `${monitor.type.group || 'core'}/${monitor.type.version} ${monitor.type.resource} supports delete, list and watch and is not ignored: the collector's graph holds this object`,
  })

  // E1: being deleted without foregroundDeletion.
  if (deleting && !finalizers.includes(FINALIZER_FOREGROUND)) {
    const since = age(meta.deletionTimestamp, world.now)
    if (finalizers.includes(FINALIZER_ORPHAN)) return orphanView(r, world, path, since)
    r.verdict = 'waitBeingDeleted'
    // A Namespace's own finalizer ("kubernetes") lives in spec.finalizers, which the collector's metadata view does not
    // show: the namespace controller removes it (namespaced_resources_deleter.go Delete), not the API server at once.
    const others =
      finalizers.length === 0
        ? isNamespace(item)
          ? 'it has no metadata.finalizers left; a Namespace also waits for spec.finalizers ("kubernetes"), which the namespace controller removes once it has deleted all its content'
          : 'it has no finalizers left, so the API server should remove it at once (or when its grace period ends, for pods)'
        : `it is held by ${finalizers.map((f) => `"${f}"`).join(', ')}: ${finalizers.length === 1 ? 'that finalizer belongs' : 'those finalizers belong'} to other controllers, not to the collector`
    steps.push({
      rule: 'attemptToDeleteItem: being deleted',
      upstream: `${GC}/garbagecollector.go:555-560`,
      result: 'wait',
      inputs: {deletionTimestamp: meta.deletionTimestamp, finalizers},
      why: `being deleted${since ? ` for ${since}` : ''} without the foregroundDeletion finalizer: the collector does nothing and waits for the final deletion, then handles its dependents; ${others}`,
    })
    return r
  }

  // E2-E5 hold: the object was read live (fresh) with this uid.
  r.collectorRequests.push({method: 'GET', path})

  // E6: deleting dependents (foreground).
  if (deleting) return ownerView(r, world, opts, depth, visiting, path)

  return dependentView(r, world, opts, depth, visiting, path)
}

/** E6 → processDeletingDependentsItem (garbagecollector.go:697-713). */
function ownerView(r: GcReplay, world: GcWorld, opts: Required<GcReplayOptions>, depth: number, visiting: Set<string>, path: string): GcReplay {
  const item = r.item
  const since = age(item.metadata.deletionTimestamp, world.now)
  r.finalizer = FINALIZER_FOREGROUND
  if (!world.dependents) {
    r.needs.dependents = true
    r.verdict = 'unknown'
    r.steps.push({rule: 'processDeletingDependentsItem', upstream: `${GC}/garbagecollector.go:697-713`, result: 'pending', why: 'needs the dependents index'})
    return r
  }
  const blocking = blockingDependents(world.dependents, item.metadata.uid)
  const all = world.dependents.dependentsOf(item.metadata.uid)
  r.dependentCount = all.length
  const gaps = world.indexGaps ?? []
  if (blocking.length === 0) {
    // "No dependent blocks it" rests on absence: it holds only where the data holds every object of the kinds that
    // may name it as an owner (issue 27 point 4). The kinds its own controller creates are checked; another kind
    // may hold it too, which a live read or the tool's snapshot (it records its lists) rules out.
    const unproven = unprovenDependentKinds(item, world.evidence)
    if (unproven.length > 0) {
      r.verdict = 'unknown'
      r.steps.push({
        rule: 'blockingDependents',
        upstream: `${GC}/graph.go:178-189`,
        result: 'unknown',
        inputs: {dependents: all.length, unproven: unproven.map((u) => u.kind)},
        why: `being deleted in the foreground${since ? ` for ${since}` : ''} and no dependent in the data blocks it, but the data may not hold every ${unproven.map((u) => `${u.kind} (${u.why})`).join(', ')}: whether one still holds it with blockOwnerDeletion=true is not in the data; the list that settles it: ${unproven.map((u) => u.list).join('; ')}`,
      })
      return r
    }
    r.verdict = 'removeFinalizer'
    const others = (item.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_FOREGROUND)
    r.collectorRequests.push(...removeFinalizerRequests(item, path, FINALIZER_FOREGROUND))
    r.steps.push({
      rule: 'blockingDependents',
      upstream: `${GC}/graph.go:178-189`,
      result: 'none',
      inputs: {dependents: all.length},
      why:
        all.length === 0
          ? 'no object in the graph names it as an owner'
          : `${all.length} dependent(s) name it as an owner, but none with blockOwnerDeletion=true, so none holds it`,
    })
    const suspects = [
      'the collector is not running or is lagging (kube-controller-manager down, --enable-garbage-collector=false, or a long queue)',
      'the finalizer patch is failing (a webhook or policy rejecting updates of this object, or repeated conflicts)',
      `a blocking dependent exists in a type you cannot see but the collector can${gaps.length > 0 ? ` (these lists failed: ${gaps.join('; ')})` : ''}`,
    ]
    if (world.minor === undefined || world.minor < 32)
      suspects.push('a dependent type whose informer never synced: before 1.32 the collector waits for every monitor to sync before working at all')
    r.steps.push({
      rule: 'processDeletingDependentsItem',
      upstream: `${GC}/garbagecollector.go:697-713; operations.go:85-130`,
      result: 'remove finalizer',
      inputs: {deletionTimestamp: item.metadata.deletionTimestamp, finalizers: item.metadata.finalizers ?? []},
      why:
        `being deleted in the foreground${since ? ` for ${since}` : ''} with no blocking dependent left: the collector removes foregroundDeletion now` +
        (others.length > 0 ? `; the object then still waits for ${others.map((f) => `"${f}"`).join(', ')}` : ', and the API server then deletes the object') +
        `. If it is still there, suspect: ${suspects.join('; ')}`,
      ...(gaps.length > 0 ? {inferred: {evidence: `dependents index incomplete: ${gaps.join('; ')}`, confidence: 'likely' as const}} : {}),
    })
    return r
  }

  r.verdict = 'waitForBlockingDependents'
  r.steps.push({
    rule: 'blockingDependents',
    upstream: `${GC}/graph.go:178-189`,
    result: `${blocking.length} blocking`,
    inputs: {dependents: all.length, blocking: blocking.map((d) => describeObject(d))},
    why: `being deleted in the foreground${since ? ` for ${since}` : ''}: ${blocking.length} dependent(s) still hold it with blockOwnerDeletion=true; the collector queues each one that is not itself deleting dependents and keeps the finalizer until they are gone`,
  })
  r.blocking = []
  let explained = 0
  const nextVisiting = new Set(visiting).add(item.metadata.uid)
  for (const d of blocking) {
    if (nextVisiting.has(d.metadata.uid)) {
      r.blocking.push({dependent: d, notExplained: 'ownership cycle: already explained above'})
    } else if (depth + 1 > opts.maxDepth) {
      r.blocking.push({dependent: d, notExplained: `deeper than ${opts.maxDepth} levels`})
    } else if (explained >= opts.maxBlockingExplained) {
      r.blocking.push({dependent: d, notExplained: `only the first ${opts.maxBlockingExplained} blocking dependents are explained`})
    } else {
      explained++
      const sub = replay(d, world, opts, depth + 1, nextVisiting)
      r.needs.reads.push(...sub.needs.reads)
      if (sub.needs.dependents) r.needs.dependents = true
      r.blocking.push({dependent: d, replay: sub})
    }
  }
  return r
}

/** E1 with the orphan finalizer → attemptToOrphanWorker (garbagecollector.go:784-810). */
function orphanView(r: GcReplay, world: GcWorld, path: string, since: string | undefined): GcReplay {
  const item = r.item
  r.verdict = 'orphanDependentsThenRemoveFinalizer'
  r.finalizer = FINALIZER_ORPHAN
  r.steps.push({
    rule: 'attemptToDeleteItem: being deleted',
    upstream: `${GC}/garbagecollector.go:555-560`,
    result: 'skipped',
    why: 'being deleted without foregroundDeletion: the delete worker leaves it alone; the orphan worker handles it',
  })
  if (!world.dependents) {
    r.needs.dependents = true
    r.steps.push({rule: 'attemptToOrphanWorker', upstream: `${GC}/garbagecollector.go:784-810`, result: 'pending', why: 'needs the dependents index'})
    return r
  }
  const deps = [...world.dependents.dependentsOf(item.metadata.uid)]
  r.dependentsToOrphan = deps
  r.dependentCount = deps.length
  for (const d of deps) {
    const m = world.discovery.restMapping(d.apiVersion, d.kind)
    const dpath = m ? resourcePath(m, m.namespaced ? d.metadata.namespace : undefined, d.metadata.name) : describeObject(d)
    r.collectorRequests.push({
      method: 'PATCH',
      path: dpath,
      contentType: STRATEGIC_MERGE_PATCH,
      body: deleteOwnerRefStrategicMergePatch(d.metadata.uid, [item.metadata.uid]),
    })
  }
  r.collectorRequests.push(...removeFinalizerRequests(item, path, FINALIZER_ORPHAN))
  const others = (item.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_ORPHAN)
  r.steps.push({
    rule: 'attemptToOrphanWorker',
    upstream: `${GC}/garbagecollector.go:716-752, 784-810`,
    result: 'orphan then remove finalizer',
    inputs: {dependents: deps.map((d) => describeObject(d)), deletionTimestamp: item.metadata.deletionTimestamp},
    why:
      `being deleted with the orphan finalizer${since ? ` for ${since}` : ''}: the collector removes this owner's reference from each of its ${deps.length} dependent(s) (all of them, blocking or not), then removes "orphan"` +
      (others.length > 0 ? `; the object then still waits for ${others.map((f) => `"${f}"`).join(', ')}` : '') +
      '. If any dependent patch fails (a 409 conflict, a webhook, validation), the finalizer stays and the owner is retried with backoff',
  })
  return r
}

/** E7 and the three-way switch (garbagecollector.go:594-693). */
function dependentView(r: GcReplay, world: GcWorld, _opts: Required<GcReplayOptions>, _depth: number, _visiting: Set<string>, path: string): GcReplay {
  const item = r.item
  const refs = item.metadata.ownerReferences ?? []
  if (r.virtual) r.collectorRequests.push({method: 'GET', path})
  if (refs.length === 0) {
    r.verdict = 'noOwners'
    r.steps.push({
      rule: 'attemptToDeleteItem: no owners',
      upstream: `${GC}/garbagecollector.go:594-600`,
      result: 'not garbage',
      why: 'it has no owner references, so the collector has nothing to decide and does not delete it (other controllers may: TTL-after-finished, history limits, the namespace controller)',
    })
    return r
  }

  classify(r, world)
  if (r.abortedAt !== undefined) return r
  if (r.needs.reads.length > 0) {
    r.verdict = 'unknown'
    return r
  }

  const solid = r.refs.filter((x) => x.outcome === 'solid')
  const dangling = r.refs.filter((x) => x.outcome === 'dangling')
  const waiting = r.refs.filter((x) => x.outcome === 'waitingForDependentsDeletion')
  const counts = {solid: solid.map((x) => x.ref.uid), dangling: dangling.map((x) => x.ref.uid), waitingForDependentsDeletion: waiting.map((x) => x.ref.uid)}

  // S1
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) {
      r.verdict = 'keep'
      r.steps.push({
        rule: 'attemptToDeleteItem: solid owner',
        upstream: `${GC}/garbagecollector.go:613-621`,
        result: 'keep',
        inputs: counts,
        why: `${solid.length === 1 ? 'its owner exists' : `all ${solid.length} owners exist`} with the uids it names and ${solid.length === 1 ? 'is' : 'are'} not waiting for dependents: the collector keeps it (other controllers may still delete it: history limits, TTL-after-finished)`,
      })
      return r
    }
    // Dangling first, then waiting (garbagecollector.go:630).
    const uids = [...dangling, ...waiting].map((x) => x.ref.uid)
    r.verdict = 'patchRemoveOwnerRefs'
    r.removeOwnerUIDs = uids
    r.collectorRequests.push({method: 'PATCH', path, contentType: STRATEGIC_MERGE_PATCH, body: deleteOwnerRefStrategicMergePatch(item.metadata.uid, uids)})
    r.steps.push({
      rule: 'attemptToDeleteItem: solid owner',
      upstream: `${GC}/garbagecollector.go:613-638; controller_ref_manager.go:562-596`,
      result: 'patch',
      inputs: counts,
      why:
        `at least one owner is solid (${solid.map((x) => x.ref.name).join(', ')}), so it is kept; the collector patches off the ${[dangling.length > 0 ? `${dangling.length} dangling` : '', waiting.length > 0 ? `${waiting.length} waiting` : ''].filter(Boolean).join(' and ')} reference(s) by uid (${uids.join(', ')})` +
        (waiting.length > 0 ? '; a waiting ref is removed so that owner is not stuck with foregroundDeletion forever' : '') +
        `. Types without strategic merge patch (CRDs, 415) get a JSON merge patch instead: ${deleteOwnerRefJsonMergePatch(item.metadata.resourceVersion ?? '', refs, uids)}`,
    })
    return r
  }

  // S2
  if (waiting.length > 0) {
    if (!world.dependents) {
      r.needs.dependents = true
      r.verdict = 'unknown'
      r.steps.push({
        rule: 'attemptToDeleteItem: waiting owner',
        upstream: `${GC}/garbagecollector.go:639-671`,
        result: 'pending',
        why: 'needs the dependents index',
      })
      return r
    }
    const deps = world.dependents.dependentsOf(item.metadata.uid)
    r.dependentCount = deps.length
    if (deps.length > 0) {
      const deletingDep = deps.find((d) => isDeletingDependents(d))
      r.verdict = 'delete'
      r.propagationPolicy = 'Foreground'
      r.unblockOwnerRefsFirst = deletingDep !== undefined
      if (deletingDep) {
        r.collectorRequests.push({
          method: 'PATCH',
          path,
          contentType: STRATEGIC_MERGE_PATCH,
          body: unblockOwnerRefsStrategicMergePatch(item.metadata.uid, refs),
        })
      }
      r.collectorRequests.push({method: 'DELETE', path, body: deleteBody(item, 'Foreground', world.minor)})
      r.steps.push({
        rule: 'attemptToDeleteItem: waiting owner, has dependents',
        upstream: `${GC}/garbagecollector.go:639-671; patch.go:133-166`,
        result: 'delete Foreground',
        inputs: {...counts, dependents: deps.length, dependentDeletingDependents: deletingDep ? describeObject(deletingDep) : null},
        why:
          `no solid owner, ${waiting.length} owner(s) waiting for dependents deletion, and it has ${deps.length} dependent(s) of its own: the collector deletes it with Foreground propagation so its own dependents go first` +
          (deletingDep
            ? `; because its dependent ${describeObject(deletingDep)} is itself deleting dependents (a possible ownership cycle), it first patches its own blocking refs to blockOwnerDeletion=false (JSON merge fallback: ${unblockOwnerRefsJsonMergePatch(item.metadata.resourceVersion ?? '', refs)})`
            : ''),
      })
      return r
    }
  }

  // S3
  const policy: PropagationPolicy = hasFinalizer(item, FINALIZER_ORPHAN) ? 'Orphan' : hasFinalizer(item, FINALIZER_FOREGROUND) ? 'Foreground' : 'Background'
  r.verdict = 'delete'
  r.propagationPolicy = policy
  if (waiting.length > 0) r.dependentCount = 0
  r.collectorRequests.push({method: 'DELETE', path, body: deleteBody(item, policy, world.minor)})
  const detail = [
    dangling.length > 0
      ? `${dangling.length} dangling (${dangling.map((x) => `${x.ref.kind} ${x.ref.name}: ${x.danglingReason === 'uidMismatch' ? 'recreated with another uid' : 'not found'}`).join('; ')})`
      : '',
    waiting.length > 0 ? `${waiting.length} waiting for dependents deletion, and it has no dependents of its own` : '',
  ]
    .filter(Boolean)
    .join(', ')
  r.steps.push({
    rule: 'attemptToDeleteItem: no solid owner',
    upstream: `${GC}/garbagecollector.go:672-693; operations.go:52-61`,
    result: `delete ${policy}`,
    inputs: {...counts, finalizers: item.metadata.finalizers ?? []},
    why:
      `no solid owner — ${detail}: the collector deletes it (precondition uid ${item.metadata.uid}${world.minor !== undefined && world.minor >= 34 ? ' and its resourceVersion' : ''}) with ${policy} propagation` +
      (policy === 'Background'
        ? ', since it carries neither the orphan nor the foregroundDeletion finalizer'
        : `, honouring its own ${policy === 'Orphan' ? 'orphan' : 'foregroundDeletion'} finalizer`),
  })
  if (world.minor !== undefined && world.minor >= 34) {
    r.steps.push({
      rule: 'deleteObject: resourceVersion precondition',
      upstream: `${GC}/operations.go (PR #132632)`,
      result: 'guarded',
      why: 'newer collectors add the resourceVersion it classified as a delete precondition: if the owner references changed meanwhile, it re-classifies instead of deleting',
      inferred: {evidence: 'gc.md §11: the first release with this change is not verified (likely 1.34)', confidence: 'likely'},
    })
  }
  return r
}

/**
 * The collector's classification of every owner reference of `item` (classifyReferences + isDangling), whatever state
 * the item is in: the --tree view marks each edge with it. `needs.reads` lists the owner reads still missing.
 */
export function classifyReferences(item: GcObject, world: GcWorld): Pick<GcReplay, 'refs' | 'needs' | 'abortedAt'> {
  const r: GcReplay = {
    item,
    verdict: 'keep',
    steps: [],
    refs: [],
    monitor: {monitored: false, why: 'notServed'},
    collectorRequests: [],
    events: [],
    needs: {reads: [], dependents: false},
  }
  classify(r, world)
  return r
}

/** classifyReferences + isDangling (garbagecollector.go:426-530), in order, stopping where upstream stops. */
function classify(r: GcReplay, world: GcWorld): void {
  const item = r.item
  const refs = item.metadata.ownerReferences ?? []
  const itemNs = item.metadata.namespace ?? ''
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]
    const reached = r.abortedAt === undefined
    const rep: RefReport = {index: i, ref, outcome: 'pending', why: '', reachedByCollector: reached}
    r.refs.push(rep)
    const mapping = world.discovery.restMapping(ref.apiVersion, ref.kind)
    const unmapped = mapping ? undefined : world.discovery.unmapped(ref.apiVersion, ref.kind)
    if (unmapped && !unmapped.proven) {
      // The mapping fails here only because the data does not show what the server serves: the collector's own
      // mapping may succeed (then it reads the owner), so neither "stuck" nor a verdict on the owner is proven.
      rep.outcome = 'unknown'
      rep.unknownReason = 'servedUnknown'
      rep.why = `${unmapped.why}: if it is served the collector reads the owner; if not, the REST mapping fails and it retries forever`
      r.steps.push({
        rule: 'isDangling: REST mapping',
        upstream: `${GC}/garbagecollector.go:456-459; operations.go:43-50`,
        result: 'unknown',
        inputs: {ref: refText(ref)},
        why: rep.why + (reached ? '' : ' (not reached by the collector)'),
      })
      if (reached) abort(r, i, 'unknown', rep)
      continue
    }
    if (!mapping) {
      rep.outcome = 'unresolvable'
      rep.why = `${ref.apiVersion}/${ref.kind} is not served (${unmapped?.why}): the REST mapping fails ("unable to get REST mapping for ${ref.apiVersion}/${ref.kind}."), which the collector cannot tell from a type it has not discovered yet, so it retries forever and never treats the ref as dangling`
      r.steps.push({
        rule: 'isDangling: REST mapping',
        upstream: `${GC}/garbagecollector.go:456-459; operations.go:43-50; errors.go:23-43`,
        result: 'unresolvable',
        inputs: {ref: refText(ref)},
        why: rep.why + (reached ? '' : ' (not reached by the collector)'),
      })
      if (reached) abort(r, i, 'stuckRestMapping', rep)
      continue
    }
    if (itemNs === '' && mapping.namespaced) {
      rep.outcome = 'invalidScope'
      rep.why = `a cluster-scoped object cannot have a namespaced owner (${ref.kind} is namespaced): the collector gives up on this object without any API call and never retries it`
      r.steps.push({
        rule: 'isDangling: coordinate validation',
        upstream: `${GC}/garbagecollector.go:464-472`,
        result: 'invalid',
        inputs: {ref: refText(ref)},
        why: rep.why + (reached ? '' : ' (not reached by the collector)'),
      })
      if (world.dependents?.observed(ref.uid)) r.events.push(invalidNamespaceEvent(item, ref, ''))
      if (reached) abort(r, i, 'stuckNamespacedOwnerOfClusterScopedObject', rep)
      continue
    }
    const key: OwnerReadKey = {
      group: mapping.group,
      version: mapping.version,
      resource: mapping.resource,
      kind: mapping.kind,
      name: ref.name,
      ...(mapping.namespaced ? {namespace: itemNs} : {}),
    }
    const p = ownerReadPath(key)
    rep.lookup = {path: p, key, ...(mapping.namespaced ? {namespace: itemNs} : {})}
    if (reached) r.collectorRequests.push({method: 'GET', path: p})
    const read = world.reads.get(readKeyString(key))
    if (!read) {
      r.needs.reads.push(key)
      rep.why = 'not read yet'
      continue
    }
    const where = mapping.namespaced ? `in namespace ${itemNs}` : '(cluster-scoped)'
    const coverage =
      read.outcome === 'notFound' && !read.proven ? world.evidence?.coverage(mapping.group, mapping.kind, mapping.namespaced ? itemNs : undefined) : undefined
    const noProof = coverage !== undefined && !coverage.absenceIsProof
    const shown = noProof ? world.shownByName?.get(readKeyString(key)) : undefined
    if (shown) {
      // The field proves an owner of that name exists (so the ref is not a 404), not which uid it has: the collector
      // keeps the object if the uids match and deletes it if the owner was recreated (garbagecollector.go:477-497).
      rep.outcome = 'unknown'
      rep.unknownReason = 'nameOnly'
      rep.lookup.error = 'NameOnly'
      rep.why = `${coverage!.why || `the data holds no ${ref.kind} named ${ref.name}`}, but ${shown} shows a ${ref.kind} named ${ref.name} exists ${where}: the owner is not gone (no 404). It does not show that ${ref.kind}'s uid, so whether it is ${ref.uid} (solid: kept) or a recreated one (dangling: deleted) cannot be told from this data`
    } else if (noProof) {
      rep.outcome = 'unknown'
      rep.unknownReason = 'notInData'
      rep.lookup.error = 'NotInData'
      rep.why = `${coverage!.why || `the data holds no ${ref.kind} named ${ref.name}`}: cannot tell whether it exists. The collector reads the live cluster, where a missing owner is a 404; this data is not known to hold every ${ref.kind}, so its absence here proves nothing`
    } else if (read.outcome === 'notFound') {
      rep.outcome = 'dangling'
      rep.danglingReason = 'notFound'
      rep.lookup.status = 404
      rep.why = `no ${ref.kind} named ${ref.name} exists ${where} (404)`
    } else if (read.outcome === 'error') {
      rep.outcome = 'unknown'
      rep.unknownReason = 'readError'
      rep.lookup.status = read.status ?? 'error'
      rep.lookup.error = read.reason
      rep.why = `the owner could not be read: ${read.message}${read.status ? ` (${read.status})` : ''}. The collector has get on every type and would read it; on an error it requeues and retries — this tool does not guess "dangling"`
    } else if (read.object.metadata.uid !== ref.uid) {
      rep.outcome = 'dangling'
      rep.danglingReason = 'uidMismatch'
      rep.lookup.status = 200
      rep.lookup.foundUid = read.object.metadata.uid
      rep.why = `a ${ref.kind} named ${ref.name} exists ${where}, but with uid ${read.object.metadata.uid}, not ${ref.uid}: the owner was deleted and recreated under the same name, so this ref is dangling`
    } else {
      rep.lookup.status = 200
      rep.lookup.foundUid = read.object.metadata.uid
      const o = read.object
      rep.owner = {
        ...(o.metadata.deletionTimestamp ? {deletionTimestamp: o.metadata.deletionTimestamp} : {}),
        ...(o.metadata.finalizers ? {finalizers: o.metadata.finalizers} : {}),
      }
      if (isBeingDeleted(o) && hasFinalizer(o, FINALIZER_FOREGROUND)) {
        rep.outcome = 'waitingForDependentsDeletion'
        rep.why = `the owner exists with this uid and is being deleted in the foreground (deletionTimestamp ${o.metadata.deletionTimestamp}, foregroundDeletion finalizer): it waits for its dependents`
      } else {
        rep.outcome = 'solid'
        rep.why =
          `the owner exists ${where} with this uid` +
          (isBeingDeleted(o)
            ? ` and is being deleted, but without foregroundDeletion (finalizers: ${(o.metadata.finalizers ?? []).join(', ') || 'none'}), which still counts as solid`
            : ' and is not being deleted')
      }
    }
    if (rep.outcome === 'dangling') {
      const observed = world.dependents?.observed(ref.uid)
      if (observed && mapping.namespaced && (observed.metadata.namespace ?? '') !== itemNs) {
        rep.why += `; the uid belongs to ${describeObject(observed)}, but an owner reference has no namespace field, so the owner is always looked up in the dependent's namespace`
        r.events.push(invalidNamespaceEvent(item, ref, itemNs))
      }
    }
    r.steps.push({
      rule: 'classifyReferences',
      upstream: `${GC}/garbagecollector.go:${rep.outcome === 'dangling' ? (rep.danglingReason === 'uidMismatch' ? '490-497' : '477-485') : rep.outcome === 'unknown' ? '486-487' : '507-530'}`,
      result: rep.outcome,
      inputs: {ref: refText(ref), get: p, blockOwnerDeletion: ref.blockOwnerDeletion === true},
      why: rep.why + (reached ? '' : ' (not reached by the collector: classification stopped at an earlier ref)'),
    })
    if (reached && rep.outcome === 'unknown') abort(r, i, 'unknown', rep)
  }
}

function abort(r: GcReplay, index: number, verdict: GcVerdict, rep: RefReport): void {
  r.abortedAt = index
  r.verdict = verdict
  const solidBefore = r.refs.some((x) => x.outcome === 'solid')
  const queue = verdict === 'stuckNamespacedOwnerOfClusterScopedObject' ? 'forgets the object (never retried until it changes)' : 'requeues it with backoff'
  r.steps.push({
    rule: 'classifyReferences: error aborts the item',
    upstream: `${GC}/garbagecollector.go:602-605, 365-421`,
    result: verdict,
    inputs: {ref: refText(rep.ref), index},
    why:
      `an error on owner reference #${index + 1} aborts the whole item: no deletion and no patch this time; the collector ${queue}` +
      (verdict === 'unknown' && solidBefore
        ? '. An earlier ref is solid, so whatever this owner turns out to be the object stays; only a patch of its refs is undecided'
        : ''),
  })
}

/** graph_builder.go:393-402: the Warning event raised on a dependent whose ref names a uid observed in another namespace. */
function invalidNamespaceEvent(item: GcObject, ref: OwnerReference, ns: string): GcEvent {
  return {
    type: 'Warning',
    reason: 'OwnerRefInvalidNamespace',
    message: `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${ns}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace "${ns}"`,
    involvedObject: {
      kind: item.kind,
      apiVersion: item.apiVersion,
      ...(item.metadata.namespace ? {namespace: item.metadata.namespace} : {}),
      name: item.metadata.name,
      uid: item.metadata.uid,
    },
  }
}

/** The kinds whose objects its own controller creates as its dependents (they name it with blockOwnerDeletion=true). */
const OWN_DEPENDENTS: Record<string, {group: string; kind: string; resource: string}[]> = {
  'apps/Deployment': [{group: 'apps', kind: 'ReplicaSet', resource: 'replicasets'}],
  'apps/ReplicaSet': [{group: '', kind: 'Pod', resource: 'pods'}],
  'apps/StatefulSet': [
    {group: '', kind: 'Pod', resource: 'pods'},
    {group: 'apps', kind: 'ControllerRevision', resource: 'controllerrevisions'},
  ],
  'apps/DaemonSet': [
    {group: '', kind: 'Pod', resource: 'pods'},
    {group: 'apps', kind: 'ControllerRevision', resource: 'controllerrevisions'},
  ],
  'batch/Job': [{group: '', kind: 'Pod', resource: 'pods'}],
  'batch/CronJob': [{group: 'batch', kind: 'Job', resource: 'jobs'}],
  '/ReplicationController': [{group: '', kind: 'Pod', resource: 'pods'}],
}

/** Those of its dependent kinds whose absence in the data proves nothing in its namespace. No evidence: live. */
export function unprovenDependentKinds(item: GcObject, evidence: Pick<Evidence, 'coverage'> | undefined): {kind: string; why: string; list: string}[] {
  if (!evidence) return []
  const api = item.apiVersion ?? ''
  const group = api.includes('/') ? api.slice(0, api.indexOf('/')) : ''
  const canonical = group === 'extensions' ? 'apps' : group
  const ns = item.metadata.namespace
  const out: {kind: string; why: string; list: string}[] = []
  for (const d of OWN_DEPENDENTS[`${canonical}/${item.kind}`] ?? []) {
    const c = evidence.coverage(d.group, d.kind, ns)
    if (c.absenceIsProof) continue
    out.push({kind: d.kind, why: c.why, list: `kubectl get ${d.resource}${d.group ? `.${d.group}` : ''} ${ns ? `-n ${ns}` : '-A'} -o yaml`})
  }
  return out
}
