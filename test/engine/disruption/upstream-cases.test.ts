// pkg/controller/disruption/disruption_test.go, converted: each upstream test's sequence of syncs becomes a
// sequence of recomputations over the same pods and controllers, and each ps.VerifyPdbStatus(t, name,
// disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods, …) / VerifyDisruptionAllowed(t, name, n) becomes
// the same numbers here. Upstream's newPod is Ready and labelled foo=bar; its budgets select foo=bar.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {type PdbLike, type PdbPod, recomputePdbStatus, type ScaleOwner} from '../../../src/engine/disruption/pdb.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
type Owner = {kind: string; name: string; uid: string}
const newPod = (name: string, owner?: Owner, labels: Record<string, string> = {foo: 'bar'}, ready = true): PdbPod => ({
  metadata: {name, namespace: 'default', labels, ...(owner ? {ownerReferences: [{...owner, controller: true}]} : {})},
  status: {phase: 'Running', conditions: ready ? [{type: 'Ready', status: 'True'}] : []},
})
const minAvailable = (v: number | string): PdbLike => ({
  metadata: {name: 'pdb', namespace: 'default', generation: 1},
  spec: {selector: {matchLabels: {foo: 'bar'}}, minAvailable: v},
})
const maxUnavailable = (v: number | string): PdbLike => ({
  metadata: {name: 'pdb', namespace: 'default', generation: 1},
  spec: {selector: {matchLabels: {foo: 'bar'}}, maxUnavailable: v},
})
/** [disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods], VerifyPdbStatus's order. */
const status = (pdb: PdbLike, pods: PdbPod[], owners: ScaleOwner[] = []) => {
  const r = recomputePdbStatus(pdb, pods, owners, NOW)
  return [r.disruptionsAllowed, r.currentHealthy, r.desiredHealthy, r.expectedPods]
}
const allowed = (pdb: PdbLike, pods: PdbPod[], owners: ScaleOwner[] = []) => recomputePdbStatus(pdb, pods, owners, NOW).disruptionsAllowed
const workload = (kind: string, name: string, replicas: number): ScaleOwner & Owner => ({kind, name, uid: `${kind}-${name}`, replicas})

