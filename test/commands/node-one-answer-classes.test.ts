// Issue 31 point 3: `kubectl why node NAME`, `kubectl why node` (all) and the audit give one answer on the monitor
// pass's classes, each through the CLI on one snapshot. Class 1: this pass enters master disruption mode and
// handleDisruption's markNodeAsReachable (nlc.go@2b96ebcf:1033-1121) takes the NoExecute taint off in the same
// pass. Class 2: a Lease older than the Ready heartbeat is first seen one --node-monitor-period after the heartbeat
// change. Expected values are worked by hand below from upstream, never from the code under test. Run
// `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const NOW = Date.parse('2026-06-01T12:00:00Z')
const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace('.000Z', 'Z')
const micro = (s: number) => new Date(NOW + s * 1000).toISOString().replace('Z', '000Z')
const dir = mkdtempSync(join(tmpdir(), 'why-classes-'))

function node(name: string, zone: string, ready: 'True' | 'Unknown', hb: number, lt: number, taints: object[] = []): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {name, uid: `uid-${name}`, resourceVersion: '100', creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': zone}},
    spec: {taints},
    status: {
      conditions: [
        {
          type: 'Ready',
          status: ready,
          reason: ready === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletReady',
          lastHeartbeatTime: at(hb),
          lastTransitionTime: at(lt),
        },
      ],
    },
  }
}
function lease(name: string, renew: number, rv: string): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {name, namespace: 'kube-node-lease', uid: `lease-${name}`, resourceVersion: rv, creationTimestamp: at(-86400)},
    spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro(renew)},
  }
}
function pod(name: string, nodeName: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name, namespace: 'shop', uid: `pod-${name}`, creationTimestamp: at(-7200)},
    spec: {
      nodeName,
      containers: [{name: 'c', image: 'img'}],
      // What the DefaultTolerationSeconds admission plugin adds: 300 s for both NoExecute keys.
      tolerations: [
        {key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300},
        {key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300},
      ],
    },
    status: {phase: 'Running', conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: at(-7200)}]},
  }
}
function snapshot(file: string, nodes: KubeObject[], leases: KubeObject[], pods: KubeObject[]): string {
  const path = join(dir, file)
  const doc = {
    apiVersion: 'v1',
    kind: 'List',
    metadata: {resourceVersion: ''},
    kubectlWhy: {format: 1, capturedAt: at(0), serverVersion: {major: '1', minor: '37', gitVersion: 'v1.37.0'}, context: 'test', cached: leases},
    items: [...nodes, ...leases, ...pods],
  }
  writeFileSync(path, JSON.stringify(doc))
  return path
}

