// How objects come out of the server, byte for byte like kube-apiserver's JSON encoder:
// - a built-in kind read alone starts with kind, then apiVersion (Go's TypeMeta order);
// - items of a built-in list carry neither (a typed PodList's items have an empty TypeMeta),
//   while items of a custom resource list keep theirs, as stored;
// - metadata-only forms are meta.k8s.io PartialObjectMetadata(List);
// - every body ends with a newline (json.Encoder.Encode).
// Serializations are cached on the entry, so a large cluster pays for each object once.
import {stringifyJson} from '../../../src/util/json.js'
import type {KubeObject} from '../../../src/cluster/source.js'
import type {Entry} from './store.js'

/** JSON.stringify is three times faster; only objects holding bigint (int64 > 2^53) need the exact writer. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value)
  } catch (e) {
    if (e instanceof TypeError && /BigInt/i.test(e.message)) return stringifyJson(value)
    throw e
  }
}

export interface Shape {
  /** Whether the kind is compiled into the server (typed) rather than a custom resource. */
  builtin: boolean
  kind: string
  /** The group/version the request was made at. */
  apiVersion: string
}

function withoutTypeMeta(obj: KubeObject): KubeObject {
  const {apiVersion: _a, kind: _k, ...rest} = obj
  return rest
}

/** The object as a list item. */
export function itemJson(e: Entry, shape: Shape): string {
  if (shape.builtin) return (e.itemJson ??= toJson(withoutTypeMeta(e.obj)))
  if (e.obj.apiVersion === shape.apiVersion) return (e.itemJson ??= toJson(e.obj))
  return toJson({...e.obj, apiVersion: shape.apiVersion})
}

/** The object as a GET returns it. */
export function objectJson(e: Entry, shape: Shape): string {
  if (!shape.builtin) return itemJson(e, shape)
  const body = itemJson(e, shape)
  const head = `{"kind":${JSON.stringify(shape.kind)},"apiVersion":${JSON.stringify(shape.apiVersion)}`
  return body === '{}' ? `${head}}` : `${head},${body.slice(1)}`
}

/** meta.AsPartialObjectMetadata: only metadata survives, under meta.k8s.io's own kind. */
export function metadataJson(e: Entry, version: string): string {
  const head = `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/${version}","metadata":`
  if (version !== 'v1') return `${head}${toJson(e.obj.metadata ?? {})}}`
  return (e.metaJson ??= `${head}${toJson(e.obj.metadata ?? {})}}`)
}

export interface ListMeta {
  resourceVersion: string
  continue?: string
  remainingItemCount?: number
}

/** The list envelope up to the items array; metav1.ListMeta order: resourceVersion, continue, remainingItemCount. */
export function listHead(kind: string, apiVersion: string, meta: ListMeta): string {
  const m: Record<string, unknown> = {resourceVersion: meta.resourceVersion}
  if (meta.continue) m.continue = meta.continue
  if (meta.remainingItemCount !== undefined) m.remainingItemCount = meta.remainingItemCount
  return `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(m)},"items":[`
}

export const LIST_TAIL = ']}\n'
