// Every verdict of `kubectl why hash deployment/NAME` on a fixture whose expected outcome is worked out in the
// fixture's header from the upstream rules and the hashes in ../shared/k8s-hash's vectors (copied into each fixture).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {explainDeploymentHash, type DeploymentHashReplay} from '../../../src/engine/deployment/explain.js'
import {deploymentInput, load} from './fixture.js'

function run(file: string, name = 'web', version?: {minor: number; patch?: number}) {
  const l = load('deployment', file, 'Deployment', name, version)
  const e = explainDeploymentHash(deploymentInput(l))
  return {e, r: e.deployment as DeploymentHashReplay}
}

const row = (r: DeploymentHashReplay, name: string) => r.replicaSets.find((x) => x.name === name)!

describe('kubectl why hash deployment/NAME', () => {
  test('up to date: the new ReplicaSet has the template and the 1.31 hash', () => {
    const {e, r} = run('up-to-date.yaml')
    assert.equal(e.verdict, 'upToDate')
    assert.equal(e.severity, 'none')
    assert.deepEqual(r.computed, {hash: 'd556bf558', name: 'web-d556bf558'})
    assert.equal(r.newReplicaSet, 'web-d556bf558')
    assert.equal(row(r, 'web-d556bf558').label.result, 'matches')
    assert.equal(row(r, 'web-d556bf558').label.collisionCount, null)
    assert.equal(row(r, 'web-5db466f4b5').role, 'old')
    assert.equal(row(r, 'web-5db466f4b5').label.result, 'matches')
    assert.equal(r.create, undefined)
    assert.match(e.summary, /ReplicaSet web-d556bf558 \(revision 2, 3\/3 ready\) is new/)
  })

  test('rollout pending: the name it will create, its revision, what it scales down', () => {
    const {e, r} = run('rollout-pending.yaml')
    assert.equal(e.verdict, 'rolloutPending')
    assert.equal(e.severity, 'info')
    assert.equal(r.newReplicaSet, undefined)
    assert.equal(r.create?.creates, 'web-d556bf558')
    assert.equal(r.nextRevision, '2')
    assert.match(e.summary, /creates ReplicaSet web-d556bf558 \(pod-template-hash d556bf558, revision 2\), then scales web-5db466f4b5 down/)
  })

  test('paused: the same name, created once resumed', () => {
    const {e} = run('paused.yaml')
    assert.equal(e.verdict, 'rolloutPending')
    assert.match(e.summary, /once the Deployment is resumed/)
  })

  test('collision: AlreadyExists with another template, count nil → 1, then web-6d68758fc5', () => {
    const {e, r} = run('collision.yaml')
    assert.equal(e.verdict, 'collision')
    assert.equal(e.severity, 'warning')
    assert.equal(r.create?.collision?.holder.name, 'web-d556bf558')
    assert.equal(r.create?.collision?.why, 'it has a different template')
    assert.deepEqual(
      r.create?.attempts.map((a) => [a.collisionCount, a.name, a.taken]),
      [
        [null, 'web-d556bf558', true],
        [1, 'web-6d68758fc5', false],
      ],
    )
    assert.equal(r.create?.creates, 'web-6d68758fc5')
    assert.match(e.summary, /bumps status\.collisionCount to 1 and creates web-6d68758fc5/)
  })

  test('upgraded 1.28 → 1.31: hashDrift, found by template equality, no rollout', () => {
    const {e, r} = run('upgraded.yaml')
    assert.equal(e.verdict, 'hashDrift')
    assert.equal(e.severity, 'info')
    assert.equal(r.newReplicaSet, 'web-86dcfdf4c6')
    const l = row(r, 'web-86dcfdf4c6').label
    assert.equal(l.result, 'otherLayout')
    assert.equal(l.recomputed, 'd556bf558')
    assert.deepEqual(l.reproducedBy, [{versions: ['1.28', '1.29'], collisionCount: null}])
    assert.match(e.summary, /1\.28–1\.29 controller/)
    assert.match(e.summary, /no rollout happens/)
  })

  // Info since issue 15: the controller never recomputes existing labels, so an unreproducible one changes nothing it
  // does and needs no person (it was a warning, which failed CI by default).
  test('unreproducible: an edited label, reason unknown, info', () => {
    const {e, r} = run('unreproducible.yaml')
    assert.equal(e.verdict, 'unreproducible')
    assert.equal(e.severity, 'info')
    const l = row(r, 'web-7c5b8d9f64').label
    assert.equal(l.reason, 'unknown')
    assert.equal(l.explained, false)
    assert.match(e.summary, /reproduced by no known layout/)
  })

  test('unreproducible but explained: created before 1.20, a decimal pre-1.11 label', () => {
    const {e, r} = run('old-history.yaml')
    assert.equal(e.verdict, 'unreproducible')
    assert.equal(e.severity, 'info')
    assert.equal(row(r, 'web-d556bf558').label.result, 'matches')
    assert.equal(row(r, 'web-5f7d9c8b6').label.reason, 'predatesLayouts')
    assert.equal(row(r, 'web-5d4ddc985d').label.reason, 'decimalLabel')
  })

  test('collisionCount 1 explained by the object holding the count-unset name', () => {
    const {e, r} = run('collision-count.yaml')
    assert.equal(e.verdict, 'upToDate')
    assert.equal(r.newReplicaSet, 'web-6d68758fc5')
    assert.equal(row(r, 'web-6d68758fc5').label.collisionCount, 1)
    assert.deepEqual(r.collisionCountHistory?.evidence, [{holder: 'web-d556bf558', from: null, template: 'current'}])
    assert.deepEqual(r.notClaimed, [{name: 'web-d556bf558', claim: 'ignore', why: 'controlled by Deployment web-canary (uid dep-canary)'}])
    assert.ok(!r.replicaSets.some((x) => x.name === 'web-d556bf558'), "not one of web's ReplicaSets")
  })

  test('a 250-character name: cut to 243 + "-bf744486c" on 1.34; too long on 1.31', () => {
    const name = `payments-${'x'.repeat(241)}`
    const on34 = run('long-name.yaml', name)
    assert.equal(on34.e.verdict, 'rolloutPending')
    assert.equal(on34.r.computed?.name, `${name.slice(0, 243)}-bf744486c`)
    assert.equal(on34.r.computed?.truncated, true)
    const on31 = run('long-name.yaml', name, {minor: 31})
    assert.equal(on31.e.verdict, 'rolloutPending')
    assert.equal(on31.e.severity, 'critical')
    assert.equal(on31.r.computed?.name, `${name}-d556bf558`)
    assert.match(on31.r.computed?.nameError ?? '', /260 characters/)
  })

  test('a ReplicaSet missing from the data, recognised from its pods', () => {
    const {e, r} = run('missing-replicaset.yaml')
    assert.equal(e.verdict, 'upToDate')
    assert.equal(r.newReplicaSet, 'web-d556bf558')
    assert.deepEqual(
      r.missingReplicaSets?.map((m) => [m.name, m.pods, m.current.result]),
      [['web-d556bf558', 3, 'matches']],
    )
  })

  test('every step names an upstream file', () => {
    for (const f of ['up-to-date.yaml', 'collision.yaml', 'upgraded.yaml', 'collision-count.yaml']) {
      for (const s of run(f).e.steps) assert.match(s.upstream, /^pkg\/controller\//, `${f}: ${s.rule}`)
    }
  })
})