describe('disruption_test.go', () => {
  test('TestNoSelector: {} selects every pod', () => {
    const pdb = {...minAvailable(3), spec: {selector: {}, minAvailable: 3}}
    assert.deepEqual(status(pdb, []), [0, 0, 3, 0])
    assert.deepEqual(status(pdb, [newPod('yo-yo-yo', undefined, {})]), [0, 1, 3, 1])
  })
  test('TestUnavailable', () => {
    const pdb = minAvailable(3)
    const pods: PdbPod[] = []
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(status(pdb, pods), [0, i, 3, i])
      pods.push(newPod(`yo-yo-yo ${i}`))
    }
    assert.deepEqual(status(pdb, pods), [1, 4, 3, 4])
    pods[0] = {...pods[0], status: {phase: 'Running', conditions: []}}
    assert.deepEqual(status(pdb, pods), [0, 3, 3, 4])
  })
  test('TestIntegerMaxUnavailable: no disruption for pods without a controller', () => {
    assert.equal(allowed(maxUnavailable(1), []), 0)
    assert.equal(allowed(maxUnavailable(1), [newPod('naked')]), 0)
  })
  test('TestIntegerMaxUnavailableWithScaling', () => {
    const rs = workload('ReplicaSet', 'rs', 7)
    const pods = [newPod('pod', rs)]
    assert.deepEqual(status(maxUnavailable(2), pods, [rs]), [0, 1, 5, 7])
    assert.deepEqual(status(maxUnavailable(2), pods, [{...rs, replicas: 5}]), [0, 1, 3, 5])
  })
  test('TestPercentageMaxUnavailableWithScaling', () => {
    const rs = workload('ReplicaSet', 'rs', 7)
    const pods = [newPod('pod', rs)]
    assert.deepEqual(status(maxUnavailable('30%'), pods, [rs]), [0, 1, 4, 7])
    assert.deepEqual(status(maxUnavailable('30%'), pods, [{...rs, replicas: 3}]), [0, 1, 2, 3])
  })
  test('TestNakedPod / TestTotalUnmanagedPods: 28% over a pod without a controller allows none; it is unmanaged', () => {
    assert.equal(allowed(minAvailable('28%'), []), 0)
    const r = recomputePdbStatus(minAvailable('28%'), [newPod('unmanaged')], [], NOW)
    assert.equal(r.disruptionsAllowed, 0)
    assert.equal(r.unmanaged.length, 1)
  })
  test('TestReplicaSet: the scale of a ReplicaSet without a Deployment counts', () => {
    const rs = workload('ReplicaSet', 'rs', 10)
    assert.deepEqual(status(minAvailable('20%'), [newPod('pod', rs)], [rs]), [0, 1, 2, 10])
  })
  test('TestMultipleControllers: no controller → 0; one RC of 1 replica over both pods → 1', () => {
    const pods = [newPod('pod 0'), newPod('pod 1')]
    assert.equal(allowed(minAvailable('1%'), pods), 0)
    const rc = workload('ReplicationController', 'rc 1', 1)
    assert.equal(allowed(minAvailable('1%'), [newPod('pod 0', rc), newPod('pod 1', rc)], [rc]), 1)
  })
  for (const kind of ['ReplicationController', 'StatefulSet']) {
    test(`Test${kind === 'StatefulSet' ? 'StatefulSetController' : 'ReplicationController'}: 34% of 3 rounds up to 2${kind === 'ReplicationController' ? '; a rogue pod without a controller counts as healthy' : ''}`, () => {
      const labels = {foo: 'bar', baz: 'quux'}
      const w = workload(kind, 'foobar', 3)
      const pdb = minAvailable('34%')
      assert.deepEqual(status(pdb, [], [w]), [0, 0, 0, 0])
      const pods: PdbPod[] = []
      for (let i = 0; i < 3; i++) {
        pods.push(newPod(`foobar ${i}`, w, labels))
        assert.deepEqual(status(pdb, pods, [w]), i < 2 ? [0, i + 1, 2, 3] : [1, 3, 2, 3])
      }
      if (kind === 'ReplicationController') assert.equal(allowed(pdb, [...pods, newPod('rogue')], [w]), 2)
    })
  }
  test('TestTwoControllers: 28% over an RC of 11, then a ReplicaSet of 11', () => {
    const collectionSize = 11
    const minimumOne = 4
    const minimumTwo = 7
    const rcLabels = {foo: 'bar', baz: 'quux'}
    const dLabels = {foo: 'bar', baz: 'quuux'}
    const pdb = minAvailable('28%')
    const rc = workload('ReplicationController', 'rc', collectionSize)
    const owners: ScaleOwner[] = [rc]
    assert.deepEqual(status(pdb, [], owners), [0, 0, 0, 0])
    const pods: PdbPod[] = []
    let unavailablePods = collectionSize - minimumOne - 1
    for (let i = 1; i <= collectionSize; i++) {
      pods.push(newPod(`quux ${i}`, rc, rcLabels, i > unavailablePods))
      const want =
        i <= unavailablePods
          ? [0, 0, minimumOne, collectionSize]
          : i - unavailablePods <= minimumOne
            ? [0, i - unavailablePods, minimumOne, collectionSize]
            : [1, i - unavailablePods, minimumOne, collectionSize]
      assert.deepEqual(status(pdb, pods, owners), want, `rc pod ${i}`)
    }
    // A Deployment with no pods and a ReplicaSet with none yet change nothing.
    owners.push(workload('Deployment', 'd', collectionSize))
    assert.deepEqual(status(pdb, pods, owners), [1, minimumOne + 1, minimumOne, collectionSize])
    const rs = workload('ReplicaSet', 'rs', collectionSize)
    owners.push(rs)
    assert.deepEqual(status(pdb, pods, owners), [1, minimumOne + 1, minimumOne, collectionSize])
    unavailablePods = 2 * collectionSize - (minimumTwo + 2) - unavailablePods
    for (let i = 1; i <= collectionSize; i++) {
      pods.push(newPod(`quuux ${i}`, rs, dLabels, i > unavailablePods))
      const want =
        i <= unavailablePods
          ? [0, minimumOne + 1, minimumTwo, 2 * collectionSize]
          : i - unavailablePods <= minimumTwo - (minimumOne + 1)
            ? [0, minimumOne + 1 + (i - unavailablePods), minimumTwo, 2 * collectionSize]
            : [i - unavailablePods - (minimumTwo - (minimumOne + 1)), minimumOne + 1 + (i - unavailablePods), minimumTwo, 2 * collectionSize]
      assert.deepEqual(status(pdb, pods, owners), want, `rs pod ${i}`)
    }
    assert.deepEqual(status(pdb, pods, owners), [2, 2 + minimumTwo, minimumTwo, 2 * collectionSize])
    pods[collectionSize - 1] = {...pods[collectionSize - 1], status: {phase: 'Running', conditions: []}}
    assert.deepEqual(status(pdb, pods, owners), [1, 1 + minimumTwo, minimumTwo, 2 * collectionSize])
  })
})
