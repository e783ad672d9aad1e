// batch.kubernetes.io/job-tracking on a pod being deleted, against upstream.
//
// pkg/controller/job/job_controller_test.go TestWatchOrphanPods (stored copy, index id 439309407): a pod with
// deletionTimestamp and the tracking finalizer; each entry waits until the finalizer is removed (`!hasJobTrackingFinalizer`):
//   "job_does_not_exist": the pod's controller is a Job (newJob(2, 2, 6)) that is not in the informer → removed;
//   "orphan":             no controller at all → removed;
//   "job_finished":       the Job is in the cache with Complete=True → removed.
// handleSingleOrphanPod (job_controller.go, stored copy index id 66920481658), worked by hand: a controller that is not
// a batch/v1 Job → "Do not remove finalizer" (kept: nothing else removes it); the Job resolved (same uid) and not
// finished → "The pod was adopted. Do not remove finalizer" — then trackJobStatusAndRemoveFinalizers decides
// (canRemoveFinalizer: a deleted pod that is not Succeeded counts as failed without a podFailurePolicy); a Job of the
// same name with another uid → resolveControllerRef returns nil: the pod is an orphan → removed.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {replayFinalizers} from '../../../src/engine/finalizers/index.js'

const DEL = '2026-12-03T10:00:00Z'
const job = (conditions: object[] = [], spec: object = {}): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {name: 'foobar', namespace: 'default', uid: 'job-uid'},
  spec: {parallelism: 2, completions: 2, backoffLimit: 6, ...spec},
  status: {conditions},
})
const pod = (name: string, owner?: {apiVersion: string; kind: string; name: string; uid: string}, phase = 'Running'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    uid: `pod-${name}`,
    deletionTimestamp: DEL,
    finalizers: ['batch.kubernetes.io/job-tracking'],
    ...(owner ? {ownerReferences: [{...owner, controller: true}]} : {}),
  },
  status: {phase},
})
const jobRef = {apiVersion: 'batch/v1', kind: 'Job', name: 'foobar', uid: 'job-uid'}

describe('TestWatchOrphanPods (upstream): the orphan pod loses the finalizer', () => {
  it('job_does_not_exist: its Job is proved gone → releases', () => {
    const r = replayFinalizers(pod('job_does_not_exist', jobRef), {jobKnown: 'absent'})
    assert.deepEqual(r.states, [{finalizer: 'batch.kubernetes.io/job-tracking', state: 'releases'}])
    assert.equal(r.actors[0].rule, 'handleSingleOrphanPod')
  })
  it('orphan: no controller → releases (handleSingleOrphanPod)', () => {
    const r = replayFinalizers(pod('orphan'), {})
    assert.deepEqual(r.states, [{finalizer: 'batch.kubernetes.io/job-tracking', state: 'releases'}])
    assert.equal(r.actors[0].action, 'none')
    assert.equal(r.actors[0].rule, 'handleSingleOrphanPod')
    assert.deepEqual(r.holds, [])
  })
  it('job_finished: the Job is Complete → releases', () => {
    const r = replayFinalizers(pod('job_finished', jobRef), {job: job([{type: 'Complete', status: 'True'}])})
    assert.deepEqual(r.states, [{finalizer: 'batch.kubernetes.io/job-tracking', state: 'releases'}])
  })
})

describe('handleSingleOrphanPod, worked by hand', () => {
  it('a controller that is not a batch/v1 Job: kept, and said stuck (the job controller never removes it)', () => {
    const r = replayFinalizers(pod('rs-pod', {apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs'}), {})
    assert.deepEqual(r.states, [{finalizer: 'batch.kubernetes.io/job-tracking', state: 'stuck'}])
    assert.equal(r.actors[0].action, 'blocksDeletion')
    assert.match(r.holds[0], /ReplicaSet web-1 \(apps\/v1\) is not a Job/)
  })
  it('a Job kind of another group version is not batch/v1: kept', () => {
    const r = replayFinalizers(pod('other', {apiVersion: 'example.com/v1', kind: 'Job', name: 'foobar', uid: 'x'}), {})
    assert.equal(r.states[0].state, 'stuck')
  })
  it('the Job runs (adopted): trackJobStatusAndRemoveFinalizers decides — a deleted Running pod counts as failed → releases', () => {
    const r = replayFinalizers(pod('adopted', jobRef), {job: job()})
    assert.equal(r.states[0].state, 'releases')
    assert.equal(r.actors[0].rule, 'trackJobStatusAndRemoveFinalizers')
  })
  it('the Job runs with a podFailurePolicy: a deleted Running pod is not failed yet → waits', () => {
    const r = replayFinalizers(pod('adopted', jobRef), {job: job([], {podFailurePolicy: {rules: []}})})
    assert.equal(r.states[0].state, 'waits')
  })
  it('the Job is not in the data and its absence is not proved: unknown, with the list that settles it', () => {
    const r = replayFinalizers(pod('unseen', jobRef), {jobKnown: 'unknown'})
    assert.equal(r.states[0].state, 'unknown')
    assert.equal(r.actors[0].next[0].command, 'kubectl get jobs -n default')
  })
})
