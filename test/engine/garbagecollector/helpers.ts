// A tiny in-memory cluster for the engine's unit tests: it answers owner reads the way the API server does
// (by group/resource/namespace/name, any served version of the kind) and builds the dependents index from the
// monitored objects, then drives the replay to its fixpoint exactly as the command does.
import {BUILTIN_KINDS, splitApiVersion} from '../../../src/cluster/builtin-kinds.js'
import type {OwnerReference, ResourceType} from '../../../src/cluster/source.js'
import {
  DependentsIndex,
  GcDiscovery,
  type GcObject,
  type GcReplay,
  type GcWorld,
  type OwnerRead,
  type OwnerReadKey,
  ownerReadPath,
  readKeyString,
  replayGc,
  applyOwnerRefsStrategicMergePatch,
} from '../../../src/engine/garbagecollector/index.js'

export interface ObjSpec {
  apiVersion: string
  kind: string
  namespace?: string
  name: string
  uid?: string
  ownerReferences?: OwnerReference[]
  finalizers?: string[]
  deletionTimestamp?: string | null
  resourceVersion?: string
}

export function obj(s: ObjSpec): GcObject {
  const meta: GcObject['metadata'] = {name: s.name, uid: s.uid ?? `uid-${s.name}`}
  if (s.namespace) meta.namespace = s.namespace
  if (s.ownerReferences && s.ownerReferences.length > 0) meta.ownerReferences = s.ownerReferences
  if (s.finalizers && s.finalizers.length > 0) meta.finalizers = s.finalizers
  if (s.deletionTimestamp) meta.deletionTimestamp = s.deletionTimestamp
  meta.resourceVersion = s.resourceVersion ?? '100'
  return {apiVersion: s.apiVersion, kind: s.kind, metadata: meta}
}

export function ref(apiVersion: string, kind: string, name: string, uid: string, extra: Partial<OwnerReference> = {}): OwnerReference {
  return {apiVersion, kind, name, uid, ...extra}
}

/** Built-in kinds, minus any "group/version/Kind" in `remove`, plus `extra`. */
export function types(opts: {remove?: string[]; extra?: ResourceType[]} = {}): ResourceType[] {
  const remove = new Set(opts.remove ?? [])
  return [...BUILTIN_KINDS.filter((t) => !remove.has(`${t.group}/${t.version}/${t.kind}`)), ...(opts.extra ?? [])]
}

export function extraType(
  apiVersion: string,
  kind: string,
  resource: string,
  namespaced: boolean,
  verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
): ResourceType {
  return {...splitApiVersion(apiVersion), kind, resource, namespaced, verbs, singularName: kind.toLowerCase()}
}

export interface Env {
  cluster: GcObject[]
  types?: ResourceType[]
  /** Owner GET failures by request path. */
  errors?: Record<string, {status: number; reason: string; message: string}>
  now?: Date
  minor?: number
  /** Build the dependents index up front (as `--all` and `--tree` do). */
  withIndex?: boolean
}

export interface Run {
  replay: GcReplay
  /** Owner GET paths this tool read, in order of first request. */
  reads: string[]
  indexBuilt: boolean
}

export function buildIndex(discovery: GcDiscovery, cluster: GcObject[]): DependentsIndex {
  const index = new DependentsIndex()
  for (const o of cluster) {
    const st = discovery.monitorStatus(o.apiVersion, o.kind)
    if (st.monitored) index.add(o, `${st.type.group}/${st.type.resource}`)
  }
  return index
}

export function readOwner(discovery: GcDiscovery, env: Env, key: OwnerReadKey): OwnerRead {
  const path = ownerReadPath(key)
  const err = env.errors?.[path]
  if (err) return {outcome: 'error', status: err.status, reason: err.reason, message: err.message}
  const found = env.cluster.find((o) => {
    const m = discovery.restMapping(o.apiVersion, o.kind)
    return (
      m !== undefined &&
      m.group === key.group &&
      m.resource === key.resource &&
      (o.metadata.namespace ?? '') === (key.namespace ?? '') &&
      o.metadata.name === key.name
    )
  })
  return found ? {outcome: 'found', object: found} : {outcome: 'notFound'}
}

export function run(item: GcObject, env: Env): Run {
  const discovery = new GcDiscovery(env.types ?? types())
  const reads = new Map<string, OwnerRead>()
  const order: string[] = []
  let dependents = env.withIndex ? buildIndex(discovery, env.cluster) : undefined
  let indexBuilt = env.withIndex === true
  for (let round = 0; round < 50; round++) {
    const world: GcWorld = {discovery, reads, dependents, now: env.now ?? new Date('2026-11-29T10:00:00Z'), minor: env.minor}
    const replay = replayGc(item, world)
    if (!replay.needs.dependents && replay.needs.reads.length === 0) return {replay, reads: order, indexBuilt}
    if (replay.needs.dependents) {
      dependents = buildIndex(discovery, env.cluster)
      indexBuilt = true
    }
    for (const k of replay.needs.reads) {
      const s = readKeyString(k)
      if (reads.has(s)) continue
      reads.set(s, readOwner(discovery, env, k))
      order.push(ownerReadPath(k))
    }
  }
  throw new Error('replay did not reach a fixpoint')
}

