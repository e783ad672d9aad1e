// cleanupDeployment: TestDeploymentController_cleanupDeploymentOrder converted from upstream
// pkg/controller/deployment/sync_test.go (the entries in ../shared/docs/decisions/workloads-cases.json case
// deploy-cleanupDeployment-order, copied here so the test runs without ../shared), and the replay for one
// ReplicaSet worked by hand.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {cleanupDeployment, replayDeploymentHistory} from '../../../src/engine/historylimits/index.js'

const NOW = Date.parse('2026-11-29T10:00:00Z')
const t = (min: number): string => new Date(NOW + min * 60_000).toISOString()

function rs(name: string, replicas: number, created: number, rev?: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'shop',
      uid: `uid-${name}`,
      creationTimestamp: t(created),
      ...(rev ? {annotations: {'deployment.kubernetes.io/revision': rev}} : {}),
    },
    spec: {replicas},
    status: {replicas},
  }
}

describe('TestDeploymentController_cleanupDeploymentOrder (upstream table)', () => {
  const cases: [string, KubeObject[], number, string[]][] = [
    ['revision order: rs1 < rs2, delete rs1', [rs('foo-1', 0, -1, '1'), rs('foo-2', 0, 0, '2')], 1, ['foo-1']],
    ['revision order: rs2 < rs1, delete rs2', [rs('foo-1', 0, -1, '2'), rs('foo-2', 0, 0, '1')], 1, ['foo-2']],
    ["rs1 has revision but rs2 doesn't have revision, delete rs2", [rs('foo-1', 0, -1, '1'), rs('foo-2', 0, 0)], 1, ['foo-2']],
    ["rs1 doesn't have revision while rs2 has revision, delete rs1", [rs('foo-1', 0, -1), rs('foo-2', 0, 0, '2')], 1, ['foo-1']],
    [
      'revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2',
      [rs('foo-1', 1, -1, '1'), rs('foo-2', 0, 0, '2'), rs('foo-3', 0, 1, '3')],
      1,
      ['foo-2'],
    ],
    [
      "revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete",
      [rs('foo-1', 1, -1, '1'), rs('foo-2', 1, 0, '2'), rs('foo-3', 0, 1, '3')],
      1,
      [],
    ],
    [
      'revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4',
      [rs('foo-1', 0, -1, '3'), rs('foo-2', 0, 0, '1'), rs('foo-3', 0, 1, '4'), rs('foo-4', 0, 2, '2')],
      2,
      ['foo-2', 'foo-4'],
    ],
  ]
  for (const [name, old, limit, want] of cases) {
    it(name, () => {
      const got = cleanupDeployment(old, limit)
      assert.deepEqual(got.deleted.map((x) => x.metadata?.name).sort(), [...want].sort())
    })
  }
  it('no limit: nothing is cleaned up', () => {
    assert.deepEqual(cleanupDeployment([rs('a', 0, 0, '1'), rs('b', 0, 1, '2')], undefined).deleted, [])
  })
})

describe('replayDeploymentHistory: which old ReplicaSet goes', () => {
  // A complete Deployment at revision 4 with revisionHistoryLimit 1: old revisions 1, 2, 3 (all at 0 replicas).
  // alive old = 3, diff = 3 − 1 = 2, so revisions 1 and 2 are deleted; 3 is kept; web-4 is the new one.
  const d: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', namespace: 'shop', uid: 'd-1', generation: 4, annotations: {'deployment.kubernetes.io/revision': '4'}},
    spec: {replicas: 2, revisionHistoryLimit: 1},
    status: {replicas: 2, updatedReplicas: 2, availableReplicas: 2, observedGeneration: 4},
  }
  const owned = [rs('web-1', 0, -40, '1'), rs('web-2', 0, -30, '2'), rs('web-3', 0, -20, '3'), {...rs('web-4', 2, -10, '4')}]
  it('the oldest old ReplicaSet is deleted (never "changes nothing")', () => {
    const r = replayDeploymentHistory(owned[0], d, owned)
    assert.equal(r.actor.actor, 'deployment')
    assert.equal(r.actor.action, 'willDelete')
    assert.match(r.headline, /deletes it on its next sync/)
    assert.equal(replayDeploymentHistory(owned[1], d, owned).actor.action, 'willDelete')
  })
  it('the newest old ReplicaSet is within the limit; the new one is never a candidate', () => {
    assert.equal(replayDeploymentHistory(owned[2], d, owned).actor.action, 'none')
    assert.match(replayDeploymentHistory(owned[3], d, owned).headline, /current ReplicaSet/)
  })
  it('a rollout that is not complete: cleanup waits for it', () => {
    const rolling = {...d, status: {...(d.status as object), availableReplicas: 1}}
    const r = replayDeploymentHistory(owned[0], rolling, owned)
    assert.equal(r.actor.action, 'none')
    assert.match(r.headline, /once the rollout completes/)
  })
})
