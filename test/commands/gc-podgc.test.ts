// gc pod/NAME names PodGC beside the collector (issue 26 item 5, pkg/controller/podgc/gc_controller.go), end to end
// on a hand-written dump. Worked by hand from gc()'s passes:
// - shop/stuck: deletionTimestamp set, never bound (no spec.nodeName), phase Pending. Not terminated (Pending), so not
//   gcTerminated; not bound, so neither gcTerminating nor gcOrphaned; terminating and unbound: gcUnscheduledTerminating
//   marks it Failed and force-deletes it. No finalizers, so the delete takes effect: podgc willDelete.
// - shop/web: Running on node n1, which the dump holds and which is Ready: not terminated, not terminating, its node
//   exists: no pass takes it, so no podgc actor at all.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const validate = validatorFor('gc')

const dump = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {name: 'n1', uid: 'node-1', creationTimestamp: '2026-11-01T00:00:00Z'},
      status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-29T09:59:50Z', lastTransitionTime: '2026-11-01T00:00:00Z'}]},
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'stuck',
        namespace: 'shop',
        uid: 'pod-stuck',
        creationTimestamp: '2026-11-29T09:00:00Z',
        deletionTimestamp: '2026-11-29T09:30:00Z',
        deletionGracePeriodSeconds: 30,
      },
      spec: {containers: [{name: 'app', image: 'app:1'}]},
      status: {phase: 'Pending'},
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'web', namespace: 'shop', uid: 'pod-web', creationTimestamp: '2026-11-29T09:00:00Z'},
      spec: {nodeName: 'n1', containers: [{name: 'web', image: 'web:1'}]},
      status: {phase: 'Running'},
    },
  ],
}

function file(): string {
  const dir = mkdtempSync(join(tmpdir(), 'why-podgc-'))
  const f = join(dir, 'dump.json')
  writeFileSync(f, JSON.stringify(dump))
  return f
}

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
async function gc(f: string, pod: string): Promise<any> {
  const r = await runCli(['gc', `pod/${pod}`, '-n', 'shop', '-f', f, '--now', '2026-11-29T10:00:00Z', '-o', 'json'])
  assert.notEqual(r.code, 2, r.stderr)
  const json = JSON.parse(r.stdout)
  assert.ok(validate(json), JSON.stringify(validate.errors, null, 1))
  return json
}

describe('gc pod/NAME: PodGC beside the collector', () => {
  const f = file()
  test('a terminating pod never bound: PodGC force-deletes it (gcUnscheduledTerminating), and the headline says so', async () => {
    const json = await gc(f, 'stuck')
    const podgc = json.actors.find((a: {actor: string}) => a.actor === 'podgc')
    assert.ok(podgc, JSON.stringify(json.actors))
    assert.equal(podgc.action, 'willDelete')
    assert.equal(podgc.rule, 'gcUnscheduledTerminating')
    assert.match(json.summary, /^PodGC force-deletes it \(gcUnscheduledTerminating\)/)
  })
  test('a running pod on a Ready node the dump holds: no PodGC pass, no podgc actor', async () => {
    const json = await gc(f, 'web')
    assert.equal(
      json.actors.some((a: {actor: string}) => a.actor === 'podgc'),
      false,
      JSON.stringify(json.actors),
    )
  })
})
