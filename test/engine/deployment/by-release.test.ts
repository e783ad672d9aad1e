// Issue 27.3: when the data gives no version, the Deployment replay says so first and answers for every release whose
// result differs — the distinct hashes, each with the releases computing it — names what would settle it, and keeps a
// collision's warning only when every candidate release collides. Expected hashes come from the upstream vectors
// (test/fixtures/hash/vectors.json, p-docs-nginx-defaulted, collisionCount unset), never from the code under test.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {explainDeploymentHash} from '../../../src/engine/deployment/explain.js'
import type {DeploymentHashReplay} from '../../../src/engine/deployment/explain.js'
import type {ReplicaSet} from '../../../src/engine/deployment/types.js'
import {kubeletCandidates, resolveHashSettings, resolveHashSettingsFor} from '../../../src/engine/workloads/hash-settings.js'
import {hashesByRelease} from '../../../src/hash/infer.js'
import {parseJson} from '../../../src/util/json.js'
import {validatorFor} from '../../support/schemas.js'
import {deploymentInput, load} from './fixture.js'

interface Vectors {
  versions: string[]
  templates: {id: string; input: unknown; hashes: [string, string, string][]}[]
}
const vectors = parseJson(readFileSync(fileURLToPath(new URL('../../fixtures/hash/vectors.json', import.meta.url)), 'utf8')) as Vectors
const nginx = vectors.templates.find((t) => t.id === 'p-docs-nginx-defaulted')!
const versions = vectors.versions
const minor = (v: string) => Number(v.split('.')[1])
const range = (from: string, to: string) => versions.filter((v) => minor(v) >= minor(from) && minor(v) <= minor(to))
/** The vectors' own runs (first, last, hashes by count; the first is collisionCount unset), as {hash, versions}. */
const expected = nginx.hashes.map(([from, to, hashes]) => ({hash: hashes.split(' ')[0], versions: range(from, to)}))
const hashOf = (v: string) => expected.find((e) => e.versions.includes(v))!.hash

const validate = validatorFor('hash')
const noVersion = () => resolveHashSettings(undefined, undefined).settings

function alone() {
  const l = load('deployment', 'alone-no-version.yaml', 'Deployment')
  return {...deploymentInput(l), settings: noVersion()}
}

