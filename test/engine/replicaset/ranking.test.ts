// The deletion order, from upstream's own tests:
//  - TestSortingActivePods (controller_utils_test.go:644, case rs-ActivePods-sort-order): the legacy order;
//  - TestSortingActivePodsWithRanks (controller_utils_test.go:779/833/871, cases rs-ActivePodsWithRanks-*):
//    every rule of ActivePodsWithRanks.Less, log2 buckets and the cost gate.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {gatesFor} from '../../../src/engine/replicaset/gates.js'
import {activePodsLess, compareWithRanks, deletionCost, sortByLess} from '../../../src/engine/replicaset/ranking.js'
import type {Pod} from '../../../src/engine/replicaset/types.js'
import {HOUR, NOW, pod, shuffled, THEN_1_MONTH} from './build.js'

const ALL_ON = gatesFor({minor: 33})

describe('ActivePods.Less (TestSortingActivePods)', () => {
  const then = THEN_1_MONTH
  const pods: Pod[] = [
    pod({name: 'unscheduled', phase: 'Pending'}),
    pod({name: 'scheduledButPending', node: 'bar', phase: 'Pending'}),
    pod({name: 'unknownPhase', node: 'foo', phase: 'Unknown'}),
    pod({name: 'runningButNotReady', node: 'foo', phase: 'Running'}),
    pod({name: 'runningNoLastTransitionTime', node: 'foo', ready: true, readySince: null, restarts: [3, 0]}),
    pod({name: 'runningWithLastTransitionTime', node: 'foo', ready: true, readySince: NOW, restarts: [3, 0]}),
    pod({name: 'runningLongerTime', node: 'foo', ready: true, readySince: then, restarts: [3, 0]}),
    pod({
      name: 'lowerSidecarContainerRestartCount',
      created: NOW,
      node: 'foo',
      sidecar: true,
      ready: true,
      readySince: then,
      restarts: [2, 1],
      sidecarRestarts: 2,
    }),
    pod({name: 'lowerContainerRestartCount', created: NOW, node: 'foo', ready: true, readySince: then, restarts: [2, 1]}),
    pod({name: 'oldest', created: then, node: 'foo', ready: true, readySince: then, restarts: [2, 1]}),
  ]
  // wantOrder at controller_utils_test.go:739
  const want = [
    'unscheduled',
    'scheduledButPending',
    'unknownPhase',
    'runningButNotReady',
    'runningNoLastTransitionTime',
    'runningWithLastTransitionTime',
    'runningLongerTime',
    'lowerSidecarContainerRestartCount',
    'lowerContainerRestartCount',
    'oldest',
  ]

  it('gives the same total order for 20 shuffles of the input, as the upstream test does', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const got = sortByLess(shuffled(pods, seed), (a, b) => activePodsLess(a, b, ALL_ON)).map((p) => p.metadata.name)
      assert.deepEqual(got, want, `shuffle ${seed}`)
    }
  })
})

// The pod(...) helper of TestSortingActivePodsWithRanks: every pod declares a sidecar init container; a ready
// pod has a Ready condition since `readySince`, one container with `restarts` and the sidecar with `side`.
function rankPod(
  name: string,
  node: string,
  phase: string,
  ready: boolean,
  restarts: number,
  side: number,
  readySince: number | null,
  created: number | null,
  annotations?: Record<string, string>,
): Pod {
  const p = pod({name, node, phase, sidecar: true, created, annotations, uid: ''})
  if (ready) {
    p.status!.conditions = [{type: 'Ready', status: 'True', lastTransitionTime: readySince === null ? null : new Date(readySince).toISOString()}]
    p.status!.containerStatuses = [{name: 'c', restartCount: restarts}]
    p.status!.initContainerStatuses = [{name: 'sidecar', restartCount: side}]
  }
  return p
}

