// Every verdict and every early exit of the replay (gc.md §3 E1-E7, C, S1-S3; §6.2; §7; §9; §10).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {explainGc, gcSeverity} from '../../../src/engine/garbagecollector/index.js'
import {classification, extraType, httpActions, obj, ref, run, types} from './helpers.js'

const NOW = new Date('2026-11-29T10:00:00Z')
const src = {mode: 'snapshot' as const}

const rs = (name: string, uid: string, extra: Parameters<typeof obj>[0] extends infer T ? Partial<T> : never = {}) =>
  obj({apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name, uid, ...extra})
const deploy = (name: string, uid: string, extra: Partial<Parameters<typeof obj>[0]> = {}) =>
  obj({apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name, uid, ...extra})
const pod = (name: string, extra: Partial<Parameters<typeof obj>[0]> = {}) =>
  obj({apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name, uid: `pod-${name}`, ...extra})
const ctrl = {controller: true, blockOwnerDeletion: true}

describe('notMonitored (§9)', () => {
  it('core events are ignored by default', () => {
    const ev = obj({apiVersion: 'v1', kind: 'Event', namespace: 'shop', name: 'web.1', ownerReferences: [ref('apps/v1', 'Deployment', 'gone', 'x')]})
    const {replay, reads} = run(ev, {cluster: [ev]})
    assert.equal(replay.verdict, 'notMonitored')
    assert.deepEqual(reads, [])
    assert.deepEqual(replay.collectorRequests, [])
    assert.equal(gcSeverity(replay), 'none')
  })
  it('events.k8s.io events are ignored too', () => {
    const ev = obj({apiVersion: 'events.k8s.io/v1', kind: 'Event', namespace: 'shop', name: 'web.2'})
    assert.equal(run(ev, {cluster: [ev]}).replay.verdict, 'notMonitored')
  })
  it('a kind without delete, list and watch is not watched', () => {
    const t = types({extra: [extraType('example.com/v1', 'Report', 'reports', true, ['get', 'list'])]})
    const o = obj({apiVersion: 'example.com/v1', kind: 'Report', namespace: 'shop', name: 'r', ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1')]})
    const {replay} = run(o, {cluster: [o], types: t})
    assert.equal(replay.verdict, 'notMonitored')
    assert.match(replay.steps[0].why, /delete, list and watch/)
  })
  it('an unmonitored object stuck with a collector finalizer is a warning', () => {
    const t = types({extra: [extraType('example.com/v1', 'Report', 'reports', true, ['get', 'list', 'delete'])]})
    const o = obj({
      apiVersion: 'example.com/v1',
      kind: 'Report',
      namespace: 'shop',
      name: 'r',
      finalizers: ['foregroundDeletion'],
      deletionTimestamp: '2026-11-29T09:00:00Z',
    })
    const {replay} = run(o, {cluster: [o], types: t})
    assert.equal(replay.verdict, 'notMonitored')
    assert.equal(gcSeverity(replay), 'warning')
  })
  it('an unmonitored object named as an owner by monitored objects is evaluated as a virtual node (inferred)', () => {
    const t = types({extra: [extraType('example.com/v1', 'Report', 'reports', true, ['get', 'list', 'delete'])]})
    const o = obj({
      apiVersion: 'example.com/v1',
      kind: 'Report',
      namespace: 'shop',
      name: 'r',
      uid: 'r1',
      ownerReferences: [ref('apps/v1', 'Deployment', 'gone', 'd0')],
    })
    const child = obj({apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'c', ownerReferences: [ref('example.com/v1', 'Report', 'r', 'r1')]})
    const {replay} = run(o, {cluster: [o, child], types: t})
    assert.equal(replay.virtual, true)
    assert.equal(replay.verdict, 'delete')
    assert.equal(replay.steps[0].inferred?.confidence, 'possible')
  })
})

describe('E1: being deleted without foregroundDeletion', () => {
  it('waitBeingDeleted, naming the other finalizers; no request at all', () => {
    const p = pod('p', {
      deletionTimestamp: '2026-11-29T09:00:00Z',
      finalizers: ['example.com/protect'],
      ownerReferences: [ref('apps/v1', 'ReplicaSet', 'gone', 'x')],
    })
    const {replay, reads} = run(p, {cluster: [p], now: NOW})
    assert.equal(replay.verdict, 'waitBeingDeleted')
    assert.deepEqual(reads, [])
    assert.deepEqual(replay.collectorRequests, [])
    assert.match(replay.steps.at(-1)!.why, /example\.com\/protect/)
    assert.match(replay.steps.at(-1)!.why, /for 60m/)
  })
  it('with the orphan finalizer: orphanDependentsThenRemoveFinalizer, all dependents whatever blockOwnerDeletion', () => {
    const d = deploy('web', 'd1', {deletionTimestamp: '2026-11-29T09:00:00Z', finalizers: ['orphan', 'example.com/x']})
    const a = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)]})
    const b = rs('web-b', 'rb', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1')]})
    const {replay} = run(d, {cluster: [d, a, b]})
    assert.equal(replay.verdict, 'orphanDependentsThenRemoveFinalizer')
    assert.deepEqual(
      replay.dependentsToOrphan?.map((x) => x.metadata.name),
      ['web-a', 'web-b'],
    )
    const last = replay.collectorRequests.at(-1)!
    assert.deepEqual(JSON.parse(last.body!), {metadata: {resourceVersion: '100', finalizers: ['example.com/x']}})
  })
})

