// Hand-worked inference cases. Each states the controller's steps (replica_set.go manageReplicas, addPod,
// updatePod, deletePod; controller_utils.go ControllerExpectations) and what an observer can see of them.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {digestEvents} from '../../../src/engine/replicaset/events.js'
import {inferExpectations, type InferenceInput} from '../../../src/engine/replicaset/infer-expectations.js'
import type {CoreEvent} from '../../../src/engine/replicaset/types.js'
import {at, NOW, pod, replicaSet} from './build.js'

const rs = replicaSet({name: 'web-1', namespace: 'default', uid: 'rs-1', replicas: 3, created: NOW - 86_400_000})
const own = {name: 'web-1', uid: 'rs-1'}
const current = {generationObserved: true, countsMatch: true, mismatches: []}
const stale = {generationObserved: true, countsMatch: false, mismatches: ['replicas 3 → 2']}

function ev(reason: string, message: string, when: number, extra: Partial<CoreEvent> = {}): CoreEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {name: `e-${when}-${message}`, namespace: 'default'},
    involvedObject: {kind: 'ReplicaSet', name: 'web-1', namespace: 'default', uid: 'rs-1'},
    reason,
    message,
    count: 1,
    firstTimestamp: at(when),
    lastTimestamp: at(when),
    source: {component: 'replicaset-controller'},
    ...extra,
  }
}

function input(over: Partial<InferenceInput>): InferenceInput {
  return {rs, now: NOW, pods: [], diff: 0, status: stale, ...over}
}

describe('inferExpectations', () => {
  it('informer lag on a create: the pod exists in a quorum read but not in the watch cache → pending, likely', () => {
    // ExpectCreations(1) at ~NOW−20s; the create succeeded (event); addPod has not run (cache lacks the pod).
    const created = pod({name: 'web-1-new', owner: own, created: NOW - 20_000})
    const old = [pod({name: 'web-1-a', owner: own, created: NOW - 3_600_000}), pod({name: 'web-1-b', owner: own, created: NOW - 3_600_000})]
    const r = inferExpectations(
      input({
        pods: old,
        freshPods: [...old, created],
        diff: -1,
        actions: digestEvents(rs, [ev('SuccessfulCreate', 'Created pod: web-1-new', NOW - 20_000)]).actions,
      }),
    )
    assert.equal(r.state, 'pending')
    assert.equal(r.waiting, true)
    assert.deepEqual(
      r.unobserved.map((u) => [u.op, u.pod, u.confidence]),
      [['create', 'web-1-new', 'likely']],
    )
    assert.equal(r.expiresAt, at(NOW - 20_000 + 300_000))
  })

  it('a chosen pod orphaned before its deletion is never counted: deletePod follows its current controllerRef', () => {
    const orphaned = pod({name: 'web-1-x', created: NOW - 3_600_000}) // no ownerReferences any more
    const r = inferExpectations(
      input({pods: [orphaned], diff: 1, actions: digestEvents(rs, [ev('SuccessfulDelete', 'Deleted pod: web-1-x', NOW - 30_000)]).actions}),
    )
    assert.equal(r.state, 'pending')
    assert.match(r.unobserved[0].why, /no longer names this ReplicaSet/)
  })

  it('a graceful delete seen terminating is observed (counted once); one gone from the view is observed', () => {
    const terminating = pod({name: 'web-1-t', owner: own, deletionTimestamp: at(NOW + 20_000), deletionGracePeriodSeconds: 30})
    const r = inferExpectations(
      input({
        pods: [terminating],
        actions: digestEvents(rs, [
          ev('SuccessfulDelete', 'Deleted pod: web-1-t', NOW - 10_000),
          ev('SuccessfulDelete', 'Deleted pod: web-1-gone', NOW - 10_000),
        ]).actions,
      }),
    )
    assert.equal(r.state, 'fulfilled')
    assert.deepEqual(
      r.burst?.operations.map((o) => o.observed),
      [true, true],
    )
  })

  it('a leader change after the burst forgets the expectations (a new controller-manager starts empty)', () => {
    const r = inferExpectations(
      input({
        pods: [],
        diff: -1,
        leaderSince: NOW - 5_000,
        actions: digestEvents(rs, [ev('SuccessfulCreate', 'Created pod: web-1-lost', NOW - 60_000)]).actions,
      }),
    )
    assert.equal(r.state, 'reset')
    assert.equal(r.waiting, false)
  })

  it('a terminating namespace: creates fail silently and count as successes → pending with no known window', () => {
    const r = inferExpectations(input({diff: -2, namespaceTerminating: true, actions: []}))
    assert.equal(r.state, 'pending')
    assert.equal(r.expiresAt, undefined)
  })

  it('exactly 5 minutes after the burst the window is still open; 1 ms later it is closed (isExpired is strict)', () => {
    const actions = digestEvents(rs, [ev('SuccessfulCreate', 'Created pod: web-1-lost', NOW - 300_000)]).actions
    assert.equal(inferExpectations(input({diff: -1, status: current, actions})).waiting, true)
    assert.equal(inferExpectations(input({diff: -1, status: current, actions, now: NOW + 1})).state, 'expired')
  })

  it('operations more than 10 s apart are separate bursts: only the last one sets the window', () => {
    const pods = [pod({name: 'web-1-a', owner: own, created: NOW - 120_000}), pod({name: 'web-1-b', owner: own, created: NOW - 30_000})]
    const r = inferExpectations(input({pods, actions: []}))
    assert.equal(r.burst?.startedAt, at(NOW - 30_000))
    assert.equal(r.burst?.succeeded, 1)
  })

  it('no events readable and nothing recent: no burst, confidence only possible', () => {
    const r = inferExpectations(input({pods: [], actions: undefined}))
    assert.equal(r.state, 'none')
    assert.equal(r.confidence, 'possible')
  })

  it('a current status with a deficit and nothing on record still says the controller is gated', () => {
    const r = inferExpectations(input({diff: -1, status: current, actions: []}))
    assert.equal(r.state, 'pending')
    assert.equal(r.gatedSignature, true)
    assert.equal(r.confidence, 'possible')
  })
})

describe('digestEvents', () => {
  it("keeps this incarnation's controller events, counts the others, reads aggregated messages", () => {
    const d = digestEvents(rs, [
      ev('SuccessfulCreate', '(combined from similar events): Created pod: web-1-z', NOW - 1000, {count: 12, firstTimestamp: at(NOW - 60_000)}),
      ev('SuccessfulCreate', 'Created pod: web-1-y', NOW - 2000, {involvedObject: {kind: 'ReplicaSet', name: 'web-1', namespace: 'default', uid: 'old-uid'}}),
      ev('FailedCreate', 'Error creating: pods "web-1-q" is forbidden: exceeded quota: q1, requested: pods=1, used: pods=3, limited: pods=3', NOW - 3000),
      ev('ScalingReplicaSet', 'Scaled up replica set web-1 to 3', NOW - 4000),
      ev('SuccessfulCreate', 'Created pod: web-1-w', NOW - 5000, {source: {component: 'someone-else'}}),
    ])
    assert.equal(d.otherIncarnation, 1)
    assert.deepEqual(
      d.actions.map((a) => [a.kind, a.pod, a.count, a.combined]),
      [
        ['createFailed', undefined, 1, false],
        ['create', 'web-1-z', 12, true],
      ],
    )
    assert.match(d.actions[0].error!, /^pods "web-1-q" is forbidden: exceeded quota: q1/)
  })
})
