// What the audit keeps of each listed object: the fields the checks' reads name (each replay's descriptor,
// src/engine/<controller>/descriptor.ts), nothing else, so that 150,000 pods fit in memory next to the garbage
// collector's graph. The projection itself is generic (src/cluster/projection.ts); here is only which reads apply to a
// list: those merged into it by the plan, each confined to the objects it asked for (its namespace, its selector).
import {groupKindKey} from '../cluster/object-store.js'
import {
  type Fields,
  fieldProjection,
  Interner,
  type ProjectionPlan,
  projectMeta,
  projectMetadata,
  projectWhole,
  type ScopedFields,
} from '../cluster/projection.js'
import {parseLabelSelector} from '../cluster/selectors.js'
import type {KubeObject, ResourceType} from '../cluster/source.js'
import {slimObject} from '../engine/garbagecollector/model.js'
import {DESCRIPTORS} from '../engine/replays.js'
import {BUILTIN_KINDS} from '../cluster/builtin-kinds.js'

export {Interner, projectMeta, projectMetadata}

/**
 * A metadata-only item as the collector's graph holds it (slimObject: name, namespace, uid, resourceVersion,
 * deletionTimestamp, finalizers, ownerReferences), so that the gc check adds it to its graph as it is. The other check
 * that reads metadata only (replicas: whether a Namespace is terminating) reads deletionTimestamp.
 */
export function projectMetadataOnly(o: KubeObject, intern = new Interner(), keep: {labels?: boolean; creationTimestamp?: boolean} = {}): KubeObject {
  const slim = slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, {apiVersion: o.apiVersion ?? '', kind: o.kind ?? ''})
  if (!slim) return {apiVersion: o.apiVersion, kind: o.kind, metadata: projectMeta(o.metadata)}
  // -l and --sort age read what the collector does not: kept only when asked for.
  const meta = slim.metadata as Record<string, unknown>
  if (keep.labels && o.metadata?.labels) meta.labels = intern.same(o.metadata.labels)
  if (keep.creationTimestamp && o.metadata?.creationTimestamp) meta.creationTimestamp = o.metadata.creationTimestamp
  slim.apiVersion = intern.s(slim.apiVersion)
  slim.kind = intern.s(slim.kind)
  if (slim.metadata.namespace) slim.metadata.namespace = intern.s(slim.metadata.namespace)
  if (slim.metadata.ownerReferences) slim.metadata.ownerReferences = intern.same(slim.metadata.ownerReferences)
  return slim as unknown as KubeObject
}

/** What the projections keep beyond what the reads name: labels for -l, creation times for --sort age. */
export interface Keep {
  labels?: boolean
  creationTimestamp?: boolean
  /** Every object of a full read whole (less managedFields and last-applied): what the projections are tested against. */
  whole?: boolean
}

function kept(keep: Keep): ScopedFields[] {
  const out: ScopedFields[] = []
  if (keep.labels) out.push({fields: ['metadata.labels']})
  if (keep.creationTimestamp) out.push({fields: ['metadata.creationTimestamp']})
  return out
}

/** One read merged into a list: its fields, and which of the list's objects it asked for. */
export interface ListRead {
  fields: Fields
  namespace?: string
  labelSelector?: string
}

interface ManagedFieldsEntry {
  manager?: string
  operation?: string
  time?: string
  subresource?: string
  fieldsV1?: {'f:metadata'?: {'f:finalizers'?: unknown}}
}

/**
 * Of an object past its deletionTimestamp with finalizers only: the managedFields entries that wrote
 * metadata.finalizers, each cut to its manager, operation, time, subresource and that one set (fieldsV1
 * f:metadata.f:finalizers), so that the deleting check names a finalizer's writer from the same data `gc --all` reads
 * (src/engine/finalizers finalizerManagers). Every other object, and every other managedFields entry, is dropped as
 * before (memory). One function on purpose: helper "memory" is restructuring src/audit.
 */
export function finalizerWriters(o: KubeObject): ManagedFieldsEntry[] | undefined {
  const m = o.metadata as {deletionTimestamp?: unknown; finalizers?: unknown[]; managedFields?: unknown} | undefined
  if (!m?.deletionTimestamp || !m.finalizers?.length || !Array.isArray(m.managedFields)) return undefined
  const out: ManagedFieldsEntry[] = []
  for (const e of m.managedFields as ManagedFieldsEntry[]) {
    const set = e?.fieldsV1?.['f:metadata']?.['f:finalizers']
    if (!set || typeof set !== 'object') continue
    out.push({
      ...(e.manager !== undefined ? {manager: e.manager} : {}),
      ...(e.operation !== undefined ? {operation: e.operation} : {}),
      ...(e.time !== undefined ? {time: e.time} : {}),
      ...(e.subresource !== undefined ? {subresource: e.subresource} : {}),
      fieldsV1: {'f:metadata': {'f:finalizers': set}},
    })
  }
  return out.length > 0 ? out : undefined
}

