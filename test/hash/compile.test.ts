// Layouts share compiled struct objects across versions (src/hash/compile.ts): two versions may hold the same object
// for a type only when its definition and every definition under it are the same in both, since its zero rendering
// and the nodes its fields point to come from all of them. Checked here against the data itself, walked from scratch,
// in a compilation order that is neither oldest-first nor newest-first (each layout starts from the one before).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {layoutData, layoutVersions} from '../../src/hash/layout-data.js'
import {getLayout} from '../../src/hash/layouts.js'

/** For each type key of a version: its definition index and those of every type under it, as one string. */
function closures(version: string): Map<string, string> {
  const data = layoutData()
  const defs = new Map(data.versions[version].types.map((d) => [data.defs[d].key, d]))
  const out = new Map<string, string>()
  const ofRef = (ref: number): string => {
    const [, , named, elem, key] = data.refs[ref]
    if (named !== 0) return ofKey(named)
    return `(${ref}${elem >= 0 ? ` ${ofRef(elem)}` : ''}${key >= 0 ? ` ${ofRef(key)}` : ''})`
  }
  const ofKey = (key: string): string => {
    const known = out.get(key)
    if (known !== undefined) return known
    const def = data.defs[defs.get(key)!]
    const parts = [...(def.fields ?? []).map((f) => ofRef(f[1])), ...(def.underlying !== undefined ? [ofRef(def.underlying)] : [])]
    const c = `[${defs.get(key)} ${parts.join(' ')}]`
    out.set(key, c)
    return c
  }
  for (const key of defs.keys()) ofKey(key)
  return out
}

describe('compiled layouts', () => {
  const all = layoutVersions()
  // Middle out: 1.31, 1.20, 1.37, 1.25, … so each layout starts from a distant one as well as a neighbour.
  const order = [all[11], all[0], all[17], ...all.filter((_, i) => i !== 11 && i !== 0 && i !== 17).reverse()]
  const layouts = new Map(order.map((v) => [v, getLayout(v)]))
  const closure = new Map(all.map((v) => [v, closures(v)]))

  it('has every struct type of each version, and no other', () => {
    const data = layoutData()
    for (const v of all) {
      const structKeys = data.versions[v].types
        .map((d) => data.defs[d])
        .filter((d) => d.kind === 'struct')
        .map((d) => d.key)
      assert.deepEqual([...layouts.get(v)!.structs.keys()].sort(), structKeys.sort(), v)
    }
  })

  it('shares a struct object between two versions exactly when the definitions under it agree', () => {
    let shared = 0
    for (const a of all) {
      for (const b of all) {
        if (a >= b) continue
        for (const [key, sa] of layouts.get(a)!.structs) {
          const sb = layouts.get(b)!.structs.get(key)
          if (sb === undefined) continue
          const same = closure.get(a)!.get(key) === closure.get(b)!.get(key)
          assert.equal(sa === sb, same, `${key} in ${a} and ${b}`)
          if (same) shared++
        }
      }
    }
    // Not vacuous: most types are the same in most pairs of versions.
    assert.ok(shared > 1000, `${shared} shared`)
  })
})
