// GetPodQOS / ComputePodQOS and PodRequests (src/component-helpers/resource.ts), cases in the manner of
// pkg/apis/core/v1/helper/qos/qos_test.go TestComputePodQOS: each expected class worked out from the rule —
// BestEffort with no cpu/memory request or limit; Guaranteed when every container limits cpu and memory and the sums
// of requests equal the sums of limits; else Burstable.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {computePodQOS, getPodQOS, podRequest, quantityValue} from '../../src/component-helpers/resource.js'

const c = (requests: Record<string, string>, limits: Record<string, string>, restartPolicy?: string) => ({
  name: 'c',
  resources: {requests, limits},
  restartPolicy,
})

describe('QoS class', () => {
  test('no resources → BestEffort; zero quantities do not count', () => {
    assert.equal(computePodQOS({spec: {containers: [c({}, {})]}}), 'BestEffort')
    assert.equal(computePodQOS({spec: {containers: [c({cpu: '0', memory: '0'}, {})]}}), 'BestEffort')
  })
  test('only an unsupported resource (ephemeral-storage) → BestEffort', () => {
    assert.equal(computePodQOS({spec: {containers: [c({'ephemeral-storage': '1Gi'}, {'ephemeral-storage': '1Gi'})]}}), 'BestEffort')
  })
  test('requests = limits for cpu and memory in every container → Guaranteed', () => {
    assert.equal(
      computePodQOS({
        spec: {containers: [c({cpu: '100m', memory: '100Mi'}, {cpu: '100m', memory: '100Mi'}), c({cpu: '1', memory: '1Gi'}, {cpu: '1', memory: '1Gi'})]},
      }),
      'Guaranteed',
    )
  })
  test('one container without a memory limit → Burstable', () => {
    assert.equal(
      computePodQOS({spec: {containers: [c({cpu: '100m', memory: '100Mi'}, {cpu: '100m', memory: '100Mi'}), c({cpu: '1'}, {cpu: '1'})]}}),
      'Burstable',
    )
  })
  test('requests below limits → Burstable; an init container counts', () => {
    assert.equal(computePodQOS({spec: {containers: [c({cpu: '100m', memory: '100Mi'}, {cpu: '200m', memory: '100Mi'})]}}), 'Burstable')
    assert.equal(
      computePodQOS({spec: {containers: [c({cpu: '1', memory: '1Gi'}, {cpu: '1', memory: '1Gi'})], initContainers: [c({memory: '10Mi'}, {})]}}),
      'Burstable',
    )
  })
  test('status.qosClass, when recorded, is what GetPodQOS returns', () => {
    assert.equal(getPodQOS({spec: {containers: [c({}, {})]}, status: {qosClass: 'Guaranteed'}}), 'Guaranteed')
  })
})

describe('PodRequests', () => {
  test('sum of containers, the largest init container when larger, plus overhead', () => {
    // containers 100Mi + 200Mi = 300Mi; init 500Mi > 300Mi → 500Mi; overhead 10Mi → 510Mi.
    const p = {spec: {containers: [c({memory: '100Mi'}, {}), c({memory: '200Mi'}, {})], initContainers: [c({memory: '500Mi'}, {})], overhead: {memory: '10Mi'}}}
    assert.equal(podRequest(p, 'memory'), 510 * 1024 * 1024)
  })
  test('a sidecar (restartPolicy Always) adds to the sum and to later init containers', () => {
    // sidecar 50Mi: reqs 100+50 = 150; later init 120 + 50 = 170 > 150 → 170Mi.
    const p = {spec: {containers: [c({memory: '100Mi'}, {})], initContainers: [c({memory: '50Mi'}, {}, 'Always'), c({memory: '120Mi'}, {})]}}
    assert.equal(podRequest(p, 'memory'), 170 * 1024 * 1024)
  })
  test('quantities: binary and decimal suffixes, millis', () => {
    assert.equal(quantityValue('100Mi'), 104857600)
    assert.equal(quantityValue('1G'), 1e9)
    assert.equal(quantityValue('250m'), 0.25)
    assert.equal(quantityValue('91572Ki'), 91572 * 1024)
    assert.equal(quantityValue('nonsense'), undefined)
  })
})
