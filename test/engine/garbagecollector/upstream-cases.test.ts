// The upstream test cases of gc-cases.json (copied from ../shared/docs/decisions/), replayed through the engine.
// Expected values are read from each case's `expected` block — what the upstream test asserts or what the
// decisions document derived from the cited code — never from running our own code.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {
  applyOwnerRefsStrategicMergePatch,
  deleteOwnerRefStrategicMergePatch,
  orphanDependentsOutcome,
  STRATEGIC_MERGE_PATCH,
} from '../../../src/engine/garbagecollector/index.js'
import {classification, clientActions, extraType, httpActions, MiniCluster, obj, ref, run, types} from './helpers.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any
const CASES: Any[] = JSON.parse(readFileSync(new URL('../../fixtures/garbagecollector/gc-cases.json', import.meta.url), 'utf8'))
const byId = (id: string): Any => {
  const c = CASES.find((x) => x.id === id)
  assert.ok(c, `case ${id} is in gc-cases.json`)
  return c
}
const sorted = (a: string[]) => [...a].sort()

/** An object from a case's `cluster` entry (metadata only, as the cases write it). */
function fromCase(c: Any, uid?: string) {
  return obj({
    apiVersion: c.apiVersion,
    kind: c.kind,
    namespace: c.namespace || undefined,
    name: c.name,
    uid: uid ?? c.uid,
    ownerReferences: c.ownerReferences,
    finalizers: c.finalizers,
    deletionTimestamp: c.deletionTimestamp,
  })
}

describe('GC-01 TestAttemptToDeleteItem: the only owner returns 404', () => {
  const c = byId('GC-01')
  const pod = fromCase(c.cluster[0])
  const {replay} = run(pod, {cluster: [pod]})
  it('deletes with the expected policy', () => {
    assert.equal(replay.verdict, c.expected.decision)
    assert.equal(replay.propagationPolicy, c.expected.policy)
  })
  it('classifies the owner as dangling', () => assert.deepEqual(classification(replay), c.expected.classification))
  it('sends exactly the three upstream API actions (unordered)', () => assert.deepEqual(sorted(httpActions(replay)), sorted(c.expected.apiCallsUnordered)))
  it('reads the owner where the cache entry says it is absent', () => {
    const add = c.expected.absentOwnerCacheAdds[0]
    const r = replay.refs[0]
    assert.equal(r.ref.uid, add.uid)
    assert.equal(r.lookup?.namespace, add.namespace)
    assert.equal(r.danglingReason, 'notFound')
  })
  it('deletes with uid precondition 456 (derived from operations.go:57-60)', () => {
    const del = replay.collectorRequests.find((q) => q.method === 'DELETE')
    assert.deepEqual(JSON.parse(del?.body ?? '{}'), {preconditions: {uid: '456'}, propagationPolicy: 'Background'})
  })
})

describe('GC-03 TestDeleteOwnerRefPatch', () => {
  const c = byId('GC-03')
  const body = deleteOwnerRefStrategicMergePatch(c.input.dependentUID, c.input.removeOwnerUIDs)
  it('builds the strategic-merge patch body', () => {
    assert.equal(c.expected.patchType, STRATEGIC_MERGE_PATCH)
    assert.deepEqual(JSON.parse(body), c.expected.patchBody)
  })
  it('writes the bytes Go writes (struct order uid, ownerReferences; map keys sorted)', () => {
    assert.equal(body, '{"metadata":{"uid":"100","ownerReferences":[{"$patch":"delete","uid":"2"},{"$patch":"delete","uid":"3"}]}}')
  })
  it('leaves the asserted ownerReferences once applied', () => {
    assert.deepEqual(applyOwnerRefsStrategicMergePatch(c.input.ownerReferences, body), c.expected.resultingOwnerReferences)
  })
})

