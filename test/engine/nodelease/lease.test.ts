// Node Lease cleanup (src/engine/nodelease/lease.ts), each case worked by hand from SetNodeOwnerFunc
// (pkg/kubelet/util/nodelease.go: the reference is written only while the Lease has none, with the Node's uid) and
// the collector's dangling-owner rule. Shapes as the kubelet leaves them: one ownerReference {apiVersion v1, kind
// Node, name, uid}, no controller, no blockOwnerDeletion (the kubelet's own test of setNodeOwnerFunc asserts this shape).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {replayNodeLease} from '../../../src/engine/nodelease/lease.js'

const lease = (name: string, ownerUid?: string, namespace = 'kube-node-lease') => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {
    name,
    namespace,
    uid: `lease-${name}`,
    ...(ownerUid ? {ownerReferences: [{apiVersion: 'v1', kind: 'Node', name, uid: ownerUid}]} : {}),
  },
  spec: {holderIdentity: name, leaseDurationSeconds: 40},
})
const node = (name: string, uid: string) => ({apiVersion: 'v1', kind: 'Node', metadata: {name, uid}})

describe('who deletes a node Lease', () => {
  test('owned by the Node with its current uid: kept while the Node exists, no headline (the collector says it)', () => {
    const r = replayNodeLease({lease: lease('n1', 'u1'), node: node('n1', 'u1'), nodeKnown: 'found'})
    assert.equal(r?.case, 'ownedBySameNode')
    assert.equal(r?.headline, '')
  })
  test('the reference names an older Node of that name: dangling, and the kubelet never rewrites it (only when there is none)', () => {
    const r = replayNodeLease({lease: lease('n1', 'old'), node: node('n1', 'new'), nodeKnown: 'found'})
    assert.equal(r?.case, 'ownedByOtherUid')
    assert.match(r?.headline ?? '', /uid old, but Node n1 now has uid new/)
  })
  test('owned by a Node the data proves gone: the collector deletes it', () => {
    assert.equal(replayNodeLease({lease: lease('n1', 'u1'), nodeKnown: 'absent'})?.case, 'ownedByMissingNode')
  })
  test('no ownerReference and the Node gone: nothing ever deletes it; the next step is a delete by hand', () => {
    const r = replayNodeLease({lease: lease('n9'), nodeKnown: 'absent'})
    assert.equal(r?.case, 'noOwnerReference')
    assert.match(r?.headline ?? '', /^Nothing deletes Lease kube-node-lease\/n9/)
    assert.equal(r?.actor.next[0].command, 'kubectl delete lease n9 -n kube-node-lease')
  })
  test('no ownerReference, Node present: the kubelet sets it on its next renewal; no headline', () => {
    const r = replayNodeLease({lease: lease('n2'), node: node('n2', 'u2'), nodeKnown: 'found'})
    assert.equal(r?.case, 'noOwnerReference')
    assert.equal(r?.headline, '')
    assert.match(r?.steps[0].why ?? '', /next renewal/)
  })
  test('whether the Node exists is not in the data: nothing is claimed', () => {
    const r = replayNodeLease({lease: lease('n3', 'u3'), nodeKnown: 'unknown'})
    assert.equal(r?.case, 'nodeUnknown')
    assert.equal(r?.headline, '')
  })
  test('a Lease outside kube-node-lease is no node Lease', () => {
    assert.equal(replayNodeLease({lease: lease('leader', undefined, 'kube-system'), nodeKnown: 'unknown'}), undefined)
  })
})
