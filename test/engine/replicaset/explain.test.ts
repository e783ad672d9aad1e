// Every verdict on a hand-worked fixture (test/fixtures/replicaset/*.yaml: each file's header gives the
// reasoning), plus one real ReplicaSet.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {explainReplicaSet} from '../../../src/engine/replicaset/explain.js'
import {replay, replayInput} from './fixture.js'

describe('verdicts', () => {
  it('willDelete: the deletion order follows phase, then pod-deletion-cost, then co-location (deletion-cost.yaml)', () => {
    const e = replay('deletion-cost.yaml', 'checkout-6b7f9d5c4d')
    assert.equal(e.verdict, 'willDelete')
    const r = e.replicaSet
    assert.equal(r.diff, 3)
    assert.deepEqual(
      r.manage.deleteOrder!.map((d) => d.name.slice(-2)),
      ['e5', 'c3', 'b2', 'd4', 'a1'],
    )
    assert.deepEqual(
      r.manage.deleteOrder!.filter((d) => d.chosen).map((d) => d.name.slice(-2)),
      ['e5', 'c3', 'b2'],
    )
    assert.deepEqual(
      r.manage.deleteOrder!.map((d) => d.beforeNext?.rule),
      [2, 4, 5, 4, undefined],
    )
    assert.deepEqual(
      r.manage.deleteOrder!.map((d) => d.rank),
      [2, 2, 2, 1, 2],
    )
    assert.equal(r.manage.tie, undefined)
    assert.equal(r.status.current, false)
    assert.equal(e.severity, 'info')
  })

  it('createsFailing: quota, one doomed call per sync (quota.yaml)', () => {
    const e = replay('quota.yaml', 'cart-7c9d8f6b5')
    assert.equal(e.verdict, 'createsFailing')
    assert.equal(e.severity, 'critical')
    const f = e.replicaSet.createFailures!
    assert.equal(f.kind, 'quota')
    assert.equal(f.failedCalls, 17)
    assert.equal(f.firstAt, '2026-11-29T09:20:05Z')
    assert.equal(f.lastAt, '2026-11-29T09:58:10Z')
    assert.match(f.error!, /exceeded quota: shop-quota/)
    assert.deepEqual(e.replicaSet.manage.batches, [1, 1])
    assert.equal(e.replicaSet.expectations.waiting, false)
    assert.match(e.summary, /1 doomed call/)
  })

  it('waitingForExpectations: a delete not yet observed by the informer, window until 10:04:15 (unobserved-deletes.yaml)', () => {
    const e = replay('unobserved-deletes.yaml', 'api-5f6d7c8b9')
    assert.equal(e.verdict, 'waitingForExpectations')
    const x = e.replicaSet.expectations
    assert.equal(x.state, 'pending')
    assert.equal(x.setAt, '2026-11-29T09:59:15Z')
    assert.equal(x.expiresAt, '2026-11-29T10:04:15Z')
    assert.deepEqual(x.outstanding, {add: 0, del: 1})
    assert.deepEqual(
      x.unobserved.map((u) => u.pod),
      ['api-5f6d7c8b9-eeee5'],
    )
    assert.equal(x.confidence, 'likely')
    // The informer sees 4 active (dddd4 terminating); once eeee5 is seen terminating, 3 = 3.
    assert.equal(e.replicaSet.active, 4)
    assert.equal(e.replicaSet.manage.basis, 'afterObservation')
    assert.equal(e.replicaSet.manage.action, 'none')
    assert.equal(e.replicaSet.status.current, true)
    assert.match(e.summary, /status is still updated while it waits/i)
  })

  it('waitingForExpectations: a created pod that vanished, corroborated by a current status (created-then-deleted.yaml)', () => {
    const e = replay('created-then-deleted.yaml', 'search-4b3a2c1d0')
    assert.equal(e.verdict, 'waitingForExpectations')
    const x = e.replicaSet.expectations
    assert.equal(x.gatedSignature, true)
    assert.equal(x.expiresAt, '2026-11-29T10:04:00Z')
    assert.deepEqual(
      x.unobserved.map((u) => [u.op, u.pod, u.confidence]),
      [['create', 'search-4b3a2c1d0-eeeee', 'possible']],
    )
    assert.equal(x.confidence, 'likely')
    assert.equal(e.replicaSet.manage.action, 'create')
    assert.equal(e.replicaSet.manage.count, 1)
  })

  it('…and after 10:04:00 the window has closed: the controller creates the pod at its next sync', () => {
    const e = replay('created-then-deleted.yaml', 'search-4b3a2c1d0', {now: Date.parse('2026-11-29T10:04:01Z')})
    assert.equal(e.verdict, 'willCreate')
    assert.equal(e.replicaSet.expectations.state, 'expired')
    assert.equal(e.severity, 'warning') // stalled until something re-syncs it
  })

  it('adoptionPending: orphans left by --cascade=orphan match the new ReplicaSet (adoption.yaml)', () => {
    const e = replay('adoption.yaml', 'web-7d4b9c6f5')
    assert.equal(e.verdict, 'adoptionPending')
    assert.deepEqual(e.replicaSet.claims.adopt, ['web-7d4b9c6f5-2xkqp', 'web-7d4b9c6f5-8mzt4', 'web-7d4b9c6f5-lq9rw'])
    assert.equal(e.replicaSet.active, 3)
    assert.equal(e.replicaSet.manage.action, 'none')
    assert.equal(e.replicaSet.claims.recheck?.performed, true)
    // The old ReplicaSet's event (another UID) is not this one's history.
    assert.equal(e.replicaSet.eventsFromOtherIncarnation, 1)
    assert.equal(e.replicaSet.expectations.state, 'none')
  })

  it('adoptionPending with a refused recheck: the ReplicaSet was recreated under another UID', () => {
    const input = replayInput('adoption.yaml', 'web-7d4b9c6f5')
    const other = {...input.replicaSet, metadata: {...input.replicaSet.metadata, uid: 'rs-web-3'}}
    const e = explainReplicaSet({...input, recheck: {read: 'found', replicaSet: other}})
    assert.equal(e.verdict, 'adoptionPending')
    assert.equal(e.severity, 'warning')
    assert.match(e.summary, /original ReplicaSet shop\/web-7d4b9c6f5 is gone: got uid rs-web-3, wanted rs-web-2/)
  })

  it('beingDeleted: no manageReplicas, no adoption (being-deleted.yaml)', () => {
    const e = replay('being-deleted.yaml', 'batch-8f7e6d5c4')
    assert.equal(e.verdict, 'beingDeleted')
    assert.equal(e.replicaSet.manage.runs, false)
    assert.deepEqual(e.replicaSet.claims.adopt, [])
    assert.equal(e.replicaSet.active, 1)
  })

  it('willCreate: a pod deleted by hand, status not yet resynced (will-create.yaml)', () => {
    const e = replay('will-create.yaml', 'auth-6c5b4a3f2')
    assert.equal(e.verdict, 'willCreate')
    assert.deepEqual(e.replicaSet.manage.batches, [1])
    assert.equal(e.replicaSet.expectations.state, 'fulfilled')
    assert.equal(e.replicaSet.status.current, false)
  })

  it('converged: a real ReplicaSet whose pods are Pending and unscheduled still counts them (realworld-coredns-pending.yaml)', () => {
    const e = replay('realworld-coredns-pending.yaml', 'coredns-5dd5756b68', {now: Date.parse('2024-10-25T18:00:00Z'), settings: {minor: 28}})
    assert.equal(e.verdict, 'converged')
    assert.equal(e.severity, 'none')
    assert.equal(e.replicaSet.active, 2)
    assert.equal(e.replicaSet.status.current, true)
  })

  it('the real ReplicaSet scaled to 1: its two identical pods tie for the one slot', () => {
    const input = replayInput('realworld-coredns-pending.yaml', 'coredns-5dd5756b68', {now: Date.parse('2024-10-25T18:00:00Z'), settings: {minor: 28}})
    const rs = {...input.replicaSet, spec: {...input.replicaSet.spec, replicas: 1}}
    const e = explainReplicaSet({...input, replicaSet: rs}) as ReturnType<typeof replay>
    assert.equal(e.verdict, 'willDelete')
    assert.equal(e.replicaSet.manage.tie?.slots, 1)
    assert.deepEqual(e.replicaSet.manage.tie?.pods.sort(), ['coredns-5dd5756b68-2zrhr', 'coredns-5dd5756b68-wcs5x'])
  })
})