async function json(args: string[]): Promise<Any> {
  const r = await runCli([...args, '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, `${args.join(' ')}: exit ${r.code}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** The three paths' answers for one node: `node NAME`, its line in `node`, and the audit's finding (or none). */
async function threeWays(file: string, name: string, now: string) {
  const one = await json(['node', name, '-f', file, '--now', now])
  const all = await json(['node', '-f', file, '--now', now])
  const audit = await json(['audit', '-A', '-f', file, '--now', now, '--checks', 'node,evicted'])
  const line = all.nodes.find((n: Any) => n.name === name)
  const finding = audit.findings.find((f: Any) => f.controller === 'nodelifecycle' && f.subject.name === name)
  return {one, line, finding, audit}
}

describe('class 1: master disruption entered in this pass, the NoExecute taint removed in it', () => {
  // Zone a: n1 Unknown since −600 s, tainted unreachable:NoExecute at −540 s, lease last renewed −700 s. Zone b: n2
  // Ready True, lease renewed −51 s: 51 s > the 50 s grace, so this pass writes Unknown on it. Before the pass zone a
  // is FullDisruption and zone b Normal; after it both are FullDisruption: handleDisruption enters master disruption
  // mode and markNodeAsReachable takes n1's taint off now. So n1's NoExecute is blocked (masterDisruption), nothing
  // present, the removal at now; its pod with 300 s tolerations is not evicted (the taint is gone, and while present
  // it was 540 s old: the pre-fix reading said evicted).
  const file = snapshot(
    'class1.json',
    [
      node('n1', 'a', 'Unknown', -700, -600, [{key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(-540)}]),
      node('n2', 'b', 'True', -240, -3600),
    ],
    [lease('n1', -700, '5'), lease('n2', -51, '6')],
    [pod('web-1', 'n1')],
  )

  test('node n1, node and the audit agree: taintBlocked by master disruption, the taint removed this pass', async () => {
    const {one, line, finding, audit} = await threeWays(file, 'n1', at(0))
    assert.equal(one.verdict, 'taintBlocked')
    assert.equal(one.masterDisruption, true)
    assert.equal(one.taints.noExecute.present, null)
    assert.equal(one.taints.noExecute.blockedBecause, 'masterDisruption')
    assert.deepEqual(one.taints.noExecute.removedThisPass.taints, ['node.kubernetes.io/unreachable:NoExecute'])
    assert.equal(one.taints.noExecute.removedThisPass.at, at(0))
    assert.equal(one.timeline.noExecuteTaintRemoved, at(0))

    assert.equal(line.verdict, one.verdict)
    assert.equal(line.severity, one.severity)
    assert.equal(line.noExecute, one.taints.noExecute.status)
    assert.match(line.noExecuteDetail, /removed now \(master disruption entry\)/)
    assert.equal(line.summary, one.summary)

    assert.ok(finding, 'the audit reports n1')
    assert.equal(finding.verdict, one.verdict)
    assert.equal(finding.severity, one.severity)
    assert.equal(finding.summary, one.summary)
    // The pod: not evicted in all paths (the audit reports no evicted finding for it).
    const ev = await json(['evicted', 'pod/web-1', '-n', 'shop', '-f', file, '--now', at(0)])
    assert.equal(ev.verdict, 'notEvictedBecause')
    const evFinding = audit.findings.find((f: Any) => f.controller === 'tainteviction' && f.subject.name === 'web-1')
    assert.ok(!evFinding || evFinding.verdict === ev.verdict, `audit says ${evFinding?.verdict}`)
  })
})

describe('class 2: a Lease older than the heartbeat is first seen one monitor period after it', () => {
  // n1's kubelet posted status at −54 s and died; its Lease was last renewed at −58 s. The pass that saw the
  // heartbeat change (−54 s) rebuilt the record without the Lease; the next pass (−49 s, one 5 s period later) saw
  // the Lease first: probe −49 s, grace (50 s) until +1 s, stale only strictly after it (now.After). n2, n3 in the
  // same zone renew every few seconds, so the zone stays Normal (1 of 3 down at most < 55 %).
  const file = snapshot(
    'class2.json',
    [node('n1', 'a', 'True', -54, -3600), node('n2', 'a', 'True', -5, -3600), node('n3', 'a', 'True', -5, -3600)],
    [lease('n1', -58, '7'), lease('n2', -1, '8'), lease('n3', -1, '9')],
    [],
  )

  // At now the node is within its grace but overdue (49 s since the probe > the 10 s renew interval, 40 s / 4, plus
  // one 5 s period): withinGrace, info, Ready still True and nothing written. max(heartbeat, renewTime) = −54 s
  // would have written Unknown at −4 s and made it taintPending (a warning).
  test('at now: withinGrace in all three, Ready True, last sign of life −49 s (not max(heartbeat, renewTime) = −54 s)', async () => {
    const {one, line, finding} = await threeWays(file, 'n1', at(0))
    assert.equal(one.verdict, 'withinGrace')
    assert.equal(one.severity, 'info')
    assert.deepEqual(one.conditionsSetUnknown, [])
    assert.equal(line.verdict, one.verdict)
    assert.equal(line.severity, one.severity)
    assert.equal(line.ready, 'True')
    assert.equal(line.lastSignOfLife, at(-49))
    assert.equal(line.graceExpiry, at(1))
    assert.ok(finding, 'the audit reports n1 (info)')
    assert.equal(finding.verdict, one.verdict)
    assert.equal(finding.severity, one.severity)
  })

  test('2 s later (past −49 s + 50 s): Unknown written this pass, a NoExecute taint due, the same in all three', async () => {
    const {one, line, finding} = await threeWays(file, 'n1', at(2))
    assert.notEqual(one.severity, 'none')
    assert.ok(one.conditionsSetUnknown.some((c: Any) => c.type === 'Ready' && c.to === 'Unknown'))
    assert.equal(line.verdict, one.verdict)
    assert.equal(line.severity, one.severity)
    assert.equal(line.lastSignOfLife, at(-49))
    assert.ok(finding, 'the audit reports n1')
    assert.equal(finding.verdict, one.verdict)
    assert.equal(finding.severity, one.severity)
  })
})
