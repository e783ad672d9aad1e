// evicted with no version in the data (issue 27 point 3, "the same rule for every command"): the pod's node is
// test/fixtures/nodelifecycle/no-version-45s.yaml's worker-3 (last sign of life 10:00:00, evaluated at 10:00:45), and a
// second node, worker-9 in another zone, heard from at 10:00:40 (so not every zone is fully disrupted). Worked by hand:
// - under 1.20–1.31 (--node-monitor-grace-period 40s) worker-3's grace expired at 10:00:40: it is Unknown and owed
//   node.kubernetes.io/unreachable:NoExecute; zone-a is fully disrupted but zone-b is not, so the zone's taints go at
//   the full rate: the pod (tolerating it for 300 s) is evicted 5 minutes after the taint: evictAt;
// - under 1.32–1.37 (50s) worker-3 is within its grace until 10:00:50: no taint is owed, nothing evicts the pod.
// So the answer depends on the release: said first, both answers named, and no more than info (evicted under some
// releases only). --k8s-version settles it: 1.31 gives evictAt alone, 1.32 notAffected alone, neither says it.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {runCli} from '../support/cli.js'

const extra = `- apiVersion: v1
  kind: Pod
  metadata: {name: web-1, namespace: shop, uid: pod-web-1, creationTimestamp: '2026-11-29T09:00:00Z'}
  spec:
    nodeName: worker-3
    tolerations:
    - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
    - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
    containers: [{name: web, image: nginx}]
  status:
    phase: Running
    conditions:
    - {type: PodScheduled, status: 'True', lastTransitionTime: '2026-11-29T09:00:00Z'}
- apiVersion: v1
  kind: Node
  metadata: {name: worker-9, uid: node-worker-9, creationTimestamp: '2026-11-01T08:00:00Z', labels: {topology.kubernetes.io/zone: zone-b}}
  spec: {}
  status:
    conditions:
    - {type: Ready, status: 'True', reason: KubeletReady, lastHeartbeatTime: '2026-11-29T10:00:40Z', lastTransitionTime: '2026-11-01T08:01:00Z'}
- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: worker-9, namespace: kube-node-lease}
  spec: {holderIdentity: worker-9, leaseDurationSeconds: 40, renewTime: '2026-11-29T10:00:40.000000Z'}
`
const base = readFileSync(new URL('../fixtures/nodelifecycle/no-version-45s.yaml', import.meta.url), 'utf8')
const file = join(mkdtempSync(join(tmpdir(), 'evicted-nv-')), 'dump.yaml')
writeFileSync(file, `${base.trimEnd()}\n${extra}`)

async function evicted(...flags: string[]): Promise<{verdict: string; severity: string; summary: string; steps: {rule: string; result: string}[]}> {
  const r = await runCli(['evicted', 'pod/web-1', '-n', 'shop', '-f', file, '--now', '2026-11-29T10:00:45Z', '-o', 'json', ...flags])
  assert.equal(r.stderr, '')
  return JSON.parse(r.stdout)
}

test('no version: the node owes the pod a taint under 1.20–1.31 only — said first, both answers, info', async () => {
  const e = await evicted()
  assert.match(e.summary, /^The Kubernetes version is not known/)
  assert.match(
    e.summary,
    /under 1\.20–1\.31 \(node-monitor-grace-period 40s[^)]*\): [a-zA-Z]+, grace expiring 2026-11-29T10:00:40Z, node\.kubernetes\.io\/unreachable:NoExecute/,
  )
  assert.match(e.summary, /under 1\.32–1\.37 \(node-monitor-grace-period 50s\): withinGrace, grace expiring 2026-11-29T10:00:50Z/)
  assert.equal(e.severity, 'info')
  const step = e.steps.find((s) => s.rule === 'release')
  assert.equal(step?.result, 'depends')
})

test('--k8s-version settles it: 1.31 evicts 5 minutes after the taint, 1.32 leaves the pod; neither speaks of the version', async () => {
  const old = await evicted('--k8s-version', '1.31')
  assert.equal(old.verdict, 'evictAt')
  assert.match(old.summary, /evicted after 5m/)
  const now = await evicted('--k8s-version', '1.32')
  assert.equal(now.verdict, 'notAffected')
  for (const e of [old, now]) {
    assert.doesNotMatch(e.summary, /version is not known/)
    assert.equal(
      e.steps.find((s) => s.rule === 'release'),
      undefined,
    )
  }
})

test('a NoExecute taint the node carries runs the same timer under every release: nothing said of the version', async () => {
  // worker-3 carrying the unreachable taint since 10:00:42: processPodOnNode reads the taint, not the grace period.
  const tainted = readFileSync(file, 'utf8').replace(
    /(\n {4}name: worker-3\n[\s\S]*?\n {2})spec: \{\}/,
    "$1spec: {taints: [{key: node.kubernetes.io/unreachable, effect: NoExecute, timeAdded: '2026-11-29T10:00:42Z'}]}",
  )
  assert.notEqual(tainted, readFileSync(file, 'utf8'))
  const f = join(mkdtempSync(join(tmpdir(), 'evicted-nv-')), 'tainted.yaml')
  writeFileSync(f, tainted)
  const r = await runCli(['evicted', 'pod/web-1', '-n', 'shop', '-f', f, '--now', '2026-11-29T10:00:45Z', '-o', 'json'])
  const e = JSON.parse(r.stdout)
  assert.equal(e.verdict, 'evictAt')
  assert.doesNotMatch(e.summary, /version is not known/)
})

test('the audit gives the pod the same answer (its sweep replays the pods of a node whose answer depends on the release)', async () => {
  const r = await runCli(['audit', '-A', '-f', file, '--now', '2026-11-29T10:00:45Z', '-o', 'json'])
  const report = JSON.parse(r.stdout) as {findings: {controller: string; subject: {name: string}; verdict: string; severity: string; summary: string}[]}
  const pod = report.findings.find((f) => f.controller === 'tainteviction' && f.subject.name === 'web-1')
  const alone = await evicted()
  assert.ok(pod, 'the audit has a finding for pod web-1')
  assert.deepEqual([pod.verdict, pod.severity, pod.summary], [alone.verdict, alone.severity, alone.summary])
})
