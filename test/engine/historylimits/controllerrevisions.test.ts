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
