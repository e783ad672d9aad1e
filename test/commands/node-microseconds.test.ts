// Issue 31 point 3: the printed instants carry the precision the replay compares at. A Lease renewTime (MicroTime)
// and --now with microseconds: the staleness test is now.After(probe + grace) at µs (nlc.go@2b96ebcf:946), so the
// JSON gives the RFC 3339 instants with the µs the data had, and the text, which shows whole seconds, says the
// instants in full when the grace expiry and now fall in one shown second. Worked by hand: renewTime
// 11:59:10.000300, grace 50 s → expiry 12:00:00.000300; --now 12:00:00.000400 is 100 µs after it (stale, Unknown
// written), --now 12:00:00.000200 is 100 µs before it (not stale). Run `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {runCli} from '../support/cli.js'

const node = (name: string, hb: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {name, uid: `uid-${name}`, creationTimestamp: '2026-05-01T00:00:00Z', labels: {'topology.kubernetes.io/zone': 'a'}},
  spec: {},
  status: {conditions: [{type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: hb, lastTransitionTime: '2026-05-01T00:01:00Z'}]},
})
const lease = (name: string, renew: string, rv: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {name, namespace: 'kube-node-lease', uid: `lease-${name}`, resourceVersion: rv, creationTimestamp: '2026-05-01T00:00:00Z'},
  spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: renew},
})
const leases = [
  lease('n1', '2026-06-01T11:59:10.000300Z', '5'),
  lease('n2', '2026-06-01T11:59:58.000000Z', '6'),
  lease('n3', '2026-06-01T11:59:58.000000Z', '7'),
]
const file = join(mkdtempSync(join(tmpdir(), 'why-us-')), 'us.json')
writeFileSync(
  file,
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    metadata: {resourceVersion: ''},
    kubectlWhy: {format: 1, capturedAt: '2026-06-01T12:00:00Z', serverVersion: {major: '1', minor: '37', gitVersion: 'v1.37.0'}, cached: leases},
    items: [node('n1', '2026-06-01T11:55:00Z'), node('n2', '2026-06-01T11:58:00Z'), node('n3', '2026-06-01T11:58:00Z'), ...leases],
  }),
)

async function run(now: string, output: string[]) {
  const r = await runCli(['node', 'n1', '-f', file, '--now', now, ...output])
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`)
  return r.stdout
}

describe('instants printed at the precision compared', () => {
  test('100 µs after the expiry: stale, and the JSON instants keep their µs', async () => {
    const e = JSON.parse(await run('2026-06-01T12:00:00.000400Z', ['-o', 'json']))
    assert.ok(
      e.conditionsSetUnknown.some((c: {type: string}) => c.type === 'Ready'),
      'Ready is written Unknown this pass',
    )
    assert.equal(e.evaluatedAt, '2026-06-01T12:00:00.000400Z')
    assert.equal(e.timeline.now, '2026-06-01T12:00:00.000400Z')
    assert.equal(e.timeline.lastRenewal, '2026-06-01T11:59:10.000300Z')
    assert.equal(e.timeline.probeEstimate, '2026-06-01T11:59:10.000300Z')
    assert.equal(e.timeline.graceExpiry, '2026-06-01T12:00:00.000300Z')
    const step = e.steps.find((s: {rule: string}) => s.rule === 'tryUpdateNodeHealth')
    assert.equal(step.result, 'stale')
    assert.equal(step.inputs.graceExpiry, '2026-06-01T12:00:00.000300Z')
    assert.notEqual(step.inputs.now, step.inputs.graceExpiry)
  })
  test('the text says the instants in full when they share the shown second', async () => {
    const after = await run('2026-06-01T12:00:00.000400Z', [])
    assert.match(after, /Ready becomes Unknown now: no sign of life since 2026-06-01T11:59:10\.000300Z\s+\(grace\s+50s ended 2026-06-01T12:00:00\.000300Z\)/)
    assert.match(after, /now 2026-06-01T12:00:00\.000400Z is after the grace expiry\s+2026-06-01T12:00:00\.000300Z/)
    const before = await run('2026-06-01T12:00:00.000200Z', [])
    assert.match(before, /now 2026-06-01T12:00:00\.000200Z is not after the grace\s+expiry\s+2026-06-01T12:00:00\.000300Z/)
    const e = JSON.parse(await run('2026-06-01T12:00:00.000200Z', ['-o', 'json']))
    assert.deepEqual(e.conditionsSetUnknown, [])
  })
})