describe('E6: being deleted in the foreground (owner view, §6.2 / §10.3)', () => {
  const owner = deploy('web', 'd1', {deletionTimestamp: '2026-11-29T09:00:00Z', finalizers: ['foregroundDeletion']})
  it('removeFinalizer when nothing names it', () => {
    const {replay} = run(owner, {cluster: [owner]})
    assert.equal(replay.verdict, 'removeFinalizer')
    assert.equal(replay.finalizer, 'foregroundDeletion')
    assert.deepEqual(httpActions(replay), [
      'GET /apis/apps/v1/namespaces/shop/deployments/web',
      'GET /apis/apps/v1/namespaces/shop/deployments/web',
      'PATCH /apis/apps/v1/namespaces/shop/deployments/web',
    ])
    assert.deepEqual(JSON.parse(replay.collectorRequests[2].body!), {metadata: {resourceVersion: '100', finalizers: null}})
    assert.equal(gcSeverity(replay), 'warning')
  })
  it('removeFinalizer when the only dependents do not block', () => {
    const a = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', {controller: true, blockOwnerDeletion: false})]})
    const {replay} = run(owner, {cluster: [owner, a]})
    assert.equal(replay.verdict, 'removeFinalizer')
    assert.equal(replay.dependentCount, 1)
  })
  it('waitForBlockingDependents, explaining each blocker recursively (TestBlockingOwnerRefDoesBlock shape)', () => {
    const a = rs('web-a', 'ra', {
      ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)],
      deletionTimestamp: '2026-11-29T09:01:00Z',
      finalizers: ['example.com/hold'],
    })
    const b = rs('web-b', 'rb', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)]})
    const {replay} = run(owner, {cluster: [owner, a, b]})
    assert.equal(replay.verdict, 'waitForBlockingDependents')
    assert.deepEqual(
      replay.blocking?.map((x) => [x.dependent.metadata.name, x.replay?.verdict, x.replay?.propagationPolicy]),
      [
        ['web-a', 'waitBeingDeleted', undefined],
        ['web-b', 'delete', 'Background'],
      ],
    )
    assert.equal(gcSeverity(replay), 'warning')
  })
  it('a blocker the collector never removes makes it critical', () => {
    const stuck = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl), ref('extensions/v1beta1', 'Deployment', 'old', 'o1')]})
    const {replay} = run(owner, {cluster: [owner, stuck]})
    assert.equal(replay.blocking?.[0].replay?.verdict, 'stuckRestMapping')
    assert.equal(gcSeverity(replay), 'critical')
  })
  it('recursion is bounded and cycles are marked', () => {
    const o2 = rs('mid', 'm1', {
      deletionTimestamp: '2026-11-29T09:00:00Z',
      finalizers: ['foregroundDeletion'],
      ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)],
    })
    const cyc = deploy('web', 'd1', {
      deletionTimestamp: '2026-11-29T09:00:00Z',
      finalizers: ['foregroundDeletion'],
      ownerReferences: [ref('apps/v1', 'ReplicaSet', 'mid', 'm1', ctrl)],
    })
    const {replay} = run(cyc, {cluster: [cyc, o2]})
    assert.equal(replay.verdict, 'waitForBlockingDependents')
    const inner = replay.blocking?.[0].replay
    assert.equal(inner?.verdict, 'waitForBlockingDependents')
    assert.match(inner?.blocking?.[0].notExplained ?? '', /cycle/)
  })
})

