// Issue 27.3 for DaemonSets: when the data gives no version, the replay says so first and gives every distinct
// controller-revision-hash (ComputeHash, controller_utils.go) with the releases computing it, what snapshot does under
// each, what would settle it, and keeps a collision's warning only when every candidate release collides. Expected
// hashes come from the upstream vectors (test/fixtures/hash/vectors.json, p-docs-nginx-defaulted: the DaemonSet's
// template), never from the code under test.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {type DaemonSetHashReplay, explainDaemonSetHash} from '../../../src/engine/daemonset/explain.js'
import type {ControllerRevision} from '../../../src/engine/history/types.js'
import {resolveHashSettings} from '../../../src/engine/workloads/hash-settings.js'
import {parseJson} from '../../../src/util/json.js'
import {validatorFor} from '../../support/schemas.js'
import {daemonSetInput, load} from '../deployment/fixture.js'

interface Vectors {
  versions: string[]
  collisionCounts: string[]
  templates: {id: string; input: unknown; hashes: [string, string, string][]}[]
}
const vectors = parseJson(readFileSync(fileURLToPath(new URL('../../fixtures/hash/vectors.json', import.meta.url)), 'utf8')) as Vectors
const nginx = vectors.templates.find((t) => t.id === 'p-docs-nginx-defaulted')!
const minor = (v: string) => Number(v.split('.')[1])
const range = (from: string, to: string) => vectors.versions.filter((v) => minor(v) >= minor(from) && minor(v) <= minor(to))
/** The vectors' runs for one collision count ('nil' = unset), as {hash, versions}, oldest first. */
const runs = (count: string) =>
  nginx.hashes.map(([from, to, hashes]) => ({hash: hashes.split(' ')[vectors.collisionCounts.indexOf(count)], versions: range(from, to)}))
const validate = validatorFor('hash')

function alone(extra: ControllerRevision[] = [], version?: {major: number; minor: number}) {
  const l = load('daemonset', 'alone-no-version.yaml', 'DaemonSet', 'node-agent')
  const input = daemonSetInput(l)
  return {...input, controllerRevisions: [...input.controllerRevisions, ...extra], settings: resolveHashSettings(version, undefined).settings}
}

describe('a DaemonSet dumped alone, no version in the data', () => {
  test('says so first, gives every distinct hash with its releases (the vectors), what snapshot does, and what settles it', () => {
    const expected = runs('nil')
    // The fixture's point: 13 distinct hashes over the 18 releases.
    assert.equal(expected.length, 13)
    const e = explainDaemonSetHash(alone())
    const r = e.daemonSet as DaemonSetHashReplay
    assert.equal(e.verdict, 'rolloutPending')
    assert.equal(e.severity, 'info')
    assert.match(e.summary, /^The Kubernetes version is not known \(no --k8s-version, no server version recorded/)
    // No revision is in the data, and none is free to Match: under every release snapshot creates "<ds>-<hash>".
    assert.deepEqual(
      r.byRelease!.answers,
      expected.map((x) => ({...x, name: `node-agent-${x.hash}`, outcome: 'creates', revision: `node-agent-${x.hash}`})),
    )
    assert.ok(e.summary.includes('1.20–1.22: 66b6c48dd5') && e.summary.includes('1.36–1.37: 6c5f67b5f7'))
    assert.match(r.byRelease!.settle.join('\n'), /--k8s-version/)
    assert.match(r.byRelease!.settle.join('\n'), /kubectl version/)
    assert.match(r.byRelease!.settle.join('\n'), /controller-revision-hash label/)
    // No step states the newest release's name as the answer.
    for (const s of e.steps.filter((x) => x.rule === 'Match' || (x.rule === 'snapshot' && x.result !== '13 answers by release')))
      assert.match(s.why, /^under 1\.37 only, one of the releases/)
    assert.ok(validate(JSON.parse(JSON.stringify(e))), JSON.stringify(validate.errors))
  })

  test('a name only 1.36–1.37 give is taken by other data: a collision under those only, so info naming them', () => {
    // node-agent-6c5f67b5f7 is the vectors' 1.36–1.37 hash (collisionCount unset); a revision of that name with another
    // template (not the DaemonSet's: other labels, no owner) makes snapshot collide there; a nil collisionCount is bumped
    // to 1 (update.go snapshot: new(int32), then ++), whose name the vectors give as 6f4479b5f6; every other release's
    // first name is free.
    const holder: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {name: 'node-agent-6c5f67b5f7', namespace: 'shop', labels: {app: 'other'}},
      data: {spec: {template: {$patch: 'replace', metadata: {labels: {app: 'other'}}, spec: {containers: [{name: 'x', image: 'busybox'}]}}}},
      revision: 1,
    }
    const e = explainDaemonSetHash(alone([holder]))
    const r = e.daemonSet as DaemonSetHashReplay
    assert.equal(e.verdict, 'collision')
    assert.equal(e.severity, 'info')
    const at = (v: string) => r.byRelease!.answers.find((a) => a.versions.includes(v))!
    assert.deepEqual(at('1.37'), {
      versions: ['1.36', '1.37'],
      hash: '6c5f67b5f7',
      name: 'node-agent-6c5f67b5f7',
      outcome: 'collision',
      revision: `node-agent-${runs('1').at(-1)!.hash}`,
    })
    assert.equal(runs('1').at(-1)!.hash, '6f4479b5f6')
    assert.equal(at('1.35').outcome, 'creates')
    // Known to be 1.37, the collision is certain: a warning, as before.
    const settled = explainDaemonSetHash(alone([holder], {major: 1, minor: 37}))
    assert.equal(settled.verdict, 'collision')
    assert.equal(settled.severity, 'warning')
    assert.equal((settled.daemonSet as DaemonSetHashReplay).byRelease, undefined)
  })

  test('with --k8s-version the one answer is given, as before', () => {
    const e = explainDaemonSetHash(alone([], {major: 1, minor: 31}))
    const r = e.daemonSet as DaemonSetHashReplay
    assert.equal(r.byRelease, undefined)
    assert.deepEqual(r.computed, {hash: 'd556bf558', name: 'node-agent-d556bf558'})
    assert.doesNotMatch(e.summary, /version is not known/)
  })

  test('a kubelet bounding the release to 1.36–1.37, which compute alike: one answer, and the version did not matter', () => {
    const s = resolveHashSettings(undefined, undefined).settings
    const e = explainDaemonSetHash({...alone(), settings: {...s, candidates: {versions: ['1.36', '1.37'], why: 'the kubelets bound it'}}})
    const r = e.daemonSet as DaemonSetHashReplay
    assert.equal(r.byRelease, undefined)
    assert.doesNotMatch(e.summary, /version is not known/)
    assert.match(
      e.steps.find((x) => x.rule === 'ComputeHash')!.why,
      /every release the data leaves possible \(1\.36–1\.37\) computes the same and does the same: the version did not matter/,
    )
  })
})
