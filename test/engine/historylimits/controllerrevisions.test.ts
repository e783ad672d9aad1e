// DaemonSet cleanupHistory and StatefulSet truncateHistory, worked by hand from cleanups.md §4 (update.go
// cleanupHistory, stateful_set_control.go truncateHistory).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {cleanupHistory, daemonPodsForHistory, replayRevisionHistory, splitDaemonSetHistory, truncateHistory} from '../../../src/engine/historylimits/index.js'

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

// Which pods' hashes keep a DaemonSet revision: cleanupHistory lists them with getNodesToDaemonPods(ctx, ds, true).
// Upstream table pkg/controller/daemon/daemon_controller_test.go TestGetNodesToDaemonPods (stored copy, index id
// 71110696), entry "include deleted terminal pods": wanted = matching-owned-0/1, matching-orphan-0/1 (adopted),
// matching-owned-succeeded-pod-0, matching-owned-failed-deleted-pod-1; ignored = non-matching-owned-0 (owned, labels
// no longer match: released), non-matching-orphan-1, matching-owned-by-other-0 (ds2's). newDaemonSet's selector is
// simpleDaemonSetLabel {name: simple-daemon, type: production}; simpleDaemonSetLabel2 {name: simple-daemon, type: test}.
describe('TestGetNodesToDaemonPods (upstream, includeDeletedTerminal: true), as daemonPodsForHistory', () => {
  const L1 = {name: 'simple-daemon', type: 'production'}
  const L2 = {name: 'simple-daemon', type: 'test'}
  const ds: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {name: 'foo', namespace: 'default', uid: 'ds-foo'},
    spec: {selector: {matchLabels: L1}, template: {metadata: {labels: L1}}},
  }
  const p = (name: string, labels: Record<string, string>, ownerUid?: string, extra: Partial<KubeObject> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `p-${name}`,
      labels,
      ...(ownerUid ? {ownerReferences: [{apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'x', uid: ownerUid, controller: true}]} : {}),
    },
    ...extra,
  })
  const deleted = {metadata: {deletionTimestamp: '2026-12-01T00:00:00Z'}}
  const wanted = [
    p('matching-owned-0', L1, 'ds-foo'),
    p('matching-orphan-0', L1),
    p('matching-owned-1', L1, 'ds-foo'),
    p('matching-orphan-1', L1),
    p('matching-owned-succeeded-pod-0', L1, 'ds-foo', {status: {phase: 'Succeeded'}}),
    {
      ...p('matching-owned-failed-deleted-pod-1', L1, 'ds-foo', {status: {phase: 'Failed'}}),
      metadata: {...p('x', L1, 'ds-foo').metadata, name: 'matching-owned-failed-deleted-pod-1', ...deleted.metadata},
    },
  ]
  const ignored = [p('non-matching-owned-0', L2, 'ds-foo'), p('non-matching-orphan-1', L2), p('matching-owned-by-other-0', L1, 'ds-foo2')]
  it('the wanted pods, and none of the ignored ones', () => {
    assert.deepEqual(
      daemonPodsForHistory(ds, [...wanted, ...ignored])
        .map((x) => x.metadata?.name)
        .sort(),
      wanted.map((x) => x.metadata?.name).sort(),
    )
  })
})