describe('GC-05 TestOrphanDependentsFailure', () => {
  const c = byId('GC-05')
  const dep = c.input.dependents[0]
  const status = c.input.serverResponse[`PATCH /api/v1/namespaces/${dep.namespace}/pods/${dep.name}`]
  const out = orphanDependentsOutcome('owner', [{dependent: `${dep.kind} ${dep.namespace}/${dep.name}`, status}])
  it('returns an error containing the asserted text', () => {
    assert.equal(c.expected.orphanDependentsError, true)
    assert.ok(out.error?.includes(c.expected.errorContains), out.error)
  })
  it('keeps the orphan finalizer and requeues with backoff', () => {
    assert.equal(out.removeFinalizer, c.expected.orphanFinalizerRemoved)
    assert.equal(c.expected.ownerAction, 'requeueWithBackoff')
    assert.equal(out.queue, 'requeueRateLimited')
  })
  it('a 404 from a dependent is not an error', () => {
    assert.deepEqual(
      orphanDependentsOutcome('owner', [
        {dependent: 'x', status: 404},
        {dependent: 'y', status: 200},
      ]),
      {removeFinalizer: true, queue: 'forget'},
    )
  })
})

describe("GC-07 cross-namespace ref: looked up in the dependent's namespace", () => {
  const c = byId('GC-07')
  const cluster = c.cluster.map((o: Any) => fromCase(o))
  const child = cluster.find((o: Any) => o.metadata.name === c.subject.name)
  const {replay} = run(child, {cluster, withIndex: true})
  it('issues the asserted client actions in order', () => assert.deepEqual(clientActions(replay), c.expected.apiCalls))
  it('classifies and decides as upstream', () => {
    assert.deepEqual(classification(replay), c.expected.classification)
    assert.equal(replay.verdict, c.expected.decision)
    assert.equal(replay.propagationPolicy, c.expected.policy)
  })
  it('raises the asserted OwnerRefInvalidNamespace event', () => {
    const want = c.expected.events[0]
    assert.equal(replay.events.length, 1)
    const got = replay.events[0]
    assert.equal(got.type, want.type)
    assert.equal(got.reason, want.reason)
    assert.equal(got.message, want.message)
    for (const k of Object.keys(want.involvedObject)) assert.equal((got.involvedObject as Any)[k], want.involvedObject[k])
  })
  it('looks the owner up under the cache key upstream records', () => {
    const key = c.expected.absentOwnerCacheAfter[0]
    assert.equal(replay.refs[0].lookup?.namespace, key.namespace)
    assert.equal(replay.refs[0].ref.uid, key.uid)
  })
  it('the owner in ns2 is untouched (no request names it)', () => {
    assert.ok(replay.collectorRequests.every((q) => !q.path.includes('/namespaces/ns2/')))
  })
})

describe('GC-09 owner referenced through a non-preferred, still-served version', () => {
  const c = byId('GC-09')
  const typeList = types({extra: [extraType('rbac.authorization.k8s.io/v1beta1', 'Role', 'roles', true)]})
  const cluster = c.cluster.map((o: Any) => fromCase(o))
  const pod = cluster.find((o: Any) => o.metadata.name === c.subject.name)
  const {replay} = run(pod, {cluster, types: typeList})
  it('GETs the owner through the version the ref names', () => assert.deepEqual(clientActions(replay), c.expected.apiCalls))
  it('keeps the child', () => {
    assert.deepEqual(classification(replay), c.expected.classification)
    assert.equal(replay.verdict, c.expected.decision)
    assert.equal(replay.collectorRequests.filter((q) => q.method !== 'GET').length, c.expected.patches.length + c.expected.deletes.length)
  })
})

