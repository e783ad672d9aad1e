// PodGC's gcTerminated bound from the controller-manager's static pod (issue 26 item 5): `--terminated-pod-gc-threshold`
// parsed from kube-system/kube-controller-manager-cp1's command line by src/settings/kcm.ts (the node lifecycle's
// parse), in `gc` and `evicted` both. Worked by hand from gc_controller.go gcTerminated:
// - terminated pods (phase neither Pending, Running nor Unknown): jobs/a (Succeeded, created 09:00), jobs/b (Failed,
//   reason Evicted, created 09:30), jobs/c (Succeeded, created 09:10) — 3; the kcm pod and web are Running.
// - threshold 2 (the flag), so deleteCount = 3 − 2 = 1; byEvictionAndCreationTimestamp puts the evicted first: b, then
//   a (09:00), c (09:10). The 1 deleted is b. a and c stay.
// - without the flag (the same pod, no --terminated-pod-gc-threshold): the default 12500 applies and is said as the
//   default; 3 ≤ 12500, so no pass takes b.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {runCli} from '../support/cli.js'

const node = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {name: 'n1', uid: 'node-1', creationTimestamp: '2026-11-01T00:00:00Z'},
  status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-29T09:59:50Z', lastTransitionTime: '2026-11-01T00:00:00Z'}]},
}
const kcm = (command: string[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'kube-controller-manager-cp1',
    namespace: 'kube-system',
    uid: 'kcm',
    creationTimestamp: '2026-11-01T00:00:00Z',
    labels: {component: 'kube-controller-manager', tier: 'control-plane'},
  },
  spec: {nodeName: 'n1', containers: [{name: 'kube-controller-manager', image: 'registry.k8s.io/kube-controller-manager:v1.34.2', command}]},
  status: {phase: 'Running'},
})
const pod = (name: string, created: string, status: object) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'jobs', uid: `pod-${name}`, creationTimestamp: created},
  spec: {nodeName: 'n1', containers: [{name: 'c', image: 'c:1'}]},
  status,
})
const terminated = [
  pod('a', '2026-11-29T09:00:00Z', {phase: 'Succeeded'}),
  pod('b', '2026-11-29T09:30:00Z', {phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.'}),
  pod('c', '2026-11-29T09:10:00Z', {phase: 'Succeeded'}),
  pod('web', '2026-11-29T09:00:00Z', {phase: 'Running'}),
]
const BASE = ['kube-controller-manager', '--controllers=*', '--leader-elect=true']

function file(items: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'why-podgc-threshold-'))
  const f = join(dir, 'dump.json')
  writeFileSync(f, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  return f
}

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
async function run(args: string[]): Promise<any> {
  const r = await runCli([...args, '--now', '2026-11-29T10:00:00Z', '-o', 'json'])
  assert.notEqual(r.code, 2, r.stderr)
  return JSON.parse(r.stdout)
}

describe('PodGC threshold from kube-controller-manager --terminated-pod-gc-threshold', () => {
  const withFlag = file([node, kcm([...BASE, '--terminated-pod-gc-threshold=2']), ...terminated])
  const withoutFlag = file([node, kcm(BASE), ...terminated])
  const from = /--terminated-pod-gc-threshold 2 \(kube-controller-manager pod kube-system\/kube-controller-manager-cp1 --terminated-pod-gc-threshold\)/

  test('gc pod/b: 3 terminated > 2, the evicted first: PodGC force-deletes b (gcTerminated), the flag named', async () => {
    const json = await run(['gc', 'pod/b', '-n', 'jobs', '-f', withFlag])
    const podgc = json.actors.find((a: {actor: string}) => a.actor === 'podgc')
    assert.ok(podgc, JSON.stringify(json.actors))
    assert.equal(podgc.rule, 'gcTerminated')
    // willDelete although the dump holds two namespaces only: every terminated pod it lacks raises deleteCount by one
    // and can take at most one place before b, so b stays among the first deleteCount.
    assert.equal(podgc.action, 'willDelete')
    assert.match(podgc.evidence[0], /^3 terminated pods > /)
    assert.match(podgc.evidence[0], from)
    assert.match(podgc.evidence[0], /the 1 first by byEvictionAndCreationTimestamp/)
  })
  test('gc pod/a: not among the 1 deleted — no gcTerminated', async () => {
    const json = await run(['gc', 'pod/a', '-n', 'jobs', '-f', withFlag])
    assert.equal(
      json.actors.some((a: {actor: string; rule: string}) => a.actor === 'podgc' && a.rule === 'gcTerminated'),
      false,
      JSON.stringify(json.actors),
    )
  })
  test('evicted pod/a: the PodGC step carries the flag and its source, and says a is not among the 1 first', async () => {
    const json = await run(['evicted', 'pod/a', '-n', 'jobs', '-f', withFlag])
    const step = json.steps.find((s: {upstream: string}) => /podgc/.test(s.upstream))
    assert.ok(step, JSON.stringify(json.steps))
    assert.match(step.why, from)
    assert.match(step.why, /^no PodGC pass takes it: 3 terminated pods > .*not among the 1 first by byEvictionAndCreationTimestamp/)
  })
  test('no flag on the pod: the default 12500, said as the default; 3 ≤ 12500, no gcTerminated', async () => {
    const g = await run(['gc', 'pod/b', '-n', 'jobs', '-f', withoutFlag])
    assert.equal(
      g.actors.some((a: {actor: string}) => a.actor === 'podgc'),
      false,
      JSON.stringify(g.actors),
    )
    const e = await run(['evicted', 'pod/a', '-n', 'jobs', '-f', withoutFlag])
    const step = e.steps.find((s: {upstream: string}) => /podgc/.test(s.upstream))
    assert.ok(step, JSON.stringify(e.steps))
    assert.match(
      step.why,
      /^no PodGC pass takes it: 3 terminated pods ≤ --terminated-pod-gc-threshold 12500 \(the default: kube-system\/kube-controller-manager-cp1 does not set --terminated-pod-gc-threshold\)/,
    )
  })
})