/** The collector's requests in the fakeActionHandler format of the upstream unit tests: "GET /api/v1/...". */
export function httpActions(r: GcReplay): string[] {
  return r.collectorRequests.map((q) => `${q.method} ${q.path}`)
}

/** The same requests in TestConflictingData's fake-client format: "get /v1, Resource=pods ns=ns1 name=podname1". */
export function clientActions(r: GcReplay): string[] {
  return r.collectorRequests.map((q) => {
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(?:\/namespaces\/([^/]+))?\/([^/]+)\/([^/]+)$/.exec(q.path)
    if (!m) return `${q.method.toLowerCase()} ${q.path}`
    const group = m[2] ?? ''
    const version = m[1] ?? m[3]
    return `${q.method.toLowerCase()} ${group}/${version}, Resource=${m[5]} ns=${m[4] ?? ''} name=${m[6]}`
  })
}

export function classification(r: GcReplay): {solid: string[]; dangling: string[]; waitingForDependentsDeletion: string[]} {
  const pick = (o: string) => r.refs.filter((x) => x.outcome === o).map((x) => x.ref.uid)
  return {solid: pick('solid'), dangling: pick('dangling'), waitingForDependentsDeletion: pick('waitingForDependentsDeletion')}
}

// ---------------------------------------------------------------------------------------------------------
// A miniature API server + collector loop, to check the end states upstream's integration and e2e tests assert:
// the collector's requests from each replay are applied with the API server's deletion semantics (gc.md §6.1, §7)
// until nothing changes.

function pathOf(discovery: GcDiscovery, o: GcObject): string | undefined {
  const m = discovery.restMapping(o.apiVersion, o.kind)
  if (!m) return undefined
  return ownerReadPath({
    group: m.group,
    version: m.version,
    resource: m.resource,
    kind: m.kind,
    name: o.metadata.name,
    ...(m.namespaced ? {namespace: o.metadata.namespace} : {}),
  })
}

export class MiniCluster {
  readonly discovery: GcDiscovery
  objects: GcObject[]
  private clock = 0
  constructor(objects: GcObject[], typeList: ResourceType[] = types()) {
    this.discovery = new GcDiscovery(typeList)
    this.objects = objects.map((o) => structuredClone(o))
  }

  get(name: string, namespace?: string): GcObject | undefined {
    return this.objects.find((o) => o.metadata.name === name && (namespace === undefined || o.metadata.namespace === namespace))
  }

  private find(path: string): GcObject | undefined {
    return this.objects.find((o) => pathOf(this.discovery, o) === path)
  }

  private removeIfDone(o: GcObject): void {
    if (o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).length === 0) this.objects = this.objects.filter((x) => x !== o)
  }

  /** DELETE with a propagation policy, as the API server handles it for kinds without graceful deletion (store.go:802-924). */
  delete(o: GcObject, policy: 'Background' | 'Foreground' | 'Orphan'): void {
    const gcFinalizers = ['orphan', 'foregroundDeletion']
    const rest = (o.metadata.finalizers ?? []).filter((f) => !gcFinalizers.includes(f))
    if (policy === 'Foreground') rest.push('foregroundDeletion')
    if (policy === 'Orphan') rest.push('orphan')
    o.metadata.finalizers = rest
    if (!o.metadata.deletionTimestamp) o.metadata.deletionTimestamp = new Date(Date.UTC(2026, 10, 29, 9, 0, this.clock++)).toISOString()
    this.removeIfDone(o)
  }

  setFinalizers(o: GcObject, finalizers: string[]): void {
    o.metadata.finalizers = finalizers
    this.removeIfDone(o)
  }

  /** Applies one collector request; returns whether anything changed. */
  apply(q: {method: string; path: string; body?: string; contentType?: string}): boolean {
    if (q.method === 'GET') return false
    const o = this.find(q.path)
    if (!o) return false
    const body = JSON.parse(q.body ?? '{}')
    if (q.method === 'DELETE') {
      if (body.preconditions?.uid && body.preconditions.uid !== o.metadata.uid) return false
      this.delete(o, body.propagationPolicy)
      return true
    }
    if (body.metadata?.finalizers !== undefined) {
      this.setFinalizers(o, body.metadata.finalizers ?? [])
      return true
    }
    if (q.contentType === 'application/strategic-merge-patch+json') {
      if (body.metadata?.uid && body.metadata.uid !== o.metadata.uid) return false
      const before = JSON.stringify(o.metadata.ownerReferences ?? [])
      const after = applyOwnerRefsStrategicMergePatch(o.metadata.ownerReferences ?? [], q.body ?? '{}')
      if (after.length === 0) delete o.metadata.ownerReferences
      else o.metadata.ownerReferences = after
      return JSON.stringify(after) !== before
    }
    throw new Error(`unexpected request ${q.method} ${q.path}`)
  }

  /** Runs the collector over every object until a whole pass changes nothing. Returns the number of passes. */
  collect(maxPasses = 20): number {
    for (let pass = 1; pass <= maxPasses; pass++) {
      let changed = false
      for (const o of [...this.objects]) {
        if (!this.objects.includes(o)) continue
        const {replay} = run(o, {cluster: this.objects, types: this.discovery.types as ResourceType[]})
        for (const q of replay.collectorRequests) if (this.apply(q)) changed = true
      }
      if (!changed) return pass
    }
    throw new Error('the collector did not settle')
  }
}
