// ControllerRevision hashing and naming (pkg/controller/history/controller_history.go) and the patch
// the StatefulSet controller stores in it (getPatch, pkg/controller/statefulset/stateful_set_utils.go).
import type {CompiledLayout} from './compile.js'
import {FNV32_OFFSET, fnv132, sum32} from './fnv.js'
import {goJsonMarshal} from './go-json.js'
import {encodeSum32} from './safe-encode.js'
import {typedTemplateJson} from './typed-json.js'

const encoder = new TextEncoder()

/**
 * HashControllerRevision: FNV-1 32 (fnv.New32, not 1a) over Data.Raw, then — when probe is set — the
 * probe's decimal digits, SafeEncoded. (Data.Object, when set, would be DeepHashObject'ed after a reset;
 * the StatefulSet controller never sets it.)
 */
export function HashControllerRevision(raw: Uint8Array, probe: number | null | undefined): string {
  let h = fnv132(raw, FNV32_OFFSET)
  if (probe !== null && probe !== undefined) h = fnv132(encoder.encode(String(probe | 0)), h)
  return encodeSum32(sum32(h))
}

/** ControllerRevisionName: prefix cut to 223 bytes so that prefix-hash fits 253. */
export function ControllerRevisionName(prefix: string, hash: string): string {
  const bytes = Buffer.from(prefix, 'utf8')
  const cut = bytes.length > 223 ? bytes.subarray(0, 223).toString('utf8') : prefix
  return `${cut}-${hash}`
}

/**
 * getPatch: the set encoded as JSON, decoded into a map, reduced to
 * {"spec":{"template":<template + "$patch":"replace">}} and written by json.Marshal (sorted keys,
 * HTML-safe escaping). Only the template matters; its encoding follows the version's layout.
 */
export function statefulSetPatch(layout: CompiledLayout, template: unknown, basePath: (string | number)[] = [], unknownFields?: string[]): Uint8Array {
  const typed = typedTemplateJson(layout, template, basePath)
  unknownFields?.push(...typed.unknownFields)
  typed.value.$patch = 'replace'
  return encoder.encode(goJsonMarshal({spec: {template: typed.value}}))
}
