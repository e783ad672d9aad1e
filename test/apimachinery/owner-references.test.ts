// metav1.GetControllerOf (apimachinery pkg/apis/meta/v1/controller_ref.go): the first reference whose controller is
// true; a reference with controller false or unset is an owner, not the controller.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {getControllerOf} from '../../src/apimachinery/owner-references.js'

const ref = (name: string, controller?: boolean) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name,
  uid: `uid-${name}`,
  ...(controller === undefined ? {} : {controller}),
})

describe('GetControllerOf', () => {
  it('the first reference with controller=true, past owners that are not controllers', () => {
    assert.equal(getControllerOf({metadata: {ownerReferences: [ref('a'), ref('b', false), ref('c', true), ref('d', true)]}})?.name, 'c')
  })
  it('none when no reference is the controller, or there are no references', () => {
    assert.equal(getControllerOf({metadata: {ownerReferences: [ref('a'), ref('b', false)]}}), undefined)
    assert.equal(getControllerOf({metadata: {}}), undefined)
    assert.equal(getControllerOf({}), undefined)
  })
})
