// Next steps (issue 16 item 4): each names something a person can run or change, in the form kubectl accepts.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {finalizerHolder, gcNext, typedName} from '../../../src/engine/garbagecollector/index.js'
import {obj, ref, run} from './helpers.js'

describe('typedName: KIND[.GROUP]/NAME as kubectl resolves it', () => {
  it('core and apps kinds need no group; others are qualified (job.batch, not the ambiguous job)', () => {
    assert.equal(typedName('v1', 'Node', 'cp-1'), 'node/cp-1')
    assert.equal(typedName('apps/v1', 'ReplicaSet', 'web-1'), 'replicaset/web-1')
    assert.equal(typedName('batch/v1', 'Job', 'backup'), 'job.batch/backup')
    assert.equal(typedName('example.com/v1', 'App', 'shop'), 'app.example.com/shop')
  })
})

describe('finalizer holders', () => {
  it('names the upstream controller for the common finalizers, and the domain owner otherwise', () => {
    assert.match(finalizerHolder('kubernetes.io/pvc-protection'), /pvc-protection controller/)
    assert.match(finalizerHolder('foregroundDeletion'), /garbage collector/)
    assert.match(finalizerHolder('example.com/audit-hold'), /owns "example\.com"/)
  })
})

describe('gcNext per verdict', () => {
  const owner = obj({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'shop',
    name: 'web',
    uid: 'd-1',
    deletionTimestamp: '2026-11-29T09:00:00Z',
    finalizers: ['foregroundDeletion'],
  })
  const rs = obj({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    namespace: 'shop',
    name: 'web-1',
    uid: 'rs-1',
    deletionTimestamp: '2026-11-29T09:00:01Z',
    finalizers: ['example.com/hold'],
    ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd-1', {controller: true, blockOwnerDeletion: true})],
  })
  it('waitForBlockingDependents: the command that explains the blocking dependent', () => {
    const {replay} = run(owner, {cluster: [owner, rs], withIndex: true})
    assert.equal(replay.verdict, 'waitForBlockingDependents')
    assert.deepEqual(
      gcNext(replay)?.map((n) => n.command),
      ['kubectl why gc replicaset/web-1 -n shop'],
    )
  })
  it('waitBeingDeleted: the finalizer to look at, as the field to change', () => {
    const {replay} = run(rs, {cluster: [owner, rs], withIndex: true})
    assert.equal(replay.verdict, 'waitBeingDeleted')
    assert.deepEqual(
      gcNext(replay)?.map((n) => n.change),
      ['ReplicaSet shop/web-1: metadata.finalizers "example.com/hold"'],
    )
  })
  it('keep: nothing to do', () => {
    const pod = obj({apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'p', ownerReferences: [ref('apps/v1', 'ReplicaSet', 'web-1', 'rs-1')]})
    const live = {...rs, metadata: {...rs.metadata, deletionTimestamp: undefined, finalizers: undefined}}
    const {replay} = run(pod, {cluster: [live, pod]})
    assert.equal(replay.verdict, 'keep')
    assert.equal(gcNext(replay), undefined)
  })
})
