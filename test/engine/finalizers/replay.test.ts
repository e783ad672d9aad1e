// Finalizer holders, worked by hand from cleanups.md §2 (pvc_protection_controller.go podUsesPVC,
// pv_protection_controller.go isBeingUsed, job_controller.go canRemoveFinalizer) and the managedFields encoding of
// §2.5 (a set element is the key v:"<finalizer>").
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {finalizerManagers, podUsesPVC, replayFinalizers} from '../../../src/engine/finalizers/index.js'

const DEL = '2026-11-29T02:00:00Z'
const pvc = (finalizers: string[], extra: object = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: {name: 'data', namespace: 'db', uid: 'pvc-1', deletionTimestamp: DEL, finalizers, ...extra},
})
const pod = (name: string, opts: {node?: string; claim?: string; phase?: string} = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'db', uid: `p-${name}`},
  spec: {...(opts.node ? {nodeName: opts.node} : {}), volumes: opts.claim ? [{name: 'v', persistentVolumeClaim: {claimName: opts.claim}}] : []},
  status: {phase: opts.phase ?? 'Running'},
})

describe('pvc-protection', () => {
  it('a scheduled pod naming the claim uses it; an unscheduled one never does; a Succeeded one still does', () => {
    assert.equal(podUsesPVC(pod('a', {node: 'n1', claim: 'data'}), pvc([])), true)
    assert.equal(podUsesPVC(pod('b', {claim: 'data'}), pvc([])), false)
    assert.equal(podUsesPVC(pod('c', {node: 'n1', claim: 'data', phase: 'Succeeded'}), pvc([])), true)
    assert.equal(podUsesPVC(pod('d', {node: 'n1', claim: 'other'}), pvc([])), false)
  })
  it('held while a pod uses it: the pod named, its deletion the next step', () => {
    const r = replayFinalizers(pvc(['kubernetes.io/pvc-protection']), {pods: [pod('db-0', {node: 'n1', claim: 'data'}), pod('x', {node: 'n1'})]})
    assert.equal(r.actors[0].actor, 'pvc-protection')
    assert.equal(r.actors[0].action, 'blocksDeletion')
    assert.match(r.holds[0], /db-0/)
    assert.equal(r.actors[0].next[0].command, 'kubectl delete pod db-0 -n db')
  })
  it('no pod uses it: released on the next sync', () => {
    const r = replayFinalizers(pvc(['kubernetes.io/pvc-protection']), {pods: [pod('x', {node: 'n1'})]})
    assert.equal(r.actors[0].action, 'none')
    assert.deepEqual(r.holds, [])
  })
  it('pods not in the data: held, and the answer says the data cannot tell', () => {
    const r = replayFinalizers(pvc(['kubernetes.io/pvc-protection']), {podsWhy: 'the data holds no Pod'})
    assert.match(r.holds[0], /data shows no pods/)
  })
})

describe('pv-protection', () => {
  const pv = (phase: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {name: 'pv-1', uid: 'pv-1', deletionTimestamp: DEL, finalizers: ['kubernetes.io/pv-protection']},
    spec: {claimRef: {namespace: 'db', name: 'data'}},
    status: {phase},
  })
  it('Bound holds; Released does not', () => {
    assert.equal(replayFinalizers(pv('Bound'), {}).actors[0].action, 'blocksDeletion')
    assert.equal(replayFinalizers(pv('Bound'), {}).actors[0].next[0].command, 'kubectl why gc pvc/data -n db')
    assert.equal(replayFinalizers(pv('Released'), {}).actors[0].action, 'none')
  })
})

describe('job-tracking', () => {
  const p = (phase: string, deleting?: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'build-x',
      namespace: 'ci',
      uid: 'p',
      finalizers: ['batch.kubernetes.io/job-tracking'],
      deletionTimestamp: deleting ?? DEL,
      ownerReferences: [{apiVersion: 'batch/v1', kind: 'Job', name: 'build', uid: 'j', controller: true}],
    },
    status: {phase},
  })
  const job = (conditions: object[] = [], spec: object = {}): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {name: 'build', namespace: 'ci', uid: 'j'},
    spec,
    status: {conditions},
  })
  it('a deleted Running pod counts as failed (no podFailurePolicy): removable', () => {
    assert.equal(replayFinalizers(p('Running'), {job: job()}).actors[0].action, 'none')
  })
  it('with a podFailurePolicy a deleted Running pod is not failed yet: held until it ends', () => {
    const r = replayFinalizers(p('Running'), {job: job([], {podFailurePolicy: {rules: []}})})
    assert.equal(r.actors[0].action, 'blocksDeletion')
  })
  it('a finished Job releases every pod', () => {
    assert.equal(replayFinalizers(p('Running'), {job: job([{type: 'Complete', status: 'True'}], {podFailurePolicy: {rules: []}})}).actors[0].action, 'none')
  })
})

describe('any other finalizer: its writer from managedFields', () => {
  const o: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'settings',
      namespace: 'demo',
      uid: 'c',
      deletionTimestamp: DEL,
      finalizers: ['example.com/hold'],
      managedFields: [
        {manager: 'kubectl-client-side-apply', operation: 'Update', time: '2026-11-20T10:00:00Z', fieldsV1: {'f:data': {}}},
        {
          manager: 'hold-operator',
          operation: 'Update',
          time: '2026-11-21T10:00:00Z',
          fieldsV1: {'f:metadata': {'f:finalizers': {'.': {}, 'v:"example.com/hold"': {}}}},
        },
      ],
    },
  }
  it('the manager that set v:"example.com/hold" is the writer', () => {
    assert.deepEqual(finalizerManagers(o, 'example.com/hold'), [{manager: 'hold-operator', operation: 'Update', time: '2026-11-21T10:00:00Z'}])
  })
  it('whether it still runs: its Deployment with 0 ready replicas is named', () => {
    const d: KubeObject = {apiVersion: 'apps/v1', kind: 'Deployment', metadata: {name: 'hold-operator', namespace: 'ops', uid: 'd'}, status: {readyReplicas: 0}}
    const r = replayFinalizers(o, {workloads: [d]})
    assert.equal(r.actors[0].actor, 'hold-operator')
    assert.equal(r.actors[0].action, 'blocksDeletion')
    assert.match(r.holds[0], /written by hold-operator; Deployment ops\/hold-operator \(0 ready\)/)
    assert.match(r.actors[0].next[0].why, /no ready replica/)
    assert.equal(r.actors[0].next[0].command, 'kubectl get deployment hold-operator -n ops')
  })
  it('not running in the data: said so', () => {
    assert.match(replayFinalizers(o, {workloads: []}).holds[0], /does not run in the data/)
  })
  it('foregroundDeletion and orphan are left to the collector', () => {
    const f = {...o, metadata: {...o.metadata, finalizers: ['foregroundDeletion']}}
    assert.deepEqual(replayFinalizers(f, {}).actors, [])
  })
})
