// JSON and YAML reading that keeps Kubernetes int64 values exact (they exceed 2^53) and reports
// malformed input with file, line and column.
import {parse as parseLossless, stringify as stringifyLossless} from 'lossless-json'
import {UserError} from '../errors.js'
import {yamlLib} from './yaml-lib.js'

/** A number token in value position with 16 or more digits: the only case where JSON.parse can lose precision. */
export const LONG_INTEGER = /[:,[]\s*-?\d{16,}\s*[,}\]]/

function exactNumber(text: string): number | bigint {
  if (/^-?\d+$/.test(text)) {
    const n = Number(text)
    return Number.isSafeInteger(n) ? n : BigInt(text)
  }
  return Number(text)
}

export function lineColumn(text: string, offset: number): {line: number; column: number} {
  let line = 1
  let last = -1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    last = i
  }
  return {line, column: offset - last}
}

/** JSON.parse's messages vary and often lack a position; the exact parser's always have one. */
function describeJsonError(text: string, where: string): UserError {
  let message = 'malformed JSON'
  let offset = text.length
  try {
    parseLossless(text)
  } catch (err) {
    const m = /^(.*?) at position (\d+)/.exec((err as Error).message)
    if (m) {
      message = m[1].replace('reached end of input', 'the input ends (truncated?)')
      offset = Number(m[2])
    }
  }
  const {line, column} = lineColumn(text, offset)
  return new UserError(`${where}:${line}:${column}: malformed JSON: ${message}`, 'check that the file is complete JSON as `kubectl get -o json` prints it')
}

/**
 * Parses JSON; integers beyond 2^53 become bigint, everything else is what JSON.parse gives.
 * The fast path is JSON.parse itself; the exact parser runs only when JSON.parse's value holds a number it may have
 * rounded (inspectParsed: the same walk that bounds the nesting).
 */
export function parseJson(text: string, where = 'input'): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw describeJsonError(text, where)
  }
  const found = inspectParsed(value)
  if (found === PARSED_TOO_DEEP) checkDepth(value, where)
  return found === PARSED_ROUNDED ? parseLossless(text, undefined, exactNumber) : value
}

/**
 * JSON.parse's value of `text` with its integers beyond 2^53 exact, for a reader that bounds the nesting itself
 * (documents.ts): the value as it is when it holds no number JSON.parse may have rounded, else the exact parse.
 */
export function exactJson(text: string, value: unknown): unknown {
  const found = inspectParsed(value)
  const rounded = found === PARSED_ROUNDED || (found === PARSED_TOO_DEEP && LONG_INTEGER.test(text))
  return rounded ? parseLossless(text, undefined, exactNumber) : value
}

/** inspectParsed's answers: nothing to fix, a number JSON.parse may have rounded, nesting beyond MAX_DEPTH. */
export const PARSED_OK = 0
export const PARSED_ROUNDED = 1
export const PARSED_TOO_DEEP = 2

/**
 * One walk over what JSON.parse made of a JSON text: whether it nests beyond MAX_DEPTH (PARSED_TOO_DEEP, found
 * first: the walk stops there, so a number further on is not looked at), else whether a member or element is a
 * number beyond ±(2^53 - 1) (PARSED_ROUNDED). That is exactly when the exact parser gives another value: an integer
 * literal beyond 2^53 (what LONG_INTEGER finds in the text) parses to a double of at least 2^53, and any other number
 * there (1e16, a fraction) the exact parser gives as JSON.parse does (exactNumber: Number of its text). Walking the
 * value instead of running LONG_INTEGER over the text, which bounding the depth walks anyway, takes less time than
 * the regular expression alone on a page of pods (1.2 against 2.2-4 ms for 500 pods: container IDs are hex, and
 * sixteen digits in a row are common in them). A bare top-level number is not looked at, as LONG_INTEGER does not.
 */
export function inspectParsed(value: unknown): number {
  if (value === null || typeof value !== 'object') return PARSED_OK
  rounded = false
  if (nestsBeyond(value, 1)) return PARSED_TOO_DEEP
  return rounded ? PARSED_ROUNDED : PARSED_OK
}

/** Set by nestsBeyond when it meets a number JSON.parse may have rounded (one flag, no object per walk). */
let rounded = false

function mayBeRounded(x: number): boolean {
  return x > Number.MAX_SAFE_INTEGER || x < -Number.MAX_SAFE_INTEGER
}

/**
 * How deep a value read from input may nest. Kubernetes objects nest a few dozen levels; the code that serialises
 * and hashes them recurses once or more a level and would overflow the stack at a few thousand (Go's encoding/json,
 * which the API server and kubectl use, stops at 10000).
 */
export const MAX_DEPTH = 1000

/**
 * Whether the value nests deeper than MAX_DEPTH. Recursive, and so at most MAX_DEPTH + 1 frames deep (it stops
 * there): without the explicit stack and the Object.values array per object of a walk by hand it takes about 0.6×
 * the time, which counts as it runs once over every object read (json-body.ts, documents.ts).
 */