describe('GC-11 ref with an unserved apiVersion (extensions/v1beta1 Deployment)', () => {
  const c = byId('GC-11')
  const [deployment, pod] = c.cluster.map((o: Any) => fromCase(o))
  const e = c.expected.attemptToDeleteChild_beforeAndAfterOwnerDeletion
  for (const [label, cluster] of [
    ['owner present', [deployment, pod]],
    ['owner deleted', [pod]],
  ] as const) {
    it(`${label}: REST-mapping error, only the child GET, nothing deleted`, () => {
      const {replay, reads} = run(pod, {cluster: [...cluster]})
      assert.equal(e.decision, 'error:restMapping')
      assert.equal(replay.verdict, 'stuckRestMapping')
      assert.deepEqual(clientActions(replay), e.apiCalls)
      assert.deepEqual(reads, [])
      assert.equal(replay.collectorRequests.filter((q) => q.method === 'DELETE').length, c.expected.deletes.length)
    })
  }
})

describe('GC-13 same missing owner referenced under an accessible and an inaccessible version', () => {
  const c = byId('GC-13')
  // "same objects as GC-12": podname1 refs extensions/v1beta1 Deployment, podname2 refs apps/v1 Deployment, one uid, no owner.
  const podname1 = obj({
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: 'ns1',
    name: 'podname1',
    uid: 'poduid1',
    ownerReferences: [ref('extensions/v1beta1', 'Deployment', 'deployment1', 'deploymentuid1')],
  })
  const podname2 = obj({
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: 'ns1',
    name: 'podname2',
    uid: 'poduid2',
    ownerReferences: [ref('apps/v1', 'Deployment', 'deployment1', 'deploymentuid1')],
  })
  const cluster = [podname1, podname2]
  it('podname2 is deleted', () => {
    const {replay} = run(podname2, {cluster})
    assert.equal(replay.verdict, c.expected.podname2.decision)
    // Upstream answers the owner from its absentOwnerCache (no GET). This tool models the cache as always missing
    // (gc.md §10.1), so it GETs the owner under the very key upstream cached, finds 404, and sends the same rest.
    const add = c.expected.processVirtualDelete.absentOwnerCacheAdds[0]
    assert.equal(c.expected.podname2.ownerGET, false)
    const ownerGet = `get apps/v1, Resource=deployments ns=${add.namespace} name=${add.name}`
    const got = clientActions(replay)
    assert.ok(got.includes(ownerGet))
    assert.deepEqual(
      got.filter((a) => a !== ownerGet),
      c.expected.podname2.apiCalls,
    )
  })
  it('podname1 stays stuck on the REST mapping', () => {
    const {replay} = run(podname1, {cluster})
    assert.equal(c.expected.podname1.decision, 'error:restMapping')
    assert.equal(replay.verdict, 'stuckRestMapping')
    assert.deepEqual(clientActions(replay), c.expected.podname1.apiCalls)
  })
})

describe('GC-15 cluster-scoped bad child and namespaced good child share a missing owner', () => {
  const c = byId('GC-15')
  const cluster = c.cluster.map((o: Any) => fromCase(o))
  const podname2 = cluster.find((o: Any) => o.metadata.name === 'podname2')
  const node = cluster.find((o: Any) => o.metadata.name === 'nodename')
  it('the namespaced child is deleted', () => {
    const {replay} = run(podname2, {cluster})
    assert.deepEqual(clientActions(replay), c.expected.podname2.apiCalls)
    assert.equal(replay.verdict, c.expected.podname2.decision)
    assert.equal(replay.propagationPolicy, c.expected.podname2.policy)
    const key = c.expected.absentOwnerCacheAfter[0]
    assert.equal(replay.refs[0].lookup?.namespace, key.namespace)
  })
  it('the cluster-scoped child is never deleted and no owner GET is sent', () => {
    const {replay, reads} = run(node, {cluster})
    assert.equal(replay.verdict, 'stuckNamespacedOwnerOfClusterScopedObject')
    assert.deepEqual(reads, [])
    assert.deepEqual(c.expected.virtualOwner_noNamespace.apiCalls, [])
    assert.deepEqual(
      replay.collectorRequests.filter((q) => q.path.includes('/pods/')),
      [],
    )
    assert.equal(
      replay.collectorRequests.some((q) => q.method !== 'GET'),
      false,
    )
  })
})

