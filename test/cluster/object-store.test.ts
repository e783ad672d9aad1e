import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {ObjectStore} from '../../src/cluster/object-store.js'
import type {KubeObject} from '../../src/cluster/source.js'

const pod = (namespace: string, name: string, resourceVersion = '1'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {namespace, name, resourceVersion},
})
const names = (list: KubeObject[]) => list.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`)

describe('ObjectStore', () => {
  test('lists in etcd key order: "namespace/name" compared as strings', () => {
    const store = new ObjectStore()
    for (const [ns, name] of [
      ['a', 'x'],
      ['a-b', 'y'],
      ['a', 'b'],
      ['ab', 'a'],
      ['a.b', 'z'],
    ])
      store.add(pod(ns, name))
    // "a-b/y" < "a.b/z" < "a/b" < "a/x" < "ab/a": '-' (0x2d) and '.' (0x2e) sort before '/' (0x2f), 'b' after it —
    // not the order of (namespace, name) pairs, which would put the namespace "a" first.
    assert.deepEqual(names(store.all('/Pod')), ['a-b/y', 'a.b/z', 'a/b', 'a/x', 'ab/a'])
    assert.deepEqual(names(store.list('/Pod', {namespace: 'a'})), ['a/b', 'a/x'])
  })

  test('one object per kind, namespace and name: the higher resourceVersion wins; counts and namespaces per kind', () => {
    const store = new ObjectStore()
    store.add(pod('a', 'x', '5'))
    store.add(pod('a', 'x', '7'))
    store.add(pod('a', 'x', '6'))
    store.add(pod('b', 'x', '1'))
    store.add({apiVersion: 'v1', kind: 'Node', metadata: {name: 'x'}})
    assert.equal(store.get('/Pod', 'a', 'x')?.metadata?.resourceVersion, '7')
    assert.equal(store.get('/Pod', 'c', 'x'), undefined)
    assert.equal(store.get('/Node', undefined, 'x')?.kind, 'Node')
    assert.equal(store.count(), 3)
    assert.deepEqual(store.spread('/Pod'), {count: 2, namespaces: new Set(['a', 'b'])})
    assert.deepEqual(store.spread('/Node'), {count: 1, namespaces: new Set()})
  })
})
