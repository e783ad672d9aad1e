// Interner.deep and projectWholeShared: the ReplicaSets of one Deployment, read whole for the hash check, hold one
// copy of what their templates have in common, and each keeps what is its own. Expected values by hand: which parts
// the two objects below have in common is read off them.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {Interner, projectWholeShared} from '../../src/cluster/projection.js'
import type {KubeObject} from '../../src/cluster/source.js'

/** A ReplicaSet as JSON.parse gives it: every part its own object. */
const replicaSet = (name: string, image: string, restartedAt: string): KubeObject =>
  JSON.parse(
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: 'shop',
        uid: `uid-${name}`,
        resourceVersion: '7',
        labels: {app: 'web', 'pod-template-hash': name.slice(4)},
        ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true}],
      },
      spec: {
        replicas: 2,
        template: {
          metadata: {labels: {app: 'web'}, annotations: {'kubectl.kubernetes.io/restartedAt': restartedAt}},
          spec: {
            containers: [{name: 'web', image, ports: [{containerPort: 80, protocol: 'TCP'}], env: [{name: 'A', value: '1'}], resources: {limits: {cpu: '1'}}}],
            tolerations: [{key: 'k', operator: 'Exists', tolerationSeconds: 300}],
          },
        },
      },
      status: {conditions: [{type: 'ReplicaFailure', status: 'False', lastTransitionTime: '2026-12-01T00:00:00Z'}]},
    }),
  )

/** The parts of replicaSet() the test compares by identity. */
interface Shape {
  metadata: {labels: object; ownerReferences: object}
  spec: {template: {metadata: {annotations: object}; spec: {containers: {ports: object; env: object; resources: object}[]; tolerations: object}}}
  status: {conditions: object[]}
}

test('deep: the parts two ReplicaSets have in common are one object; what differs, and what carries a time, is each its own', () => {
  const intern = new Interner()
  const a0 = replicaSet('web-aaaa', 'web:1', '2026-11-01T00:00:00Z')
  const b0 = replicaSet('web-bbbb', 'web:2', '2026-11-01T00:00:00Z')
  const a = projectWholeShared(structuredClone(a0), intern) as unknown as Shape
  const b = projectWholeShared(structuredClone(b0), intern) as unknown as Shape
  // Nothing changes in what is read.
  assert.deepEqual(a, a0)
  assert.deepEqual(b, b0)
  const ca = a.spec.template.spec.containers[0]
  const cb = b.spec.template.spec.containers[0]
  // The images differ: the containers (and the lists and specs holding them) are each ReplicaSet's own...
  assert.notEqual(ca, cb)
  assert.notEqual(a.spec.template.spec, b.spec.template.spec)
  // ...their ports, env and resources, the same text, are one object each.
  assert.equal(ca.ports, cb.ports)
  assert.equal(ca.env, cb.env)
  assert.equal(ca.resources, cb.resources)
  assert.equal(a.spec.template.spec.tolerations, b.spec.template.spec.tolerations)
  // The same restart time, and the same owner reference (the Deployment's uid) are shared too.
  assert.equal(a.spec.template.metadata.annotations, b.spec.template.metadata.annotations)
  assert.equal(a.metadata.ownerReferences, b.metadata.ownerReferences)
  // The labels differ by the hash.
  assert.notEqual(a.metadata.labels, b.metadata.labels)
  // A condition carries its transition time: the same text, but its object's own (sharing it would hold the text twice).
  assert.notEqual(a.status.conditions, b.status.conditions)
  assert.notEqual(a.status.conditions[0], b.status.conditions[0])
  // The tops are each their own.
  assert.notEqual(a, b)
  assert.notEqual(a.metadata, b.metadata)
})

test('deep: a structure holding a time is its own, and so are the structures above it; the parts below are still shared', () => {
  const intern = new Interner()
  const make = () => JSON.parse('{"taints":[{"key":"k","effect":"NoExecute","timeAdded":"2026-12-01T00:00:00Z"}],"labels":{"zone":"a"}}')
  const x = intern.deep(make())
  const y = intern.deep(make())
  assert.notEqual(x.taints, y.taints)
  assert.notEqual(x, y)
  assert.equal(x.labels, y.labels)
})

test('deep: keys in another order, a number against its text, and a bigint are not the same structure', () => {
  const intern = new Interner()
  const a = intern.deep({x: '1', y: 2})
  assert.notEqual(intern.deep({y: 2, x: '1'}), a)
  assert.notEqual(intern.deep({x: 1, y: 2}), a)
  assert.equal(intern.deep({x: '1', y: 2}), a)
  const big = intern.deep({n: 2n ** 64n})
  assert.notEqual(intern.deep({n: '18446744073709551616'}), big)
  assert.equal(intern.deep({n: 2n ** 64n}), big)
})