describe('a Deployment dumped alone, no version in the data', () => {
  test('the vectors of its template: 13 distinct hashes over 1.20–1.37 (the fixture is the case the issue names)', () => {
    assert.equal(expected.length, 13)
    assert.deepEqual(
      expected.flatMap((e) => e.versions),
      versions,
    )
    // Byte-for-byte agreement of the per-release computation with every run of the vectors.
    assert.deepEqual(hashesByRelease(nginx.input, null), expected)
  })

  test('says so first, gives every distinct hash with its releases, and what settles it', () => {
    const e = explainDeploymentHash(alone())
    const r = e.deployment as DeploymentHashReplay
    assert.equal(e.verdict, 'rolloutPending')
    assert.equal(e.severity, 'info')
    assert.match(e.summary, /^The Kubernetes version is not known \(no --k8s-version, no server version recorded/)
    // Every distinct hash of the vectors, each with the releases computing it, in the summary and in JSON.
    assert.deepEqual(
      r.byRelease!.answers.map((a) => ({hash: a.hash, versions: a.versions})),
      expected,
    )
    for (const x of expected) assert.ok(e.summary.includes(x.hash), `${x.hash} (${x.versions.join(',')}) in the summary`)
    assert.ok(e.summary.includes('1.20–1.22: 66b6c48dd5') && e.summary.includes('1.36–1.37: 6c5f67b5f7'))
    // Names: "<deployment>-<hash>" (short name, cut or not), each created as it is free.
    for (const a of r.byRelease!.answers) {
      assert.equal(a.name, `web-${a.hash}`)
      assert.equal(a.create, 'creates')
    }
    // The evidence that would settle it.
    assert.match(r.byRelease!.settle.join('\n'), /--k8s-version/)
    assert.match(r.byRelease!.settle.join('\n'), /kubectl version/)
    assert.match(r.byRelease!.settle.join('\n'), /pod-template-hash label/)
    // No step states the newest release's name as the answer.
    for (const s of e.steps.filter((x) => x.rule === 'getNewReplicaSet' || x.rule === 'generateReplicaSetName'))
      assert.match(s.why, /^under 1\.37 only, one of the releases/)
    assert.ok(validate(JSON.parse(JSON.stringify(e))), JSON.stringify(validate.errors))
  })

  test('with --k8s-version the one answer is given, as before', () => {
    const e = explainDeploymentHash({...alone(), settings: resolveHashSettings({major: 1, minor: 31}, undefined).settings})
    const r = e.deployment as DeploymentHashReplay
    assert.equal(r.byRelease, undefined)
    assert.equal(r.computed?.hash, hashOf('1.31'))
    assert.match(e.summary, /^No ReplicaSet has the Deployment's template: a 1\.31 controller creates ReplicaSet web-d556bf558/)
  })

  test('a ReplicaSet of the Deployment whose label 1.32–1.33 reproduce picks those releases; they agree, so one answer', () => {
    const input = alone()
    const d = input.workload
    const hash = hashOf('1.32')
    assert.equal(hash, hashOf('1.33'))
    const template = structuredClone(d.spec!.template) as {metadata: {labels: Record<string, string>}}
    template.metadata.labels['pod-template-hash'] = hash
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `web-${hash}`,
        namespace: 'shop',
        uid: 'rs-1',
        creationTimestamp: '2026-11-29T09:58:41Z',
        labels: {app: 'nginx', 'pod-template-hash': hash},
        annotations: {'deployment.kubernetes.io/revision': '1'},
        ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true}],
      },
      spec: {replicas: 3, selector: {matchLabels: {app: 'nginx', 'pod-template-hash': hash}}, template},
      status: {replicas: 3, readyReplicas: 3, availableReplicas: 3},
    } as unknown as ReplicaSet
    // Without the settings' inference (every release a candidate): the answers by release, and the ReplicaSet's label
    // picks 1.32–1.33 among them.
    const open = explainDeploymentHash({...input, replicaSets: [rs]}).deployment as DeploymentHashReplay
    assert.equal(open.byRelease?.answers.length, 13)
    assert.deepEqual(open.byRelease?.agreeing, {replicaSet: `web-${hash}`, label: hash, versions: ['1.32', '1.33']})
    const settings = resolveHashSettingsFor(undefined, undefined, [rs]).settings
    assert.deepEqual(settings.candidates?.versions, ['1.32', '1.33'])
    const e = explainDeploymentHash({...input, settings, replicaSets: [rs]})
    const r = e.deployment as DeploymentHashReplay
    assert.equal(e.verdict, 'upToDate')
    assert.equal(r.byRelease, undefined, 'both candidate releases compute the same hash')
    assert.match(e.steps.find((s) => s.rule === 'ComputeHash')!.why, /every release the data leaves possible \(1\.32–1\.33\) computes the same/)
  })

  test('a collision under some candidate releases only is info naming them; under every one it stays a warning', () => {
    const input = alone()
    // Another Deployment's ReplicaSet holds the name the 1.36–1.37 controllers compute (web-6c5f67b5f7).
    const holder = (hash: string, n: number) =>
      ({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `web-${hash}`,
          namespace: 'shop',
          uid: `other-${n}`,
          creationTimestamp: '2026-11-01T00:00:00Z',
          ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web-old', uid: 'dep-old', controller: true}],
        },
        spec: {
          replicas: 0,
          selector: {matchLabels: {app: 'other'}},
          template: {metadata: {labels: {app: 'other'}}, spec: {containers: [{name: 'c', image: 'busybox'}]}},
        },
      }) as unknown as ReplicaSet
    const taken = [holder(hashOf('1.37'), 1)]
    const some = explainDeploymentHash({...input, replicaSets: taken})
    assert.equal(some.verdict, 'collision', 'under 1.37, the release label checks compare with, the name is taken')
    assert.equal(some.severity, 'info', 'only 1.36–1.37 of 1.20–1.37 collide')
    const answers = (some.deployment as DeploymentHashReplay).byRelease!.answers
    assert.deepEqual(
      answers.filter((a) => a.create === 'collision').map((a) => a.versions),
      [['1.36', '1.37']],
    )
    assert.match(some.summary, /Only under 1\.36–1\.37 is the name taken/)

    // Candidates 1.35–1.37 (e.g. from labels), and both of their names taken: a collision whatever the release.
    const settings = {...noVersion(), candidates: {versions: ['1.35', '1.36', '1.37'], why: 'test'}}
    const every = explainDeploymentHash({...input, settings, replicaSets: [holder(hashOf('1.35'), 2), holder(hashOf('1.37'), 3)]})
    assert.equal(every.verdict, 'collision')
    assert.equal(every.severity, 'warning')
  })
})

describe('the releases a kubelet leaves possible (version skew policy)', () => {
  test("a dump whose only clue is a kubelet v1.30.4: answers for 1.30–1.33, the vectors' hashes grouped", () => {
    const server = {major: '1', minor: '30', gitVersion: 'v1.30.4', lowerBound: true, inferredFrom: "at least the newest kubelet's"}
    const settings = resolveHashSettings(undefined, server).settings
    assert.deepEqual(settings.candidates?.versions, ['1.30', '1.31', '1.32', '1.33'])
    const r = explainDeploymentHash({...alone(), settings}).deployment as DeploymentHashReplay
    assert.deepEqual(
      r.byRelease!.answers.map((a) => ({hash: a.hash, versions: a.versions})),
      [
        {hash: hashOf('1.30'), versions: ['1.30']},
        {hash: hashOf('1.31'), versions: ['1.31']},
        {hash: hashOf('1.32'), versions: ['1.32', '1.33']},
      ],
    )
  })

  test('kubelet 1.30: kube-apiserver 1.30–1.33 (up to three minors newer); kubelet 1.23: 1.23–1.25 (two, before 1.25)', () => {
    assert.deepEqual(kubeletCandidates(30), ['1.30', '1.31', '1.32', '1.33'])
    assert.deepEqual(kubeletCandidates(23), ['1.23', '1.24', '1.25'])
    assert.deepEqual(kubeletCandidates(36), ['1.36', '1.37'], 'no layout past 1.37')
  })
})
