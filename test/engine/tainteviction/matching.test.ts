// Toleration matching, minimum time, toleration origins and the eviction timer estimate. Expected values
// worked out by hand from toleration.go@19c6083b, helpers.go GetMatchingTolerations, te.go@5ce22905:161-183
// and :452-491, admission.go@aed80471 and daemonset_util.go@05c351a9, as the decisions document quotes them.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {collectEvidence, wasEvictedByTaintManager} from '../../../src/engine/tainteviction/evidence.js'
import {admitDefaultTolerationSeconds, tolerationOrigin} from '../../../src/engine/tainteviction/origins.js'
import {estimateEvictionTime, processPodOnNode} from '../../../src/engine/tainteviction/process.js'
import {getMinTolerationTime} from '../../../src/engine/tainteviction/toleration.js'
import {getMatchingTolerations} from '../../../src/component-helpers/tolerations.js'
import type {PodLike, Taint, Toleration} from '../../../src/engine/tainteviction/types.js'

const NOT_READY: Taint = {key: 'node.kubernetes.io/not-ready', effect: 'NoExecute'}
const UNREACHABLE: Taint = {key: 'node.kubernetes.io/unreachable', effect: 'NoExecute'}

describe('first matching toleration per taint', () => {
  it('the decisions document example: [not-ready forever, Exists 10s] against not-ready → forever', () => {
    const tolerations: Toleration[] = [
      {key: NOT_READY.key, operator: 'Exists', effect: 'NoExecute'},
      {operator: 'Exists', tolerationSeconds: 10},
    ]
    assert.equal(processPodOnNode([NOT_READY], tolerations).kind, 'forever')
  })
  it('the same tolerations in the other order → 10s (the catch-all comes first)', () => {
    const tolerations: Toleration[] = [
      {operator: 'Exists', tolerationSeconds: 10},
      {key: NOT_READY.key, operator: 'Exists', effect: 'NoExecute'},
    ]
    const d = processPodOnNode([NOT_READY], tolerations)
    assert.equal(d.kind === 'timed' && d.minMs, 10_000)
  })
  it('a user toleration 600s before the injected default 300s: 600s wins', () => {
    const tolerations = admitDefaultTolerationSeconds([{key: UNREACHABLE.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600}])
    const d = processPodOnNode([UNREACHABLE], tolerations)
    assert.equal(d.kind === 'timed' && d.minMs, 600_000)
  })
  it('reports which toleration index matched each taint', () => {
    const {allTolerated, matches} = getMatchingTolerations(
      [NOT_READY, {key: 'x', effect: 'NoExecute'}],
      [
        {key: 'y', operator: 'Exists'},
        {key: NOT_READY.key, operator: 'Exists'},
      ],
    )
    assert.equal(allTolerated, false)
    assert.deepEqual(
      matches.map((m) => m.index),
      [1, undefined],
    )
  })
})

describe('tolerationSeconds ≤ 0 and absurd values', () => {
  it('0 or negative → immediate, even next to a forever toleration', () => {
    assert.equal(getMinTolerationTime([{tolerationSeconds: null}, {tolerationSeconds: 0}]), 0)
    assert.equal(getMinTolerationTime([{tolerationSeconds: 300}, {tolerationSeconds: -5}]), 0)
  })
  it('a value whose nanoseconds overflow int64 wraps as Go does (time.Duration(s) * time.Second)', () => {
    // 9223372037 s × 1e9 = 9223372037000000000 > 2^63−1 → wraps to −9223372036709551616 ns.
    assert.equal(getMinTolerationTime([{tolerationSeconds: 9223372037n}]), Number(-9223372036709551616n / 1_000_000n))
    assert.equal(getMinTolerationTime([{tolerationSeconds: 9223372036}]), 9223372036000)
  })
})

