// hashPodTemplate keeps what it rendered by layout and template content (a run hashes one template several times):
// what it gives back must not depend on whether it rendered or remembered — the unknown fields are named from the
// path each call gives, a caller's changes to a result do not reach the next, and templates whose JSON text is not
// all there is to them (a bigint, a NaN) are hashed as themselves.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {hashPodTemplate} from '../../src/hash/compute-hash.js'
import {HashInputError} from '../../src/hash/errors.js'

const V = '1.31'
const template = () => ({metadata: {labels: {app: 'a'}, madeUp: 1}, spec: {containers: [{name: 'c', image: 'i', alsoMadeUp: true}]}})

describe('hashPodTemplate, asked again', () => {
  it('names unknown fields from each call’s base path, with the same hash', () => {
    const a = hashPodTemplate(template(), {version: V, basePath: ['spec', 'template']})
    const b = hashPodTemplate(template(), {version: V, basePath: ['items', 3, 'spec', 'template']})
    const c = hashPodTemplate(template(), {version: V})
    assert.deepEqual(a.unknownFields, ['spec.template.metadata.madeUp', 'spec.template.spec.containers[0].alsoMadeUp'])
    assert.deepEqual(b.unknownFields, ['items[3].spec.template.metadata.madeUp', 'items[3].spec.template.spec.containers[0].alsoMadeUp'])
    assert.deepEqual(c.unknownFields, ['metadata.madeUp', 'spec.containers[0].alsoMadeUp'])
    assert.equal(a.hash, b.hash)
    assert.equal(a.hash, c.hash)
  })

  it('gives each caller its own unknown-field list', () => {
    const first = hashPodTemplate(template(), {version: V})
    first.unknownFields.push('changed by the caller')
    assert.deepEqual(hashPodTemplate(template(), {version: V}).unknownFields, ['metadata.madeUp', 'spec.containers[0].alsoMadeUp'])
  })

  it('hashes by content and layout: a changed value or another version is another hash', () => {
    const t = template()
    const before = hashPodTemplate(t, {version: V}).hash
    t.spec.containers[0].image = 'j'
    assert.notEqual(hashPodTemplate(t, {version: V}).hash, before)
    assert.equal(hashPodTemplate(template(), {version: V}).hash, before)
    // 1.31 and 1.20 write different PodSpecs (fields added since), so their texts and hashes differ.
    assert.notEqual(hashPodTemplate(template(), {version: '1.20'}).hash, before)
  })

  it('does not take a template with a bigint for the number its JSON text reads as', () => {
    // Both print 4611686018427387904 in JSON; only the bigint is that integer (the number is not safe: refused).
    const big = {spec: {containers: [{name: 'c'}], activeDeadlineSeconds: 2n ** 62n}}
    const near = {spec: {containers: [{name: 'c'}], activeDeadlineSeconds: 2 ** 62}}
    const text = new TextDecoder().decode(hashPodTemplate(big, {version: V, text: true}).text)
    assert.ok(text.includes('ActiveDeadlineSeconds:(*int64)4611686018427387904'))
    assert.equal(hashPodTemplate(big, {version: V}).hash, hashPodTemplate(structuredClone(big), {version: V}).hash)
    assert.throws(() => hashPodTemplate(near, {version: V}), HashInputError)
  })
})