describe('E7 and classification', () => {
  it('noOwners: not garbage; only the item GET', () => {
    const p = pod('lonely')
    const {replay} = run(p, {cluster: [p]})
    assert.equal(replay.verdict, 'noOwners')
    assert.deepEqual(httpActions(replay), ['GET /api/v1/namespaces/shop/pods/lonely'])
    assert.equal(gcSeverity(replay), 'none')
  })
  it('keep: solid owner, nothing to patch', () => {
    const d = deploy('web', 'd1')
    const a = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)]})
    const {replay} = run(a, {cluster: [d, a]})
    assert.equal(replay.verdict, 'keep')
    assert.deepEqual(classification(replay).solid, ['d1'])
  })
  it('an owner being deleted with orphan or other finalizers still counts as solid', () => {
    const d = deploy('web', 'd1', {deletionTimestamp: '2026-11-29T09:00:00Z', finalizers: ['orphan']})
    const a = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)]})
    assert.equal(run(a, {cluster: [d, a]}).replay.verdict, 'keep')
  })
  it('dangling by uid: the owner was deleted and recreated under the same name', () => {
    const d = deploy('web', 'd2-new')
    const a = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1-old', ctrl)]})
    const {replay} = run(a, {cluster: [d, a]})
    assert.equal(replay.verdict, 'delete')
    assert.equal(replay.propagationPolicy, 'Background')
    assert.equal(replay.refs[0].danglingReason, 'uidMismatch')
    assert.equal(replay.refs[0].lookup?.foundUid, 'd2-new')
  })
  it('a cluster-scoped owner kind is read without a namespace', () => {
    const node = obj({apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node1'})
    const lease = obj({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: 'kube-node-lease',
      name: 'n1',
      ownerReferences: [ref('v1', 'Node', 'n1', 'node1')],
    })
    const {replay, reads} = run(lease, {cluster: [node, lease]})
    assert.deepEqual(reads, ['/api/v1/nodes/n1'])
    assert.equal(replay.verdict, 'keep')
  })
  it('a cluster-scoped object with a cluster-scoped owner is fine', () => {
    const t = types({extra: [extraType('example.com/v1', 'Thing', 'things', false)]})
    const owner = obj({apiVersion: 'example.com/v1', kind: 'Thing', name: 'parent', uid: 't0'})
    const pv = obj({apiVersion: 'v1', kind: 'PersistentVolume', name: 'pv1', ownerReferences: [ref('example.com/v1', 'Thing', 'parent', 't0')]})
    const {replay, reads} = run(pv, {cluster: [owner, pv], types: t})
    assert.deepEqual(reads, ['/apis/example.com/v1/things/parent'])
    assert.equal(replay.verdict, 'keep')
  })
})

describe('S1: patchRemoveOwnerRefs', () => {
  it('patches off dangling then waiting refs by uid (dangling first, whatever the ref order)', () => {
    const solid = deploy('keep', 'k1')
    const waiting = deploy('going', 'g1', {deletionTimestamp: '2026-11-29T09:00:00Z', finalizers: ['foregroundDeletion']})
    const cm = obj({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'shop',
      name: 'cfg',
      uid: 'c1',
      ownerReferences: [ref('apps/v1', 'Deployment', 'going', 'g1'), ref('apps/v1', 'Deployment', 'keep', 'k1'), ref('apps/v1', 'Deployment', 'gone', 'x1')],
    })
    const {replay} = run(cm, {cluster: [solid, waiting, cm]})
    assert.equal(replay.verdict, 'patchRemoveOwnerRefs')
    assert.deepEqual(replay.removeOwnerUIDs, ['x1', 'g1'])
    const patch = replay.collectorRequests.at(-1)!
    assert.equal(patch.body, '{"metadata":{"uid":"c1","ownerReferences":[{"$patch":"delete","uid":"x1"},{"$patch":"delete","uid":"g1"}]}}')
    assert.equal(gcSeverity(replay), 'info')
  })
})