const then1Month = THEN_1_MONTH
const then2Hours = NOW - 2 * HOUR
const then5Hours = NOW - 5 * HOUR
const then8Hours = NOW - 8 * HOUR
const P: Record<string, Pod> = {
  unscheduledPod: rankPod('unscheduled', '', 'Pending', false, 0, 0, null, null),
  scheduledPendingPod: rankPod('pending', 'node', 'Pending', false, 0, 0, null, null),
  unknownPhasePod: rankPod('unknown-phase', 'node', 'Unknown', false, 0, 0, null, null),
  runningNotReadyPod: rankPod('not-ready', 'node', 'Running', false, 0, 0, null, null),
  runningReadyNoLastTransitionTimePod: rankPod('ready-no-last-transition-time', 'node', 'Running', true, 0, 0, null, null),
  runningReadyNow: rankPod('ready-now', 'node', 'Running', true, 0, 0, NOW, NOW),
  runningReadyThen: rankPod('ready-then', 'node', 'Running', true, 0, 0, then1Month, then1Month),
  runningReadyNowHighRestarts: rankPod('ready-high-restarts', 'node', 'Running', true, 9001, 0, NOW, NOW),
  runningReadyNowHighSideRestarts: rankPod('ready-high-restarts', 'node', 'Running', true, 9001, 9001, NOW, NOW),
  runningReadyNowCreatedThen: rankPod('ready-now-created-then', 'node', 'Running', true, 0, 0, NOW, then1Month),
  lowPodDeletionCost: rankPod('low-deletion-cost', 'node', 'Running', true, 0, 0, NOW, then1Month, {'controller.kubernetes.io/pod-deletion-cost': '10'}),
  highPodDeletionCost: rankPod('high-deletion-cost', 'node', 'Running', true, 0, 0, NOW, then1Month, {'controller.kubernetes.io/pod-deletion-cost': '100'}),
  unscheduled5Hours: rankPod('unscheduled-5-hours', '', 'Pending', false, 0, 0, then5Hours, then5Hours),
  unscheduled8Hours: rankPod('unscheduled-10-hours', '', 'Pending', false, 0, 0, then8Hours, then8Hours),
  ready2Hours: rankPod('ready-2-hours', '', 'Running', true, 0, 0, then2Hours, then1Month),
  ready5Hours: rankPod('ready-5-hours', '', 'Running', true, 0, 0, then5Hours, then1Month),
  ready10Hours: rankPod('ready-10-hours', '', 'Running', true, 0, 0, then8Hours, then1Month),
}

describe('ActivePodsWithRanks.Less (TestSortingActivePodsWithRanks)', () => {
  // equalityTests (controller_utils_test.go:833): Less is false both ways, rank 1 each.
  const equal: [string, string][] = [
    ['unscheduledPod', 'unscheduledPod'],
    ['scheduledPendingPod', 'scheduledPendingPod'],
    ['unknownPhasePod', 'unknownPhasePod'],
    ['runningNotReadyPod', 'runningNotReadyPod'],
    ['runningReadyNowCreatedThen', 'runningReadyNowCreatedThen'],
    ['runningReadyNow', 'runningReadyNow'],
    ['runningReadyThen', 'runningReadyThen'],
    ['runningReadyNowHighRestarts', 'runningReadyNowHighRestarts'],
    ['runningReadyNowCreatedThen', 'runningReadyNowCreatedThen'],
    // Equal only through log2 buckets: floor(log2) of 5 h and 8 h in ns are both 44, and the UIDs are both empty.
    ['unscheduled5Hours', 'unscheduled8Hours'],
    ['ready5Hours', 'ready10Hours'],
  ]
  for (const [a, b] of equal) {
    it(`${a} == ${b}`, () => {
      const x = {pod: P[a], rank: 1}
      const y = {pod: P[b], rank: 1}
      assert.equal(compareWithRanks(x, y, NOW, ALL_ON).less, false)
      assert.equal(compareWithRanks(y, x, NOW, ALL_ON).less, false)
    })
  }

  // inequalityTests (controller_utils_test.go:876-892): Less(lesser, greater) and not the reverse.
  const unequal: {lesser: string; lr: number; greater: string; gr: number; cost?: false; rule: number}[] = [
    {lesser: 'unscheduledPod', lr: 1, greater: 'scheduledPendingPod', gr: 2, rule: 1},
    {lesser: 'unscheduledPod', lr: 2, greater: 'scheduledPendingPod', gr: 1, rule: 1},
    {lesser: 'scheduledPendingPod', lr: 1, greater: 'unknownPhasePod', gr: 2, rule: 2},
    {lesser: 'unknownPhasePod', lr: 1, greater: 'runningNotReadyPod', gr: 2, rule: 2},
    {lesser: 'runningNotReadyPod', lr: 1, greater: 'runningReadyNoLastTransitionTimePod', gr: 1, rule: 3},
    {lesser: 'runningReadyNoLastTransitionTimePod', lr: 1, greater: 'runningReadyNow', gr: 1, rule: 6},
    {lesser: 'runningReadyNow', lr: 2, greater: 'runningReadyNoLastTransitionTimePod', gr: 1, rule: 5},
    {lesser: 'runningReadyNow', lr: 1, greater: 'runningReadyThen', gr: 1, rule: 6},
    {lesser: 'runningReadyNow', lr: 2, greater: 'runningReadyThen', gr: 1, rule: 5},
    {lesser: 'runningReadyNowHighRestarts', lr: 1, greater: 'runningReadyNow', gr: 1, rule: 7},
    {lesser: 'runningReadyNowHighSideRestarts', lr: 1, greater: 'runningReadyNowHighRestarts', gr: 1, rule: 7},
    {lesser: 'runningReadyNow', lr: 2, greater: 'runningReadyNowHighRestarts', gr: 1, rule: 5},
    {lesser: 'runningReadyNow', lr: 1, greater: 'runningReadyNowCreatedThen', gr: 1, rule: 8},
    {lesser: 'runningReadyNowCreatedThen', lr: 2, greater: 'runningReadyNow', gr: 1, rule: 5},
    {lesser: 'lowPodDeletionCost', lr: 2, greater: 'highPodDeletionCost', gr: 1, rule: 4},
    {lesser: 'highPodDeletionCost', lr: 2, greater: 'lowPodDeletionCost', gr: 1, cost: false, rule: 5},
    {lesser: 'ready2Hours', lr: 1, greater: 'ready5Hours', gr: 1, rule: 6},
  ]
  for (const c of unequal) {
    it(`${c.lesser}(rank ${c.lr}) < ${c.greater}(rank ${c.gr})${c.cost === false ? ' with PodDeletionCost off' : ''}`, () => {
      const gates = c.cost === false ? gatesFor({minor: 33, gates: {PodDeletionCost: false}}) : ALL_ON
      const x = {pod: P[c.lesser], rank: c.lr}
      const y = {pod: P[c.greater], rank: c.gr}
      const forward = compareWithRanks(x, y, NOW, gates)
      assert.equal(forward.less, true)
      assert.equal(compareWithRanks(y, x, NOW, gates).less, false)
      // The deciding rule, worked out by hand from the rule order in controller_utils.go:843.
      assert.equal(forward.rule, c.rule)
    })
  }
})

