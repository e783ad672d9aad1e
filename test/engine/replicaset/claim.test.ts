// ClaimObject's table (controller_ref_manager.go:69) and the replica_set_test.go cases about claiming:
// TestDoNotPatchPodWithOtherControlRef, TestDoNotAdoptOrCreateIfBeingDeleted(Race).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {claimPods} from '../../../src/engine/replicaset/claim.js'
import {labelSelectorAsSelector} from '../../../src/apimachinery/labels.js'
import {pod, replicaSet} from './build.js'

const rs = replicaSet({name: 'foobar', uid: 'rs-uid', selector: {foo: 'bar'}})
const sel = labelSelectorAsSelector(rs.spec!.selector)
const mine = {name: 'foobar', uid: 'rs-uid'}

describe('ClaimPods', () => {
  it('owned and matching: claimed without an API call', () => {
    const r = claimPods(rs, sel, [pod({name: 'p', labels: {foo: 'bar'}, owner: mine})])
    assert.deepEqual(
      r.claims.map((c) => [c.action, c.claimed]),
      [['owned', true]],
    )
    assert.equal(r.adoptionAttempted, false)
  })
  it('owned, selector no longer matches: released (not claimed)', () => {
    const r = claimPods(rs, sel, [pod({name: 'p', labels: {foo: 'baz'}, owner: mine})])
    assert.deepEqual(
      r.claims.map((c) => [c.action, c.claimed]),
      [['release', false]],
    )
  })
  it('owned, selector no longer matches, RS being deleted: neither claimed nor released', () => {
    const deleting = {...rs, metadata: {...rs.metadata, deletionTimestamp: '2026-11-29T09:00:00Z'}}
    const r = claimPods(deleting, sel, [pod({name: 'p', labels: {foo: 'baz'}, owner: mine})])
    assert.deepEqual(
      r.claims.map((c) => [c.action, c.claimed]),
      [['ignore', false]],
    )
  })
  it('TestDoNotPatchPodWithOtherControlRef: a matching pod controlled by another RS is ignored (so 2 pods get created)', () => {
    const r = claimPods(rs, sel, [pod({name: 'pod', labels: {foo: 'bar'}, owner: {name: 'AnotherRS', uid: 'another'}})])
    assert.deepEqual(
      r.claims.map((c) => [c.action, c.claimed]),
      [['ignore', false]],
    )
    assert.equal(r.considered, 0)
  })
  it('orphan matching: adopted', () => {
    const r = claimPods(rs, sel, [pod({name: 'p', labels: {foo: 'bar'}})])
    assert.deepEqual(
      r.claims.map((c) => [c.action, c.claimed]),
      [['adopt', true]],
    )
    assert.equal(r.adoptionAttempted, true)
  })
  it('orphan not matching, or finished, or terminating: not considered for adoption', () => {
    const r = claimPods(rs, sel, [
      pod({name: 'a', labels: {foo: 'other'}}),
      pod({name: 'b', labels: {foo: 'bar'}, phase: 'Succeeded'}),
      pod({name: 'c', labels: {foo: 'bar'}, deletionTimestamp: '2026-11-29T09:00:00Z'}),
    ])
    assert.deepEqual(r.claims, [])
    assert.equal(r.adoptionAttempted, false)
  })
  it('TestDoNotAdoptOrCreateIfBeingDeleted: the RS has a deletionTimestamp, no adoption', () => {
    const deleting = {...rs, metadata: {...rs.metadata, deletionTimestamp: '2026-11-29T09:00:00Z'}}
    const r = claimPods(deleting, sel, [pod({name: 'pod1', labels: {foo: 'bar'}})])
    assert.deepEqual(r.claims, [])
    assert.equal(r.adoptionAttempted, false)
  })
  it('TestDoNotAdoptOrCreateIfBeingDeletedRace: the cache says alive, the uncached GET says deleted: the sync errors', () => {
    const fresh = {...rs, metadata: {...rs.metadata, deletionTimestamp: '2026-11-29T09:00:00Z'}}
    const r = claimPods(rs, sel, [pod({name: 'pod1', uid: 'p1', labels: {foo: 'bar'}})], {read: 'found', replicaSet: fresh})
    assert.equal(r.claims[0].claimed, false)
    assert.equal(r.claimError, "can't adopt Pod default/pod1 (p1): default/foobar has just been deleted at 2026-11-29T09:00:00Z")
  })
  it('the uncached GET finds another incarnation: "original ReplicaSet ... is gone"', () => {
    const other = {...rs, metadata: {...rs.metadata, uid: 'new-uid'}}
    const r = claimPods(rs, sel, [pod({name: 'a', uid: 'pa', labels: {foo: 'bar'}}), pod({name: 'b', uid: 'pb', labels: {foo: 'bar'}})], {
      read: 'found',
      replicaSet: other,
    })
    assert.equal(
      r.claimError,
      "[can't adopt Pod default/a (pa): can't recheck DeletionTimestamp: original ReplicaSet default/foobar is gone: got uid new-uid, wanted rs-uid, can't adopt Pod default/b (pb): can't recheck DeletionTimestamp: original ReplicaSet default/foobar is gone: got uid new-uid, wanted rs-uid]",
    )
  })
})
