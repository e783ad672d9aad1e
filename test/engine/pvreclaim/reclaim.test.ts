// PersistentVolume reclaim (src/engine/pvreclaim/reclaim.ts), each case worked by hand from the PV controller
// (pv_controller.go syncVolume: a bound volume whose claim is gone or has another uid is released; reclaimVolume:
// migrated-to → the external provisioner, Retain → nothing, Delete → deleteVolumeOperation, Recycle → scrub). PVs in
// the shape the controller and provisioners leave them (claimRef with uid once bound; provisioned-by annotation).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {replayPvReclaim} from '../../../src/engine/pvreclaim/reclaim.js'

const pv = (policy: string | undefined, phase: string, extra: {annotations?: Record<string, string>; csi?: string; claimUid?: string | null} = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: {name: 'pv-1', uid: 'pv-uid', ...(extra.annotations ? {annotations: extra.annotations} : {})},
  spec: {
    ...(policy ? {persistentVolumeReclaimPolicy: policy} : {}),
    ...(extra.claimUid === null ? {} : {claimRef: {namespace: 'shop', name: 'data', uid: extra.claimUid ?? 'claim-uid'}}),
    ...(extra.csi ? {csi: {driver: extra.csi}} : {}),
  },
  status: {phase},
})

describe('who reclaims a PersistentVolume', () => {
  test('Bound, its claim there with the same uid: nothing yet; Delete says what will happen', () => {
    const r = replayPvReclaim({pv: pv('Delete', 'Bound'), claim: {known: 'found', uid: 'claim-uid'}})
    assert.equal(r.released, false)
    assert.equal(r.actor.action, 'none')
    assert.equal(r.headline, '')
    assert.match(r.steps[1].why, /go once the claim is deleted/)
  })
  test('Bound, claim gone, Delete, in-tree: the PV controller deletes it (willDelete)', () => {
    const r = replayPvReclaim({pv: pv('Delete', 'Bound'), claim: {known: 'absent'}})
    assert.equal(r.released, true)
    assert.equal(r.actor.actor, 'persistentvolume-binder')
    assert.equal(r.actor.action, 'willDelete')
    assert.match(r.headline, /deleted by its reclaim policy Delete/)
  })
  test('a claim of the same name with another uid: released all the same', () => {
    const r = replayPvReclaim({pv: pv('Delete', 'Bound'), claim: {known: 'found', uid: 'other'}})
    assert.equal(r.released, true)
    assert.match(r.steps[0].why, /another claim of the same name/)
  })
  test('Released, Retain: nothing deletes it; the next step is a person', () => {
    const r = replayPvReclaim({pv: pv('Retain', 'Released'), claim: {known: 'absent'}})
    assert.equal(r.actor.action, 'none')
    assert.match(r.headline, /^Nothing deletes PersistentVolume pv-1/)
    assert.equal(r.actor.next[0].command, 'kubectl delete pv pv-1')
  })
  test('no reclaim policy written: the API default Retain', () => {
    assert.equal(replayPvReclaim({pv: pv(undefined, 'Released'), claim: {known: 'absent'}}).policy, 'Retain')
  })
  test('a CSI volume with Delete: the external-provisioner deletes it', () => {
    const r = replayPvReclaim({pv: pv('Delete', 'Released', {csi: 'ebs.csi.aws.com'}), claim: {known: 'absent'}})
    assert.equal(r.actor.actor, 'external-provisioner')
    assert.match(r.headline, /external provisioner \(ebs\.csi\.aws\.com\)/)
  })
  test('migrated-to: reclaimVolume hands it to the CSI external-provisioner', () => {
    const r = replayPvReclaim({
      pv: pv('Delete', 'Released', {
        annotations: {'pv.kubernetes.io/migrated-to': 'pd.csi.storage.gke.io', 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/gce-pd'},
      }),
      claim: {known: 'absent'},
    })
    assert.equal(r.actor.actor, 'external-provisioner')
    assert.ok(r.steps.some((s) => s.result === 'external'))
  })
  test('Failed with Delete: a deletion was tried and failed; the events say why', () => {
    const r = replayPvReclaim({pv: pv('Delete', 'Failed'), claim: {known: 'absent'}})
    assert.match(r.headline, /is Failed/)
    assert.match(r.actor.next[0].command ?? '', /involvedObject.name=pv-1/)
  })
  test('the claim not in the data: nothing claimed', () => {
    const r = replayPvReclaim({pv: pv('Delete', 'Bound'), claim: {known: 'unknown'}})
    assert.equal(r.released, undefined)
    assert.equal(r.actor.action, 'none')
    assert.equal(r.steps[0].result, 'unknown')
  })
  test('Available without a claimRef: not bound, nothing to reclaim', () => {
    const r = replayPvReclaim({pv: pv('Delete', 'Available', {claimUid: null}), claim: {known: 'unknown'}})
    assert.equal(r.released, false)
  })
})
