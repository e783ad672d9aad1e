// Mutations of a parsed snapshot, as a hostile or broken dump would hold them: a field of the wrong JSON type, null,
// numbers beyond any int64 or below zero, out-of-range and unparsable timestamps, fields and whole objects deleted.
// A mutation names a place by a number (taken modulo the places the document has), so fast-check can shrink it.
import fc from 'fast-check'

/** Marks a number literal the JSON writer puts in the text as it is (JSON.stringify cannot write 1e400 or 2^64). */
const RAW = '\u0000raw:'

export type Replacement = {kind: 'value'; value: unknown} | {kind: 'delete'} | {kind: 'raw'; text: string}

/** Values of every JSON type, and the edges the engines compare, add and format. */
const REPLACEMENTS: Replacement[] = [
  {kind: 'delete'},
  {kind: 'value', value: null},
  {kind: 'value', value: 0},
  {kind: 'value', value: -1},
  {kind: 'value', value: 1.5},
  {kind: 'value', value: 2147483648},
  {kind: 'value', value: Number.MAX_SAFE_INTEGER},
  {kind: 'raw', text: '18446744073709551616'},
  {kind: 'raw', text: '-9223372036854775809'},
  {kind: 'raw', text: '1e400'},
  // An integer beyond 2^53 where a string or an object was: read exact, as a bigint, all the way to the writers.
  {kind: 'value', value: 2n ** 64n},
  {kind: 'value', value: true},
  {kind: 'value', value: ''},
  {kind: 'value', value: 'x'},
  {kind: 'value', value: 'not-a-time'},
  {kind: 'value', value: '2026-02-30T00:00:00Z'},
  {kind: 'value', value: '0000-01-01T00:00:00Z'},
  {kind: 'value', value: '+275760-09-13T00:00:01Z'},
  {kind: 'value', value: '99999999999999999999'},
  {kind: 'value', value: {}},
  {kind: 'value', value: {x: 1}},
  {kind: 'value', value: []},
  {kind: 'value', value: [1, 'a', null]},
  {kind: 'value', value: [{}]},
]

export interface Mutation {
  /** Which place: an index into every value of the document (objects' fields and lists' elements), modulo their count. */
  at: number
  /** An index into REPLACEMENTS, or the type of the value now there, swapped. */
  with: number
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({at: fc.nat(), with: fc.nat({max: REPLACEMENTS.length})})

/** 1 to `max` mutations of one document. */
export const mutationsArb = (max = 4): fc.Arbitrary<Mutation[]> => fc.array(mutationArb, {minLength: 1, maxLength: max})

type Container = Record<string, unknown> | unknown[]
interface Place {
  parent: Container
  key: string | number
  depth: number
}

/** Every value under the document's items (the objects), parents before children, then some of the header's. The list wrapper is left alone. */
function places(doc: unknown): Place[] {
  const out: Place[] = []
  const walk = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object') return
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push({parent: v, key: i, depth})
        walk(x, depth + 1)
      })
    } else {
      for (const k of Object.keys(v)) {
        out.push({parent: v as Record<string, unknown>, key: k, depth})
        walk((v as Record<string, unknown>)[k], depth + 1)
      }
    }
  }
  const {items, kubectlWhy} = doc as {items?: unknown; kubectlWhy?: unknown}
  walk(Array.isArray(items) ? items : doc, 0)
  // The snapshot's own header too (capture time, version, recorded discovery, lists, gaps), once in a while: its
  // members and their fields (depth 0 and 1: every member kubectl-why checks, src/cluster/snapshot/header.ts) always,
  // then one more place in it per item.
  if (kubectlWhy !== null && typeof kubectlWhy === 'object') {
    const before = out.length
    walk(kubectlWhy, 0)
    const header = out.splice(before)
    const room = Array.isArray(items) ? items.length : 0
    const members = header.filter((p) => p.depth <= 1 && !(p.parent === (kubectlWhy as Record<string, unknown>).cached))
    out.push(...members.slice(0, 40))
    out.push(...header.filter((p) => p.depth > 1).slice(0, room))
  }
  return out
}

/** A value of another JSON type than `v`, similar in spirit: a list where an object was, a string for a number. */
function swapType(v: unknown): unknown {
  if (Array.isArray(v)) return v.length > 0 ? v[0] : {}
  if (v === null) return 'null'
  switch (typeof v) {
    case 'string':
      return Number.isFinite(Number(v)) && v !== '' ? Number(v) : [v]
    case 'number':
    case 'bigint':
      return String(v)
    case 'boolean':
      return v ? 'true' : 1
    case 'object':
      return Object.keys(v as object).length > 0 ? Object.keys(v as object) : 'object'
    default:
      return null
  }
}

/** Applies the mutations in place (to a deep copy the caller owns). Returns what was done, for the failure report. */
export function mutate(doc: unknown, mutations: readonly Mutation[]): string[] {
  const done: string[] = []
  for (const m of mutations) {
    const all = places(doc)
    if (all.length === 0) break
    const p = all[m.at % all.length]
    const r = m.with === REPLACEMENTS.length ? {kind: 'value' as const, value: swapType(readAt(p))} : REPLACEMENTS[m.with]
    const name = `${describe(doc, p)}`
    if (r.kind === 'delete') {
      if (Array.isArray(p.parent)) p.parent.splice(p.key as number, 1)
      else delete p.parent[p.key as string]
      done.push(`delete ${name}`)
    } else {
      const value = r.kind === 'raw' ? `${RAW}${r.text}` : structuredClone(r.value)
      ;(p.parent as Record<string | number, unknown>)[p.key] = value
      done.push(`${name} = ${r.kind === 'raw' ? r.text : typeof r.value === 'bigint' ? `${r.value}n` : JSON.stringify(r.value)}`)
    }
  }
  return done
}

function readAt(p: Place): unknown {
  return (p.parent as Record<string | number, unknown>)[p.key]
}

/** A short name of the place: the object's kind and name, then the key (enough to reproduce a failure by hand). */
function describe(doc: unknown, p: Place): string {
  const items = (doc as {items?: unknown[]}).items
  if (Array.isArray(items)) {
    for (let i = 0; i < items.length; i++) {
      if (contains(items[i], p.parent)) {
        const o = items[i] as {kind?: unknown; metadata?: {name?: unknown}}
        return `items[${i}] ${String(o?.kind)} ${String(o?.metadata?.name)} …${String(p.key)}`
      }
    }
  }
  return `…${String(p.key)}`
}

function contains(root: unknown, target: unknown): boolean {
  if (root === target) return true
  if (root === null || typeof root !== 'object') return false
  return Object.values(root as object).some((v) => contains(v, target))
}

/** JSON text of the mutated document, with raw number literals written as they are and bigint as its digits. */
export function toJson(doc: unknown): string {
  const text = JSON.stringify(doc, (_k, v) => (typeof v === 'bigint' ? `${RAW}${v}` : v), 1)
  return text.replace(/"\\u0000raw:([^"]*)"/g, '$1')
}