describe('GC-17 TestOrphaning', () => {
  const c = byId('GC-17')
  const [rcSpec, ...podSpecs] = c.cluster
  const rcUid = rcSpec.uid
  const rc = fromCase(rcSpec)
  const pods = podSpecs.map((p: Any, i: number) => fromCase(p, `pod-uid-${i}`))
  // The API server's part of the action: orphanDependents=true adds the orphan finalizer and a deletionTimestamp.
  const deleting = structuredClone(rc)
  deleting.metadata.deletionTimestamp = '2026-11-29T09:00:00Z'
  deleting.metadata.finalizers = c.expected.apiServer.finalizersAdded
  const {replay} = run(deleting, {cluster: [deleting, ...pods]})
  it('the owner: orphan its dependents, then remove the finalizer', () => {
    assert.equal(replay.verdict, c.expected.gc.decision)
    assert.equal(replay.finalizer, c.expected.gc.thenRemoveFinalizer)
  })
  it('patches every dependent with the asserted body shape', () => {
    const patches = replay.collectorRequests.filter((q) => q.method === 'PATCH' && q.path.includes('/pods/'))
    assert.deepEqual(patches.map((q) => q.path.split('/').pop()).sort(), c.expected.gc.dependentPatches.map((p: Any) => p.target).sort())
    for (const [i, q] of patches.entries()) {
      const want = structuredClone(c.expected.gc.dependentPatches[0].patch)
      want.metadata.uid = `pod-uid-${i}`
      want.metadata.ownerReferences[0].uid = rcUid
      assert.equal(q.contentType, STRATEGIC_MERGE_PATCH)
      assert.deepEqual(JSON.parse(q.body ?? ''), want)
    }
    const last = replay.collectorRequests.at(-1)
    assert.equal(last?.method, 'PATCH')
    assert.deepEqual(JSON.parse(last?.body ?? '{}').metadata.finalizers, null)
  })
  it('each pod still sees a solid owner while the RC is being deleted with orphan', () => {
    assert.equal(run(pods[0], {cluster: [deleting, ...pods]}).replay.verdict, 'keep')
  })
  it('end state: the RC is gone, the 3 pods remain with no owner references', () => {
    const mini = new MiniCluster([deleting, ...pods])
    mini.collect()
    const f = c.expected.final
    assert.equal(mini.objects.filter((o) => o.kind === 'ReplicationController').length, f.rcCount)
    const left = mini.objects.filter((o) => o.kind === 'Pod')
    assert.equal(left.length, f.podCount)
    for (const p of left) assert.deepEqual(p.metadata.ownerReferences ?? [], f.eachPodOwnerReferences)
  })
})

describe('GC-19 TestNonBlockingOwnerRefDoesNotBlock', () => {
  const c = byId('GC-19')
  const [rcSpec, ...podSpecs] = c.cluster
  const rc = fromCase(rcSpec)
  const pods = podSpecs.map((p: Any) => fromCase(p))
  const mini = new MiniCluster([rc, ...pods])
  mini.delete(mini.get('test.rc.1')!, c.action.options.propagationPolicy)
  const deletingRc = mini.get('test.rc.1')!
  it('the RC has no blocking dependent: remove foregroundDeletion', () => {
    const {replay} = run(deletingRc, {cluster: mini.objects})
    assert.equal(replay.verdict, c.expected.rc.decision)
    assert.equal(replay.finalizer, c.expected.rc.finalizer)
    assert.deepEqual(replay.blocking ?? [], c.expected.rc.blockingDependents)
  })
  it('each pod is deleted with Background propagation', () => {
    for (const p of mini.objects.filter((o) => o.kind === 'Pod')) {
      const {replay} = run(p, {cluster: mini.objects})
      assert.equal(replay.verdict, c.expected.pods.decision)
      assert.equal(replay.propagationPolicy, c.expected.pods.policy)
    }
  })
  it('end state: the RC is NotFound, both pods still exist (held by x/y)', () => {
    mini.collect()
    assert.equal(mini.get('test.rc.1'), undefined)
    const left = mini.objects.filter((o) => o.kind === 'Pod')
    assert.equal(left.length, 2)
    for (const p of left) assert.equal(run(p, {cluster: mini.objects}).replay.verdict, 'waitBeingDeleted')
  })
})

