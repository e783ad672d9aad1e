// `kubectl why hash statefulset/NAME`: getStatefulSetRevisions replayed on fixtures worked out in their headers (hashes
// from ../shared/k8s-hash's ControllerRevision vectors and the decisions' verified 1.33/1.34 fixture values), including
// the upstream compatibility case sts-getStatefulSetRevisions-compat-1.33-revision under each gate setting.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {explainStatefulSetHash, semanticGate, type StatefulSetHashReplay} from '../../../src/engine/statefulset/explain.js'
import {ControllerRevisionName} from '../../../src/hash/controller-revision.js'
import {load, statefulSetInput} from '../deployment/fixture.js'

function run(file: string, name = 'web', version?: {minor: number; patch?: number}) {
  const l = load('statefulset', file, 'StatefulSet', name, version)
  const e = explainStatefulSetHash(statefulSetInput(l))
  return {e, r: e.statefulSet as StatefulSetHashReplay}
}

describe('kubectl why hash statefulset/NAME', () => {
  test('three revisions, pods on two: update unchanged, current from status', () => {
    const {e, r} = run('three-revisions.yaml')
    assert.equal(e.verdict, 'upToDate')
    assert.equal(r.decision, 'latest')
    assert.deepEqual(r.candidate, {hash: '8668c76b8d', name: 'web-8668c76b8d', revision: 4})
    assert.equal(r.updateRevision, 'web-8668c76b8d')
    assert.equal(r.currentRevision, 'web-6474c55d7f')
    assert.deepEqual(
      r.revisions.map((x) => [x.name, x.revision, x.label.result, x.pods, x.role]),
      [
        ['web-dd69bd79f', 1, 'matches', [], undefined],
        ['web-6474c55d7f', 2, 'matches', ['web-0', 'web-1'], 'current'],
        ['web-8668c76b8d', 3, 'matches', ['web-2'], 'update'],
      ],
    )
    assert.match(e.summary, /rolling update in progress/)
  })

  test('collision: AlreadyExists with other bytes, collisionCount 1 within the sync, web-8668c76b8f', () => {
    const {e, r} = run('collision.yaml')
    assert.equal(e.verdict, 'collision')
    assert.equal(r.decision, 'create')
    assert.deepEqual(
      r.create?.attempts.map((a) => [a.collisionCount, a.name, a.taken]),
      [
        [0, 'web-8668c76b8d', true],
        [1, 'web-8668c76b8f', false],
      ],
    )
    assert.equal(r.create?.creates, 'web-8668c76b8f')
    assert.equal(r.updateRevision, 'web-8668c76b8f')
  })

  test('rollback: an older revision equals the template; it is renumbered, nothing created', () => {
    const {e, r} = run('rollback.yaml')
    assert.equal(e.verdict, 'rolloutPending')
    assert.equal(r.decision, 'rollback')
    assert.equal(r.rollbackTo, 'web-6474c55d7f')
    assert.equal(r.candidate?.revision, 3)
    assert.equal(r.create, undefined)
  })

  describe('upstream compatibility case: a 1.33 revision under 1.34 (TestStatefulSetCompatibility)', () => {
    test('1.34.2 (gate on): reused, no new revision — hashDrift', () => {
      const {e, r} = run('compat-1.33-revision.yaml', 'test', {minor: 34, patch: 2})
      assert.equal(e.verdict, 'hashDrift')
      assert.equal(r.decision, 'semanticReuse')
      assert.equal(r.candidate?.name, 'test-776999688b')
      assert.equal(r.updateRevision, 'test-c77f6d978')
      assert.equal(r.currentRevision, 'test-c77f6d978')
      assert.equal(r.create, undefined)
    })
    test('1.34.0 (no gate): creates test-776999688b as revision 2 — the spurious rollout', () => {
      const {e, r} = run('compat-1.33-revision.yaml', 'test', {minor: 34, patch: 0})
      assert.equal(e.verdict, 'rolloutPending')
      assert.equal(e.severity, 'warning')
      assert.equal(r.create?.creates, 'test-776999688b')
      assert.equal(r.create?.spurious, true)
      assert.equal(r.candidate?.revision, 2)
    })
    test('1.33: byte-equal, upToDate', () => {
      const {e, r} = run('compat-1.33-revision.yaml', 'test', {minor: 33, patch: 4})
      assert.equal(e.verdict, 'upToDate')
      assert.equal(r.candidate?.name, 'test-c77f6d978')
    })
  })

  test('the gate by version', () => {
    assert.equal(semanticGate(35, undefined, undefined).enabled, true)
    assert.equal(semanticGate(34, 1, undefined).enabled, false)
    assert.equal(semanticGate(34, 2, undefined).enabled, true)
    assert.equal(semanticGate(34, undefined, undefined).enabled, null)
    assert.equal(semanticGate(33, 9, undefined).enabled, false)
    assert.equal(semanticGate(35, 0, false).enabled, false)
  })

  test('ControllerRevisionName keeps 223 characters of the prefix (history-ControllerRevisionName)', () => {
    // derived from controller_history.go: a prefix longer than 223 is cut to 223, then "-" + hash (never cut).
    assert.equal(ControllerRevisionName('a'.repeat(224), 'abcdef'), `${'a'.repeat(223)}-abcdef`)
    assert.equal(ControllerRevisionName('a'.repeat(223), 'abcdef'), `${'a'.repeat(223)}-abcdef`)
    assert.equal(ControllerRevisionName('web', 'c77f6d978'), 'web-c77f6d978')
  })
})
