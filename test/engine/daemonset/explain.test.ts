// `kubectl why hash daemonset/NAME` on fixtures whose outcome is worked out in each fixture's header (hashes from
// ../shared/k8s-hash vectors): Match by bytes, ComputeHash labels, the create path and its collision handling,
// the stale-collisionCount guard, and IsPodUpdated (hash or template generation).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {explainDaemonSetHash, type DaemonSetHashReplay} from '../../../src/engine/daemonset/explain.js'
import {daemonSetInput, load} from '../deployment/fixture.js'

function run(file: string) {
  const l = load('daemonset', file, 'DaemonSet', 'agent')
  const e = explainDaemonSetHash(daemonSetInput(l))
  return {e, r: e.daemonSet as DaemonSetHashReplay}
}

describe('kubectl why hash daemonset/NAME', () => {
  test('collisionCount 1: current revision by Match, the count explained, the stale-count guard described', () => {
    const {e, r} = run('collision-count.yaml')
    assert.equal(e.verdict, 'upToDate')
    assert.equal(r.currentRevision, 'agent-6d68758fc5')
    assert.deepEqual(r.computed, {hash: '6d68758fc5', name: 'agent-6d68758fc5'})
    const cur = r.revisions.find((x) => x.name === 'agent-6d68758fc5')!
    assert.equal(cur.label.result, 'matches')
    assert.equal(cur.label.collisionCount, 1)
    assert.equal(cur.pods, 3)
    assert.deepEqual(r.collisionCountHistory?.evidence, [{holder: 'agent-d556bf558', from: null}])
    assert.match(
      r.collisionCountHistory!.why,
      /found a stale collision count \(…, expected …\) of DaemonSet "agent" while processing; will retry until it is updated/,
    )
    assert.equal(r.pods.updated, 3)
    assert.equal(r.pods.updatedByHash, 3)
  })

  test('a rolling update in progress: 2 of 3 pods updated', () => {
    const {e, r} = run('rolling.yaml')
    assert.equal(e.verdict, 'upToDate')
    assert.equal(r.currentRevision, 'agent-d556bf558')
    assert.deepEqual(
      r.revisions.map((x) => [x.name, x.revision, x.label.result, x.pods]),
      [
        ['agent-5db466f4b5', 1, 'matches', 1],
        ['agent-d556bf558', 2, 'matches', 2],
      ],
    )
    assert.deepEqual([r.pods.updated, r.pods.total], [2, 3])
    assert.match(e.summary, /2 of 3 pods are updated/)
  })

  test('upgraded 1.33 → 1.34: no Match, a new revision, pods kept by template generation', () => {
    const {e, r} = run('upgraded-1.34.yaml')
    assert.equal(e.verdict, 'rolloutPending')
    assert.equal(e.severity, 'info')
    assert.equal(r.currentRevision, undefined)
    assert.equal(r.snapshot?.creates, 'agent-bf744486c')
    assert.equal(r.snapshot?.revision, 2)
    const old = r.revisions[0]
    assert.equal(old.label.result, 'otherLayout')
    assert.deepEqual(old.label.reproducedBy?.[0], {versions: ['1.32', '1.33'], collisionCount: null})
    assert.deepEqual([r.pods.updated, r.pods.updatedByGeneration], [3, 3])
    assert.match(e.summary, /not restarted/)
  })

  test("collision: the name is held by another template's revision; bump to 1, then agent-6d68758fc5", () => {
    const {e, r} = run('collision.yaml')
    assert.equal(e.verdict, 'collision')
    assert.equal(e.severity, 'warning')
    assert.deepEqual(
      r.snapshot?.attempts.map((a) => [a.collisionCount, a.name, a.taken]),
      [
        [null, 'agent-d556bf558', true],
        [1, 'agent-6d68758fc5', false],
      ],
    )
    assert.equal(r.snapshot?.creates, 'agent-6d68758fc5')
    assert.deepEqual([r.pods.updated, r.pods.total], [0, 3])
  })
})
