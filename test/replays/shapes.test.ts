// Every field a replay's descriptor names is one the input shapes check (src/cluster/validate/kinds.ts): an object
// whose field has the wrong JSON type is named at the boundary, never handed to an engine. For each field of each full
// read, an object is built with a value of the wrong type there (7 and true: no typed check takes both) and the
// kind's shape must refuse it at that field.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fieldLeaves, type LeafStep} from '../../src/cluster/projection.js'
import {mismatchOf} from '../../src/cluster/validate/validate-object.js'
import {DESCRIPTORS} from '../../src/engine/replays.js'

/** The object with `bad` at the leaf (an element of a list holds the key its filter selects on). */
function probe(apiVersion: string, kind: string, steps: LeafStep[], bad: unknown): unknown {
  const build = (i: number): unknown => {
    if (i === steps.length) return bad
    const s = steps[i]
    if ('field' in s) return {[s.field]: build(i + 1)}
    const inner = build(i + 1)
    const el = typeof inner === 'object' && inner !== null ? inner : {}
    return [s.where && !(s.where.key in (el as object)) ? {[s.where.key]: s.where.value, ...(el as object)} : inner]
  }
  const body = build(0) as Record<string, unknown>
  return {apiVersion, kind, ...body, metadata: {name: 'x', ...((body.metadata as object) ?? {})}}
}

/** Fills the place a mismatch names (a required sibling of the probed field) with a value that may fit. */
const FILL: unknown[] = ['x', 1, true, '2026-01-01T00:00:00Z', {}, []]
function fill(o: unknown, at: string, attempt: number): void {
  const steps = at.match(/[^.[\]"]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\]/g) ?? []
  let v = o as Record<string, unknown>
  for (let i = 0; i < steps.length; i++) {
    const raw = steps[i]
    const k = raw.startsWith('["') ? JSON.parse(raw.slice(1, -1)) : raw.startsWith('[') ? Number(raw.slice(1, -1)) : raw
    if (i === steps.length - 1) v[k] = FILL[attempt % FILL.length]
    else v = v[k] as Record<string, unknown>
  }
}

/** Whether the shape refuses `bad` at the leaf, once every other field the shape wants there is filled in. */
function refusedAt(apiVersion: string, kind: string, steps: LeafStep[], bad: unknown, path: string): boolean {
  const o = probe(apiVersion, kind, steps, bad)
  const tries = new Map<string, number>()
  for (let i = 0; i < 40; i++) {
    const m = mismatchOf(o)
    if (!m) return false
    if (plain(m.at) === path) return true
    const n = tries.get(m.at) ?? 0
    if (n >= FILL.length) return false
    tries.set(m.at, n + 1)
    fill(o, m.at, n)
  }
  return false
}

/** The dotted path a mismatch names, without list indexes: metadata.annotations["a.b/c"] → metadata.annotations.a.b/c. */
const plain = (at: string) => at.replace(/\[\d+\]/g, '').replace(/\["((?:[^"\\]|\\.)*)"\]/g, '.$1')
const pathOf = (steps: LeafStep[]) => steps.flatMap((s) => ('field' in s ? [s.field] : [])).join('.')

describe("the input shapes check every field the replays' descriptors name", () => {
  for (const d of DESCRIPTORS) {
    for (const r of d.reads) {
      if (r.detail !== 'full' || r.fields === '*') continue
      const apiVersion = r.ref.apiVersion ?? 'v1'
      test(`${d.name}: ${r.key} (${r.ref.kind})`, () => {
        for (const steps of fieldLeaves(r.fields)) {
          const path = pathOf(steps)
          if (path === 'apiVersion' || path === 'kind') continue
          const refused = [7, true].some((bad) => refusedAt(apiVersion, r.ref.kind, steps, bad, path))
          assert.ok(refused, `${r.ref.kind} ${path}: no shape checks it (src/cluster/validate/kinds.ts)`)
        }
      })
    }
  }
})
