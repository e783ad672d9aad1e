// Next steps (issue 16.4): every verdict but a plain converged one says what to do, read-only commands or a field.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {quotaOf} from '../../../src/engine/replicaset/next.js'
import {replay} from './fixture.js'

describe('next steps', () => {
  const cases: [string, string, string, RegExp][] = [
    ['quota.yaml', 'cart-7c9d8f6b5', 'createsFailing', /^kubectl describe resourcequota shop-quota -n shop$/],
    ['unobserved-deletes.yaml', 'api-5f6d7c8b9', 'waitingForExpectations', /^kubectl get pods -n shop -l 'app=api,pod-template-hash=5f6d7c8b9' -o wide$/],
    ['adoption.yaml', 'web-7d4b9c6f5', 'adoptionPending', /--show-labels$/],
    ['being-deleted.yaml', 'batch-8f7e6d5c4', 'beingDeleted', /^kubectl why gc replicaset\/batch-8f7e6d5c4 -n shop$/],
    [
      'will-create.yaml',
      'auth-6c5b4a3f2',
      'willCreate',
      /^kubectl get events -n shop --field-selector involvedObject.kind=ReplicaSet,involvedObject.name=auth-6c5b4a3f2$/,
    ],
  ]
  for (const [file, rs, verdict, command] of cases) {
    it(`${verdict}: ${file}`, () => {
      const e = replay(file, rs)
      assert.equal(e.verdict, verdict)
      assert.match(e.next?.[0].command ?? '', command)
      assert.ok(
        e.next!.every((n) => !/\b(delete|patch|apply|edit|scale|annotate|label)\b/.test(n.command ?? '') || n.command!.startsWith('kubectl why')),
        'read-only commands only',
      )
    })
  }
  it('converged with nothing released: no next step', () => {
    const e = replay('realworld-coredns-pending.yaml', 'coredns-5dd5756b68', {now: Date.parse('2024-10-25T18:00:00Z'), settings: {minor: 28}})
    assert.equal(e.verdict, 'converged')
    assert.equal(e.next, undefined)
  })
  it('the quota an admission refusal names', () => {
    assert.equal(quotaOf('pods "cart-x" is forbidden: exceeded quota: shop-quota, requested: pods=1, used: pods=3, limited: pods=3'), 'shop-quota')
    assert.equal(quotaOf('pods "x" is forbidden: unable to validate against any pod security policy'), undefined)
  })
})