describe('GC-21 TestDoubleDeletionWithFinalizer', () => {
  const c = byId('GC-21')
  const mini = new MiniCluster([fromCase(c.cluster[0])])
  const lucy = () => mini.get('lucy')!
  it('after the first foreground delete: the collector removes foregroundDeletion and keeps x/y', () => {
    mini.delete(lucy(), 'Foreground')
    assert.deepEqual(lucy().metadata.finalizers, c.expected.afterDelete1.apiServerFinalizers)
    const {replay} = run(lucy(), {cluster: mini.objects})
    assert.equal(replay.verdict, c.expected.afterDelete1.gcDecision)
    assert.equal(replay.finalizer, c.expected.afterDelete1.finalizer)
    const patch = replay.collectorRequests.at(-1)
    assert.deepEqual(JSON.parse(patch?.body ?? '{}').metadata.finalizers, c.expected.afterDelete1.finalizersAfterGC)
    mini.collect()
    assert.deepEqual(lucy().metadata.finalizers, c.expected.afterDelete1.finalizersAfterGC)
    assert.equal(run(lucy(), {cluster: mini.objects}).replay.verdict, 'waitBeingDeleted')
  })
  it('after the second foreground delete: the same again', () => {
    mini.delete(lucy(), 'Foreground')
    assert.equal(run(lucy(), {cluster: mini.objects}).replay.verdict, c.expected.afterDelete2.gcDecision)
    mini.collect()
    assert.deepEqual(lucy().metadata.finalizers, c.expected.afterDelete2.finalizersAfterGC)
  })
  it('after the finalizers are removed: NotFound', () => {
    mini.setFinalizers(lucy(), [])
    assert.equal(mini.get('lucy'), undefined)
  })
})

