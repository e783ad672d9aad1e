// TestGetPodsToDelete (pkg/controller/replicaset/replica_set_test.go), with its pods and expected results,
// plus getIndirectlyRelatedPods and the tie report.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {gatesFor} from '../../../src/engine/replicaset/gates.js'
import {getIndirectlyRelatedPods, getPodsToDelete, rankPods} from '../../../src/engine/replicaset/pods-to-delete.js'
import type {Pod} from '../../../src/engine/replicaset/types.js'
import {NOW, pod, replicaSet} from './build.js'

const gates = gatesFor({minor: 33})
let n = 0
// newPod(name, rs, phase, nil, true): a Running pod gets a Ready=True condition with no transition time; UIDs are random (uuid.NewUUID).
function newPod(name: string, phase: string, node?: string, ready?: boolean): Pod {
  const p = pod({name, phase, node, uid: `uid-${++n}-${name}`, labels: {name: 'foo'}, owner: {name: 'foobar', uid: 'rs'}})
  if (phase === 'Running') p.status!.conditions = [{type: 'Ready', status: ready === false ? 'False' : 'True'}]
  return p
}

const unscheduledPendingPod = newPod('unscheduled-pending-pod', 'Pending')
const scheduledPendingPod = newPod('scheduled-pending-pod', 'Pending', 'fake-node')
const scheduledRunningNotReadyPod = newPod('scheduled-running-not-ready-pod', 'Running', 'fake-node', false)
const scheduledRunningReadyPodOnNode1 = newPod('scheduled-running-ready-pod-on-node-1', 'Running', 'fake-node-1', true)
const scheduledRunningReadyPodOnNode2 = newPod('scheduled-running-ready-pod-on-node-2', 'Running', 'fake-node-2', true)

describe('getPodsToDelete (TestGetPodsToDelete)', () => {
  const tests: {name: string; pods: Pod[]; related?: Pod[]; diff: number; want: Pod[]}[] = [
    {name: 'len(pods) = 0 (i.e., diff = 0 too)', pods: [], diff: 0, want: []},
    {
      name: 'diff = len(pods)',
      pods: [scheduledRunningNotReadyPod, scheduledRunningReadyPodOnNode1],
      diff: 2,
      want: [scheduledRunningNotReadyPod, scheduledRunningReadyPodOnNode1],
    },
    {name: 'diff < len(pods)', pods: [scheduledRunningReadyPodOnNode1, scheduledRunningNotReadyPod], diff: 1, want: [scheduledRunningNotReadyPod]},
    {
      name: 'various pod phases and conditions, diff = len(pods)',
      pods: [
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode2,
        scheduledRunningNotReadyPod,
        scheduledPendingPod,
        unscheduledPendingPod,
      ],
      diff: 6,
      want: [
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode2,
        scheduledRunningNotReadyPod,
        scheduledPendingPod,
        unscheduledPendingPod,
      ],
    },
    {
      name: 'various pod phases and conditions, diff = len(pods), relatedPods empty',
      pods: [
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode2,
        scheduledRunningNotReadyPod,
        scheduledPendingPod,
        unscheduledPendingPod,
      ],
      related: [],
      diff: 6,
      want: [
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode1,
        scheduledRunningReadyPodOnNode2,
        scheduledRunningNotReadyPod,
        scheduledPendingPod,
        unscheduledPendingPod,
      ],
    },
    {name: 'scheduled vs unscheduled, diff < len(pods)', pods: [scheduledPendingPod, unscheduledPendingPod], diff: 1, want: [unscheduledPendingPod]},
    {
      name: 'ready vs not-ready, diff < len(pods)',
      pods: [scheduledRunningReadyPodOnNode1, scheduledRunningNotReadyPod, scheduledRunningNotReadyPod],
      diff: 2,
      want: [scheduledRunningNotReadyPod, scheduledRunningNotReadyPod],
    },
    {
      name: 'ready and colocated with another ready pod vs not colocated, diff < len(pods)',
      pods: [scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2],
      related: [scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2, scheduledRunningReadyPodOnNode2],
      diff: 1,
      want: [scheduledRunningReadyPodOnNode2],
    },
    {name: 'pending vs running, diff < len(pods)', pods: [scheduledPendingPod, scheduledRunningNotReadyPod], diff: 1, want: [scheduledPendingPod]},
    {
      name: 'various pod phases and conditions, diff < len(pods)',
      pods: [scheduledRunningReadyPodOnNode1, scheduledRunningReadyPodOnNode2, scheduledRunningNotReadyPod, scheduledPendingPod, unscheduledPendingPod],
      diff: 3,
      want: [unscheduledPendingPod, scheduledPendingPod, scheduledRunningNotReadyPod],
    },
  ]
  for (const t of tests) {
    it(t.name, () => {
      const plan = getPodsToDelete([...t.pods], t.related ?? t.pods, t.diff, NOW, gates)
      assert.deepEqual(
        plan.chosen.map((p) => p.metadata.name),
        t.want.map((p) => p.metadata.name),
      )
      assert.equal(plan.sorted, t.diff < t.pods.length)
    })
  }
})