describe('S2: no solid owner, a waiting owner, and dependents of its own', () => {
  const owner = deploy('web', 'd1', {deletionTimestamp: '2026-11-29T09:00:00Z', finalizers: ['foregroundDeletion']})
  const a = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)]})
  it('deletes Foreground without unblocking when no dependent is deleting dependents', () => {
    const p = pod('p1', {ownerReferences: [ref('apps/v1', 'ReplicaSet', 'web-a', 'ra', ctrl)]})
    const {replay} = run(a, {cluster: [owner, a, p]})
    assert.equal(replay.verdict, 'delete')
    assert.equal(replay.propagationPolicy, 'Foreground')
    assert.equal(replay.unblockOwnerRefsFirst, false)
    assert.equal(replay.dependentCount, 1)
    assert.deepEqual(JSON.parse(replay.collectorRequests.at(-1)!.body!), {preconditions: {uid: 'ra'}, propagationPolicy: 'Foreground'})
  })
  it('unblocks its own blocking refs first when a dependent is itself deleting dependents', () => {
    const p = pod('p1', {
      ownerReferences: [ref('apps/v1', 'ReplicaSet', 'web-a', 'ra', ctrl)],
      deletionTimestamp: '2026-11-29T09:00:00Z',
      finalizers: ['foregroundDeletion'],
    })
    const {replay} = run(a, {cluster: [owner, a, p]})
    assert.equal(replay.unblockOwnerRefsFirst, true)
    const unblock = replay.collectorRequests.find((q) => q.method === 'PATCH')!
    assert.equal(
      unblock.body,
      '{"metadata":{"uid":"ra","creationTimestamp":null,"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"d1","controller":true,"blockOwnerDeletion":false}]}}',
    )
  })
  it('without dependents falls through to S3 with the policy from its own finalizers', () => {
    const {replay} = run(a, {cluster: [owner, a]})
    assert.equal(replay.verdict, 'delete')
    assert.equal(replay.propagationPolicy, 'Background')
    assert.equal(replay.unblockOwnerRefsFirst, undefined)
  })
})

describe("S3: the policy comes from the object's own finalizers", () => {
  for (const [fins, policy] of [
    [['orphan'], 'Orphan'],
    [['foregroundDeletion'], 'Foreground'],
    [['example.com/x'], 'Background'],
  ] as const) {
    it(`${fins.join(',')} → ${policy}`, () => {
      const p = pod('p', {finalizers: [...fins], ownerReferences: [ref('apps/v1', 'ReplicaSet', 'gone', 'x')]})
      const {replay} = run(p, {cluster: [p]})
      assert.equal(replay.verdict, 'delete')
      assert.equal(replay.propagationPolicy, policy)
    })
  }
  it('from 1.34 the delete carries the resourceVersion precondition (inferred)', () => {
    const p = pod('p', {resourceVersion: '4242', ownerReferences: [ref('apps/v1', 'ReplicaSet', 'gone', 'x')]})
    const {replay} = run(p, {cluster: [p], minor: 34})
    assert.deepEqual(JSON.parse(replay.collectorRequests.at(-1)!.body!), {
      preconditions: {uid: 'pod-p', resourceVersion: '4242'},
      propagationPolicy: 'Background',
    })
    assert.equal(replay.steps.at(-1)?.inferred?.confidence, 'likely')
  })
})

