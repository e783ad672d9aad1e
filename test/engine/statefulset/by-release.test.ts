// Issue 27.3 for StatefulSets: when the data gives no version, the replay says so first and gives every distinct
// revision name with the releases computing it, what getStatefulSetRevisions does under each, what would settle it,
// and keeps a collision's warning only when every candidate release collides.
//
// Expected hashes, not from the code under test: the StatefulSet's revision is HashControllerRevision (FNV-1 32 over
// getPatch's bytes, then the probe's decimal digits, SafeEncoded) — release-independent given the bytes. The bytes are
// not: 1.20–1.33 write the vectors' cr-p-docs-nginx-defaulted raw (below, copied from
// ../shared/k8s-hash/vectors/public/controllerrevision.jsonl; its probe-0 hash 8668c76b8d is in
// test/fixtures/hash/vectors.json), while 1.34 made metav1.ObjectMeta's creationTimestamp omitzero, so from 1.34 the
// same raw lacks `"creationTimestamp":null,`. The 1.34 hash is computed here by a dozen lines of FNV-1 written from
// upstream's definition, first checked to reproduce the vectors' hashes of the 1.33 raw.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {explainStatefulSetHash, type StatefulSetHashReplay} from '../../../src/engine/statefulset/explain.js'
import type {ControllerRevision} from '../../../src/engine/history/types.js'
import {resolveHashSettings} from '../../../src/engine/workloads/hash-settings.js'
import {parseJson} from '../../../src/util/json.js'
import {validatorFor} from '../../support/schemas.js'
import {load, statefulSetInput} from '../deployment/fixture.js'

const vectors = parseJson(readFileSync(fileURLToPath(new URL('../../fixtures/hash/vectors.json', import.meta.url)), 'utf8')) as {
  controllerRevisions: {id: string; hashes: Record<string, string>}[]
}
const crNginx = vectors.controllerRevisions.find((c) => c.id === 'cr-p-docs-nginx-defaulted')!

const RAW_133 =
  '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"nginx"}},"spec":{"containers":[{"image":"nginx:1.14.2","imagePullPolicy":"IfNotPresent","name":"nginx","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}'
const RAW_134 = RAW_133.replace('"creationTimestamp":null,', '')

/** hash/fnv New32 (FNV-1: multiply, then xor), Write(raw), Write(probe's digits); rand.SafeEncodeString(fmt.Sprint(Sum32())). */
function hashControllerRevision(raw: string, probe: number): string {
  let h = 0x811c9dc5
  for (const b of Buffer.from(raw + String(probe), 'utf8')) h = (Math.imul(h, 0x01000193) ^ b) >>> 0
  const alphanums = 'bcdfghjklmnpqrstvwxz2456789'
  return [...String(h)].map((c) => alphanums[c.charCodeAt(0) % alphanums.length]).join('')
}

const validate = validatorFor('hash')

function alone(extra: ControllerRevision[] = [], version?: {major: number; minor: number}) {
  const l = load('statefulset', 'alone-no-version.yaml', 'StatefulSet', 'db')
  const input = statefulSetInput(l)
  return {...input, controllerRevisions: [...input.controllerRevisions, ...extra], settings: resolveHashSettings(version, undefined).settings}
}

describe('a StatefulSet dumped alone, no version in the data', () => {
  test("the test's own FNV-1 reproduces the vectors' hashes of the 1.33 bytes", () => {
    for (const p of [0, 1, 12, 256]) assert.equal(hashControllerRevision(RAW_133, p), crNginx.hashes[String(p)])
    assert.equal(crNginx.hashes['0'], '8668c76b8d')
  })

  test('says so first, gives both names with their releases, and what settles it', () => {
    const e = explainStatefulSetHash(alone())
    const r = e.statefulSet as StatefulSetHashReplay
    assert.equal(e.verdict, 'rolloutPending')
    assert.equal(e.severity, 'info')
    assert.match(e.summary, /^The Kubernetes version is not known \(no --k8s-version, no server version recorded/)
    const h133 = crNginx.hashes['0']
    const h134 = hashControllerRevision(RAW_134, 0)
    const all = (from: number, to: number) => Array.from({length: to - from + 1}, (_, i) => `1.${from + i}`)
    assert.deepEqual(r.byRelease!.answers, [
      {versions: all(20, 33), hash: h133, name: `db-${h133}`, outcome: 'creates', revision: `db-${h133}`},
      {versions: all(34, 37), hash: h134, name: `db-${h134}`, outcome: 'creates', revision: `db-${h134}`},
    ])
    assert.ok(e.summary.includes(`1.20–1.33: ${h133}; 1.34–1.37: ${h134}`))
    assert.match(r.byRelease!.settle.join('\n'), /--k8s-version/)
    assert.match(r.byRelease!.settle.join('\n'), /kubectl version/)
    assert.match(r.byRelease!.settle.join('\n'), /ControllerRevision of this StatefulSet/)
    for (const s of e.steps.filter((x) => x.rule === 'newRevision' || x.rule === 'CreateControllerRevision'))
      assert.match(s.why, /^under 1\.37 only, one of the releases/)
    assert.ok(validate(JSON.parse(JSON.stringify(e))), JSON.stringify(validate.errors))
  })

  test("the 1.34–1.37 name is taken by other data: a collision under those only, so info naming them; 1.33's name is free", () => {
    const h134 = hashControllerRevision(RAW_134, 0)
    const holder: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {name: `db-${h134}`, namespace: 'shop', labels: {app: 'other'}},
      data: {spec: {template: {$patch: 'replace', metadata: {labels: {app: 'other'}}, spec: {containers: [{name: 'x', image: 'busybox'}]}}}},
      revision: 1,
    }
    const e = explainStatefulSetHash(alone([holder]))
    const r = e.statefulSet as StatefulSetHashReplay
    assert.equal(e.verdict, 'collision')
    assert.equal(e.severity, 'info')
    // CreateControllerRevision retries within the sync with collisionCount 1: the probe "1".
    assert.deepEqual(r.byRelease!.answers[1], {
      versions: ['1.34', '1.35', '1.36', '1.37'],
      hash: h134,
      name: `db-${h134}`,
      outcome: 'collision',
      revision: `db-${hashControllerRevision(RAW_134, 1)}`,
    })
    assert.equal(r.byRelease!.answers[0].outcome, 'creates')
    const settled = explainStatefulSetHash(alone([holder], {major: 1, minor: 36}))
    assert.equal(settled.severity, 'warning')
    assert.equal((settled.statefulSet as StatefulSetHashReplay).byRelease, undefined)
  })

  test("with --k8s-version 1.33 the one answer is the vectors' name", () => {
    const e = explainStatefulSetHash(alone([], {major: 1, minor: 33}))
    const r = e.statefulSet as StatefulSetHashReplay
    assert.equal(r.byRelease, undefined)
    assert.equal(r.candidate!.name, `db-${crNginx.hashes['0']}`)
  })
})
