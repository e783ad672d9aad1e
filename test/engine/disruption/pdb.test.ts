// The disruption controller's arithmetic and the Eviction API's answer (src/engine/disruption/pdb.ts). Cases shaped
// after pkg/controller/disruption/disruption_test.go (TestNoSelector, TestUnavailable, TestIntegerMaxUnavailable,
// TestNakedPod, TestReplicaSet; names as evictions.md §9.5 lists them) and
// pkg/registry/core/pod/storage/eviction_test.go TestEvictionIgnorePDB; every number worked out by hand from
// getExpectedPodCount / countHealthyPods / updatePdbStatus and checkAndDecrement as the comments say.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {disruptionDeniedMessage, evictionAnswer, type PdbLike, type PdbPod, recomputePdbStatus, type ScaleOwner} from '../../../src/engine/disruption/pdb.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const rsRef = [{kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true}]
const pod = (name: string, ready = true, extra: {owned?: boolean; deleting?: boolean; phase?: string} = {}): PdbPod => ({
  metadata: {
    name,
    namespace: 'ns',
    labels: {app: 'web'},
    ...(extra.owned === false ? {} : {ownerReferences: rsRef}),
    ...(extra.deleting ? {deletionTimestamp: '2026-06-01T11:59:00Z'} : {}),
  },
  status: {phase: extra.phase ?? 'Running', conditions: [{type: 'Ready', status: ready ? 'True' : 'False'}]},
})
const pdb = (spec: PdbLike['spec'], status: PdbLike['status'] = {}, generation = 1): PdbLike => ({
  metadata: {name: 'web', namespace: 'ns', generation},
  spec: {selector: {matchLabels: {app: 'web'}}, ...spec},
  status: {observedGeneration: 1, ...status},
})
const rs = (replicas: number): ScaleOwner => ({kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', replicas})

describe('recomputePdbStatus', () => {
  test('TestNoSelector shape: an empty selector selects every pod; minAvailable 3 with 1 Ready pod → allowed 0 (1 − 3 < 0)', () => {
    const r = recomputePdbStatus(pdb({selector: {}, minAvailable: 3}), [pod('a')], [], NOW)
    assert.deepEqual([r.disruptionsAllowed, r.currentHealthy, r.desiredHealthy, r.expectedPods], [0, 1, 3, 1])
  })
  test('a nil selector selects nothing: expectedPods 0 → allowed 0', () => {
    const r = recomputePdbStatus(pdb({selector: null, minAvailable: 0}), [pod('a')], [], NOW)
    assert.deepEqual([r.disruptionsAllowed, r.currentHealthy, r.expectedPods], [0, 0, 0])
  })
  test('TestUnavailable shape: minAvailable 3 over 4 Ready pods → 1; one turns unready → 0', () => {
    const four = [pod('a'), pod('b'), pod('c'), pod('d')]
    const r1 = recomputePdbStatus(pdb({minAvailable: 3}), four, [], NOW)
    assert.deepEqual([r1.disruptionsAllowed, r1.currentHealthy, r1.desiredHealthy, r1.expectedPods], [1, 4, 3, 4])
    const r2 = recomputePdbStatus(pdb({minAvailable: 3}), [pod('a'), pod('b'), pod('c'), pod('d', false)], [], NOW)
    assert.deepEqual([r2.disruptionsAllowed, r2.currentHealthy, r2.desiredHealthy, r2.expectedPods], [0, 3, 3, 4])
  })
  test('TestIntegerMaxUnavailable shape: maxUnavailable 1 of a 3-replica ReplicaSet → desired 2, allowed 1', () => {
    const r = recomputePdbStatus(pdb({maxUnavailable: 1}), [pod('a'), pod('b'), pod('c')], [rs(3)], NOW)
    assert.deepEqual([r.disruptionsAllowed, r.currentHealthy, r.desiredHealthy, r.expectedPods], [1, 3, 2, 3])
  })
  test('maxUnavailable 50% of 3 → ceil(1.5) = 2 unavailable → desired 1', () => {
    const r = recomputePdbStatus(pdb({maxUnavailable: '50%'}), [pod('a'), pod('b'), pod('c')], [rs(3)], NOW)
    assert.equal(r.desiredHealthy, 1)
    assert.equal(r.disruptionsAllowed, 2)
  })
  test('TestReplicaSet shape: minAvailable 20% of replicas 10 → ceil(2) = 2 desired; 1 Ready → allowed 0', () => {
    const r = recomputePdbStatus(pdb({minAvailable: '20%'}), [pod('a')], [rs(10)], NOW)
    assert.deepEqual([r.disruptionsAllowed, r.currentHealthy, r.desiredHealthy, r.expectedPods], [0, 1, 2, 10])
  })
  test('TestNakedPod shape: minAvailable 28% over a pod without a controller → expected 0, allowed 0, unmanaged', () => {
    const r = recomputePdbStatus(pdb({minAvailable: '28%'}), [pod('naked', true, {owned: false})], [], NOW)
    assert.deepEqual([r.disruptionsAllowed, r.expectedPods, r.unmanaged], [0, 0, ['naked']])
  })
  test('a terminating pod and a disruptedPods entry younger than 2 min do not count as healthy', () => {
    const r = recomputePdbStatus(
      pdb({minAvailable: 1}, {disruptedPods: {b: '2026-06-01T11:59:30Z'}}),
      [pod('a', true, {deleting: true}), pod('b'), pod('c')],
      [],
      NOW,
    )
    // a terminating, b disrupted 30 s ago (within DeletionTimeout), c healthy → currentHealthy 1, allowed 0.
    assert.equal(r.currentHealthy, 1)
    assert.equal(r.disruptionsAllowed, 0)
  })
  test('an expired disruptedPods entry (older than 2 min) is ignored', () => {
    const r = recomputePdbStatus(pdb({minAvailable: 1}, {disruptedPods: {b: '2026-06-01T11:57:00Z'}}), [pod('b'), pod('c')], [], NOW)
    assert.equal(r.currentHealthy, 2)
  })
  test('the recorded status is compared: a stale disruptionsAllowed is reported', () => {
    const r = recomputePdbStatus(
      pdb({minAvailable: 1}, {disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 2}),
      [pod('a'), pod('b')],
      [],
      NOW,
    )
    assert.deepEqual(r.mismatches, ['status.currentHealthy 1, recomputed 2', 'status.disruptionsAllowed 0, recomputed 1'])
  })
  test('a ReplicaSet owned by a Deployment the data lacks: unknown, not guessed', () => {
    const owned: ScaleOwner = {...rs(3), ownerReferences: [{kind: 'Deployment', name: 'web', controller: true}]}
    const r = recomputePdbStatus(pdb({maxUnavailable: 1}), [pod('a')], [owned], NOW)
    assert.match(r.unknown ?? '', /Deployment web/)
  })
})

describe('evictionAnswer (TestEvictionIgnorePDB shapes)', () => {
  const zero = pdb({minAvailable: 2}, {disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2})
  test('disruptionsAllowed 0 on a Ready pod → 429 with "needs N healthy pods and has M currently"', () => {
    const a = evictionAnswer(pod('a'), [zero])
    assert.equal(a.code, 429)
    assert.equal(a.code === 429 && a.cause, 'The disruption budget web needs 2 healthy pods and has 2 currently')
    assert.equal(a.code === 429 && a.message, "Cannot evict pod as it would violate the pod's disruption budget.")
  })
  test('Pending, Failed or terminating pods skip the budget (canIgnorePDB)', () => {
    assert.equal(evictionAnswer(pod('a', true, {phase: 'Pending'}), [zero]).code, 200)
    assert.equal(evictionAnswer(pod('a', true, {phase: 'Failed'}), [zero]).code, 200)
    assert.equal(evictionAnswer(pod('a', true, {deleting: true}), [zero]).code, 200)
  })
  test('a not-Ready pod: IfHealthyBudget deletes when currentHealthy ≥ desiredHealthy > 0; AlwaysAllow always', () => {
    assert.equal(evictionAnswer(pod('a', false), [zero]).code, 200)
    const unhealthy = pdb({minAvailable: 3}, {disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 3})
    assert.equal(evictionAnswer(pod('a', false), [unhealthy]).code, 429)
    assert.equal(evictionAnswer(pod('a', false), [{...unhealthy, spec: {...unhealthy.spec, unhealthyPodEvictionPolicy: 'AlwaysAllow'}}]).code, 200)
  })
  test('observedGeneration behind generation → 429 "is still being processed by the server."', () => {
    const a = evictionAnswer(pod('a'), [pdb({minAvailable: 1}, {disruptionsAllowed: 1}, 2)])
    assert.equal(a.code === 429 && a.cause, 'The disruption budget web is still being processed by the server.')
  })
  test('two budgets → 500; none → 200; allowed 1 → 200 with a decrement', () => {
    assert.equal(evictionAnswer(pod('a'), [zero, {...zero, metadata: {...zero.metadata, name: 'other'}}]).code, 500)
    assert.equal(evictionAnswer(pod('a'), []).code, 200)
    const one = evictionAnswer(pod('a'), [pdb({minAvailable: 1}, {disruptionsAllowed: 1})])
    assert.equal(one.code === 200 && one.decrements, 'web')
  })
})

describe('disruptionDeniedMessage (newer eviction.go)', () => {
  test('a failed sync is named first; then the health counts; then the condition', () => {
    const failed = pdb(
      {minAvailable: 1},
      {
        disruptionsAllowed: 0,
        currentHealthy: 3,
        desiredHealthy: 1,
        conditions: [{type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'found no controllers for pod "a"'}],
      },
    )
    assert.equal(
      disruptionDeniedMessage(failed),
      'The disruption budget web does not allow evicting pods currently because it failed sync: found no controllers for pod "a"',
    )
    assert.equal(
      disruptionDeniedMessage(pdb({minAvailable: 3}, {currentHealthy: 2, desiredHealthy: 3})),
      'The disruption budget web needs 3 healthy pods and has 2 currently',
    )
    // currentHealthy above desired yet 0 allowed (a stale status): the condition's reason and message.
    const other = pdb(
      {minAvailable: 1},
      {currentHealthy: 3, desiredHealthy: 1, conditions: [{type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: 'x'}]},
    )
    assert.equal(disruptionDeniedMessage(other), 'The disruption budget web does not allow evicting pods currently (InsufficientPods): x')
    assert.equal(
      disruptionDeniedMessage(pdb({minAvailable: 1}, {currentHealthy: 3, desiredHealthy: 1})),
      'The disruption budget web does not allow evicting pods currently',
    )
  })
})
