// Issue 26 item 1: the collector's own words never claim more than the collector decides. A Namespace's own finalizer
// is in spec.finalizers, which the collector's metadata view does not show, so "no finalizer is left" would be false
// for every Namespace being deleted; and an object the collector keeps or has no owner for may still be deleted by
// another controller (TTL-after-finished, history limits), so neither "never garbage-collected" nor "changes nothing".
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {explainGc, gcNext} from '../../../src/engine/garbagecollector/index.js'
import {obj, ref, run} from './helpers.js'

const NOW = new Date('2026-11-29T03:00:00Z')
const SOURCE = {mode: 'snapshot' as const}

describe('no false statement about who deletes the object', () => {
  it('a Namespace being deleted with no metadata.finalizers: the namespace controller, not "no finalizer is left"', () => {
    const ns = obj({apiVersion: 'v1', kind: 'Namespace', name: 'team-a', uid: 'ns-1', deletionTimestamp: '2026-11-29T01:00:00Z'})
    const {replay} = run(ns, {cluster: [ns]})
    assert.equal(replay.verdict, 'waitBeingDeleted')
    const e = explainGc(replay, NOW, SOURCE)
    const text = [e.summary, ...e.steps.map((s) => s.why), ...(e.next ?? []).map((n) => n.why)].join('\n')
    assert.doesNotMatch(text, /no finalizers? (is )?left/i)
    assert.match(e.summary, /spec\.finalizers \("kubernetes"\)/)
    assert.match(e.summary, /namespace controller/)
    assert.match(gcNext(replay)?.[0].command ?? '', /^kubectl get namespace team-a /)
  })
  it('a ConfigMap being deleted with no finalizers still says so (only Namespaces have spec.finalizers)', () => {
    const cm = obj({apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'c', uid: 'c-1', deletionTimestamp: '2026-11-29T01:00:00Z'})
    const {replay} = run(cm, {cluster: [cm]})
    assert.match(explainGc(replay, NOW, SOURCE).summary, /No finalizer is left/)
  })
  it('no owners: "does not delete it", never "never garbage-collected"', () => {
    const job = obj({apiVersion: 'batch/v1', kind: 'Job', namespace: 'ci', name: 'build', uid: 'j-1'})
    const {replay} = run(job, {cluster: [job]})
    assert.equal(replay.verdict, 'noOwners')
    const e = explainGc(replay, NOW, SOURCE)
    const text = [e.summary, ...e.steps.map((s) => s.why)].join('\n')
    assert.doesNotMatch(text, /never garbage-collected|never deletes it/)
  })
  it('keep: "keeps it", never "changes nothing"', () => {
    const d = obj({apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-1'})
    const rs = obj({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      namespace: 'shop',
      name: 'web-1',
      uid: 'rs-1',
      ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd-1', {controller: true, blockOwnerDeletion: true})],
    })
    const {replay} = run(rs, {cluster: [d, rs]})
    assert.equal(replay.verdict, 'keep')
    const e = explainGc(replay, NOW, SOURCE)
    assert.doesNotMatch([e.summary, ...e.steps.map((s) => s.why)].join('\n'), /changes nothing/)
  })
})
