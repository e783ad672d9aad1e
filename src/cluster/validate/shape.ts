// The checker the boundary validation is built from: small functions, one per JSON type the checks read, composed
// into a shape per kind (kinds.ts). A check returns undefined when the value fits, and a Mismatch naming where and
// what it found otherwise; the path is built only on failure, so a valid object costs a few typeof tests per field.
// object() and list() write their checks as code (as ajv compiles a schema), so that no call site is shared between
// shapes. Hand-written rather than ajv: about ajv's cost (0.9–1.2× its time on Pods and Nodes at 5,000 nodes,
// bench/validate.ts), and it knows Go's meaning of null (object, below) and says what it found in the user's words.
import {isRfc3339} from '../../util/parse.js'

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
    case 'string':
      return 'a string'
    case 'number':
      return Number.isFinite(v) ? (Number.isInteger(v) ? 'a number' : 'a fraction') : 'a number beyond any range'
    case 'bigint':
      return 'a number beyond ±2^53'
    case 'boolean':
      return 'a boolean'
    case 'object':
      return 'an object'
    default:
      return typeof v
  }
}

const miss = (v: unknown, want: string): Mismatch => ({at: '', found: jsonType(v), want})

function under(key: string | number, m: Mismatch, quoted = false): Mismatch {
  const step = typeof key === 'number' ? `[${key}]` : quoted ? `[${JSON.stringify(key)}]` : key
  return {...m, at: m.at === '' ? step : m.at[0] === '[' ? `${step}${m.at}` : `${step}.${m.at}`}
}

/**
 * A check, and for the simple ones the test it makes as a JavaScript expression of `x`, so that object() and list()
 * can write it into their own code: on a valid value no function is called at all.
 */
type Primitive = Check & {valid: string}
const primitive = (valid: string, check: Check): Primitive => Object.assign(check, {valid})

export const string = primitive('typeof x === "string"', (v) => (typeof v === 'string' ? undefined : miss(v, 'a string')))
export const boolean = primitive('typeof x === "boolean"', (v) => (typeof v === 'boolean' ? undefined : miss(v, 'a boolean')))
export const any = primitive('true', () => undefined)

/** A non-empty string: names and uids the checks key their indexes on. */
export const name = primitive('typeof x === "string" && x !== ""', (v) => (typeof v === 'string' && v !== '' ? undefined : miss(v, 'a non-empty string')))

function integer(min: number, max: number, want: string): Primitive {
  return primitive(`typeof x === "number" && Number.isInteger(x) && x >= ${min} && x <= ${max}`, (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? undefined
      : typeof v === 'number' && Number.isInteger(v)
        ? {at: '', found: String(v), want}
        : miss(v, want),
  )
}

/** Go int32 fields (replicas, counts, seconds): JSON decoding refuses a fraction or a value out of range. */
export const int32 = integer(-(2 ** 31), 2 ** 31 - 1, 'an int32')
/**
 * Go int64 fields: the checks compute in doubles, so values beyond ±2^53 (decoded as bigint, src/util/json.ts) are
 * refused too, rather than rounded.
 */
export const int64 = integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'an integer within ±2^53')
/**
 * A Go int64 the replay reads exactly (as bigint beyond 2^53): tolerationSeconds, whose huge values Go wraps
 * (getMinTolerationTime's seconds × 1e9), so refusing them would drop a pod the API server serves.
 */
export const int64Exact = primitive(
  '(typeof x === "number" && Number.isSafeInteger(x)) || (typeof x === "bigint" && x >= -9223372036854775808n && x <= 9223372036854775807n)',
  (v) =>
    (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'bigint' && v >= -(2n ** 63n) && v <= 2n ** 63n - 1n)
      ? undefined
      : typeof v === 'bigint'
        ? {at: '', found: String(v), want: 'an int64'}
        : miss(v, 'an int64'),
)
/** intstr.IntOrString (maxSurge, maxUnavailable). */
export const intOrString = primitive('typeof x === "string" || (typeof x === "number" && Number.isInteger(x) && Math.abs(x) < 2147483648)', (v) =>
  typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31) ? undefined : miss(v, 'an int32 or a string'),
)

