// What a replay is, as data: one descriptor per replay (src/engine/<controller>/descriptor.ts), listed once in
// src/engine/replays.ts. Everything that enumerates replays or what they read derives from that list: the audit's
// checks and their reads, the RBAC of deploy/, the kinds a snapshot captures in full, the projections that keep only
// the fields read, completion's kinds, the schema enums and the tests' lists. Data only: a descriptor imports no
// engine code, no renderer and no driver (those are named by key and found by the layers above).
import type {Fields} from './cluster/projection.js'
import type {ResourceType, TypeRef} from './cluster/source.js'
import type {Severity} from './explanation.js'

/**
 * The severity a verdict gets, reviewed against "does this need a person?": critical — now; warning — soon, the
 * cluster will not fix it alone or is about to act; info — worth knowing, nothing to do; none — nothing to see.
 * `when` lists the conditions under which the engine gives another severity than `severity`.
 */
export interface VerdictSeverity {
  severity: Severity
  why: string
  when?: readonly {severity: Severity; if: string}[]
}

/** audit: the run's scope (every namespace with -A, else the namespace); cluster: every namespace whatever the scope. */
export type ReadScope = 'audit' | 'cluster' | {namespace: string}

/** One LIST a replay reads. */
export interface ReplayRead {
  /** How the replay finds this read's result again (unique within the replay). */
  key: string
  ref: TypeRef
  scope: ReadScope
  /** full: the object (projected to `fields`); metadata: PartialObjectMetadata only (the collector's graph). */
  detail: 'full' | 'metadata'
  /**
   * cached: the watch-cache view (resourceVersion=0), what the controller's informer holds; required as such.
   * fresh: a quorum read is wanted, but the replay copes with the cached view and knows which one it got.
   */
  view: 'fresh' | 'cached'
  labelSelector?: string
  /** Without it the replay cannot run at all (it is reported as not run); otherwise its result is partial. */
  required: boolean
  why: string
  /**
   * The fields of a full read the replay's engine and driver read (src/cluster/projection.ts says how a path is
   * written), metadata included; '*' for the whole object. What no read names is not kept, so a field read and not
   * named here changes an answer: test/replays/fields.test.ts runs every replay over projected and whole objects.
   */
  fields: Fields
}

/** A single-object GET a replay may send (owners, the live lease double-check, the recheck before adoption). */
export interface ReplayGet {
  ref: TypeRef
  why: string
  /** The fields of the object it reads; none: a metadata-only GET (the collector's owner lookups). */
  fields?: Fields
  /**
   * A GET of the kind's subresource instead of the object (proxy: nodes/NAME/proxy/... — the kubelet's configz); the
   * RBAC it needs is get on that subresource (audit --rbac lists nodes/proxy).
   */
  subresource?: 'proxy'
  /**
   * Why the shipped audit role does not grant this GET (the command still sends it, and says what a 403 leaves
   * unknown): the audit never sends it, and the permission reaches beyond reading.
   */
  notInAuditRole?: string
}

/**
 * Where a replay's subjects are: namespaced — the run's scope (-n, -A, the context's namespace); cluster — cluster-
 * scoped objects, always the whole cluster; mixed — namespaced objects in the run's scope, cluster-scoped objects (and
 * the Nodes' own namespaced objects, their Leases) over the whole cluster.
 */
export type ReplayScope = 'namespaced' | 'cluster' | 'mixed'

export interface ReplayDescriptor {
  /** The audit's --checks value, the report's name, the JUnit suite: `kubectl-why.<name>.<Kind>`. */
  name: string
  /** `kubectl why <command>` replays one subject. */
  command: string
  /** The controllers it stands for, as kube-controller-manager's --controllers names them (Explanation.controller). */
  controllers: readonly string[]
  /** The command's argument: the kinds it takes as TYPE/NAME, and the kind a bare NAME means (arguments, completion). */
  target: {kinds: readonly string[]; natural?: string}
  /** The LISTs it reads. */
  reads: readonly ReplayRead[]
  /**
   * Reads and GETs that discovery decides (the collector's graph: every monitored kind), as a pure function of the
   * served types; each read is like the ones above, its key the type's group/resource.
   */
  discovered?: (types: readonly ResourceType[]) => {reads: ReplayRead[]; gets: ReplayGet[]}
  gets: readonly ReplayGet[]
  scope: ReplayScope
  /** The reads (their keys) whose objects are its subjects; 'all': every read. */
  subjects: 'all' | readonly string[]
  /** The schema of its Explanations: schemas/<file>.json#/definitions/<definition>. */
  schema: {file: string; definition: string}
  severities: Record<string, VerdictSeverity>
  /** Its views by key (render/views.ts maps a key to the renderer): the first is the audit's -o wide view. */
  views: readonly string[]
  description: string
  /** Set while its engine has not landed: left out of the audit's default set, refused by --checks. */
  unavailable?: string
}

/** A severities table from an engine's verdict → severity map and a why for each. */
export const severitiesOf = (map: Record<string, Severity>, why: Record<string, string>): Record<string, VerdictSeverity> =>
  Object.fromEntries(Object.entries(map).map(([v, severity]) => [v, {severity, why: why[v] ?? ''}]))

/**
 * The metadata every replay reads of a full object: identity, ownership, deletion, labels (apimachinery/pkg/apis/
 * meta/v1/types.go ObjectMeta). Annotations are named by each read that looks at one.
 */
export const OBJECT_META: readonly string[] = [
  'metadata.{name,generateName,namespace,uid,resourceVersion,generation,creationTimestamp,deletionTimestamp,deletionGracePeriodSeconds}',
  'metadata.{labels,ownerReferences,finalizers}',
]

/**
 * The kinds some replay reads in full, each once, in the list's order (the first read of each): what a snapshot
 * captures in full (cluster/snapshot/capture.ts), so that every replay can run on it offline.
 */
export function fullKinds(descriptors: readonly ReplayDescriptor[]): {apiVersion: string; kind: string}[] {
  const out: {apiVersion: string; kind: string}[] = []
  for (const d of descriptors)
    for (const r of d.reads)
      if (r.detail === 'full' && !out.some((k) => k.kind === r.ref.kind && k.apiVersion === r.ref.apiVersion))
        out.push({apiVersion: r.ref.apiVersion ?? 'v1', kind: r.ref.kind})
  return out
}
