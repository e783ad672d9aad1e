// The Deployment cases of ../shared/docs/decisions/workloads-cases.json (copied here: the project stands alone),
// with upstream's expected values: generateReplicaSetName (sync_test.go TestGenerateReplicaSetName), EqualIgnoreHash
// (deployment_util_test.go:126, both argument orders, inputs not mutated), FindOldReplicaSets (:272) and the
// FindNewReplicaSet choice it rests on, and ComputeHash's collision-count sensitivity (controller_utils_test.go).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {ComputeHash} from '../../../src/hash/compute-hash.js'
import {getLayout} from '../../../src/hash/layouts.js'
import {generateReplicaSetName} from '../../../src/hash/names.js'
import {EqualIgnoreHash} from '../../../src/engine/deployment/equal-ignore-hash.js'
import {FindNewReplicaSet, FindOldReplicaSets, MaxRevision, Revision} from '../../../src/engine/deployment/find.js'
import type {ReplicaSet, Workload} from '../../../src/engine/deployment/types.js'

const layout = getLayout('1.31')

describe('generateReplicaSetName (TestGenerateReplicaSetName)', () => {
  test('short name: name-hash', () => {
    assert.equal(generateReplicaSetName('my-deployment', 'abcde12345'), 'my-deployment-abcde12345')
  })
  test('250 b: cut to 253 − 1 − 10 = 242 characters, the hash kept whole', () => {
    const out = generateReplicaSetName('b'.repeat(250), 'abcde12345')
    assert.equal(out, `${'b'.repeat(242)}-abcde12345`)
    assert.equal(out.length, 253)
  })
})

const t = (name: string, labels: Record<string, string>, nodeName: string, annotations: Record<string, string> = {}) => ({
  metadata: {name, annotations, labels},
  spec: {nodeName},
})

// TestEqualIgnoreHash: [name, former, latter, expected]
const EQUAL_CASES: [string, unknown, unknown, boolean][] = [
  [
    'Same spec, same labels',
    t('foo', {'pod-template-hash': 'value-1', something: 'else'}, 'foo-node'),
    t('foo', {'pod-template-hash': 'value-1', something: 'else'}, 'foo-node'),
    true,
  ],
  [
    'Same spec, only pod-template-hash label value is different',
    t('foo', {'pod-template-hash': 'value-1', something: 'else'}, 'foo-node'),
    t('foo', {'pod-template-hash': 'value-2', something: 'else'}, 'foo-node'),
    true,
  ],
  [
    "Same spec, the former doesn't have pod-template-hash label",
    t('foo', {something: 'else'}, 'foo-node'),
    t('foo', {'pod-template-hash': 'value-2', something: 'else'}, 'foo-node'),
    true,
  ],
  [
    "Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
    t('foo', {something: 'else'}, 'foo-node'),
    t('foo', {'pod-template-hash': 'value-2'}, 'foo-node'),
    false,
  ],
  [
    "Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
    t('foo', {'pod-template-hash': 'value-1'}, 'foo-node'),
    t('foo', {something: 'else'}, 'foo-node'),
    false,
  ],
  [
    'Same spec, the label is different, and the pod-template-hash label value is the same',
    t('foo', {'pod-template-hash': 'value-1'}, 'foo-node'),
    t('foo', {'pod-template-hash': 'value-1', something: 'else'}, 'foo-node'),
    false,
  ],
  [
    'Different spec, same labels',
    t('foo', {'pod-template-hash': 'value-1', something: 'else'}, 'foo-node', {former: 'value'}),
    t('foo', {'pod-template-hash': 'value-1', something: 'else'}, 'foo-node', {latter: 'value'}),
    false,
  ],
  [
    'Different spec, different pod-template-hash label value',
    t('foo-1', {'pod-template-hash': 'value-1', something: 'else'}, 'foo-node'),
    t('foo-2', {'pod-template-hash': 'value-2', something: 'else'}, 'foo-node'),
    false,
  ],
  [
    "Different spec, the former doesn't have pod-template-hash label",
    t('foo-1', {something: 'else'}, 'foo-node-1'),
    t('foo-2', {'pod-template-hash': 'value-2', something: 'else'}, 'foo-node-2'),
    false,
  ],
  ['Different spec, different labels', t('foo', {something: 'else'}, 'foo-node-1'), t('foo', {nothing: 'else'}, 'foo-node-2'), false],
]

describe('EqualIgnoreHash (TestEqualIgnoreHash)', () => {
  for (const [name, former, latter, expected] of EQUAL_CASES) {
    test(name, () => {
      const before = JSON.stringify([former, latter])
      assert.equal(EqualIgnoreHash(layout, former, latter), expected, 'former, latter')
      assert.equal(EqualIgnoreHash(layout, latter, former), expected, 'latter, former')
      assert.equal(JSON.stringify([former, latter]), before, "the callers' label maps are left alone")
    })
  }
})

