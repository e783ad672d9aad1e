// Layout inference against the fixture: for a label taken from the upstream hashes of one version and
// collision count, the versions reported must be exactly those whose upstream hash is that label.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {hashPodTemplate} from '../../src/hash/compute-hash.js'
import {inferLayouts} from '../../src/hash/infer.js'
import {expectedHash, inputFor, loadFixture} from './fixture.js'

describe('inferLayouts', () => {
  const f = loadFixture()

  it('finds exactly the versions and collision counts that produce a label (every template)', () => {
    const picks: [string, string][] = [
      ['1.22', 'nil'],
      ['1.30', '7'],
      ['1.37', '2'],
    ]
    for (const [n, t] of f.templates.entries()) {
      const [version, count] = picks[n % picks.length]
      const input = inputFor(t, version)
      const label = expectedHash(t, version, count)
      const {matches} = inferLayouts(input, label, {maxCollisionCount: 7})
      const cc = count === 'nil' ? null : Number(count)
      const found = matches.find((m) => m.collisionCount === cc)
      // Every version whose own API server returns this input unchanged and whose upstream hash is the label.
      const expected = f.versions.filter((v) => JSON.stringify(inputFor(t, v), big) === JSON.stringify(input, big) && expectedHash(t, v, count) === label)
      assert.ok(found, `${t.id}: ${label} (${version}, collisionCount ${count}) not found`)
      for (const v of expected) assert.ok(found.versions.includes(v), `${t.id}: ${v} also gives ${label}`)
      assert.ok(found.versions.includes(version))
    }
  })

  it('shares work: one text per group of agreeing layouts', () => {
    const t = f.templates.find((x) => x.id === 'p-docs-nginx-defaulted')!
    const {stats} = inferLayouts(inputFor(t, '1.37'), 'x', {maxCollisionCount: 10})
    assert.equal(stats.versions, 18)
    // The vectors give this template 13 distinct hashes over the 18 versions (t.hashes: one run per hash): at least
    // that many texts, fewer than one per version.
    assert.equal(t.hashes.length, 13)
    assert.ok(stats.texts >= 13 && stats.texts < 18, `${stats.texts} texts`)
  })

  it('answers a template with the same content the same way, and one that differs by its own hashes', () => {
    // Labels from the upstream vectors; inferences are kept by template content, so each copy below is a new object.
    const t = f.templates.find((x) => x.id === 'p-docs-nginx-defaulted')!
    const input = inputFor(t, '1.30')
    const label = expectedHash(t, '1.30', 'nil')
    const first = inferLayouts(input, label, {maxCollisionCount: 2}).matches
    assert.ok(first.some((m) => m.collisionCount === null && m.versions.includes('1.30')))
    assert.deepEqual(inferLayouts(structuredClone(input), label, {maxCollisionCount: 2}).matches, first)
    // Another image is another text: the same label is reproduced by no version.
    const other = structuredClone(input) as {spec: {containers: {image: string}[]}}
    other.spec.containers[0].image = 'nginx:other'
    assert.deepEqual(inferLayouts(other, label, {maxCollisionCount: 2}).matches, [])
    // A label key whose value is undefined (not JSON, so not part of the content key) still makes a map entry in the
    // text (spew writes map[k:] for it, an empty map is <nil>): what the undefined copy's own 1.30 hash says differs.
    const withUndefined = structuredClone(input) as {metadata: {labels?: Record<string, unknown>}}
    withUndefined.metadata.labels = {...withUndefined.metadata.labels, extra: undefined}
    const own = hashPodTemplate(withUndefined, {version: '1.30'}).hash
    assert.notEqual(own, label)
    assert.ok(inferLayouts(withUndefined, own, {maxCollisionCount: 2}).matches.some((m) => m.versions.includes('1.30')))
  })

  it('reports nothing for a label that is not a SafeEncoded hash', () => {
    const t = f.templates[0]
    assert.deepEqual(inferLayouts(inputFor(t, '1.37'), 'aeiou', {maxCollisionCount: 3}).matches, [])
  })
})

function big(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v
}
