// TestSlowStartBatch and TestSyncReplicaSetCreateFailures (pkg/controller/replicaset/replica_set_test.go).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {simulateSlowStart, slowStartBatches, worstCaseDoomedCalls} from '../../../src/engine/replicaset/slow-start.js'

describe('slowStartBatch', () => {
  it('callLimit = 0 (all fail): 0 successes, 1 call', () => {
    const r = simulateSlowStart(10, 0)
    assert.equal(r.successes, 0)
    assert.equal(r.calls, 1)
  })
  it('callLimit = count (all succeed): 10 successes, 10 calls = 1 + 2 + 4 + 3', () => {
    const r = simulateSlowStart(10, 10)
    assert.equal(r.successes, 10)
    assert.equal(r.calls, 10)
    assert.deepEqual(r.batches, [1, 2, 4, 3])
  })
  it('callLimit < count (some succeed): 5 successes, 7 calls = 1 + 2 + 4', () => {
    const r = simulateSlowStart(10, 5)
    assert.equal(r.successes, 5)
    assert.equal(r.calls, 7)
    assert.equal(r.skipped, 5)
  })
  it('TestSyncReplicaSetCreateFailures: 100 wanted, a limit of 10 creates: 10 made in at most 1+2+4+8 = 15 calls', () => {
    const r = simulateSlowStart(100, 10)
    assert.equal(r.successes, 10)
    assert.ok(r.calls <= 15)
    assert.equal(r.calls, 15)
  })
  it('batch sizes double up to what remains; the burst cap of 500 gives 1..256 then 245', () => {
    assert.deepEqual(slowStartBatches(0), [])
    assert.deepEqual(slowStartBatches(1), [1])
    assert.deepEqual(slowStartBatches(500), [1, 2, 4, 8, 16, 32, 64, 128, 245])
    // Hand-worked: 1+2+4+...+128 = 255, 500 − 255 = 245 < 256.
    assert.equal(worstCaseDoomedCalls(500), 245)
    assert.equal(worstCaseDoomedCalls(2), 1)
  })
})
