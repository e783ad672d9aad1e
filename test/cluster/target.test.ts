// kubectl's argument forms (kubectl get pod/web, kubectl get pod web, kubectl get po web), and a bare NAME only where
// the command has one natural kind.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {parseTarget} from '../../src/cluster/target.js'
import {UserError} from '../../src/errors.js'

const replicas = {command: 'replicas', naturalKind: 'ReplicaSet', otherKinds: ['Deployment'], example: 'replicaset/cart-7c9d8f6b5'}
const gc = {command: 'gc', example: 'configmap/settings'}

describe('parseTarget', () => {
  it('reads TYPE/NAME, TYPE NAME and a bare NAME as the natural kind', () => {
    assert.deepEqual(parseTarget(['replicaset/cart'], replicas), {type: 'ReplicaSet', name: 'cart'})
    assert.deepEqual(parseTarget(['rs', 'cart'], replicas), {type: 'ReplicaSet', name: 'cart'})
    assert.deepEqual(parseTarget(['replicasets.apps/cart'], replicas), {type: 'ReplicaSet', name: 'cart'})
    assert.deepEqual(parseTarget(['cart'], replicas), {type: 'ReplicaSet', name: 'cart'})
  })

  it('accepts kubectl short names for each natural kind', () => {
    assert.deepEqual(parseTarget(['po/web-1'], {command: 'evicted', naturalKind: 'Pod', example: 'pod/web'}), {type: 'Pod', name: 'web-1'})
    assert.deepEqual(parseTarget(['no', 'worker-1'], {command: 'node', naturalKind: 'Node', example: 'worker-1'}), {type: 'Node', name: 'worker-1'})
  })

  it('refuses another kind where the command has a natural one', () => {
    assert.throws(
      () => parseTarget(['po/web'], replicas),
      (e: unknown) => e instanceof UserError && /about a ReplicaSet or a Deployment, not "po"/.test(e.message),
    )
    assert.deepEqual(parseTarget(['deploy', 'web'], replicas), {type: 'Deployment', name: 'web'})
  })

  it('keeps the typed TYPE where the command takes any kind, and wants one', () => {
    assert.deepEqual(parseTarget(['cm', 'settings'], gc), {type: 'cm', name: 'settings'})
    assert.deepEqual(parseTarget(['widgets.example.com/w1'], gc), {type: 'widgets.example.com', name: 'w1'})
    assert.throws(
      () => parseTarget(['settings'], gc),
      (e: unknown) => e instanceof UserError && /names no object/.test(e.message),
    )
  })

  it('refuses malformed forms with a one-line reason', () => {
    assert.equal(parseTarget([undefined, undefined], replicas), undefined)
    assert.throws(() => parseTarget(['rs/a/b'], replicas), UserError)
    assert.throws(() => parseTarget(['rs/'], replicas), UserError)
    assert.throws(() => parseTarget(['/cart'], replicas), UserError)
    assert.throws(() => parseTarget(['rs/cart', 'x'], replicas), UserError)
    assert.throws(() => parseTarget(['rs', 'a', 'b'], replicas), UserError)
  })
})
