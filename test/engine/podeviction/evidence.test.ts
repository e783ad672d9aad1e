// Who acted, read from the pod's own record (src/engine/podeviction/evidence.ts): one hand-written pod per actor in
// the shape the actor leaves it, the strings as upstream writes them (evictions.md §1; the format strings cited
// per case). Each expected actor is worked out from the decision order of §1.5: a True DisruptionTarget names the
// actor, then status.reason/message (admission rejections set apart), then the events.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {parsePreemptedMessage, readPodRecord} from '../../../src/engine/podeviction/evidence.js'
import type {EventLike, PodLike} from '../../../src/engine/podeviction/types.js'

const T = '2026-06-01T12:00:00Z'
const ms = Date.parse(T)
const pod = (status: PodLike['status'], metadata: Partial<NonNullable<PodLike['metadata']>> = {}): PodLike => ({
  metadata: {name: 'p', namespace: 'ns', uid: 'u1', ...metadata},
  spec: {nodeName: 'n1'},
  status,
})
const dt = (reason: string, message: string, status = 'True') => ({type: 'DisruptionTarget', status, reason, message, lastTransitionTime: T})
const ev = (reason: string, message: string, extra: Partial<EventLike> = {}): EventLike => ({
  involvedObject: {kind: 'Pod', name: 'p', namespace: 'ns'},
  reason,
  message,
  type: 'Warning',
  lastTimestamp: T,
  ...extra,
})
// helpers.go nodeLowMessageFmt + thresholdMetMessageFmt + containerMessageFmt, as evictionMessage concatenates them.
const PRESSURE =
  'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91572Ki. Container app was using 1520852Ki, request is 256Mi, has larger consumption of memory. '

