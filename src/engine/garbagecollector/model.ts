// What the garbage-collector replay works on. Everything here is plain data: the command reads the
// cluster and fills these in; the engine never does I/O (see replay.ts for the fixpoint protocol:
// the engine says which reads it still needs, the command performs them and calls it again).
import type {OwnerReference} from '../../cluster/source.js'

export const FINALIZER_FOREGROUND = 'foregroundDeletion'
export const FINALIZER_ORPHAN = 'orphan'

/** The metadata the collector's graph and its metadata client see of an object (PartialObjectMetadata). */
export interface GcObject {
  apiVersion: string
  kind: string
  metadata: {
    name: string
    namespace?: string
    uid: string
    resourceVersion?: string
    /** Kept only where it is shown (the --tree view's AGE column): see slimObject's `keep`. */
    creationTimestamp?: string
    deletionTimestamp?: string | null
    finalizers?: string[]
    ownerReferences?: OwnerReference[]
  }
}

/** Where an owner is read: the exact apiVersion/kind of the ref, resolved through discovery. */
export interface OwnerReadKey {
  group: string
  version: string
  resource: string
  kind: string
  /** The dependent's namespace for namespaced owner kinds; absent for cluster-scoped ones. */
  namespace?: string
  name: string
}

/** The result of one fresh (quorum), metadata-only GET of an owner by name. */
export type OwnerRead =
  | {outcome: 'found'; object: GcObject}
  /** proven: a live server answered the GET with 404, which is proof whatever the run's evidence says of lists. */
  | {outcome: 'notFound'; proven?: boolean}
  | {outcome: 'error'; reason: string; status?: number; message: string}

export type Classification = 'solid' | 'dangling' | 'waitingForDependentsDeletion'

export type GcVerdict =
  | 'keep'
  | 'patchRemoveOwnerRefs'
  | 'delete'
  | 'noOwners'
  | 'waitBeingDeleted'
  | 'removeFinalizer'
  | 'waitForBlockingDependents'
  | 'orphanDependentsThenRemoveFinalizer'
  | 'stuckRestMapping'
  | 'stuckNamespacedOwnerOfClusterScopedObject'
  | 'notMonitored'
  | 'unknown'

export const GC_VERDICTS: readonly GcVerdict[] = [
  'keep',
  'patchRemoveOwnerRefs',
  'delete',
  'noOwners',
  'waitBeingDeleted',
  'removeFinalizer',
  'waitForBlockingDependents',
  'orphanDependentsThenRemoveFinalizer',
  'stuckRestMapping',
  'stuckNamespacedOwnerOfClusterScopedObject',
  'notMonitored',
  'unknown',
]

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan'

export function readKeyString(k: OwnerReadKey): string {
  return `${k.group}/${k.version}/${k.resource}/${k.namespace ?? ''}/${k.name}`
}

/** The request path the collector's metadata client uses for a resource (namespace only for namespaced kinds). */
export function resourcePath(t: {group: string; version: string; resource: string}, namespace: string | undefined, name?: string): string {
  const base = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`
  const ns = namespace ? `/namespaces/${namespace}` : ''
  return `${base}${ns}/${t.resource}${name === undefined ? '' : `/${name}`}`
}

export function ownerReadPath(k: OwnerReadKey): string {
  return resourcePath(k, k.namespace, k.name)
}

export function isBeingDeleted(o: GcObject): boolean {
  return o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null
}

/** A core Namespace: its own finalizer ("kubernetes") is in spec.finalizers, which the metadata view does not show. */
export function isNamespace(o: {apiVersion: string; kind: string}): boolean {
  return o.kind === 'Namespace' && o.apiVersion === 'v1'
}

export function hasFinalizer(o: GcObject, f: string): boolean {
  return (o.metadata.finalizers ?? []).includes(f)
}

/** The graph's deletingDependents flag, as a consistent snapshot shows it (gc.md §10.1). */
export function isDeletingDependents(o: GcObject): boolean {
  return isBeingDeleted(o) && hasFinalizer(o, FINALIZER_FOREGROUND)
}

export function describeObject(o: {kind: string; metadata: {namespace?: string; name: string}}): string {
  return `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`
}

/** Keeps only what the replay reads, so that 100,000 listed objects stay small in memory. */
export function slimObject(
  o: {apiVersion?: string; kind?: string; metadata?: Record<string, unknown>},
  fallback?: {apiVersion: string; kind: string},
  keep?: {creationTimestamp?: boolean},
): GcObject | undefined {
  const m = o.metadata
  if (!m || typeof m.name !== 'string' || typeof m.uid !== 'string') return undefined
  const meta: GcObject['metadata'] = {name: m.name, uid: m.uid}
  if (typeof m.namespace === 'string' && m.namespace !== '') meta.namespace = m.namespace
  if (typeof m.resourceVersion === 'string') meta.resourceVersion = m.resourceVersion
  if (keep?.creationTimestamp && typeof m.creationTimestamp === 'string') meta.creationTimestamp = m.creationTimestamp
  if (typeof m.deletionTimestamp === 'string') meta.deletionTimestamp = m.deletionTimestamp
  if (Array.isArray(m.finalizers) && m.finalizers.length > 0) meta.finalizers = m.finalizers as string[]
  if (Array.isArray(m.ownerReferences) && m.ownerReferences.length > 0) meta.ownerReferences = m.ownerReferences as OwnerReference[]
  // Metadata-only responses name PartialObjectMetadata as their kind: the listed type is the real one.
  const partial = o.kind === 'PartialObjectMetadata' || o.kind === undefined
  return {
    apiVersion: (partial ? fallback?.apiVersion : o.apiVersion) ?? o.apiVersion ?? '',
    kind: (partial ? fallback?.kind : o.kind) ?? o.kind ?? '',
    metadata: meta,
  }
}
