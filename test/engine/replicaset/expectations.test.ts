// TestControllerExpectations (controller_utils_test.go:176, case rs-ControllerExpectations) and
// TestUIDExpectations (:259), plus TestDeletionTimestamp's counting (replica_set_test.go).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ControllerExpectations, UIDTrackingControllerExpectations} from '../../../src/engine/replicaset/expectations.js'

describe('ControllerExpectations', () => {
  it('counts go negative, Fulfilled means add ≤ 0 and del ≤ 0, and a new Set forgets the old counts', () => {
    let clock = 0
    const e = new ControllerExpectations(() => clock)
    e.setExpectations('ns/rc', 10, 30)
    for (let i = 0; i < 11; i++) e.creationObserved('ns/rc')
    assert.equal(e.satisfiedExpectations('ns/rc'), false, 'deletes still outstanding')
    for (let i = 0; i < 31; i++) e.deletionObserved('ns/rc')
    assert.deepEqual([e.getExpectations('ns/rc')?.add, e.getExpectations('ns/rc')?.del], [-1, -1])
    assert.equal(e.satisfiedExpectations('ns/rc'), true)
    e.setExpectations('ns/rc', 1, 2)
    assert.deepEqual([e.getExpectations('ns/rc')?.add, e.getExpectations('ns/rc')?.del], [1, 2])
    assert.equal(e.satisfiedExpectations('ns/rc'), false)
    // Production expiry is ExpectationsTimeout = 5 min, strictly exceeded (CU:225); the test's ttl + 1 step.
    clock += 5 * 60_000
    assert.equal(e.satisfiedExpectations('ns/rc'), false, 'exactly 5 minutes is not yet expired')
    clock += 1
    assert.equal(e.satisfiedExpectations('ns/rc'), true, 'expired')
  })

  it('lowering never refreshes the timestamp; no record means satisfied', () => {
    let clock = 0
    const e = new ControllerExpectations(() => clock)
    assert.equal(e.satisfiedExpectations('ns/x'), true)
    e.expectCreations('ns/x', 3)
    clock = 4 * 60_000
    e.creationObserved('ns/x')
    assert.equal(e.getExpectations('ns/x')?.timestamp, 0)
  })
})

describe('UIDTrackingControllerExpectations', () => {
  for (const replicas of [2, 1, 0, 5]) {
    it(`controller with ${replicas} replicas: 5 keys expected, all observed, then deleted`, () => {
      const u = new UIDTrackingControllerExpectations(() => 0)
      const key = `default/rc-${replicas}`
      const pods = [0, 1, 2, 3, 4].map((i) => `default/pod${i}-rc-${replicas}`)
      u.expectDeletionKeys(key, pods)
      assert.equal(u.satisfiedExpectations(key), false)
      for (const p of pods) u.deletionObservedKey(key, p)
      assert.equal(u.satisfiedExpectations(key), true)
      u.deleteExpectations(key)
      assert.equal(u.getUIDs(key), undefined)
    })
  }

  it('a graceful delete counts once, and deletions of pods it did not choose do not count (TestDeletionTimestamp)', () => {
    const u = new UIDTrackingControllerExpectations(() => 0)
    u.expectDeletionKeys('default/foobar', ['default/secondPod'])
    u.deletionObservedKey('default/foobar', 'default/pod0') // another pod: ignored
    assert.equal(u.satisfiedExpectations('default/foobar'), false)
    u.deletionObservedKey('default/foobar', 'default/secondPod') // deletionTimestamp update
    u.deletionObservedKey('default/foobar', 'default/secondPod') // final delete: not counted again
    assert.deepEqual(u.getExpectations('default/foobar')?.del, 0)
    assert.equal(u.satisfiedExpectations('default/foobar'), true)
  })
})
