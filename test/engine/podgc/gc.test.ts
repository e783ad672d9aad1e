// PodGC for one pod (src/engine/podgc/gc.ts), cases in the manner of pkg/controller/podgc/gc_controller_test.go
// TestGCTerminated, TestGCOrphaned, TestGCUnscheduledTerminating, TestGCTerminating; each expected pass worked out by
// hand from gc()'s order and byEvictionAndCreationTimestamp.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {byEvictionAndCreationTimestamp, type GcNode, type GcPod, podGcDecision} from '../../../src/engine/podgc/gc.js'

const p = (name: string, phase: string, extra: {node?: string; created?: string; reason?: string; deleting?: boolean} = {}): GcPod => ({
  metadata: {
    name,
    namespace: 'ns',
    creationTimestamp: extra.created ?? '2026-01-01T00:00:00Z',
    ...(extra.deleting ? {deletionTimestamp: '2026-06-01T00:00:00Z'} : {}),
  },
  spec: {nodeName: extra.node ?? 'n1'},
  status: {phase, reason: extra.reason},
})
const n = (name: string, ready = true, taints: {key: string; effect: string}[] = []): GcNode => ({
  metadata: {name},
  spec: {taints},
  status: {conditions: [{type: 'Ready', status: ready ? 'True' : 'False'}]},
})
const nodes = [n('n1')]

describe('podGcDecision', () => {
  test('gcTerminated, threshold 1 of 3 terminated: the evicted one and then the oldest go (deleteCount 2)', () => {
    const a = p('a', 'Failed', {created: '2026-01-03T00:00:00Z', reason: 'Evicted'})
    const b = p('b', 'Succeeded', {created: '2026-01-01T00:00:00Z'})
    const c = p('c', 'Failed', {created: '2026-01-02T00:00:00Z'})
    const all = [a, b, c, p('r', 'Running')]
    assert.deepEqual(
      [a, b, c].sort(byEvictionAndCreationTimestamp).map((x) => x.metadata?.name),
      ['a', 'b', 'c'],
    )
    const input = {nodes, nodesComplete: true, allPods: all, podsComplete: true, threshold: 1}
    assert.equal(podGcDecision({...input, pod: a}).pass, 'gcTerminated')
    assert.equal(podGcDecision({...input, pod: b}).action, 'willDelete')
    assert.equal(podGcDecision({...input, pod: c}).action, 'none')
  })
  test('threshold 0 disables gcTerminated only', () => {
    const a = p('a', 'Failed')
    assert.equal(podGcDecision({pod: a, nodes, nodesComplete: true, allPods: [a], podsComplete: true, threshold: 0}).action, 'none')
  })
  test('the default threshold 12500: one terminated pod stays', () => {
    const a = p('a', 'Failed')
    const d = podGcDecision({pod: a, nodes, nodesComplete: true, allPods: [a], podsComplete: true})
    assert.equal(d.threshold, 12500)
    assert.equal(d.action, 'none')
  })
  test('gcOrphaned: node gone (complete node set) → willDelete, with the condition for a non-terminal pod; partial node set → unknown', () => {
    const a = p('a', 'Running', {node: 'gone'})
    const d = podGcDecision({pod: a, nodes, nodesComplete: true, allPods: [a], podsComplete: true})
    assert.deepEqual([d.action, d.pass, d.condition], ['willDelete', 'gcOrphaned', true])
    assert.equal(podGcDecision({pod: a, nodes, nodesComplete: false, allPods: [a], podsComplete: true}).action, 'unknown')
  })
  test('gcTerminating: terminating on a NotReady node with the out-of-service taint; Ready or untainted nodes left alone', () => {
    const a = p('a', 'Running', {deleting: true})
    const oos = [{key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute'}]
    assert.equal(podGcDecision({pod: a, nodes: [n('n1', false, oos)], nodesComplete: true, allPods: [a], podsComplete: true}).pass, 'gcTerminating')
    assert.equal(podGcDecision({pod: a, nodes: [n('n1', true, oos)], nodesComplete: true, allPods: [a], podsComplete: true}).action, 'none')
    assert.equal(podGcDecision({pod: a, nodes: [n('n1', false)], nodesComplete: true, allPods: [a], podsComplete: true}).action, 'none')
  })
  test('gcUnscheduledTerminating: terminating and never bound', () => {
    const a: GcPod = {metadata: {name: 'a', namespace: 'ns', deletionTimestamp: '2026-06-01T00:00:00Z'}, spec: {}, status: {phase: 'Pending'}}
    assert.equal(podGcDecision({pod: a, nodes, nodesComplete: true, allPods: [a], podsComplete: true}).pass, 'gcUnscheduledTerminating')
  })
})

describe('podGcDecision and finalizers', () => {
  // markFailedAndDeletePodWithCondition patches a non-terminal pod to phase Failed before its DELETE (grace 0): with
  // finalizers the DELETE changes nothing, but the phase write does — PodGC acts on a Pending pod, not on a Failed one.
  test('an unscheduled terminating Pending pod holding a finalizer: PodGC still marks it Failed → willDelete, said', () => {
    const a: GcPod = {
      metadata: {name: 'a', namespace: 'ns', deletionTimestamp: '2026-06-01T00:00:00Z', finalizers: ['batch.kubernetes.io/job-tracking']},
      spec: {},
      status: {phase: 'Pending'},
    }
    const d = podGcDecision({pod: a, nodes, nodesComplete: true, allPods: [a], podsComplete: true})
    assert.deepEqual([d.action, d.pass], ['willDelete', 'gcUnscheduledTerminating'])
    assert.match(d.why, /only the Failed phase takes effect now/)
  })
  test('an unscheduled terminating pod already Failed holding a finalizer: nothing to write → none', () => {
    const a: GcPod = {
      metadata: {name: 'a', namespace: 'ns', deletionTimestamp: '2026-06-01T00:00:00Z', finalizers: ['foregroundDeletion']},
      spec: {},
      status: {phase: 'Failed'},
    }
    const d = podGcDecision({pod: a, nodes, nodesComplete: true, allPods: [a], podsComplete: true, threshold: 0})
    assert.deepEqual([d.action, d.pass], ['none', 'gcUnscheduledTerminating'])
  })
})
