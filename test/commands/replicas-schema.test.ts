// schemas/replicas.json is the contract of `-o json`: every replay the engine produces on the fixtures (each
// verdict, a tie, a refused recheck, failures) validates, and the schema rejects an unannounced field.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {explainReplicaSet} from '../../src/engine/replicaset/explain.js'
import {replayInput} from '../engine/replicaset/fixture.js'
import {validatorFor} from '../support/schemas.js'

const validate = validatorFor('replicas')
const asJson = (v: unknown) => JSON.parse(JSON.stringify(v))

const CASES: [string, string, Record<string, unknown>?][] = [
  ['deletion-cost.yaml', 'checkout-6b7f9d5c4d'],
  ['quota.yaml', 'cart-7c9d8f6b5'],
  ['unobserved-deletes.yaml', 'api-5f6d7c8b9'],
  ['created-then-deleted.yaml', 'search-4b3a2c1d0'],
  ['adoption.yaml', 'web-7d4b9c6f5'],
  ['being-deleted.yaml', 'batch-8f7e6d5c4'],
  ['will-create.yaml', 'auth-6c5b4a3f2'],
  ['realworld-coredns-pending.yaml', 'coredns-5dd5756b68', {now: Date.parse('2024-10-25T18:00:00Z'), settings: {minor: 28}}],
]

describe('schemas/replicas.json', () => {
  for (const [file, rs, over] of CASES) {
    test(`${file} validates`, () => {
      const e = asJson(explainReplicaSet(replayInput(file, rs, over)))
      assert.ok(validate(e), JSON.stringify(validate.errors, null, 1))
    })
  }

  test('a tie and a refused recheck validate', () => {
    const tie = replayInput('realworld-coredns-pending.yaml', 'coredns-5dd5756b68', {now: Date.parse('2024-10-25T18:00:00Z'), settings: {minor: 28}})
    const e1 = asJson(explainReplicaSet({...tie, replicaSet: {...tie.replicaSet, spec: {...tie.replicaSet.spec, replicas: 1}}}))
    assert.ok(e1.replicaSet.manage.tie)
    assert.ok(validate(e1), JSON.stringify(validate.errors, null, 1))
    const adopt = replayInput('adoption.yaml', 'web-7d4b9c6f5')
    const e2 = asJson(explainReplicaSet({...adopt, recheck: {read: 'notFound'}}))
    assert.ok(e2.replicaSet.claims.recheck.error)
    assert.ok(validate(e2), JSON.stringify(validate.errors, null, 1))
  })

  test('an unannounced field fails', () => {
    const e = asJson(explainReplicaSet(replayInput('quota.yaml', 'cart-7c9d8f6b5')))
    e.replicaSet.manage.surprise = 1
    assert.equal(validate(e), false)
  })
})