describe('errors abort classification in ref order (§3 C)', () => {
  it('stuckRestMapping: an unserved version of a served group, after a dangling ref', () => {
    const p = pod('p', {ownerReferences: [ref('apps/v1', 'ReplicaSet', 'gone', 'x'), ref('apps/v1beta2', 'ReplicaSet', 'old', 'y')]})
    const {replay} = run(p, {cluster: [p]})
    assert.equal(replay.verdict, 'stuckRestMapping')
    assert.equal(replay.abortedAt, 1)
    assert.equal(replay.refs[0].outcome, 'dangling')
    assert.deepEqual(httpActions(replay), ['GET /api/v1/namespaces/shop/pods/p', 'GET /apis/apps/v1/namespaces/shop/replicasets/gone'])
  })
  it('stuckNamespacedOwnerOfClusterScopedObject: no owner GET', () => {
    const pv = obj({apiVersion: 'v1', kind: 'PersistentVolume', name: 'pv1', ownerReferences: [ref('v1', 'PersistentVolumeClaim', 'data', 'c1')]})
    const {replay, reads} = run(pv, {cluster: [pv]})
    assert.equal(replay.verdict, 'stuckNamespacedOwnerOfClusterScopedObject')
    assert.deepEqual(reads, [])
  })
  for (const [status, reason, message] of [
    [403, 'Forbidden', 'replicasets.apps "web-a" is forbidden'],
    [504, 'Timeout', 'request timed out'],
    [500, 'ServerError', 'etcdserver: leader changed'],
  ] as const) {
    it(`unknown on ${status}: never guessed dangling`, () => {
      const p = pod('p', {ownerReferences: [ref('apps/v1', 'ReplicaSet', 'web-a', 'ra')]})
      const {replay} = run(p, {cluster: [p], errors: {'/apis/apps/v1/namespaces/shop/replicasets/web-a': {status, reason, message}}})
      assert.equal(replay.verdict, 'unknown')
      assert.equal(replay.refs[0].outcome, 'unknown')
      assert.equal(replay.refs[0].lookup?.status, status)
      assert.ok(!replay.collectorRequests.some((q) => q.method === 'DELETE' || q.method === 'PATCH'))
      assert.equal(gcSeverity(replay), 'warning')
    })
  }
  it('the first error in ref order wins; later refs are classified but marked unreached', () => {
    const d = deploy('web', 'd1')
    const p = pod('p', {
      ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1'), ref('apps/v1', 'ReplicaSet', 'web-a', 'ra'), ref('example.com/v9', 'Gone', 'g', 'g1')],
    })
    const {replay} = run(p, {
      cluster: [d, p],
      errors: {'/apis/apps/v1/namespaces/shop/replicasets/web-a': {status: 403, reason: 'Forbidden', message: 'forbidden'}},
    })
    assert.equal(replay.verdict, 'unknown')
    assert.equal(replay.abortedAt, 1)
    assert.deepEqual(
      replay.refs.map((r) => [r.outcome, r.reachedByCollector]),
      [
        ['solid', true],
        ['unknown', true],
        ['unresolvable', false],
      ],
    )
    const e = explainGc(replay, NOW, src)
    assert.match(e.summary, /could not be read \(403\)/)
    assert.match(replay.steps.find((s) => s.rule === 'classifyReferences: error aborts the item')!.why, /An earlier ref is solid/)
  })
})

describe('explainGc', () => {
  it('carries the verdict, policy, classifications and requests', () => {
    const a = rs('web-a', 'ra', {ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1', ctrl)]})
    const e = explainGc(run(a, {cluster: [a]}).replay, NOW, src)
    assert.equal(e.controller, 'garbagecollector')
    assert.equal(e.verdict, 'delete')
    assert.equal(e.propagationPolicy, 'Background')
    assert.equal(e.severity, 'warning')
    assert.deepEqual(e.subject, {kind: 'ReplicaSet', apiVersion: 'apps/v1', namespace: 'shop', name: 'web-a', uid: 'ra'})
    assert.equal(e.ownerReferences[0].classification, 'dangling')
    assert.equal(e.ownerReferences[0].reason, 'notFound')
    assert.match(e.summary, /All 1 owner reference is dangling: Deployment web uid d1 no longer exists in shop/)
    assert.equal(e.evaluatedAt, '2026-11-29T10:00:00.000Z')
  })
})