describe('log2 buckets and version differences', () => {
  it('without LogarithmicScaleDown (Now zero) 5 h and 8 h differ: the newer goes first (afterOrZero)', () => {
    const x = {pod: P.ready5Hours, rank: 1}
    const y = {pod: P.ready10Hours, rank: 1}
    const gates = gatesFor({minor: 21})
    assert.equal(compareWithRanks(x, y, null, gates).less, true)
    assert.equal(compareWithRanks(y, x, null, gates).less, false)
  })

  it('same bucket, different UIDs: the smaller UID string goes first (controller_utils.go:882)', () => {
    const a = {pod: {...P.ready5Hours, metadata: {...P.ready5Hours.metadata, uid: 'bbb'}}, rank: 0}
    const b = {pod: {...P.ready10Hours, metadata: {...P.ready10Hours.metadata, uid: 'aaa'}}, rank: 0}
    assert.equal(compareWithRanks(b, a, NOW, ALL_ON).less, true)
    assert.equal(compareWithRanks(a, b, NOW, ALL_ON).less, false)
  })

  it('1.21 defaults: no cost rule (PodDeletionCost alpha, off)', () => {
    const g = gatesFor({minor: 21})
    assert.equal(g.PodDeletionCost, false)
    assert.equal(g.LogarithmicScaleDown, false)
    assert.equal(gatesFor({minor: 22}).PodDeletionCost, true)
  })
})

describe('GetDeletionCostFromPodAnnotations', () => {
  // Values and outcomes from the helper's own rules (pkg/apis/core/helper): a leading "+" or a leading zero is invalid.
  const cases: [string | undefined, number, boolean][] = [
    [undefined, 0, false],
    ['10', 10, false],
    ['-10', -10, false],
    ['0', 0, false],
    ['+10', 0, true],
    ['008', 0, true],
    ['', 0, true],
    ['abc', 0, true],
    ['2147483648', 0, true],
    ['-2147483648', -2147483648, false],
    ['1.5', 0, true],
  ]
  for (const [value, cost, invalid] of cases) {
    it(`${JSON.stringify(value)} → ${cost}${invalid ? ' (invalid)' : ''}`, () => {
      const got = deletionCost(value === undefined ? {} : {'controller.kubernetes.io/pod-deletion-cost': value})
      assert.equal(got.cost, cost)
      assert.equal(got.invalid !== undefined, invalid)
    })
  }
})