/** The projection of a list's items, from the reads the plan merged into it. */
export function projector(
  list: {metadataOnly: boolean; namespace?: string; labelSelector?: string; needs: readonly ListRead[]},
  intern = new Interner(),
  keep: Keep = {},
): (o: KubeObject) => KubeObject {
  const project = projectorOf(list, intern, keep)
  return (o) => withFinalizerWriters(o, project(o))
}

/** The projected object with finalizerWriters(original) as its managedFields, when there are any. */
function withFinalizerWriters(original: KubeObject, projected: KubeObject): KubeObject {
  // Only where the projection keeps what they explain (deletionTimestamp and finalizers): projecting twice gives the same.
  const pm = projected.metadata
  if (!pm?.deletionTimestamp || !pm.finalizers?.length) return projected
  const writers = finalizerWriters(original)
  return writers ? {...projected, metadata: {...projected.metadata, managedFields: writers} as KubeObject['metadata']} : projected
}

function projectorOf(
  list: {metadataOnly: boolean; namespace?: string; labelSelector?: string; needs: readonly ListRead[]},
  intern: Interner,
  keep: Keep,
): (o: KubeObject) => KubeObject {
  if (list.metadataOnly) return (o) => projectMetadataOnly(o, intern, keep)
  if (keep.whole) return projectWhole
  const reads = list.needs.map((n): ScopedFields => {
    // As plan.ts itemsFor: a read of one namespace, or with its own selector, in a wider list asked for those objects.
    const namespace = n.namespace !== undefined && list.namespace === undefined ? n.namespace : undefined
    const selector = n.labelSelector !== undefined && list.labelSelector !== n.labelSelector ? n.labelSelector : undefined
    if (namespace === undefined && selector === undefined) return {fields: n.fields}
    return {fields: n.fields, where: {...(namespace !== undefined ? {namespace} : {}), ...(selector ? {labels: parseLabelSelector(selector)} : {})}}
  })
  return fieldProjection([...reads, ...kept(keep)], intern)
}

/**
 * What every replay reads of each kind, by the object store's group/kind key (object-store.ts groupKindKey): every
 * full read and every GET, each confined to its namespace and selector. What a snapshot keeps as objects arrive when
 * the run reads only what the checks read (the audit: cluster/snapshot/slim.ts); a kind no replay reads in full is
 * kept as metadata.
 */
export function auditProjectionPlan(types: readonly ResourceType[] = BUILTIN_KINDS): ProjectionPlan {
  const byKind = new Map<string, ScopedFields[]>()
  const add = (apiVersion: string | undefined, kind: string, r: ScopedFields) => {
    const key = groupKindKey(apiVersion, kind)
    byKind.set(key, [...(byKind.get(key) ?? []), r])
  }
  for (const d of DESCRIPTORS) {
    const found = d.discovered?.(types) ?? {reads: [], gets: []}
    for (const r of [...d.reads, ...found.reads]) {
      if (r.detail !== 'full') continue
      const namespace = typeof r.scope === 'object' ? r.scope.namespace : undefined
      const where = {...(namespace !== undefined ? {namespace} : {}), ...(r.labelSelector ? {labels: parseLabelSelector(r.labelSelector)} : {})}
      add(r.ref.apiVersion, r.ref.kind, Object.keys(where).length > 0 ? {fields: r.fields, where} : {fields: r.fields})
    }
    for (const g of [...d.gets, ...found.gets]) if (g.fields) add(g.ref.apiVersion, g.ref.kind, {fields: g.fields})
  }
  // The metadata reads of a kind some replay reads in full (the collector's graph of pods) are served by the same objects.
  for (const d of DESCRIPTORS)
    for (const r of [...d.reads, ...(d.discovered?.(types).reads ?? [])])
      if (r.detail === 'metadata' && byKind.has(groupKindKey(r.ref.apiVersion, r.ref.kind))) add(r.ref.apiVersion, r.ref.kind, {fields: r.fields})
  return {byKind, finish: withFinalizerWriters}
}
