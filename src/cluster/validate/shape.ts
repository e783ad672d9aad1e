// The checker the boundary validation is built from: small functions, one per JSON type the checks read, composed
// into a shape per kind (kinds.ts). A check returns undefined when the value fits, and a Mismatch naming where and
// what it found otherwise; the path is built only on failure, so a valid object costs a few typeof tests per field.
// Hand-written rather than ajv or zod: it costs about a third of ajv's compiled validator on the 5,000-node bench
// (figures in bench/validate.ts), and it knows Go's meaning of null (object, below).
import {rfc3339Millis} from '../../util/parse.js'

export interface Mismatch {
  /** Where, relative to the value checked: "metadata.ownerReferences[0].uid" ('' for the value itself). */
  at: string
  found: string
  want: string
}

export type Check = (value: unknown) => Mismatch | undefined

/** "a string", "a number", "null"...: the JSON type of a decoded value, as the message names it. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  switch (typeof v) {
    case 'string': return 'a string'
    case 'number': return Number.isFinite(v) ? (Number.isInteger(v) ? 'a number' : 'a fraction') : 'a number beyond any range'
    case 'bigint': return 'a number beyond ±2^53'
    case 'boolean': return 'a boolean'
    case 'object': return 'an object'
    default: return typeof v
  }
}

const miss = (v: unknown, want: string): Mismatch => ({at: '', found: jsonType(v), want})

function under(key: string | number, m: Mismatch, quoted = false): Mismatch {
  const step = typeof key === 'number' ? `[${key}]` : quoted ? `[${JSON.stringify(key)}]` : key
  return {...m, at: m.at === '' ? step : m.at[0] === '[' ? `${step}${m.at}` : `${step}.${m.at}`}
}

export const string: Check = (v) => (typeof v === 'string' ? undefined : miss(v, 'a string'))
export const boolean: Check = (v) => (typeof v === 'boolean' ? undefined : miss(v, 'a boolean'))
export const any: Check = () => undefined

/** A non-empty string: names and uids the checks key their indexes on. */
export const name: Check = (v) => (typeof v === 'string' && v !== '' ? undefined : miss(v, 'a non-empty string'))

function integer(min: number, max: number, want: string): Check {
  return (v) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? undefined
    : typeof v === 'number' && Number.isInteger(v) ? {at: '', found: String(v), want} : miss(v, want))
}

/** Go int32 fields (replicas, counts, seconds): JSON decoding refuses a fraction or a value out of range. */
export const int32 = integer(-(2 ** 31), 2 ** 31 - 1, 'an int32')
/**
 * Go int64 fields: the checks compute in doubles, so values beyond ±2^53 (decoded as bigint, src/util/json.ts) are
 * refused too, rather than rounded.
 */
export const int64 = integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'an integer within ±2^53')
/** intstr.IntOrString (maxSurge, maxUnavailable). */
export const intOrString: Check = (v) => (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31) ? undefined
  : miss(v, 'an int32 or a string'))

/** metav1.Time and MicroTime: an RFC 3339 string that is a real instant (metav1.Time.UnmarshalJSON, time.Parse). */
export const time: Check = (v) => {
  if (typeof v !== 'string') return miss(v, 'an RFC 3339 time')
  return rfc3339Millis(v) === undefined ? {at: '', found: JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v), want: 'an RFC 3339 time'} : undefined
}

export interface Fields {
  [field: string]: Check | {required: Check}
}

export const required = (check: Check): {required: Check} => ({required: check})

/**
 * An object with these fields (others are not looked at). A field that is null is what Go's decoder makes the zero
 * value: nil for a pointer, slice or map, the zero time for metav1.Time (which Go itself writes as null). The checks
 * test `=== undefined`, so a null field is removed, which is what it means. A required field must be present.
 */
export function object(fields: Fields): Check {
  const entries = Object.entries(fields).map(([k, c]) => typeof c === 'function' ? {k, check: c, required: false} : {k, check: c.required, required: true})
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return miss(v, 'an object')
    const o = v as Record<string, unknown>
    for (const e of entries) {
      const x = o[e.k]
      if (x === undefined || x === null) {
        if (e.required) return under(e.k, {at: '', found: x === null ? 'null' : 'missing', want: 'present'})
        if (x === null) delete o[e.k]
        continue
      }
      const m = e.check(x)
      if (m) return under(e.k, m)
    }
    return undefined
  }
}

/** A list whose every element fits; a null element (Go's zero value of a struct) is refused: nothing reads it. */
export function list(element: Check): Check {
  return (v) => {
    if (!Array.isArray(v)) return miss(v, 'a list')
    for (let i = 0; i < v.length; i++) {
      const m = v[i] === null ? miss(null, 'an element') : element(v[i])
      if (m) return under(i, m)
    }
    return undefined
  }
}

/** map[string]string (labels, annotations, selectors' matchLabels). */
export const stringMap: Check = (v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return miss(v, 'a map of strings')
  for (const k in v as Record<string, unknown>) {
    const x = (v as Record<string, unknown>)[k]
    if (typeof x !== 'string') return under(k, miss(x, 'a string'), true)
  }
  return undefined
}

/**
 * Any JSON value Go can decode: a number beyond float64 (1e400, which JavaScript reads as Infinity) is refused by
 * encoding/json ("cannot unmarshal number"), and the hash code re-encodes such values as Go does.
 */
export const json: Check = (v) => {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : miss(v, 'a number within float64')
  if (v === null || typeof v !== 'object') return undefined
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const m = json(v[i])
      if (m) return under(i, m)
    }
    return undefined
  }
  for (const k in v as Record<string, unknown>) {
    const m = json((v as Record<string, unknown>)[k])
    if (m) return under(k, m, !/^[A-Za-z_][\w-]*$/.test(k))
  }
  return undefined
}

/** "metadata.ownerReferences is a string, want a list". */
export function mismatchText(m: Mismatch): string {
  const where = m.at === '' ? 'the object' : m.at
  return m.found === 'missing' ? `${where} is missing` : `${where} is ${m.found}, want ${m.want}`
}
