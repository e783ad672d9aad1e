// The `kubectlWhy` header of kubectl-why's own snapshot (docs/snapshot-format.md).
import type {Problem} from '../../explanation.js'
import {READ_FAILURES, type ReadFailure} from '../../errors.js'
import type {KubeObject, ServerVersion} from '../source.js'

/** One list the capture made: absence of an object of this kind (in this namespace) in the snapshot proves it did not exist. */
export interface ListMade {
  apiVersion: string
  kind: string
  /** Absent: all namespaces, or a cluster-scoped kind. */
  namespace?: string
  metadataOnly?: boolean
}

/** A list the capture could not make, with the error a live list would raise, so that a replay raises it again. */
export interface Gap extends ListMade {
  reason: ReadFailure
  status?: number
  message: string
  hint?: string
}

export interface SnapshotHeader {
  format: number
  capturedAt?: string
  /** Set when capturedAt is not a capture time but an estimate (a dump re-written by `snapshot -f`): how it was found. */
  clockFrom?: string
  serverVersion?: ServerVersion
  context?: string
  namespace?: string
  resources?: unknown[]
  metadataOnly?: string[]
  cached?: KubeObject[]
  problems?: Problem[]
  /** Every list the capture made (format 1 files written before this field: nodes, node Leases, the full and metadata-only kinds, all namespaces). */
  lists?: ListMade[]
  gaps?: Gap[]
}

const typeName = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `${typeof v} ${String(v).slice(0, 40)}`
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

type Check = (v: unknown) => string | undefined
const str: Check = (v) => (typeof v === 'string' ? undefined : 'a string')
const num: Check = (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : 'a number')
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'true or false')
const oneOf =
  (words: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && words.includes(v) ? undefined : `one of ${words.join(', ')}`

/** The field path and what it should be, for the first member of `v` that is not what `shape` says; undefined when all are. */
type Shape = Record<string, readonly [Check, 'required' | 'optional']>

function fields(v: unknown, shape: Shape, at: string): [string, string, unknown] | undefined {
  if (!isRecord(v)) return [at, 'an object', v]
  for (const [key, [check, need]] of Object.entries(shape)) {
    const x = v[key]
    if (x === undefined && need === 'optional') continue
    const want = check(x)
    if (want !== undefined) return [`${at}.${key}`, want, x]
  }
  return undefined
}

function listOf(v: unknown, at: string, each: (x: unknown, at: string) => [string, string, unknown] | undefined): [string, string, unknown] | undefined {
  if (!Array.isArray(v)) return [at, 'a list', v]
  for (let i = 0; i < v.length; i++) {
    const bad = each(v[i], `${at}[${i}]`)
    if (bad) return bad
  }
  return undefined
}

const problem = (x: unknown, at: string) => fields(x, {what: [str, 'required'], reason: [str, 'required'], file: [str, 'optional']}, at)
const listMade: Shape = {apiVersion: [str, 'required'], kind: [str, 'required'], namespace: [str, 'optional'], metadataOnly: [bool, 'optional']}
const gap = (x: unknown, at: string) =>
  fields(x, {...listMade, reason: [oneOf(READ_FAILURES), 'required'], status: [num, 'optional'], message: [str, 'required'], hint: [str, 'optional']}, at)
const resource = (x: unknown, at: string) =>
  fields(x, {group: [str, 'required'], version: [str, 'required'], kind: [str, 'required'], resource: [str, 'required'], namespaced: [bool, 'required']}, at) ??
  (isRecord(x) && x.verbs !== undefined ? listOf(x.verbs, `${at}.verbs`, (s, a) => (typeof s === 'string' ? undefined : [a, 'a string', s])) : undefined)

/** Each header member as kubectl-why writes it (`cached` is checked where it is read: what is not an object is skipped). */
const MEMBERS: Record<string, (v: unknown, at: string) => [string, string, unknown] | undefined> = {
  format: (v, at) => (num(v) ? [at, 'a number', v] : undefined),
  capturedAt: (v, at) => (str(v) ? [at, 'a string (an RFC 3339 time)', v] : undefined),
  clockFrom: (v, at) => (str(v) ? [at, 'a string', v] : undefined),
  serverVersion: (v, at) => fields(v, {major: [str, 'required'], minor: [str, 'required'], gitVersion: [str, 'required']}, at),
  context: (v, at) => (str(v) ? [at, 'a string', v] : undefined),
  namespace: (v, at) => (str(v) ? [at, 'a string', v] : undefined),
  resources: (v, at) => listOf(v, at, resource),
  metadataOnly: (v, at) => listOf(v, at, (s, a) => (typeof s === 'string' && s.includes('/') ? undefined : [a, 'a string GROUP/KIND', s])),
  problems: (v, at) => listOf(v, at, problem),
  lists: (v, at) => listOf(v, at, (x, a) => fields(x, listMade, a)),
  gaps: (v, at) => listOf(v, at, gap),
}

/**
 * What is wrong with a `kubectlWhy` header (or `kubectlWhyTrailer`, which holds problems and gaps), as one reason
 * naming the field; undefined when every member kubectl-why reads is of the type it writes. The engines and the
 * evidence read these fields as typed: a header edited by hand or damaged in transit stops here, not deep inside.
 */
export function headerProblem(v: Record<string, unknown>, name: 'kubectlWhy' | 'kubectlWhyTrailer'): string | undefined {
  for (const [key, check] of Object.entries(MEMBERS)) {
    if (v[key] === undefined) continue
    const bad = check(v[key], `${name}.${key}`)
    if (bad) return `the snapshot header's ${bad[0]} is ${typeName(bad[2])}, want ${bad[1]}`
  }
  return undefined
}
