// Issue 27 point 4 in the finalizer holders: a verdict that rests on something being absent — "no pod uses the
// claim", "its Job is gone", "its writer runs nowhere" — only where the data holds that kind completely; otherwise
// unknown, naming the list that settles it. Each case worked by hand from cleanups.md §2 (podUsesPVC, processPVC;
// handleSingleOrphanPod; the managedFields writer).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {replayFinalizers} from '../../../src/engine/finalizers/index.js'

const DEL = '2026-11-29T02:00:00Z'
const LACKS = 'the data holds only the Pods the dump happened to include'
const pvc: KubeObject = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: {name: 'data', namespace: 'db', uid: 'pvc-1', deletionTimestamp: DEL, finalizers: ['kubernetes.io/pvc-protection']},
}
const other: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name: 'x', namespace: 'db', uid: 'p-x'},
  spec: {nodeName: 'n1', volumes: []},
  status: {phase: 'Running'},
}

describe('pvc-protection: "no pod uses the claim" needs every pod of the namespace', () => {
  it('complete pods, none uses it: released on the next sync (releases)', () => {
    const r = replayFinalizers(pvc, {pods: [other]})
    assert.equal(r.actors[0].action, 'none')
    assert.deepEqual(r.states, [{finalizer: 'kubernetes.io/pvc-protection', state: 'releases'}])
  })
  it('pods in part: a pod the data lacks may use it — held, unknown, the pod list named', () => {
    const r = replayFinalizers(pvc, {pods: [other], podsIncomplete: LACKS})
    assert.equal(r.actors[0].action, 'blocksDeletion')
    assert.deepEqual(r.states, [{finalizer: 'kubernetes.io/pvc-protection', state: 'unknown'}])
    assert.match(r.holds[0], /no pod in the data uses it, but the data holds only the Pods/)
    assert.equal(r.actors[0].next[0].command, 'kubectl get pods -n db -o wide')
    assert.doesNotMatch(r.steps[0].why, /removes the finalizer on its next sync/)
  })
})

describe('job-tracking: an orphan pod is released only where its Job is proved gone', () => {
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'w',
      namespace: 'db',
      uid: 'p-w',
      deletionTimestamp: DEL,
      finalizers: ['batch.kubernetes.io/job-tracking'],
      ownerReferences: [{apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'j-1', controller: true}],
    },
    status: {phase: 'Running'},
  }
  it('Job proved absent: handleSingleOrphanPod removes the finalizer (releases)', () => {
    const r = replayFinalizers(pod, {jobKnown: 'absent'})
    assert.equal(r.actors[0].action, 'none')
    assert.equal(r.actors[0].rule, 'handleSingleOrphanPod')
    assert.deepEqual(r.states[0].state, 'releases')
    assert.deepEqual(r.holds, [])
  })
  it('Job only missing from the data: held, unknown, the Jobs list named', () => {
    const r = replayFinalizers(pod, {jobKnown: 'unknown'})
    assert.equal(r.actors[0].action, 'blocksDeletion')
    assert.equal(r.states[0].state, 'unknown')
    assert.equal(r.actors[0].next[0].command, 'kubectl get jobs -n db')
  })
})

describe('any other finalizer: "its writer runs nowhere" needs every workload', () => {
  const o: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'c',
      namespace: 'demo',
      uid: 'c',
      deletionTimestamp: DEL,
      finalizers: ['example.com/hold'],
      managedFields: [{manager: 'hold-operator', operation: 'Update', fieldsV1: {'f:metadata': {'f:finalizers': {'v:"example.com/hold"': {}}}}}],
    },
  }
  it('every workload read, none of its name: absent', () => {
    assert.equal(replayFinalizers(o, {workloads: []}).states[0].state, 'absent')
  })
  it('workloads in part: unknown, and the clause says what the data lacks', () => {
    const r = replayFinalizers(o, {workloads: [], workloadsIncomplete: 'the data holds no DaemonSet'})
    assert.equal(r.states[0].state, 'unknown')
    assert.match(r.holds[0], /not found in the data, but the data holds no DaemonSet/)
  })
  it('its workload with no ready replica: stuck; with one: waits', () => {
    const d = (ready: number): KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: 'hold-operator', namespace: 'ops', uid: 'd'},
      status: {readyReplicas: ready},
    })
    assert.equal(replayFinalizers(o, {workloads: [d(0)]}).states[0].state, 'stuck')
    assert.equal(replayFinalizers(o, {workloads: [d(1)]}).states[0].state, 'waits')
  })
  it('managedFields not kept (the audit): unknown, and the first next step reads them, not the finalizer removed by hand', () => {
    const {managedFields: _m, ...meta} = o.metadata as Record<string, unknown>
    const r = replayFinalizers({...o, metadata: meta as KubeObject['metadata']}, {workloads: [], managedFieldsDropped: 'the audit keeps none'})
    assert.equal(r.states[0].state, 'unknown')
    assert.equal(r.actors[0].next[0].command, 'kubectl get configmap c -n demo -o yaml --show-managed-fields')
    assert.match(r.steps[0].why, /keeps no managedFields of it \(the audit keeps none\)/)
  })
})
