// encoding/json of the typed PodTemplateSpec a controller holds (decoded from the API server's JSON,
// protobuf round trip), then decoded into a generic value — the first half of the StatefulSet and
// DaemonSet controllers' getPatch. The version's layout decides what is written: unknown fields are
// gone, omitempty drops empty values, a field without it is written even when zero ("containers":
// null, "resources":{}), and omitzero (from 1.34) drops a zero creationTimestamp.
import * as compiled from './compile.js'
import {type CompiledLayout, knows, ready, type StructDef, type TypeNode} from './compile.js'
import {HashInputError} from './errors.js'
import type {GoJson} from './go-json.js'
import {controllerQuantity, QuantityError, quantityString} from '../apimachinery/quantity.js'
import {describeJson, formatPath} from './describe.js'
import {wellFormed} from './utf8.js'

const {T_BOOL, T_FIELDSV1, T_INT, T_INTORSTRING, T_MAP, T_PTR, T_QUANTITY, T_SLICE, T_STRING, T_TIME, T_UINT} = compiled

type Path = (string | number)[]

function fail(path: Path, reason: string): never {
  throw new HashInputError(formatPath(path), reason)
}

function isNil(v: unknown): boolean {
  return v === null || v === undefined
}

/** encoding/json's isEmptyValue for omitempty, on the decoded value (empty lists/maps are nil by now). */
function isEmpty(node: TypeNode, v: unknown): boolean {
  if (isNil(v)) return node.tag !== compiled.T_STRUCT && node.struct === undefined
  switch (node.tag) {
    case T_STRING:
      return v === ''
    case T_BOOL:
      return v === false
    case T_INT:
    case T_UINT:
      return v === 0 || v === 0n
    case T_SLICE:
      return Array.isArray(v) && v.length === 0
    case T_MAP:
      return typeof v === 'object' && Object.keys(v as object).length === 0
    default:
      return false
  }
}

/** omitzero: the zero value (metav1.Time has IsZero: a null timestamp). */
function isZero(node: TypeNode, v: unknown): boolean {
  if (isNil(v)) return true
  if (node.tag === compiled.T_STRUCT) {
    const o = v as Record<string, unknown>
    return ready(node.struct!).fields.every((f) => f.json === null || isZero(f.node, o[f.json.name]))
  }
  return node.struct === undefined && isEmpty(node, v)
}

function integer(node: TypeNode, v: unknown, path: Path): number | bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v
  if (typeof v === 'bigint') return v
  fail(path, `expected an integer (${node.type}), got ${describeJson(v)}`)
}

/** JSON fields the layout does not know, as paths (Go's decoder drops them). */
let unknownFields: string[] = []

function structJson(sd: StructDef, obj: unknown, path: Path, out: Record<string, GoJson>, inline = false): Record<string, GoJson> {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) fail(path, `expected an object (${sd.type}), got ${describeJson(obj)}`)
  const o = obj as Record<string, unknown>
  ready(sd)
  if (!inline) for (const k of Object.keys(o)) if (!knows(sd, k)) unknownFields.push(formatPath([...path, k]))
  for (const f of sd.fields) {
    if (f.inline) {
      structJson(f.node.struct!, obj, path, out, true)
      continue
    }
    if (f.json === null) continue
    const v = Object.hasOwn(o, f.json.name) ? o[f.json.name] : undefined
    if (f.json.omitempty && isEmpty(f.node, v)) continue
    if (f.json.omitzero && isZero(f.node, v)) continue
    out[f.json.name] = encode(f.node, v, [...path, f.json.name])
  }
  return out
}

function encode(node: TypeNode, v: unknown, path: Path): GoJson {
  switch (node.tag) {
    case T_STRING:
      if (isNil(v)) return ''
      if (typeof v !== 'string') fail(path, `expected a string (${node.type}), got ${describeJson(v)}`)
      return wellFormed(v)
    case T_BOOL:
      if (isNil(v)) return false
      if (typeof v !== 'boolean') fail(path, `expected a boolean (${node.type}), got ${describeJson(v)}`)
      return v
    case T_INT:
    case T_UINT:
      return isNil(v) ? 0 : integer(node, v, path)
    case T_PTR:
      return isNil(v) ? null : encode(node.elem!, v, path)
    case T_SLICE: {
      if (isNil(v)) return null
      if (!Array.isArray(v)) fail(path, `expected an array (${node.type}), got ${describeJson(v)}`)
      if (v.length === 0) return null
      return v.map((e, i) => encode(node.elem!, e, [...path, i]))
    }
    case T_MAP: {
      if (isNil(v)) return null
      if (typeof v !== 'object' || Array.isArray(v)) fail(path, `expected an object (${node.type}), got ${describeJson(v)}`)
      const keys = Object.keys(v as object)
      if (keys.length === 0) return null
      const out: Record<string, GoJson> = {}
      for (const k of keys) out[wellFormed(k)] = encode(node.elem!, (v as Record<string, unknown>)[k], [...path, k])
      return out
    }
    case T_QUANTITY: {
      if (!isNil(v) && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint')
        fail(path, `expected a quantity string (${node.type}), got ${describeJson(v)}`)
      try {
        return quantityString(controllerQuantity(isNil(v) ? null : String(v)))
      } catch (err) {
        if (err instanceof QuantityError) fail(path, `quantity ${JSON.stringify(String(v))} does not parse: ${err.message}`)
        throw err
      }
    }
    case T_INTORSTRING:
      if (isNil(v)) return 0
      if (typeof v === 'string') return wellFormed(v)
      if (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) return v
      return fail(path, `expected a number or a string (${node.type}), got ${describeJson(v)}`)
    case T_TIME: {
      if (isNil(v)) return null
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) fail(path, `expected an RFC 3339 timestamp (${node.type}), got ${describeJson(v)}`)
      // Time.MarshalJSON: UTC, RFC 3339 with whole seconds; the JSON it came from had no more.
      return new Date(Date.parse(v)).toISOString().replace(/\.\d+Z$/, 'Z')
    }
    case T_FIELDSV1:
      return isNil(v) ? null : (v as GoJson)
    default:
      return structJson(node.struct!, isNil(v) ? {} : v, path, {})
  }
}

/** The typed template, written by encoding/json and read back as a generic value. */
export function typedTemplateJson(layout: CompiledLayout, template: unknown, basePath: Path = []): {value: Record<string, GoJson>; unknownFields: string[]} {
  unknownFields = []
  const value = structJson(layout.root.struct!, template, basePath, {})
  return {value, unknownFields}
}
