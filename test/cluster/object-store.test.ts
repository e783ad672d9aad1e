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

  test('packed (compact, packBehind): the same objects by value, by name and listed, a namespace at a time; writes still land', () => {
    const fill = (store: ObjectStore, pack: boolean) => {
      // In the API's order (namespace by namespace), as a dump lists them, then one more for a namespace left behind.
      const order: [string, string, string?][] = [
        ['a', 'x'],
        ['a', 'b'],
        ['a-b', 'y'],
        ['ab', 'a'],
        ['ab', 'c'],
        ['a.b', 'z'],
        ['a', 'x', '2'],
      ]
      for (const [ns, name, rv] of order) {
        const o = pod(ns, name, rv)
        store.add(o)
        if (pack) store.packBehind(o, 2)
      }
      // An int64 kept exact (a bigint) cannot be written as JSON: that object is kept as it is, in its namespace's place.
      store.add({...pod('big', 'p'), spec: {tolerations: [{tolerationSeconds: 2n ** 63n - 1n}]}} as KubeObject)
      if (pack) store.compact()
    }
    const plain = new ObjectStore()
    const packed = new ObjectStore()
    fill(plain, false)
    fill(packed, true)
    // "a-b" < "a.b" < "a" < "ab" < "big", as etcd orders "namespace/" (the first test); a/x at resourceVersion 2.
    const all = ['a-b/y', 'a.b/z', 'a/b', 'a/x', 'ab/a', 'ab/c', 'big/p']
    assert.deepEqual(names(packed.all('/Pod')), all)
    assert.deepEqual(packed.all('/Pod'), plain.all('/Pod'))
    assert.equal(packed.get('/Pod', 'a', 'x')?.metadata?.resourceVersion, '2')
    assert.deepEqual(packed.get('/Pod', 'ab', 'c'), pod('ab', 'c'))
    assert.equal(packed.get('/Pod', 'ab', 'nope'), undefined)
    assert.equal(packed.count(), 7)
    assert.deepEqual([...packed.pagesOf('/Pod', {})].map(names), [['a-b/y'], ['a.b/z'], ['a/b', 'a/x'], ['ab/a', 'ab/c'], ['big/p']])
    assert.deepEqual([...packed.pagesOf('/Pod', {namespace: 'ab'})].map(names), [['ab/a', 'ab/c']])
    // A write to a packed namespace lands: the newer copy wins, the count is unchanged, a new name is counted.
    packed.add(pod('ab', 'c', '9'))
    packed.add(pod('ab', 'd'))
    assert.equal(packed.get('/Pod', 'ab', 'c')?.metadata?.resourceVersion, '9')
    assert.equal(packed.count(), 8)
    assert.deepEqual(names(packed.list('/Pod', {namespace: 'ab'})), ['ab/a', 'ab/c', 'ab/d'])
  })
})