// constructHistory + cleanupHistory over one DaemonSet, worked by hand from update.go: limit 1; revisions r1 (hash h1),
// r2 (h2), r3 (h3, the DaemonSet's template), r0dup (revision 0, the same template as r3). Current: r3 (Match; of the
// two matching, dedupCurHistories keeps the higher revision, r3, and deletes r0dup). Old: r1, r2 → toKill = 2 − 1 = 1.
// A Failed, deleted pod still carries h1, so r1 is skipped and does not count; r2 goes. Kept: r1 (a pod runs it), r3.
describe('DaemonSet history replay: Match, dedupCurHistories, cleanupHistory', () => {
  const tmpl = (image: string) => ({metadata: {labels: {app: 'd'}}, spec: {containers: [{name: 'c', image}]}})
  const ds: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {name: 'd', namespace: 'sys', uid: 'ds-d'},
    spec: {revisionHistoryLimit: 1, selector: {matchLabels: {app: 'd'}}, template: tmpl('v3')},
  }
  const rev = (name: string, revision: number, hash: string, image: string): KubeObject => ({
    ...cr(name, revision, hash),
    data: {spec: {template: {...tmpl(image), $patch: 'replace'}}},
  })
  const revs = [rev('d-r1', 1, 'h1', 'v1'), rev('d-r2', 2, 'h2', 'v2'), rev('d-r3', 3, 'h3', 'v3'), rev('d-r0dup', 0, 'h0', 'v3')]
  const owned = (name: string, hash: string, extra: Record<string, unknown> = {}): KubeObject => ({
    ...pod(name, hash),
    metadata: {
      ...pod(name, hash).metadata,
      labels: {app: 'd', 'controller-revision-hash': hash},
      ownerReferences: [{apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'd', uid: 'ds-d', controller: true}],
      ...extra,
    },
  })
  const pods = [owned('d-a', 'h3'), {...owned('d-b', 'h1', {deletionTimestamp: '2026-12-01T00:00:00Z'}), status: {phase: 'Failed'}}]
  const actionOf = (name: string) => replayRevisionHistory(revs.find((r) => r.metadata?.name === name)!, ds, revs, pods)!
  it('the split: r3 current by template, r0dup its duplicate, r1 and r2 old', () => {
    const split = splitDaemonSetHistory(ds, revs)
    assert.equal(split.current?.metadata?.name, 'd-r3')
    assert.deepEqual(
      split.duplicates.map((r) => r.metadata?.name),
      ['d-r0dup'],
    )
    assert.deepEqual(split.old.map((r) => r.metadata?.name).sort(), ['d-r1', 'd-r2'])
  })
  it('r2 goes by the limit, r0dup as a duplicate; r1 (a deleted Failed pod runs it) and r3 (current) stay', () => {
    assert.equal(actionOf('d-r2').actor.action, 'willDelete')
    assert.equal(actionOf('d-r2').actor.rule, 'cleanupHistory')
    assert.equal(actionOf('d-r0dup').actor.action, 'willDelete')
    assert.equal(actionOf('d-r0dup').actor.rule, 'dedupCurHistories')
    assert.equal(actionOf('d-r1').actor.action, 'none')
    assert.match(actionOf('d-r1').headline, /pod d-b still runs it/)
    assert.match(actionOf('d-r3').headline, /the current revision/)
  })
  it('a template no revision holds: every revision is old (snapshot makes the current one); r3 is kept only by its pod', () => {
    // old = r0dup, r1, r2, r3 → toKill 3; by .revision: r0dup (h0, not live) goes, r1 (h1 live) skipped, r2 goes,
    // r3 (h3: pod d-a still runs it) skipped. Deleted: r0dup, r2 — r3 is kept by its pod, not by being current.
    const changed = {...ds, spec: {...(ds.spec as object), template: tmpl('v4')}}
    const r = (name: string) => replayRevisionHistory(revs.find((x) => x.metadata?.name === name)!, changed, revs, pods)!
    assert.equal(r('d-r0dup').actor.action, 'willDelete')
    assert.equal(r('d-r2').actor.action, 'willDelete')
    assert.equal(r('d-r3').actor.action, 'none')
    assert.match(r('d-r3').headline, /pod d-a still runs it/)
  })
  it('revisionHistoryLimit unset: the default 10 is applied and said', () => {
    const unset = {...ds, spec: {...(ds.spec as object), revisionHistoryLimit: undefined}}
    const r = replayRevisionHistory(revs[1], unset, revs, pods)!
    assert.equal(r.actor.action, 'none')
    assert.match(r.headline, /revisionHistoryLimit 10 \(unset in the data: the API default\)/)
  })
})