/** metav1.Time and MicroTime: an RFC 3339 string that is a real instant (metav1.Time.UnmarshalJSON, time.Parse). */
export const time = primitive('typeof x === "string" && isRfc3339(x)', (v) => {
  if (typeof v !== 'string') return miss(v, 'an RFC 3339 time')
  return isRfc3339(v) ? undefined : {at: '', found: JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v), want: 'an RFC 3339 time'}
})

export interface Fields {
  [field: string]: Check | {required: Check}
}

export const required = (check: Check): {required: Check} => ({required: check})

/** The test of one value `x` as code: the primitive's own expression, else a call to the check (`m` keeps its answer). */
function test(check: Check, deps: Check[]): string {
  const valid = (check as Partial<Primitive>).valid
  if (valid !== undefined) return `(${valid})`
  deps.push(check)
  return `!(m = c${deps.length - 1}(x))`
}

/** A check whose code is compiled on first use (compiledOf): a run compiles only the shapes of the kinds it reads. */
type Deferred = Check & {compile(): Check}

/**
 * The code is written once per shape; each check it calls is passed in, so no call site is shared between shapes.
 * It is compiled (new Function, which no code cache keeps: ~25 µs a shape, every run) when first used, and the
 * checks it calls are passed in compiled, so only the first call of a shape goes through the deferral.
 */
function build(body: string, deps: Check[]): Check {
  let compiled: Check | undefined
  const compile = (): Check => {
    if (compiled) return compiled
    const args = deps.map((_, i) => `c${i}`)
    // Generated from the shapes in kinds.ts only, never from input.
    const make = new Function('miss', 'under', 'isRfc3339', ...args, `return function check(v) {\n${body}\n}`)
    compiled = make(miss, under, isRfc3339, ...deps.map(compiledOf)) as Check
    return compiled
  }
  return Object.assign((v: unknown) => compile()(v), {compile})
}

/** The check itself, compiled: what to keep and call when it is called per object. */
export function compiledOf(check: Check): Check {
  return (check as Partial<Deferred>).compile?.() ?? check
}

/**
 * An object with these fields (others are not looked at). A field that is null is what Go's decoder makes the zero
 * value: nil for a pointer, slice or map, the zero time for metav1.Time (which Go itself writes as null). The checks
 * test `=== undefined`, so a null field is removed, which is what it means. A required field must be present.
 */
export function object(fields: Fields): Check {
  const deps: Check[] = []
  const lines = ['if (v === null || typeof v !== "object" || Array.isArray(v)) return miss(v, "an object")', 'let x, m']
  for (const [k, c] of Object.entries(fields)) {
    const key = JSON.stringify(k)
    const check = typeof c === 'function' ? c : c.required
    deps.push(check)
    const self = `c${deps.length - 1}`
    lines.push(`x = v[${key}]`)
    lines.push(
      typeof c === 'function'
        ? `if (x === null) delete v[${key}]`
        : `if (x === undefined || x === null) return under(${key}, {at: "", found: x === null ? "null" : "missing", want: "present"})`,
    )
    lines.push(`else if (x !== undefined && !${test(check, deps)}) return under(${key}, m ?? ${self}(x))`)
    lines.push('m = undefined')
  }
  lines.push('return undefined')
  return build(lines.join('\n'), deps)
}

/** A list whose every element fits; a null element (Go's zero value of a struct) is refused: nothing reads it. */
export function list(element: Check): Check {
  const deps: Check[] = [element]
  return build(
    [
      'if (!Array.isArray(v)) return miss(v, "a list")',
      'let x, m',
      'for (let i = 0; i < v.length; i++) {',
      '  x = v[i]',
      '  if (x === null) return under(i, miss(null, "an element"))',
      `  if (!${test(element, deps)}) return under(i, m ?? c0(x))`,
      '}',
      'return undefined',
    ].join('\n'),
    deps,
  )
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
 * A ResourceList (requests, limits): resource.Quantity's UnmarshalJSON takes a JSON string or a bare number
 * (apimachinery pkg/api/resource/quantity.go), nothing else.
 */
export const quantityMap: Check = (v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return miss(v, 'a map of quantities')
  for (const k in v as Record<string, unknown>) {
    const x = (v as Record<string, unknown>)[k]
    if (typeof x !== 'string' && !(typeof x === 'number' && Number.isFinite(x))) return under(k, miss(x, 'a quantity (a string or a number)'), true)
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
