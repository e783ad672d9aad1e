// The gc driver's reading behaviour, over an in-memory source with faults: a list whose continue token expires (410)
// is read again from the start once, as client-go's pager does, and only a second failure leaves it out — reported,
// never dropped silently; a forbidden list is reported; a reset connection on an owner GET is retried.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject, OwnerReference} from '../../../src/cluster/source.js'
import {PAGE_SIZE} from '../../../src/cluster/read.js'
import {driveGcAll, driveGcOne} from '../../../src/engine/garbagecollector/drive.js'
import {MemorySource} from './memory-source.js'

const NOW = new Date('2026-11-29T10:00:00Z')
const OPTIONS = {now: NOW, maxDepth: 3}

function o(apiVersion: string, kind: string, namespace: string, name: string, uid: string, owners: OwnerReference[] = []): KubeObject {
  return {apiVersion, kind, metadata: {name, namespace, uid, ...(owners.length > 0 ? {ownerReferences: owners} : {})}}
}
const ref = (apiVersion: string, kind: string, name: string, uid: string): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid,
  controller: true,
  blockOwnerDeletion: true,
})

/** One Deployment d, its ReplicaSet, PAGE_SIZE + 10 pods of it (two pages), and one pod whose ReplicaSet is gone. */
function cluster(): KubeObject[] {
  const objects = [
    o('apps/v1', 'Deployment', 'shop', 'd', 'd-1'),
    o('apps/v1', 'ReplicaSet', 'shop', 'd-rs', 'rs-1', [ref('apps/v1', 'Deployment', 'd', 'd-1')]),
  ]
  for (let i = 0; i < PAGE_SIZE + 10; i++) objects.push(o('v1', 'Pod', 'shop', `d-rs-${i}`, `p-${i}`, [ref('apps/v1', 'ReplicaSet', 'd-rs', 'rs-1')]))
  objects.push(o('v1', 'Pod', 'shop', 'orphaned', 'p-x', [ref('apps/v1', 'ReplicaSet', 'gone-rs', 'rs-gone')]))
  return objects
}

describe('410 Gone on a continue page', () => {
  it('restarts the list once: every pod is replayed and the dangling one is found, nothing partial', async () => {
    const source = new MemorySource(cluster(), {faults: {goneOnList: {Pod: 1}}})
    const r = await driveGcAll(source, undefined, OPTIONS)
    // 511 kept pods + the ReplicaSet kept; the Deployment has no owner; the orphaned pod's ReplicaSet is a 404: delete.
    assert.deepEqual(r.counts, {keep: PAGE_SIZE + 11, delete: 1, noOwners: 1})
    assert.deepEqual(
      r.findings.map((f) => f.subject.name),
      ['orphaned'],
    )
    assert.deepEqual(r.problems, [])
    assert.deepEqual(r.restarted, ['list v1 Pod'])
    assert.equal(source.lists.filter((l) => l.kind === 'Pod').length, 2, 'one restart, no more')
  })

  it('a second expiry leaves the pods out, reported as a problem naming the list and the restart', async () => {
    const source = new MemorySource(cluster(), {faults: {goneOnList: {Pod: 2}}})
    const r = await driveGcAll(source, undefined, OPTIONS)
    assert.equal(r.problems.length, 1)
    assert.equal(r.problems[0].what, 'list v1 Pod')
    assert.match(r.problems[0].reason, /^Gone \(410\): .*after restarting the list once on 410 Gone.*not replayed/)
    // Without the pods, only the Deployment and its ReplicaSet are replayed; nothing is said about the pods.
    assert.deepEqual(r.counts, {keep: 1, noOwners: 1})
  })
})

describe('403 on a list', () => {
  it('--all: the kind is reported, the rest replayed', async () => {
    const r = await driveGcAll(new MemorySource(cluster(), {faults: {forbidList: {ReplicaSet: 403}}}), undefined, OPTIONS)
    assert.deepEqual(
      r.problems.map((p) => p.what),
      ['list apps/v1 ReplicaSet'],
    )
    assert.match(r.problems[0].reason, /^Forbidden \(403\)/)
    // The pods' owner ReplicaSet is not in a list, so it is read with a GET (which is allowed): found, kept.
    assert.equal(r.counts.keep, PAGE_SIZE + 10)
  })

  it('--tree: the dependents that could not be listed are reported in the tree, not dropped silently', async () => {
    const objects = cluster()
    const source = new MemorySource(objects, {faults: {forbidList: {Pod: 403}}})
    const rs = objects[1]
    const one = await driveGcOne(
      source,
      rs,
      {group: 'apps', version: 'v1', kind: 'ReplicaSet', resource: 'replicasets', namespaced: true, verbs: ['list']},
      {...OPTIONS, tree: true},
    )
    assert.deepEqual(one?.tree?.object.children, [], 'no pod could be listed')
    assert.deepEqual(
      one?.tree?.partial?.map((p) => p.what),
      ['list v1 Pod'],
    )
    assert.deepEqual(
      one?.problems.map((p) => p.what),
      ['list v1 Pod'],
    )
  })

  it('--tree after one 410 on the pods: all of them are there', async () => {
    const objects = cluster()
    const source = new MemorySource(objects, {faults: {goneOnList: {Pod: 1}}})
    const one = await driveGcOne(
      source,
      objects[1],
      {group: 'apps', version: 'v1', kind: 'ReplicaSet', resource: 'replicasets', namespaced: true, verbs: ['list']},
      {...OPTIONS, tree: true},
    )
    // TREE_CHILDREN (50) shown, the rest counted: 510 in all.
    assert.equal((one?.tree?.object.children.length ?? 0) + (one?.tree?.object.more ?? 0), PAGE_SIZE + 10)
    assert.equal(one?.tree?.partial, undefined)
  })
})

describe('a reset connection on an owner GET', () => {
  it('is retried, as client-go retries GETs on connection resets: the owner is read, not unknown', async () => {
    // The pod's owner kind is not listed (Widget is not served as a list here), so its owner comes from a GET.
    const objects = [
      o('apps/v1', 'ReplicaSet', 'shop', 'web', 'rs-web'),
      o('v1', 'Pod', 'shop', 'web-1', 'p-1', [ref('apps/v1', 'ReplicaSet', 'web', 'rs-web')]),
    ]
    const source = new MemorySource(objects, {faults: {resetOnGet: {'ReplicaSet/web': 2}}})
    const one = await driveGcOne(source, objects[1], {group: '', version: 'v1', kind: 'Pod', resource: 'pods', namespaced: true, verbs: ['list']}, OPTIONS)
    assert.equal(one?.replay.verdict, 'keep')
    assert.equal(source.gets.filter((g) => g.kind === 'ReplicaSet').length, 3, 'two resets, then the answer')
  })

  it('three resets in a row: unknown, never dangling', async () => {
    const objects = [
      o('apps/v1', 'ReplicaSet', 'shop', 'web', 'rs-web'),
      o('v1', 'Pod', 'shop', 'web-1', 'p-1', [ref('apps/v1', 'ReplicaSet', 'web', 'rs-web')]),
    ]
    const source = new MemorySource(objects, {faults: {resetOnGet: {'ReplicaSet/web': 3}}})
    const one = await driveGcOne(source, objects[1], {group: '', version: 'v1', kind: 'Pod', resource: 'pods', namespaced: true, verbs: ['list']}, OPTIONS)
    assert.equal(one?.replay.verdict, 'unknown')
    assert.equal(one?.replay.refs[0].unknownReason, 'readError')
  })
})
