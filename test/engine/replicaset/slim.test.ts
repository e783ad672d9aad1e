// slimPod keeps every field the replay reads: replaying the fixtures on slimmed pods gives the same answer;
// informerView takes existence and metadata from the watch cache and the rest from the quorum read.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {explainReplicaSet} from '../../../src/engine/replicaset/explain.js'
import {informerView, slimPod} from '../../../src/engine/replicaset/slim.js'
import {replayInput} from './fixture.js'
import {pod} from './build.js'

const strip = (e: ReturnType<typeof explainReplicaSet>) => JSON.parse(JSON.stringify({...e, source: undefined}))

describe('slimPod', () => {
  for (const [file, rs] of [
    ['deletion-cost.yaml', 'checkout-6b7f9d5c4d'],
    ['unobserved-deletes.yaml', 'api-5f6d7c8b9'],
    ['quota.yaml', 'cart-7c9d8f6b5'],
  ]) {
    it(`${file}: the same replay on slimmed pods`, () => {
      const input = replayInput(file, rs)
      const slim = {...input, pods: input.pods.map(slimPod), freshPods: input.freshPods?.map(slimPod)}
      assert.deepEqual(strip(explainReplicaSet(slim)), strip(explainReplicaSet(input)))
    })
  }
  it('keeps sidecars and Ready conditions, drops the rest', () => {
    const p = pod({name: 'p', sidecar: true, ready: true, readySince: 0, restarts: [4], sidecarRestarts: 2})
    p.spec!.initContainers!.push({name: 'init', restartPolicy: undefined})
    p.status!.conditions!.unshift({type: 'PodScheduled', status: 'True'})
    p.metadata.managedFields = [{manager: 'kubelet'}]
    const s = slimPod(p)
    assert.deepEqual(s.spec?.initContainers, [{name: 'sidecar', restartPolicy: 'Always'}])
    assert.deepEqual(
      s.status?.conditions?.map((c) => c.type),
      ['Ready'],
    )
    assert.equal(s.metadata.managedFields, undefined)
    assert.deepEqual(s.status?.containerStatuses, [{name: 'c0', restartCount: 4}])
  })
})

describe('informerView', () => {
  it('a pod the cache still shows alive keeps its cached metadata; one the cache lacks is absent', () => {
    const cached = [pod({name: 'a', uid: 'ua'}), pod({name: 'b', uid: 'ub'})].map((p) => ({apiVersion: 'v1', kind: 'Pod', metadata: p.metadata}))
    const fresh = [pod({name: 'a', uid: 'ua', deletionTimestamp: '2026-11-29T10:00:00Z', ready: true}), pod({name: 'c', uid: 'uc'})]
    const view = informerView(cached, fresh)
    assert.deepEqual(
      view.map((p) => p.metadata.name),
      ['a', 'b'],
    )
    assert.equal(view[0].metadata.deletionTimestamp, undefined)
    assert.equal(view[0].status?.conditions?.[0].status, 'True')
    assert.equal(view[1].status, undefined)
  })
})
