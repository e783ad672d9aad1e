// gc csr/NAME: the CSR cleaner beside the collector (src/engine/csrcleaner/cleaner.ts, one part in
// src/engine/garbagecollector/drive-actors.ts), end to end on a hand-written dump, and through a snapshot that keeps
// only what the descriptors name (the CSR is a full read of the gc replay, so its status survives). Worked by hand:
// at 2027-01-01T00:00:00Z, CSR old-denied has Denied with lastUpdateTime 22:00, two hours before: isDeniedPastDeadline
// (deniedExpiration 1 h) holds since 23:00 — the next hourly pass deletes it. CSR fresh-denied was Denied at 23:30:
// it holds from 00:30, so the first pass after 00:30 deletes it. The collector has no owner to act on (noOwners).
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const validate = validatorFor('gc')
const NOW = '2027-01-01T00:00:00Z'
const csr = (name: string, deniedAt: string) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: {name, uid: `${name}-uid`, resourceVersion: '7', creationTimestamp: '2026-12-31T21:00:00Z'},
  spec: {signerName: 'kubernetes.io/kube-apiserver-client', request: '', usages: ['client auth']},
  status: {conditions: [{type: 'Denied', status: 'True', reason: 'Nope', lastUpdateTime: deniedAt, lastTransitionTime: deniedAt}]},
})
const dir = mkdtempSync(join(tmpdir(), 'gc-csr-'))
const FILE = join(dir, 'dump.json')
writeFileSync(
  FILE,
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    kubectlWhy: {format: 1, capturedAt: NOW, serverVersion: {major: '1', minor: '34', gitVersion: 'v1.34.2'}},
    items: [csr('old-denied', '2026-12-31T22:00:00Z'), csr('fresh-denied', '2026-12-31T23:30:00Z')],
  }),
)

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
async function gc(file: string, name: string): Promise<any> {
  const r = await runCli(['gc', `certificatesigningrequests/${name}`, '-f', file, '-o', 'json'])
  assert.notEqual(r.code, 2, r.stderr)
  const json = JSON.parse(r.stdout)
  assert.ok(validate(json), JSON.stringify(validate.errors, null, 1))
  return json
}

describe('gc csr/NAME: the CSR cleaner', () => {
  test('old-denied: due since 23:00, deleted on the next hourly pass', async () => {
    const json = await gc(FILE, 'old-denied')
    const a = json.actors.find((x: {actor: string}) => x.actor === 'csrcleaner')
    assert.ok(a, JSON.stringify(json.actors))
    assert.equal(a.action, 'willDelete')
    assert.equal(a.rule, 'isDeniedPastDeadline')
    assert.equal(a.at, '2026-12-31T23:00:00Z')
    assert.equal(json.actors[0].actor, 'csrcleaner')
    assert.match(json.summary, /^The CSR cleaner deletes CertificateSigningRequest old-denied on its next hourly pass/)
  })
  test('fresh-denied: not yet; from 00:30', async () => {
    const json = await gc(FILE, 'fresh-denied')
    const a = json.actors.find((x: {actor: string}) => x.actor === 'csrcleaner')
    assert.equal(a.at, '2027-01-01T00:30:00Z')
    assert.match(json.summary, /first hourly pass after 2027-01-01T00:30:00Z/)
  })
  test('through a snapshot written by `snapshot -f`: the same answer (the CSR kept whole)', async () => {
    const out = join(dir, 'snap.json')
    const s = await runCli(['snapshot', '-f', FILE, '--out', out])
    assert.equal(s.code, 0, s.stderr)
    const json = await gc(out, 'old-denied')
    assert.equal(json.actors.find((x: {actor: string}) => x.actor === 'csrcleaner')?.rule, 'isDeniedPastDeadline')
  })
})
