// pvc-protection against upstream's table: pkg/controller/volume/pvcprotection/pvc_protection_controller_test.go
// TestPVCProtectionController (k/k@025f2834), the entries that end in a state the data can show — a deleted PVC with
// the finalizer and the namespace's pods as the controller's informer would hold them after the event — each with the
// test's expectation: "finalizer is removed" (pvc-protection acts: none, it lets go) or "is not removed"/"no action"
// (blocksDeletion). The pods are built as the test's helpers build them: pod1 in default, on node1, Pending,
// uid1; withPVC adds a volume claiming the PVC; unscheduled clears nodeName; withStatus sets the phase.
// Left out: the update-failure retries (API reactions) and "informersAreLate" (the controller's live LIST fallback).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {replayFinalizers} from '../../../src/engine/finalizers/index.js'

type Pod = KubeObject & {spec: {nodeName?: string; volumes: unknown[]}; status: {phase: string}}
const pod = (): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name: 'pod1', namespace: 'default', uid: 'uid1'},
  spec: {nodeName: 'node1', volumes: []},
  status: {phase: 'Pending'},
})
const withPVC = (claimName: string, p: Pod): Pod => ({
  ...p,
  spec: {...p.spec, volumes: [...p.spec.volumes, {name: claimName, persistentVolumeClaim: {claimName}}]},
})
const withEmptyDir = (p: Pod): Pod => ({...p, spec: {...p.spec, volumes: [...p.spec.volumes, {name: 'emptyDir', emptyDir: {}}]}})
const withStatus = (phase: string, p: Pod): Pod => ({...p, status: {phase}})
const withUID = (uid: string, p: Pod): Pod => ({...p, metadata: {...p.metadata, uid}})
const unscheduled = (p: Pod): Pod => ({...p, spec: {...p.spec, nodeName: undefined}})
const deletedPvc: KubeObject = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: {name: 'pvc1', namespace: 'default', uid: 'pvc-uid', deletionTimestamp: '2026-06-01T12:00:00Z', finalizers: ['kubernetes.io/pvc-protection']},
}

// [entry name, the pods in the informer afterwards, removed?]
const TABLE: [string, Pod[], boolean][] = [
  ['deleted PVC with finalizer -> finalizer is removed', [], true],
  ['deleted PVC with finalizer + pod with the PVC exists -> finalizer is not removed', [withPVC('pvc1', pod())], false],
  ['deleted PVC with finalizer + pod with unrelated PVC and EmptyDir exists -> finalizer is removed', [withEmptyDir(withPVC('unrelatedPVC', pod()))], true],
  [
    'deleted PVC with finalizer + pod with the PVC finished but is not deleted -> finalizer is not removed',
    [withStatus('Failed', withPVC('pvc1', pod()))],
    false,
  ],
  ['updated running Pod -> no action', [withStatus('Running', withPVC('pvc1', pod()))], false],
  ['updated finished Pod -> finalizer is not removed', [withStatus('Succeeded', withPVC('pvc1', pod()))], false],
  ['updated unscheduled Pod -> finalizer is removed', [unscheduled(withPVC('pvc1', pod()))], true],
  // The deleted pod is gone from the informer.
  ['deleted running Pod -> finalizer is removed', [], true],
  ['pod delete and create with same namespaced name seen as an update, old pod used deleted PVC -> finalizer is removed', [withUID('uid2', pod())], true],
  [
    'pod delete and create with same namespaced name seen as an update, both pods reference deleted PVC -> finalizer is not removed',
    [withUID('uid2', withPVC('pvc1', pod()))],
    false,
  ],
  ['pod update from unscheduled to scheduled, deleted PVC is referenced -> finalizer is not removed', [withPVC('pvc1', pod())], false],
]

describe('TestPVCProtectionController (pvc_protection_controller_test.go)', () => {
  for (const [name, pods, removed] of TABLE) {
    test(name, () => {
      const r = replayFinalizers(deletedPvc, {pods})
      const a = r.actors.find((x) => x.actor === 'pvc-protection')
      assert.ok(a)
      assert.equal(a.action, removed ? 'none' : 'blocksDeletion')
    })
  }
})