describe('where tolerations come from', () => {
  const pod = (owner?: string): PodLike => ({
    metadata: {name: 'p', namespace: 'ns', ownerReferences: owner ? [{kind: owner, name: 'o', controller: true}] : []},
  })
  it('admission: appends not-ready then unreachable 300s when missing', () => {
    assert.deepEqual(
      admitDefaultTolerationSeconds([]).map((t) => [t.key, t.tolerationSeconds]),
      [
        [NOT_READY.key, 300],
        [UNREACHABLE.key, 300],
      ],
    )
  })
  it('admission gotcha: an Equal toleration with a value blocks the default yet does not match → evicted at once', () => {
    const tolerations = admitDefaultTolerationSeconds([{key: NOT_READY.key, operator: 'Equal', value: 'x', effect: 'NoExecute'}])
    assert.equal(tolerations.filter((t) => t.key === NOT_READY.key).length, 1)
    assert.equal(processPodOnNode([NOT_READY], tolerations).kind, 'notAllTolerated')
  })
  it('DaemonSet pods: Exists NoExecute without seconds → forever', () => {
    const tolerations: Toleration[] = [
      {key: NOT_READY.key, operator: 'Exists', effect: 'NoExecute'},
      {key: UNREACHABLE.key, operator: 'Exists', effect: 'NoExecute'},
    ]
    assert.equal(processPodOnNode([UNREACHABLE], tolerations).kind, 'forever')
    assert.equal(tolerationOrigin(tolerations[1], pod('DaemonSet')), 'daemonSet')
    assert.equal(tolerationOrigin(tolerations[1], pod('ReplicaSet')), 'podSpec')
  })
  it('the 300s Exists NoExecute signature is attributed to the admission plugin', () => {
    assert.equal(
      tolerationOrigin({key: UNREACHABLE.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300}, pod('ReplicaSet')),
      'admissionDefault',
    )
    assert.equal(tolerationOrigin({key: UNREACHABLE.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 299}, pod('ReplicaSet')), 'podSpec')
  })
})

describe('eviction timer estimate', () => {
  const T = (s: number) => new Date(Date.parse('2026-05-01T03:00:00Z') + s * 1000).toISOString().replace('.000Z', 'Z')
  const pod: PodLike = {
    metadata: {name: 'p', namespace: 'ns', creationTimestamp: T(-3600)},
    status: {conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: T(-3600)}]},
  }
  const defaults = admitDefaultTolerationSeconds([])
  it('runs from when the taint appeared (timeAdded as the stand-in for the controller seeing it) + 300s', () => {
    const t = estimateEvictionTime(pod, [{...UNREACHABLE, timeAdded: T(0)}], defaults)!
    assert.equal(t.seenAt, Date.parse(T(0)))
    assert.equal(t.deadline, Date.parse(T(300)))
  })
  it('a pod bound after the taint was added starts its timer at bind time', () => {
    const late: PodLike = {...pod, status: {conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: T(100)}]}}
    const t = estimateEvictionTime(late, [{...UNREACHABLE, timeAdded: T(0)}], defaults)!
    assert.equal(t.deadline, Date.parse(T(400)))
    assert.match(t.seenFrom, /already tainted/)
  })
  it('a later taint with a shorter toleration does not move the running timer', () => {
    const tolerations: Toleration[] = [
      {key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300},
      {key: 'b', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60},
    ]
    const t = estimateEvictionTime(
      pod,
      [
        {key: 'a', effect: 'NoExecute', timeAdded: T(0)},
        {key: 'b', effect: 'NoExecute', timeAdded: T(100)},
      ],
      tolerations,
    )!
    assert.equal(t.deadline, Date.parse(T(300)))
  })
  it('a later untolerated taint deletes at once, at its own time', () => {
    const t = estimateEvictionTime(
      pod,
      [
        {...UNREACHABLE, timeAdded: T(0)},
        {key: 'x', effect: 'NoExecute', timeAdded: T(50)},
      ],
      defaults,
    )!
    assert.equal(t.deadline, Date.parse(T(50)))
    assert.equal(t.immediate, true)
  })
  it('forever-tolerated taints arm no timer', () => {
    assert.equal(estimateEvictionTime(pod, [{...UNREACHABLE, timeAdded: T(0)}], [{operator: 'Exists'}]), undefined)
  })
})

describe('eviction evidence', () => {
  it('DisruptionTarget/DeletionByTaintManager or a TaintManagerEviction mark not cancelled afterwards', () => {
    const pod: PodLike = {
      status: {
        conditions: [{type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint'}],
      },
    }
    assert.equal(wasEvictedByTaintManager(collectEvidence('ns', 'p', pod, [])), true)
    const mark = {
      involvedObject: {kind: 'Pod', name: 'p', namespace: 'ns'},
      reason: 'TaintManagerEviction',
      message: 'Marking for deletion Pod ns/p',
      lastTimestamp: '2026-05-01T03:05:00Z',
    }
    const cancel = {...mark, message: 'Cancelling deletion of Pod ns/p', lastTimestamp: '2026-05-01T03:06:00Z'}
    assert.equal(wasEvictedByTaintManager(collectEvidence('ns', 'p', undefined, [mark])), true)
    assert.equal(wasEvictedByTaintManager(collectEvidence('ns', 'p', undefined, [mark, cancel])), false)
    assert.equal(wasEvictedByTaintManager(collectEvidence('ns', 'other', undefined, [mark])), false)
  })
})
