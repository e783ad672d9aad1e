// Every public vector, every version, every collision count: the hashes from the committed fixture,
// and — when ../shared is present — the exact spew text, byte for byte, and the shared hashes.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ComputeHash, hashPodTemplate} from '../../src/hash/compute-hash.js'
import {layoutVersions} from '../../src/hash/layout-data.js'
import {expectedHash, inputFor, loadFixture, sharedPresent, sharedVectors, SKIP_SHARED} from './fixture.js'

const count = (c: string): number | null => (c === 'nil' ? null : Number(c))

describe('pod-template-hash vectors (committed fixture)', () => {
  const f = loadFixture()

  it('covers every version the project has layouts for', () => {
    assert.deepEqual(f.versions, layoutVersions())
    assert.equal(f.templates.length, 291)
  })

  for (const version of f.versions) {
    it(`${version}: every template, every collision count`, () => {
      let checked = 0
      const wrong: string[] = []
      for (const t of f.templates) {
        const input = inputFor(t, version)
        const base = hashPodTemplate(input, {version})
        for (const c of f.collisionCounts) {
          const got = c === 'nil' ? base.hash : ComputeHash(input, count(c), version)
          const want = expectedHash(t, version, c)
          if (got !== want) wrong.push(`${t.id} collisionCount=${c}: got ${got}, want ${want}`)
          checked++
        }
      }
      assert.deepEqual(wrong, [])
      assert.equal(checked, 291 * f.collisionCounts.length)
    })
  }
})

describe('pod-template-hash vectors (../shared, byte for byte)', () => {
  for (const version of layoutVersions()) {
    it(`${version}: spew text and hashes equal the upstream Go output`, (t) => {
      if (!sharedPresent) {
        t.skip(SKIP_SHARED)
        return
      }
      const vectors = sharedVectors(version)
      assert.equal(vectors.length, 291)
      const enc = new TextEncoder()
      for (const v of vectors) {
        const r = hashPodTemplate(v.input, {version, text: true})
        assert.ok(Buffer.from(r.text!).equals(Buffer.from(enc.encode(v.spew))), `${version} ${v.id}: spew text differs`)
        for (const [c, want] of Object.entries(v.hashes)) {
          assert.equal(ComputeHash(v.input, count(c), version), want, `${version} ${v.id} collisionCount=${c}`)
        }
      }
    })
  }
})
