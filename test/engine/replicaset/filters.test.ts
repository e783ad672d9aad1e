// TestActivePodFiltering (controller_utils_test.go:590), TestCountTerminatingPods (:443),
// TestClaimedPodFiltering (:468) and the availability checks (case rs-nextPodAvailabilityCheck).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {filterActivePods, filterClaimedPods, filterTerminatingPods} from '../../../src/engine/replicaset/active-pods.js'
import {labelSelectorAsSelector} from '../../../src/apimachinery/labels.js'
import {findMinNextPodAvailabilityCheck, findMinNextPodAvailabilitySimpleCheck, nextPodAvailabilityCheck} from '../../../src/engine/replicaset/status.js'
import type {OwnerReference, Pod} from '../../../src/engine/replicaset/types.js'
import {NOW, pod} from './build.js'

describe('FilterActivePods / FilterTerminatingPods', () => {
  it('Filters active pods: an empty phase counts as active', () => {
    const pods = [
      pod({name: 'pod-1', phase: 'Succeeded'}),
      pod({name: 'pod-2', phase: 'Failed'}),
      pod({name: 'pod-3', phase: ''}),
      pod({name: 'pod-4', phase: ''}),
      pod({name: 'pod-5', phase: ''}),
    ]
    assert.deepEqual(
      filterActivePods(pods)
        .map((p) => p.metadata.name)
        .sort(),
      ['pod-3', 'pod-4', 'pod-5'],
    )
  })
  it('CountTerminatingPods: 2 (deletionTimestamp and not terminal)', () => {
    const now = new Date(NOW).toISOString()
    const pods = [
      pod({name: 'pod0', phase: 'Succeeded'}),
      pod({name: 'pod1', phase: 'Failed'}),
      pod({name: 'pod2', phase: 'Pending', deletionTimestamp: now}),
      pod({name: 'pod3', phase: 'Running', deletionTimestamp: now}),
      pod({name: 'pod4'}),
      pod({name: 'pod5'}),
      pod({name: 'pod6'}),
    ]
    assert.deepEqual(
      filterTerminatingPods(pods).map((p) => p.metadata.name),
      ['pod2', 'pod3'],
    )
  })
})

describe('FilterClaimedPods (TestClaimedPodFiltering)', () => {
  it('keeps pods controlled by the RS whose labels match, whatever other references they carry', () => {
    const rs = 'rs-uuid'
    let i = 0
    const other = () => `other-${++i}`
    const ref = (uid: string, controller?: boolean): OwnerReference => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'x',
      uid,
      ...(controller === undefined ? {} : {controller}),
    })
    const mk = (name: string, labels: Record<string, string> | undefined, refs: OwnerReference[]): Pod => ({
      ...pod({name, labels}),
      metadata: {name, namespace: 'default', labels, ownerReferences: refs},
    })
    const pods = [
      mk('claimed-1', {foo: 'bar'}, [ref(rs, true)]),
      mk('wrong-selector-1', {foo: 'baz'}, [ref(rs, true)]),
      mk('non-controller-1', {foo: 'bar'}, [ref(rs)]),
      mk('other-controller-1', {foo: 'bar'}, [ref(other(), true)]),
      mk('other-workload-1', {foo: 'bee'}, [ref(other(), true)]),
      mk('standalone-pod-1', {foo: 'beetle'}, []),
      mk('claimed-2', {foo: 'bar'}, [ref(other(), false), ref(rs, true)]),
      mk('wrong-selector-2', {foo: 'baz'}, [ref(other(), false), ref(rs, true)]),
      mk('non-controller-2', {foo: 'bar'}, [ref(other(), false), ref(rs, false)]),
      mk('other-controller-2', {foo: 'bar'}, [ref(other(), false), ref(other(), true)]),
      mk('other-workload-1', {foo: 'bee'}, [ref(other(), false), ref(other(), true)]),
      mk('standalone-pod-1', {foo: 'beetle'}, [ref(other(), false)]),
      mk('claimed-3', {foo: 'bar'}, [ref(other()), ref(rs, true)]),
      mk('wrong-selector-3', undefined, [ref(other()), ref(rs, true)]),
      mk('non-controller-3', {foo: 'bar'}, [ref(other()), ref(rs)]),
      mk('other-controller-3', {foo: 'bar'}, [ref(other()), ref(other(), true)]),
      mk('other-workload-1', {foo: 'bee'}, [ref(other())]),
      mk('standalone-pod-1', {foo: 'beetle'}, [ref(other())]),
    ]
    const got = filterClaimedPods(rs, labelSelectorAsSelector({matchLabels: {foo: 'bar'}}), pods)
    assert.deepEqual(got.map((p) => p.metadata.name).sort(), ['claimed-1', 'claimed-2', 'claimed-3'])
  })
})

describe('availability checks (TestNextPodAvailabilityCheck, TestFindMinNextPodAvailability*)', () => {
  const readyPod = (name: string, ready: boolean, beforeSec: number | 'zero'): Pod => {
    const p = pod({name})
    p.status!.conditions = [
      {type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: beforeSec === 'zero' ? null : new Date(NOW - beforeSec * 1000).toISOString()},
    ]
    return p
  }
  const cases: [string, boolean, number | 'zero', number, number | undefined][] = [
    ['not ready', false, 0, 0, undefined],
    ['no minReadySeconds defined', true, 0, 0, undefined],
    ['lastTransitionTime is zero', true, 'zero', 1, undefined],
    ['just became ready - available in 1s', true, 0, 1, 1000],
    ['ready for 20s - available in 10s', true, 20, 30, 10_000],
    ['available', true, 51, 50, undefined],
  ]
  for (const [name, ready, before, minReady, want] of cases) {
    it(`nextPodAvailabilityCheck: ${name}`, () => assert.equal(nextPodAvailabilityCheck(readyPod('p', ready, before), minReady, NOW), want))
  }
  const five = () => [readyPod('pod1', false, 0), readyPod('pod2', true, 2), readyPod('pod3', true, 0), readyPod('pod4', true, 4), readyPod('pod5', false, 0)]
  it('unready and ready pods: min next check 6s, pod4', () => {
    const r = findMinNextPodAvailabilitySimpleCheck(five(), 10, NOW)
    assert.equal(r?.delay, 6000)
    assert.equal(r?.pod.metadata.name, 'pod4')
  })
  it('unready and available pods need no check', () => {
    const pods = [readyPod('pod1', false, 0), readyPod('pod2', true, 15), readyPod('pod3', true, 11), readyPod('pod4', true, 10), readyPod('pod5', false, 0)]
    assert.equal(findMinNextPodAvailabilitySimpleCheck(pods, 10, NOW), undefined)
  })
  it('status evaluation delay 2s: 4s', () => assert.equal(findMinNextPodAvailabilityCheck(five(), 10, NOW, NOW + 2000), 4000))
  it('status evaluation delay 7s (longer than remaining): 0', () => assert.equal(findMinNextPodAvailabilityCheck(five(), 10, NOW, NOW + 7000), 0))
})