describe('GC-23 invalid cross-namespace refs are deleted, valid children untouched', () => {
  const c = byId('GC-23')
  const P = 'uid-P'
  const parent = obj({apiVersion: 'v1', kind: 'ConfigMap', namespace: 'b', name: 'parent', uid: P})
  const valid = Array.from({length: c.expected['valid children in b'].count}, (_, i) =>
    obj({apiVersion: 'v1', kind: 'Secret', namespace: 'b', name: `child-${i}`, ownerReferences: [ref('v1', 'ConfigMap', 'parent', P, {controller: false})]}),
  )
  const badSingle = Array.from({length: 5}, (_, i) =>
    obj({
      apiVersion: 'v1',
      kind: 'Secret',
      namespace: 'a',
      name: `invalid-child-b-${i}`,
      ownerReferences: [ref('v1', 'Pod', 'invalid', P, {controller: false})],
    }),
  )
  const multiRefs = [...Array.from({length: 25}, (_, n) => ref('test/v1', `invalid${n}`, 'invalid', `invalid-${n}`)), ref('v1', 'Pod', 'invalid', P)]
  const badMulti = [
    obj({apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'invalid-child-0', ownerReferences: multiRefs}),
    obj({apiVersion: 'v1', kind: 'Secret', namespace: 'a', name: 'invalid-child-a-0', ownerReferences: multiRefs}),
  ]
  const cluster = [parent, ...valid, ...badSingle, ...badMulti]
  it('single-bad-reference secrets: the owner GET in their own namespace 404s, they are deleted', () => {
    const want = c.expected['single-bad-reference secrets']
    for (const s of badSingle) {
      const {replay, reads} = run(s, {cluster, withIndex: true})
      assert.deepEqual(reads, [want.ownerLookup.replace(/^GET /, '').replace(/ -> 404$/, '')])
      assert.deepEqual(classification(replay).dangling, [P])
      assert.equal(replay.verdict, want.decision)
      // derived (not asserted upstream): the uid's real object is observed in namespace b
      assert.equal(replay.events[0]?.reason, 'OwnerRefInvalidNamespace')
    }
  })
  it('a bad child created later (invalid-child-c) is deleted too', () => {
    const late = obj({apiVersion: 'v1', kind: 'Secret', namespace: 'a', name: 'invalid-child-c-0', ownerReferences: [ref('v1', 'Pod', 'invalid', P)]})
    assert.equal(run(late, {cluster: [...cluster, late]}).replay.verdict, c.expected['invalid-child-c-*'].decision)
  })
  it('the 10 valid children in b are kept', () => {
    for (const v of valid) assert.equal(run(v, {cluster}).replay.verdict, 'keep')
  })
  it('multi-ref invalid children stop at the first unserved test/v1 ref', () => {
    for (const m of badMulti) {
      const {replay} = run(m, {cluster})
      assert.equal(replay.verdict, 'stuckRestMapping')
      assert.equal(replay.abortedAt, 0)
    }
  })
  it('end state: single-bad-reference secrets gone, exactly 10 valid children and the parent remain', () => {
    const mini = new MiniCluster(cluster)
    mini.collect()
    assert.equal(mini.objects.filter((o) => o.metadata.name.startsWith('invalid-child-b-')).length, 0)
    assert.equal(mini.objects.filter((o) => o.metadata.namespace === 'b' && o.kind === 'Secret').length, 10)
    assert.ok(mini.get('parent', 'b'))
  })
})

describe('GC-25 foreground deletion through an ownership cycle completes', () => {
  const c = byId('GC-25')
  const ns = 'gc-cycle'
  const pods = c.cluster.map((p: Any) => fromCase({...p, namespace: ns}))
  const mini = new MiniCluster(pods)
  mini.delete(mini.get('pod1')!, c.action.options.propagationPolicy)
  it('pod2 (owner pod1 waiting, has dependent pod3) is deleted in the foreground without unblocking first', () => {
    const {replay} = run(mini.get('pod2')!, {cluster: mini.objects})
    assert.equal(replay.verdict, 'delete')
    assert.equal(replay.propagationPolicy, 'Foreground')
    assert.equal(replay.unblockOwnerRefsFirst, false)
  })
  it('pod1 waits for its blocking dependent pod2', () => {
    const {replay} = run(mini.get('pod1')!, {cluster: mini.objects})
    assert.equal(replay.verdict, 'waitForBlockingDependents')
    assert.deepEqual(
      replay.blocking?.map((b) => b.dependent.metadata.name),
      ['pod2'],
    )
  })
  it('once pod2 is deleting too, pod3 unblocks its refs first (its dependent pod1 is deleting dependents), then deletes Foreground', () => {
    const copy = new MiniCluster(mini.objects)
    copy.delete(copy.get('pod2')!, 'Foreground')
    const {replay} = run(copy.get('pod3')!, {cluster: copy.objects})
    assert.equal(replay.verdict, 'delete')
    assert.equal(replay.propagationPolicy, 'Foreground')
    assert.equal(replay.unblockOwnerRefsFirst, true)
    assert.deepEqual(
      replay.collectorRequests.map((q) => q.method),
      ['GET', 'GET', 'PATCH', 'DELETE'],
    )
  })
  it('asserted end state: the pod list becomes empty', () => {
    assert.equal(c.asserted[0], 'pod list becomes empty')
    mini.collect()
    assert.deepEqual(mini.objects, [])
  })
})
