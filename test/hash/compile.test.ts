// Layouts share compiled struct objects across versions (scripts/hash-precompile/compile-raw.ts, written out as
// data/layouts/compiled.json, which a run loads: src/hash/compile.ts): two versions may hold the same object for a type
// only when its definition and every definition under it are the same in both, since its zero rendering and the nodes
// its fields point to come from all of them. Checked here against the raw data itself, walked from scratch, for the
// layouts a run loads and for a compilation in an order that is neither oldest-first nor newest-first (each layout
// starts from the one before). And compiled.json must be what their source compiles to, field for field.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {type CompiledLayout, knownNames, knows, ready, zeroOf} from '../../src/hash/compile.js'
import {layoutVersions} from '../../src/hash/layout-data.js'
import {getLayout} from '../../src/hash/layouts.js'
import {compileRawLayouts, outputSignature, type CompiledLayout as RawLayout} from '../../scripts/hash-precompile/compile-raw.js'
import {rawLayoutData} from '../../scripts/hash-precompile/raw-data.js'
import {compileAll, compiledData, compiledFiles} from '../../scripts/hash-precompile/serialize.js'
import {renderGoBytes, specialZeroGoValue} from '../../src/hash/spew.js'
import type {TypeNode} from '../../src/hash/compile.js'

/** For each type key of a version: its definition index and those of every type under it, as one string. */
function closures(version: string): Map<string, string> {
  const data = rawLayoutData()
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

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1')

describe('compiled layouts', () => {
  const all = layoutVersions()
  const loaded = new Map<string, CompiledLayout | RawLayout>(all.map((v) => [v, getLayout(v)]))
  // Middle out: 1.31, 1.20, 1.37, 1.25, … so each layout starts from a distant one as well as a neighbour.
  const order = [all[11], all[0], all[17], ...all.filter((_, i) => i !== 11 && i !== 0 && i !== 17).reverse()]
  const middleOut = compileRawLayouts((n) => renderGoBytes(n as unknown as TypeNode, specialZeroGoValue(n as unknown as TypeNode)), rawLayoutData(), order)
  const closure = new Map(all.map((v) => [v, closures(v)]))

  it('compiled.json is layouts.json compiled', () => {
    const {json} = compiledFiles(compiledData(rawLayoutData()))
    const stale = 'stale: run node --import tsx scripts/gen-hash-fixture.ts --compiled-only'
    assert.ok(readFileSync(new URL('../../data/layouts/compiled.json', import.meta.url), 'utf8') === json, `data/layouts/compiled.json is ${stale}`)
  })

  it('has every struct type of each version, and no other', () => {
    const data = rawLayoutData()
    assert.deepEqual(all, Object.keys(data.versions))
    for (const v of all) {
      const structKeys = data.versions[v].types
        .map((d) => data.defs[d])
        .filter((d) => d.kind === 'struct')
        .map((d) => d.key)
      assert.deepEqual([...loaded.get(v)!.structs.keys()].sort(), structKeys.sort(), v)
      assert.deepEqual([...middleOut.get(v)!.structs.keys()].sort(), structKeys.sort(), v)
    }
  })

  for (const [name, layouts] of [
    ['as a run loads them', loaded],
    ['compiled middle out', middleOut],
  ] as const) {
    it(`shares a struct object between two versions exactly when the definitions under it agree (${name})`, () => {
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
  }

  it('gives each struct the fields, JSON names, offsets and zero rendering it compiles to, and one class to structs that write alike', () => {
    const built = compileAll()
    let classes = 0
    for (const v of all) {
      const run = loaded.get(v) as CompiledLayout
      for (const [key, b] of built.get(v)!.structs) {
        const r = ready(run.structs.get(key)!)
        const where = `${key} in ${v}`
        assert.equal(r.type, b.type, where)
        assert.equal(latin1(r.zero), latin1(b.zero), where)
        assert.deepEqual([...r.offsets], [...b.offsets], where)
        assert.deepEqual([...knownNames(r)].sort(), [...b.known].sort(), where)
        for (const name of [...b.known, 'notAField', 'constructor', '__proto__']) assert.equal(knows(r, name), b.known.has(name), `${where} knows ${name}`)
        assert.deepEqual(r.inlines, b.inlines, where)
        assert.deepEqual({...r.jsonFields}, {...b.jsonFields}, where)
        assert.equal(r.fields.length, b.fields.length, where)
        for (const [i, f] of r.fields.entries()) {
          const g = b.fields[i]
          assert.deepEqual(
            [f.name, f.preLength, f.json, f.inline, f.node.type, f.node.tag, f.node.bits],
            [g.name, g.preLength, g.json, g.inline, g.node.type, g.node.tag, g.node.bits],
            `${where} .${f.name}`,
          )
          assert.equal(latin1(zeroOf(f.node)), latin1(g.node.zero), `${where} .${f.name} zero`)
          assert.equal(f.node.elem?.type, g.node.elem?.type, `${where} .${f.name} elem`)
          assert.equal(f.node.mapKey?.type, g.node.mapKey?.type, `${where} .${f.name} map key`)
        }
        // Structs of one class in two versions write alike; of two classes, differ somewhere.
        for (const w of all) {
          const other = built.get(w)!.structs.get(key)
          if (other === undefined) continue
          const sameClass = run.classByKey[r.keyId] === (loaded.get(w) as CompiledLayout).classByKey[r.keyId]
          assert.equal(sameClass, outputSignature(b) === outputSignature(other), `${where} and ${w}`)
          if (sameClass && b !== other) classes++
        }
      }
    }
    // Not vacuous: structs that are different objects yet write alike (a change deeper down that leaves them as is).
    assert.ok(classes > 0)
  })
})