export function tooDeep(value: unknown): boolean {
  return value !== null && typeof value === 'object' && nestsBeyond(value, 1)
}

function nestsBeyond(value: object, depth: number): boolean {
  if (depth > MAX_DEPTH) return true
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i]
      if (typeof x === 'object') {
        if (x !== null && nestsBeyond(x, depth + 1)) return true
      } else if (typeof x === 'number' && mayBeRounded(x)) rounded = true
    }
    return false
  }
  const o = value as Record<string, unknown>
  for (const k in o) {
    const x = o[k]
    if (typeof x === 'object') {
      if (x !== null && nestsBeyond(x, depth + 1)) return true
    } else if (typeof x === 'number' && mayBeRounded(x)) rounded = true
  }
  return false
}

/** One line, exit 2, for a value nested deeper than MAX_DEPTH. */
export function checkDepth(value: unknown, where: string): void {
  if (tooDeep(value))
    throw new UserError(`${where}: nested deeper than ${MAX_DEPTH} levels`, 'no Kubernetes object nests that deep: pass what `kubectl get -o json|yaml` prints')
}

/** JSON text with bigint values written as plain integer literals. */
export function stringifyJson(value: unknown, indent?: number): string {
  return stringifyLossless(value, undefined, indent) ?? 'null'
}

function convertBigInts(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = convertBigInts(v[i])
    return v
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>
    for (const k of Object.keys(o)) o[k] = convertBigInts(o[k])
  }
  return v
}

/** How far aliases may expand in one YAML text: yaml's count of resolved alias nodes (its default is 100). */
export const YAML_MAX_ALIAS_COUNT = 1000

/**
 * Parses every YAML document in the text; integers beyond 2^53 become bigint. Empty documents are dropped. Read as
 * kubectl's reader (sigs.k8s.io/yaml over go-yaml) reads it: merge keys (`<<: *base`) merged, duplicate keys refused
 * at the key's line (go-yaml: "already set in map"), and aliases expanded only so far (an alias bomb is one line).
 */
export function parseYamlDocuments(text: string, where = 'input'): unknown[] {
  const {isDocument, LineCounter, parseAllDocuments} = yamlLib()
  const lineCounter = new LineCounter()
  let docs: ReturnType<typeof parseAllDocuments>
  try {
    docs = parseAllDocuments(text, {intAsBigInt: true, lineCounter, uniqueKeys: true, merge: true})
  } catch (e) {
    if (e instanceof RangeError)
      throw new UserError(`${where}: nested too deeply to read`, 'no Kubernetes object nests that deep: pass what `kubectl get -o yaml` prints')
    throw e
  }
  if (!Array.isArray(docs) && !isDocument(docs)) return []
  const list = Array.isArray(docs) ? docs : [docs]
  const out: unknown[] = []
  for (const doc of list) {
    const err = doc.errors[0]
    if (err) {
      const pos = lineCounter.linePos(err.pos[0])
      const msg = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
      const unique = /^Map keys must be unique/.test(msg)
      throw new UserError(
        `${where}:${pos.line}:${pos.col}: malformed YAML: ${unique ? 'duplicate key (a key may appear once in a mapping)' : msg}`,
        unique ? 'remove the repeated key (kubectl refuses it too)' : 'YAML must be indented with spaces, as `kubectl get -o yaml` prints it',
      )
    }
    let value: unknown
    try {
      value = doc.toJS({maxAliasCount: YAML_MAX_ALIAS_COUNT})
    } catch (e) {
      if (e instanceof RangeError)
        throw new UserError(`${where}: nested too deeply to read`, 'no Kubernetes object nests that deep: pass what `kubectl get -o yaml` prints')
      if (!(e instanceof ReferenceError)) throw e
      const unresolved = /^Unresolved alias[^:]*: (.*)$/.exec(e.message)
      const at = unresolved
        ? new RegExp(`\\*${unresolved[1].replace(/[^\w-]/g, '\\$&')}(?![^\\s,[\\]{}])`).exec(text)
        : /(?:^|[\s[{,:-])\*[^\s,[\]{}]/m.exec(text)
      const pos = lineCounter.linePos(at ? at.index + at[0].indexOf('*') : 0)
      if (unresolved)
        throw new UserError(
          `${where}:${pos.line}:${pos.col}: malformed YAML: alias *${unresolved[1]} names no anchor before it`,
          'define &NAME before *NAME uses it',
        )
      if (!/alias/i.test(e.message)) throw e
      throw new UserError(
        `${where}:${pos.line}:${pos.col}: malformed YAML: its aliases expand beyond ${YAML_MAX_ALIAS_COUNT} nodes (an alias bomb)`,
        'write the objects out in full, as `kubectl get -o yaml` prints them',
      )
    }
    value = convertBigInts(value)
    checkDepth(value, where)
    if (value !== null && value !== undefined) out.push(value)
  }
  return out
}

/** A JSON object (not an array, not null). */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
