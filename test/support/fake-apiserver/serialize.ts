// How objects come out of the server, byte for byte like kube-apiserver's JSON encoder:
// - a built-in kind read alone starts with kind, then apiVersion (Go's TypeMeta order);
// - items of a built-in list carry neither (a typed PodList's items have an empty TypeMeta),
//   while items of a custom resource list keep theirs, as stored (unstructured);
// - metadata-only forms are meta.k8s.io PartialObjectMetadata(List);
// - every body ends with a newline (json.Encoder.Encode); lists are assembled in respond.ts.
// An entry is serialized once, when stored (store.ts storedJson); the other forms derive from that string.
import {apiVersionOf} from '../../../src/cluster/builtin-kinds.js'
import {stringifyJson} from '../../../src/util/json.js'
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

/** The object as a list item, at the group/version the request named. */
export function itemJson(e: Entry, apiVersion: string): string {
  if (!e.type.custom || apiVersionOf(e.type) === apiVersion) return e.body
  return toJson({...e.object(), apiVersion})
}

/** The object as a GET returns it. */
export function objectJson(e: Entry, apiVersion: string): string {
  if (e.type.custom) return itemJson(e, apiVersion)
  const head = `{"kind":${JSON.stringify(e.type.kind)},"apiVersion":${JSON.stringify(apiVersion)}`
  return e.body === '{}' ? `${head}}` : `${head},${e.body.slice(1)}`
}

/** meta.AsPartialObjectMetadata: only metadata survives, under meta.k8s.io's own kind. */
export function metadataJson(e: Entry, version: string): string {
  return `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/${version}","metadata":${e.metaJson}}`
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