describe('co-location rank and ties', () => {
  it('counts only active related pods per node name, the empty node name included', () => {
    const terminating = pod({name: 't', node: 'n1', deletionTimestamp: '2026-11-29T09:59:00Z'})
    const done = pod({name: 'd', node: 'n1', phase: 'Succeeded'})
    const a = pod({name: 'a', node: 'n1'})
    const b = pod({name: 'b', node: 'n1'})
    const u1 = pod({name: 'u1', phase: 'Pending'})
    const u2 = pod({name: 'u2', phase: 'Pending'})
    const ranks = rankPods([a, u1], [a, b, terminating, done, u1, u2])
    // n1 has a and b active (t terminating, d finished do not count); "" has u1 and u2.
    assert.deepEqual(
      ranks.map((r) => r.rank),
      [2, 2],
    )
  })

  it('reports the pods that tie across the cut (equal under every rule)', () => {
    // Three identical ready pods on three nodes with no times: all equal; deleting 1 leaves a 3-way tie for 1 slot.
    const pods = ['x', 'y', 'z'].map((name, i) => {
      const p = pod({name, node: `n${i}`, ready: true, uid: 'same'})
      return p
    })
    const plan = getPodsToDelete(pods, pods, 1, NOW, gates)
    assert.equal(plan.tie?.slots, 1)
    assert.deepEqual(plan.tie?.pods.map((p) => p.metadata.name).sort(), ['x', 'y', 'z'])
  })

  it('getIndirectlyRelatedPods: the pods of every ReplicaSet under the same controller, whoever owns them, once each', () => {
    const owner = {name: 'web', uid: 'deploy-uid'}
    const rsNew = replicaSet({name: 'web-new', uid: 'rs-new', selector: {app: 'web', h: 'new'}, owner})
    const rsOld = replicaSet({name: 'web-old', uid: 'rs-old', selector: {app: 'web', h: 'old'}, owner})
    const other = replicaSet({name: 'api-1', uid: 'rs-api', selector: {app: 'api'}, owner: {name: 'api', uid: 'other'}})
    const pods = [
      pod({name: 'n1', uid: 'p1', labels: {app: 'web', h: 'new'}}),
      pod({name: 'o1', uid: 'p2', labels: {app: 'web', h: 'old'}}),
      pod({name: 'a1', uid: 'p3', labels: {app: 'api'}}),
      pod({name: 'stray', uid: 'p4', labels: {app: 'web', h: 'old'}, owner: {name: 'elsewhere', uid: 'zzz'}}),
    ]
    const related = getIndirectlyRelatedPods(rsNew, [rsNew, rsOld, other], pods)
    assert.deepEqual(related?.map((p) => p.metadata.name).sort(), ['n1', 'o1', 'stray'])
    assert.equal(getIndirectlyRelatedPods(replicaSet({owner: null}), [], pods), undefined)
  })
})
