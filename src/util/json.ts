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
 * The fast path is JSON.parse itself; the exact parser runs only when a long integer literal is present.
 */
export function parseJson(text: string, where = 'input'): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw describeJsonError(text, where)
  }
  if (LONG_INTEGER.test(text)) value = parseLossless(text, undefined, exactNumber)
  return value
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

/** Parses every YAML document in the text; integers beyond 2^53 become bigint. Empty documents are dropped. */
export function parseYamlDocuments(text: string, where = 'input'): unknown[] {
  const {isDocument, LineCounter, parseAllDocuments} = yamlLib()
  const lineCounter = new LineCounter()
  const docs = parseAllDocuments(text, {intAsBigInt: true, lineCounter, uniqueKeys: false})
  if (!Array.isArray(docs) && !isDocument(docs)) return []
  const list = Array.isArray(docs) ? docs : [docs]
  const out: unknown[] = []
  for (const doc of list) {
    const err = doc.errors[0]
    if (err) {
      const pos = lineCounter.linePos(err.pos[0])
      const msg = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
      throw new UserError(`${where}:${pos.line}:${pos.col}: malformed YAML: ${msg}`, 'YAML must be indented with spaces, as `kubectl get -o yaml` prints it')
    }
    const value = convertBigInts(doc.toJS({maxAliasCount: 1000}))
    if (value !== null && value !== undefined) out.push(value)
  }
  return out
}

/** A JSON object (not an array, not null). */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
