// The driver: one ReplicaSet's reads and a whole scope's give the replay the same pods, so `replicas rs/NAME` and
// `replicas --all` (and the audit) answer alike; the co-location rank counts every related pod (issue 18.1).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {type DriveOptions, driveReplicaSet, driveScope, sortFindings} from '../../../src/engine/replicaset/drive.js'
import type {Explanation} from '../../../src/explanation.js'
import {HOUR, NOW, pod, replicaSet} from './build.js'
import {MemorySource} from './memory-source.js'

const options: DriveOptions = {minor: 34, describe: (problems) => ({mode: 'snapshot', partial: [...problems]})}
const ready = (name: string, node: string, owner: {name: string; uid: string}, uid: string) =>
  pod({name, namespace: 'shop', uid, node, ready: true, readySince: NOW - 48 * HOUR, created: NOW - 48 * HOUR, labels: {app: 'web'}, owner})

// Issue 18.1: ReplicaSet web-h1 (replicas 1, under Deployment web) owns pod a on n1 and pod b on n2; pod c on n2
// matches web-h1's selector but is controlled by another ReplicaSet (under another Deployment).
// By hand, as upstream does it: getIndirectlyRelatedPods(web-h1) lists the pods matching the selector of every
// ReplicaSet with web-h1's controller — only web-h1 itself — whoever controls them: a, b and c (replica_set.go:915).
// getPodsRankedByRelatedPodsOnSameNode counts the active related pods per node: n1 → 1 (a), n2 → 2 (b, c), so
// rank(a) = 1, rank(b) = 2. Both pods are Running, ready, without cost, so rule 5 (more co-located first) decides:
// b goes, a stays. The old --all index handed the replay only web-h1's family's pods and the orphans: c was missed,
// both ranked 1, and the UID tie-break (rule 6 in the same bucket) picked a.
function h1Cluster() {
  const web = {name: 'web', uid: 'dep-web'}
  const h1 = replicaSet({
    name: 'web-h1',
    namespace: 'shop',
    uid: 'rs-h1',
    replicas: 1,
    selector: {app: 'web'},
    owner: web,
    generation: 2,
    status: {replicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 2},
  })
  const other = replicaSet({
    name: 'legacy-x9',
    namespace: 'shop',
    uid: 'rs-x9',
    replicas: 1,
    selector: {app: 'web', tier: 'legacy'},
    owner: {name: 'legacy', uid: 'dep-legacy'},
    status: {replicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1},
  })
  const a = ready('web-h1-a', 'n1', {name: 'web-h1', uid: 'rs-h1'}, 'uid-a')
  const b = ready('web-h1-b', 'n2', {name: 'web-h1', uid: 'rs-h1'}, 'uid-b')
  const c = ready('legacy-x9-c', 'n2', {name: 'legacy-x9', uid: 'rs-x9'}, 'uid-c')
  c.metadata.labels = {app: 'web', tier: 'legacy'}
  return [h1, other, a, b, c]
}

const order = (e: Explanation) =>
  (e.replicaSet as {manage: {deleteOrder: {name: string; rank: number; chosen: boolean}[]}}).manage.deleteOrder.map(
    (d) => `${d.name}:${d.rank}:${d.chosen ? 'delete' : 'keep'}`,
  )

describe('co-location rank over every related pod (issue 18.1)', () => {
  test('replicas rs/web-h1: b (rank 2) goes, a (rank 1) stays', async () => {
    const e = await driveReplicaSet(new MemorySource(h1Cluster(), new Date(NOW)), 'shop', 'web-h1', options)
    assert.equal(e.verdict, 'willDelete')
    assert.deepEqual(order(e), ['web-h1-b:2:delete', 'web-h1-a:1:keep'])
  })

  test('replicas --all: the same answer', async () => {
    const scan = await driveScope(new MemorySource(h1Cluster(), new Date(NOW)), undefined, options)
    const h1 = scan.findings.find((f) => f.subject.name === 'web-h1')!
    assert.equal(h1.verdict, 'willDelete')
    assert.deepEqual(order(h1), ['web-h1-b:2:delete', 'web-h1-a:1:keep'])
  })
})

describe('one rule for findings and their order', () => {
  test('worst first, then the order of VERDICTS, then namespace/name; converged with nothing to release is no finding', async () => {
    const scan = await driveScope(new MemorySource(h1Cluster(), new Date(NOW)), undefined, options)
    // legacy-x9: 1 active (c) for 1 desired, status current: converged, severity none → not a finding.
    assert.deepEqual(scan.counts, {converged: 1, willDelete: 1})
    assert.deepEqual(
      scan.findings.map((f) => f.subject.name),
      ['web-h1'],
    )
    const f = (name: string, verdict: string, severity: Explanation['severity'], namespace = 'a'): Explanation => ({
      subject: {kind: 'ReplicaSet', namespace, name},
      controller: 'replicaset',
      verdict,
      severity,
      summary: '',
      steps: [],
      evaluatedAt: '',
      source: {mode: 'live'},
    })
    const sorted = sortFindings([
      f('z', 'willCreate', 'info'),
      f('y', 'createsFailing', 'critical'),
      f('b', 'waitingForExpectations', 'warning'),
      f('a', 'adoptionPending', 'warning'),
      f('x', 'willCreate', 'info', 'B'),
      f('x', 'willCreate', 'info', 'A'),
    ])
    assert.deepEqual(
      sorted.map((e) => `${e.subject.namespace}/${e.subject.name}`),
      ['a/y', 'a/b', 'a/a', 'A/x', 'B/x', 'a/z'],
    )
  })
})