// TestFindOldReplicaSets' fixtures: the Deployment's template; newRS = it + pod-template-hash "hash", 1 replica,
// created now+1m; newRSDup = it + "different-hash", 0 replicas, created now; oldRS = another container name, 0
// replicas, created now−1m. (The container fields are ours; the asserted results depend only on equal/not equal.)
const NOW = Date.parse('2026-11-29T10:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')
const template = (container: string, hash?: string) => ({
  metadata: {labels: {name: 'nginx', ...(hash ? {'pod-template-hash': hash} : {})}},
  spec: {containers: [{name: container, image: 'nginx'}]},
})
const deployment: Workload = {
  kind: 'Deployment',
  metadata: {name: 'nginx', namespace: 'ns', uid: 'd-uid'},
  spec: {selector: {matchLabels: {name: 'nginx'}}, template: template('nginx')},
}
const rs = (name: string, tmpl: unknown, replicas: number, created: number): ReplicaSet => ({
  kind: 'ReplicaSet',
  metadata: {name, namespace: 'ns', uid: `${name}-uid`, creationTimestamp: iso(created)},
  spec: {replicas, template: tmpl},
})
const newRS = rs('new', template('nginx', 'hash'), 1, NOW + 60_000)
const newRSDup = rs('new-dup', template('nginx', 'different-hash'), 0, NOW)
const oldRS = rs('old', template('nginx-old-1'), 0, NOW - 60_000)

describe('FindOldReplicaSets (TestFindOldReplicaSets) and the FindNewReplicaSet choice', () => {
  const names = (l: ReplicaSet[] | null) => (l === null ? null : l.map((r) => r.metadata.name))
  const run = (list: ReplicaSet[]) => {
    const found = FindNewReplicaSet(layout, deployment, list)
    return {newRS: found.newRS?.metadata.name, ...FindOldReplicaSets(found.sorted, found.newRS)}
  }
  test('Get old ReplicaSets', () => {
    const r = run([newRS, oldRS])
    assert.equal(r.newRS, 'new')
    assert.deepEqual(names(r.all), ['old'])
    assert.equal(r.required, null)
  })
  test('Get old ReplicaSets with no new ReplicaSet', () => {
    const r = run([oldRS])
    assert.equal(r.newRS, undefined)
    assert.deepEqual(names(r.all), ['old'])
    assert.equal(r.required, null)
  })
  test('two new ReplicaSets: only the oldest is new (newRSDup, created before newRS)', () => {
    const r = run([oldRS, newRS, newRSDup])
    assert.equal(r.newRS, 'new-dup')
    assert.deepEqual(names(r.all), ['old', 'new'])
    assert.deepEqual(names(r.required), ['new'])
  })
  test('Get empty old ReplicaSets', () => {
    const r = run([newRS])
    assert.equal(r.all, null)
    assert.equal(r.required, null)
  })
  test('equal creation times: the name decides (ReplicaSetsByCreationTimestamp)', () => {
    const a = rs('b-second', template('nginx', 'x'), 0, NOW)
    const b = rs('a-first', template('nginx', 'y'), 0, NOW)
    assert.equal(FindNewReplicaSet(layout, deployment, [a, b]).newRS?.metadata.name, 'a-first')
  })
})

describe('Revision / MaxRevision (deployment_util.go)', () => {
  const withRev = (rev?: string): ReplicaSet => ({metadata: {name: 'x', annotations: rev === undefined ? {} : {'deployment.kubernetes.io/revision': rev}}})
  test('absent is 0, unparseable is an error, skipped by MaxRevision', () => {
    assert.equal(Revision(withRev()), 0)
    assert.equal(Revision(withRev('7')), 7)
    assert.equal(Revision(withRev('seven')), undefined)
    assert.equal(MaxRevision([withRev('3'), withRev('seven'), withRev('11'), withRev()]), 11)
    assert.equal(MaxRevision(null), 0)
  })
})

describe('ComputeHash is collision-count sensitive (TestComputeHash)', () => {
  // PodTemplateSpec{} as the API would return it; values from ../shared/k8s-hash vectors (p-empty, 1.36).
  const empty = {metadata: {creationTimestamp: null}, spec: {containers: null}}
  test('collisionCount 1 and 2 differ', () => {
    assert.notEqual(ComputeHash(empty, 1, '1.36'), ComputeHash(empty, 2, '1.36'))
    assert.equal(ComputeHash(empty, 1, '1.36'), 'b54bc767c')
    assert.equal(ComputeHash(empty, 2, '1.36'), '65cc779bc4')
  })
  test('nil and MaxInt32 differ', () => {
    assert.equal(ComputeHash(empty, null, '1.36'), '85748b7f68')
    assert.equal(ComputeHash(empty, 2147483647, '1.36'), '579d8f8ff6')
  })
  test('nil and a pointer to 0 differ', () => {
    assert.equal(ComputeHash(empty, 0, '1.36'), '777dfcd544')
  })
})