describe('readPodRecord: the actor from the record', () => {
  test('TerminationByKubelet with the pressure message, status Evicted → kubelet nodePressure, at the condition time', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Failed', reason: 'Evicted', message: PRESSURE, conditions: [dt('TerminationByKubelet', PRESSURE)]}), [])
    assert.equal(r.disruptions.length, 1, 'the condition and status.reason are one disruption, merged')
    assert.equal(r.disruptions[0].mechanism, 'nodePressure')
    assert.equal(r.disruptions[0].actor, 'kubelet')
    assert.equal(r.disruptions[0].at, ms)
    assert.equal(r.disruptions[0].evidence.length, 2)
  })
  test('PreemptionByScheduler + deletionTimestamp + Preempted event (1.29+ "Preempted by pod <uid> on node <node>") → scheduler, preemptor uid', () => {
    const p = pod(
      {phase: 'Running', conditions: [dt('PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod')]},
      {deletionTimestamp: T},
    )
    const r = readPodRecord('ns', 'p', p, [ev('Preempted', 'Preempted by pod 9f1c-aa on node n1', {type: 'Normal'})])
    assert.equal(r.disruptions[0].actor, 'scheduler')
    assert.equal(r.disruptions.length, 1)
    assert.equal(r.preempted?.preemptorUid, '9f1c-aa')
    assert.equal(r.preempted?.node, 'n1')
    assert.equal(r.deletionAt, ms)
  })
  test('EvictionByEvictionAPI ("Eviction API: evicting") → eviction-api', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Running', conditions: [dt('EvictionByEvictionAPI', 'Eviction API: evicting')]}, {deletionTimestamp: T}), [])
    assert.equal(r.disruptions[0].actor, 'eviction-api')
    assert.equal(r.disruptions[0].action, 'evicted')
  })
  test('DeletionByPodGC ("PodGC: node no longer exists") → podgc, deleted', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Failed', conditions: [dt('DeletionByPodGC', 'PodGC: node no longer exists')]}), [])
    assert.equal(r.disruptions[0].actor, 'podgc')
    assert.equal(r.disruptions[0].action, 'deleted')
  })
  test('DeletionByTaintManager ("Taint manager: deleting due to NoExecute taint") → taint-eviction-controller', () => {
    const r = readPodRecord(
      'ns',
      'p',
      pod({phase: 'Running', conditions: [dt('DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint')]}),
      [],
    )
    assert.equal(r.disruptions[0].actor, 'taint-eviction-controller')
  })
  test('graceful shutdown: reason Terminated, nodeShutdownMessage, TerminationByKubelet → kubelet nodeShutdown', () => {
    const m = 'Pod was terminated in response to imminent node shutdown.'
    const r = readPodRecord('ns', 'p', pod({phase: 'Failed', reason: 'Terminated', message: m, conditions: [dt('TerminationByKubelet', m)]}), [])
    assert.equal(r.disruptions[0].mechanism, 'nodeShutdown')
  })
  test('legacy reason Shutdown (1.21) without a condition → nodeShutdown from status alone', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Failed', reason: 'Shutdown', message: 'Node is shutting, evicting pods'}), [])
    assert.equal(r.disruptions[0].mechanism, 'nodeShutdown')
  })
  test('local-storage limit (emptyDirMessageFmt "Usage of EmptyDir volume %q exceeds the limit %q. "), no condition → kubelet localStorage', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Failed', reason: 'Evicted', message: 'Usage of EmptyDir volume "cache" exceeds the limit "1Gi". '}), [])
    assert.equal(r.disruptions[0].mechanism, 'localStorage')
  })
  test('critical-pod preemption: reason Preempting → kubelet criticalPodPreemption', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Failed', reason: 'Preempting', message: 'Preempted in order to admit critical pod'}), [])
    assert.equal(r.disruptions[0].mechanism, 'criticalPodPreemption')
  })
  test('admission rejection OutOfcpu ("Pod was rejected: Node didn\'t have enough resource: cpu, …") → no actor, a rejection', () => {
    const r = readPodRecord(
      'ns',
      'p',
      pod({
        phase: 'Failed',
        reason: 'OutOfcpu',
        message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 7500, capacity: 8000",
      }),
      [],
    )
    assert.equal(r.disruptions.length, 0)
    assert.equal(r.rejection?.reason, 'OutOfcpu')
    assert.match(r.rejection!.message, /^Node didn't have enough resource/)
  })
  test('reason Evicted with "Pod was rejected: The node had condition: [DiskPressure]. " is an admission rejection, not an eviction', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Failed', reason: 'Evicted', message: 'Pod was rejected: The node had condition: [DiskPressure]. '}), [])
    assert.equal(r.disruptions.length, 0)
    assert.equal(r.rejection?.reason, 'Evicted')
  })
  test('events alone (no condition, the pod still Running): the kubelet Evicted event with its annotations', () => {
    const e = ev('Evicted', PRESSURE, {
      metadata: {annotations: {offending_containers: 'app,sidecar', offending_containers_usage: '1520852Ki,20Mi', starved_resource: 'memory'}},
    })
    const r = readPodRecord('ns', 'p', pod({phase: 'Running'}), [e])
    assert.equal(r.disruptions[0].mechanism, 'nodePressure')
    assert.deepEqual(r.kubeletEvicted?.offendingContainers, ['app', 'sidecar'])
    assert.deepEqual(r.kubeletEvicted?.offendingContainersUsage, ['1520852Ki', '20Mi'])
    assert.equal(r.kubeletEvicted?.starvedResource, 'memory')
  })
  test('TaintManagerEviction "Cancelling deletion" names nobody; "Marking for deletion" names the taint manager', () => {
    assert.equal(readPodRecord('ns', 'p', pod({phase: 'Running'}), [ev('TaintManagerEviction', 'Cancelling deletion of Pod ns/p')]).disruptions.length, 0)
    assert.equal(
      readPodRecord('ns', 'p', pod({phase: 'Running'}), [ev('TaintManagerEviction', 'Marking for deletion Pod ns/p')]).disruptions[0].actor,
      'taint-eviction-controller',
    )
  })
  test('DisruptionTarget=False: an announced disruption that did not happen, no actor', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Running', conditions: [{type: 'DisruptionTarget', status: 'False', lastTransitionTime: T}]}), [])
    assert.equal(r.disruptions.length, 0)
    assert.equal(r.staleDisruption?.at, ms)
  })
  test('nothing recorded: examined lists the condition, the status, the deletion and the events', () => {
    const r = readPodRecord('ns', 'p', pod({phase: 'Running'}), [])
    assert.deepEqual(r.examined, [
      'no DisruptionTarget condition',
      'status phase Running, no status.reason',
      'no deletionTimestamp',
      '0 event(s) about the pod',
    ])
  })
  test('Preempted message forms by release', () => {
    assert.deepEqual(parsePreemptedMessage('Preempted by ns/big on node n1'), {preemptorRef: 'ns/big', node: 'n1'})
    assert.deepEqual(parsePreemptedMessage('Preempted by a pod on node n2'), {node: 'n2'})
    assert.deepEqual(parsePreemptedMessage('Preempted by pod 1234 on node n3 (in kube-scheduler memory).'), {preemptorUid: '1234', node: 'n3'})
  })
})
