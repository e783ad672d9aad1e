// The TTL-after-finished replay. TestTimeLeft is converted from upstream
// pkg/controller/ttlafterfinished/ttlafterfinished_controller_test.go (same entries, same expectations); the replay
// cases below are worked by hand from ttlafterfinished_controller.go processTTL.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {replayTtlAfterFinished, timeLeft} from '../../../src/engine/ttlafterfinished/index.js'

const NOW = new Date('2026-11-29T10:00:00Z')
const at = (s: number): string => new Date(NOW.getTime() + s * 1000).toISOString()

/** upstream newJob(completionTime, failedTime, ttl). */
function newJob(completionTime: string | undefined, failedTime: string | undefined, ttl: number | undefined, extra: Partial<KubeObject> = {}): KubeObject {
  const conditions = [
    ...(completionTime ? [{type: 'Complete', status: 'True', lastTransitionTime: completionTime}] : []),
    ...(failedTime ? [{type: 'Failed', status: 'True', lastTransitionTime: failedTime}] : []),
  ]
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {name: 'foobar', namespace: 'default', uid: 'j-1', ...(extra.metadata ?? {})},
    spec: ttl === undefined ? {} : {ttlSecondsAfterFinished: ttl},
    status: {conditions},
  }
}

describe('TestTimeLeft (upstream table)', () => {
  const cases: [string, string | undefined, string | undefined, number | undefined, {err: string} | {left: number; expireAt: string}][] = [
    ['Error case: Job unfinished', undefined, undefined, 100, {err: 'should not be cleaned up'}],
    ['Error case: Job completed now, no TTL', at(0), undefined, undefined, {err: 'should not be cleaned up'}],
    ['Job completed now, 0s TTL', at(0), undefined, 0, {left: 0, expireAt: at(0)}],
    ['Job completed now, 10s TTL', at(0), undefined, 10, {left: 10, expireAt: at(10)}],
    ['Job completed 10s ago, 15s TTL', at(-10), undefined, 15, {left: 5, expireAt: at(5)}],
    ['Error case: Job failed now, no TTL', undefined, at(0), undefined, {err: 'should not be cleaned up'}],
    ['Job failed now, 0s TTL', undefined, at(0), 0, {left: 0, expireAt: at(0)}],
    ['Job failed now, 10s TTL', undefined, at(0), 10, {left: 10, expireAt: at(10)}],
    ['Job failed 10s ago, 15s TTL', undefined, at(-10), 15, {left: 5, expireAt: at(5)}],
  ]
  for (const [name, completion, failed, ttl, want] of cases) {
    it(name, () => {
      const got = timeLeft(newJob(completion, failed, ttl), NOW)
      if ('err' in want) {
        assert.equal(got.ok, false)
        assert.ok(!got.ok && got.error.includes(want.err))
      } else {
        assert.ok(got.ok)
        assert.equal(got.ok && got.timeLeftSeconds, want.left)
        assert.equal(got.ok && got.expireAt, want.expireAt)
      }
    })
  }
})

describe('replayTtlAfterFinished', () => {
  it('no ttlSecondsAfterFinished: the controller never looks at it', () => {
    assert.equal(replayTtlAfterFinished(newJob(at(-60), undefined, undefined), NOW), undefined)
  })
  it('completed an hour ago with a 2h TTL: willDelete at finish + 7200s, Foreground', () => {
    // finish 09:00, ttl 7200 s → expireAt 11:00, one hour after NOW.
    const r = replayTtlAfterFinished(newJob(at(-3600), undefined, 7200), NOW)!
    assert.equal(r.actor.actor, 'ttl-after-finished')
    assert.equal(r.actor.action, 'willDelete')
    assert.equal(r.actor.at, '2026-11-29T11:00:00.000Z')
    assert.match(r.headline, /in 60m/)
    assert.match(r.headline, /Foreground/)
    assert.doesNotMatch(r.headline, /never/)
  })
  it('expired and still present: should already be deleted, the controller log is the next step', () => {
    const r = replayTtlAfterFinished(newJob(at(-600), undefined, 60), NOW)!
    assert.equal(r.actor.action, 'willDelete')
    assert.equal(r.actor.at, at(-540))
    assert.match(r.actor.next[0].command ?? '', /kube-controller-manager/)
  })
  it('not finished: none (SuccessCriteriaMet alone is not finished)', () => {
    const j = newJob(undefined, undefined, 100)
    ;(j.status as {conditions: unknown[]}).conditions.push({type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: at(-5)})
    const r = replayTtlAfterFinished(j, NOW)!
    assert.equal(r.actor.action, 'none')
  })
  it('the first finished condition is the one read (a later Failed does not move the finish time)', () => {
    const r = replayTtlAfterFinished(newJob(at(-100), at(-10), 50), NOW)!
    assert.equal(r.actor.at, at(-50))
  })
  it('being deleted with foregroundDeletion after expiry: deleted by it', () => {
    const j = newJob(at(-100), undefined, 50, {
      metadata: {name: 'foobar', namespace: 'default', deletionTimestamp: at(-49), finalizers: ['foregroundDeletion']},
    })
    const r = replayTtlAfterFinished(j, NOW)!
    assert.equal(r.actor.action, 'deleted')
    assert.equal(r.actor.at, at(-49))
  })
})
