// DaemonSet cleanupHistory and StatefulSet truncateHistory, worked by hand from cleanups.md §4 (update.go
// cleanupHistory, stateful_set_control.go truncateHistory).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {cleanupHistory, replayRevisionHistory, truncateHistory} from '../../../src/engine/historylimits/index.js'

const cr = (name: string, revision: number, hash: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: {name, namespace: 'sys', uid: `u-${name}`, creationTimestamp: '2026-11-01T00:00:00Z', labels: {'controller-revision-hash': hash}},
  revision,
})
const pod = (name: string, hash: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'sys', uid: `p-${name}`, labels: {'controller-revision-hash': hash}},
})

describe('DaemonSet cleanupHistory', () => {
  // old = r1, r2, r3 (current r4 excluded), limit 1 → toKill 2. r1 is still run by a pod: skipped, does not count.
  // r2 and r3 go.
  const old = [cr('ds-r3', 3, 'h3'), cr('ds-r1', 1, 'h1'), cr('ds-r2', 2, 'h2')]
  it('oldest first, skipping live hashes, until len(old) − limit are gone', () => {
    assert.deepEqual(
      cleanupHistory(old, [pod('a', 'h1'), pod('b', 'h4')], 1).map((c) => c.metadata?.name),
      ['ds-r2', 'ds-r3'],
    )
  })
  it('within the limit: nothing', () => {
    assert.deepEqual(cleanupHistory(old, [], 3), [])
  })
})

describe('StatefulSet truncateHistory', () => {
  // revisions r1..r5; live: current r4, update r5, a pod on r2. Non-live history r1, r3; limit 1 → r1 goes.
  const revs = [cr('sts-r1', 1, 'sts-r1'), cr('sts-r2', 2, 'sts-r2'), cr('sts-r3', 3, 'sts-r3'), cr('sts-r4', 4, 'sts-r4'), cr('sts-r5', 5, 'sts-r5')]
  it('the limit counts only non-live revisions', () => {
    assert.deepEqual(
      truncateHistory(revs, [pod('web-0', 'sts-r2')], 'sts-r4', 'sts-r5', 1).map((c) => c.metadata?.name),
      ['sts-r1'],
    )
  })
  it('the replay names the pod that keeps a revision, and the limit to raise for one that goes', () => {
    const sts: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {name: 'web', namespace: 'sys', uid: 's'},
      spec: {revisionHistoryLimit: 1},
      status: {currentRevision: 'sts-r4', updateRevision: 'sts-r5'},
    }
    const pods = [pod('web-0', 'sts-r2')]
    const gone = replayRevisionHistory(revs[0], sts, revs, pods)!
    assert.equal(gone.actor.actor, 'statefulset')
    assert.equal(gone.actor.action, 'willDelete')
    assert.equal(gone.actor.next[0].change, 'StatefulSet sys/web: spec.revisionHistoryLimit')
    const kept = replayRevisionHistory(revs[1], sts, revs, pods)!
    assert.equal(kept.actor.action, 'none')
    assert.match(kept.headline, /pod web-0 still runs it/)
  })
})

// Upstream pkg/controller/statefulset/stateful_set_control_test.go TestStatefulSetControlLimitsHistory (entries
// "monotonic update" and "burst update": newStatefulSet(3), whose RevisionHistoryLimit is 2, then ten template
// updates, each rolled to every pod): after each update `len(revisions) <= *RevisionHistoryLimit + 2` ("the extra 2
// revisions are currentRevision and updateRevision ... truncateHistory only cleans up non-live revisions"). Replayed
// here as the controller does it: each update adds revision i+1 (updateRevision), every pod then runs it and
// currentRevision catches up; truncateHistory deletes what it returns. Both entries reach the same state per update
// (monotonic and burst differ only in pod ordering), so one sequence stands for both. Worked by hand beyond the
// upstream bound: once rolled, one revision is live and the limit keeps 2 others, so 3 remain from the third update on;
// in mid-rollout (current r(i), update r(i+1), pods on both) 2 are live and 2 kept: 4 = limit + 2, the bound itself.
describe('TestStatefulSetControlLimitsHistory (upstream), replayed over truncateHistory', () => {
  const LIMIT = 2
  it('ten updates: never more than limit + 2 revisions; 3 once each update has rolled', () => {
    let revs: KubeObject[] = [cr('sts-r0', 0, 'sts-r0')]
    for (let i = 0; i < 10; i++) {
      const next = `sts-r${i + 1}`
      revs = [...revs, cr(next, i + 1, next)]
      // Mid-rollout: current is the previous revision, one pod already on the new one.
      const current = `sts-r${i}`
      const mid = [pod('web-0', current), pod('web-1', current), pod('web-2', next)]
      const midGone = new Set(truncateHistory(revs, mid, current, next, LIMIT).map((c) => c.metadata?.name))
      assert.ok(revs.length - midGone.size <= LIMIT + 2, `update ${i}: mid-rollout`)
      // Rolled: every pod on the new revision, currentRevision = updateRevision.
      const rolled = [pod('web-0', next), pod('web-1', next), pod('web-2', next)]
      const gone = new Set(truncateHistory(revs, rolled, next, next, LIMIT).map((c) => c.metadata?.name))
      revs = revs.filter((r) => !gone.has(r.metadata?.name))
      assert.ok(revs.length <= LIMIT + 2, `update ${i}: ${revs.length} greater than limit ${LIMIT}`)
      assert.equal(revs.length, Math.min(i + 2, LIMIT + 1), `update ${i}`)
    }
    // The oldest went first: the three left are the newest.
    assert.deepEqual(
      revs.map((r) => r.metadata?.name),
      ['sts-r8', 'sts-r9', 'sts-r10'],
    )
  })
})
