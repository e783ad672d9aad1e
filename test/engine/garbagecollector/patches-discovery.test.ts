// Patch bodies (patch.go, controller_ref_manager.go), the RESTMapper and monitored set (§9), the dependents index (§1).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  applyOwnerRefsStrategicMergePatch,
  blockingDependents,
  deleteOwnerRefJsonMergePatch,
  DependentsIndex,
  GcDiscovery,
  unblockOwnerRefsJsonMergePatch,
  unblockOwnerRefsStrategicMergePatch,
} from '../../../src/engine/garbagecollector/index.js'
import {extraType, obj, ref, types} from './helpers.js'

describe('patches', () => {
  it('TestUnblockOwnerReference: only the blocking ref is sent; after the merge every ref that blocked is false', () => {
    const refs = [{uid: '1', blockOwnerDeletion: true}, {uid: '2', blockOwnerDeletion: false}, {uid: '3'}] as never[]
    const patch = unblockOwnerRefsStrategicMergePatch('100', refs)
    assert.equal(JSON.parse(patch).metadata.ownerReferences.length, 1)
    assert.deepEqual(applyOwnerRefsStrategicMergePatch(refs, patch), [{uid: '1', blockOwnerDeletion: false}, {uid: '2', blockOwnerDeletion: false}, {uid: '3'}])
  })
  it('JSON merge fallbacks carry resourceVersion and the full list', () => {
    const refs = [ref('v1', 'Pod', 'a', '1', {blockOwnerDeletion: true}), ref('v1', 'Pod', 'b', '2')]
    assert.equal(
      deleteOwnerRefJsonMergePatch('7', refs, ['1']),
      '{"metadata":{"resourceVersion":"7","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"b","uid":"2"}]}}',
    )
    assert.equal(deleteOwnerRefJsonMergePatch('7', refs, ['1', '2']), '{"metadata":{"resourceVersion":"7","ownerReferences":null}}')
    assert.equal(
      unblockOwnerRefsJsonMergePatch('7', refs),
      '{"metadata":{"resourceVersion":"7","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"a","uid":"1","blockOwnerDeletion":false},{"apiVersion":"v1","kind":"Pod","name":"b","uid":"2","blockOwnerDeletion":false}]}}',
    )
  })
})

describe('GcDiscovery', () => {
  const d = new GcDiscovery(
    types({
      extra: [
        extraType('widgets.example.com/v2', 'Widget', 'widgets', true),
        extraType('widgets.example.com/v1', 'Widget', 'widgets', true),
        extraType('example.com/v1', 'ReadOnly', 'readonlies', false, ['get', 'list', 'watch']),
      ],
    }),
  )
  it('maps only the exact version named', () => {
    assert.equal(d.restMapping('apps/v1', 'Deployment')?.resource, 'deployments')
    assert.equal(d.restMapping('extensions/v1beta1', 'Deployment'), undefined)
    assert.equal(d.restMapping('apps/v1', 'deployment'), undefined)
    assert.equal(d.restMapping('widgets.example.com/v1', 'Widget')?.version, 'v1')
    assert.equal(d.restMapping('v1', 'Node')?.namespaced, false)
    assert.equal(d.restMapping('', 'Pod'), undefined)
  })
  it('monitors the preferred version of each deletable, listable, watchable resource, minus events', () => {
    const monitored = d.monitoredTypes().map((t) => `${t.group}/${t.version}/${t.resource}`)
    assert.ok(monitored.includes('widgets.example.com/v2/widgets'))
    assert.ok(!monitored.includes('widgets.example.com/v1/widgets'))
    assert.ok(!monitored.includes('/v1/events'))
    assert.ok(!monitored.includes('events.k8s.io/v1/events'))
    assert.ok(!monitored.includes('example.com/v1/readonlies'))
    assert.ok(!monitored.includes('/v1/componentstatuses'))
    assert.ok(monitored.includes('/v1/pods'))
    assert.equal(d.monitorStatus('widgets.example.com/v1', 'Widget').monitored, true)
  })
})

describe('DependentsIndex', () => {
  it('indexes by owner uid only, across namespaces, once per object', () => {
    const i = new DependentsIndex()
    const a = obj({
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'x',
      name: 'a',
      ownerReferences: [ref('v1', 'Pod', 'o', 'U', {blockOwnerDeletion: true}), ref('v1', 'Pod', 'o2', 'U')],
    })
    const b = obj({apiVersion: 'v1', kind: 'Secret', namespace: 'y', name: 'b', ownerReferences: [ref('v1', 'ConfigMap', 'other-name', 'U')]})
    i.add(a, '/pods')
    i.add(b, '/secrets')
    assert.deepEqual(
      i.dependentsOf('U').map((o) => o.metadata.name),
      ['a', 'b'],
    )
    assert.deepEqual(
      blockingDependents(i, 'U').map((o) => o.metadata.name),
      ['a'],
    )
    assert.equal(i.named('/pods', 'x', 'a'), a)
    assert.equal(i.observed(a.metadata.uid), a)
  })
})
