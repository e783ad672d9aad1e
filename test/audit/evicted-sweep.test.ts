// The audit's evicted check over a hand-written dump (the sweep, src/engine/tainteviction/drive.ts sweepEvictions):
// the gathered PodDisruptionBudgets find the drain that never finishes on a cordoned node, and a node-pressure
// eviction ranks the pods on its node — across namespaces with -A, and says it cannot with -n. Objects in the shape
// the actors leave them; each answer is worked out here by hand:
//
// - Node n1 is cordoned (spec.unschedulable) and Ready, without NoExecute taints: the taint manager does nothing
//   (notAffected). Pod shop/web-1 is Running and Ready on it; PDB shop/web (minAvailable 1) records currentHealthy 1,
//   desiredHealthy 1, disruptionsAllowed 0, observedGeneration = generation 1. eviction.go checkAndDecrement with
//   disruptionsAllowed 0 answers 429 "Cannot evict pod as it would violate the pod's disruption budget." with the
//   cause disruptionDeniedMessage gives for currentHealthy ≤ desiredHealthy: "The disruption budget web needs 1
//   healthy pods and has 1 currently". A drain of n1 never finishes: evictionBlocked (warning).
// - Node n2: pod shop/cache-1 Failed, reason Evicted, DisruptionTarget TerminationByKubelet, message as helpers.go
//   evictionMessage writes it (nodeLowMessageFmt, thresholdMetMessageFmt, containerMessageFmt): container cache above
//   its 256Mi request → rankMemoryPressure (exceedMemoryRequests, priority, memory), the pod in the first group at
//   priority 0. Its neighbours on n2 are in namespace other: other/api-1 at priority 1000 > 0 ranks after it
//   whatever its use (rankedAfter); other/batch-1 at the same priority 0 goes by usage, which no dump holds
//   (dependsOnUsage); other/done-1 is Succeeded and not ranked (only active pods are). With -n shop the audit
//   reads shop's pods only: no neighbour can be ranked, and a note says so.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {auditProjectionPlan} from '../../src/audit/project.js'
import {runAudit} from '../../src/audit/run.js'
import {slimmer} from '../../src/cluster/snapshot/slim.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {chooseVersion} from '../../src/cluster/version.js'
import type {Explanation} from '../../src/explanation.js'

const NOW = '2026-06-01T12:00:00Z'
const at = (s: number) => new Date(Date.parse(NOW) + s * 1000).toISOString().replace('.000Z', 'Z')

const node = (name: string, unschedulable: boolean) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {name, uid: `${name}-uid`, creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': 'z', 'kubernetes.io/os': 'linux'}},
  spec: unschedulable ? {unschedulable: true, taints: [{key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(-600)}]} : {},
  status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: at(-5), lastTransitionTime: at(-80000)}]},
})
const lease = (name: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {name, namespace: 'kube-node-lease', uid: `lease-${name}`},
  spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: '2026-06-01T11:59:58.000000Z'},
})
const container = (name: string, memory?: string) => ({name, image: 'x', resources: memory ? {requests: {memory}} : {}})
const pod = (
  ns: string,
  name: string,
  nodeName: string,
  extra: {priority?: number; memory?: string; status?: Record<string, unknown>; labels?: Record<string, string>},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: ns,
    uid: `${name}-uid`,
    creationTimestamp: at(-7200),
    labels: extra.labels ?? {app: name.replace(/-\d+$/, '')},
    ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-rs`, uid: `${name}-rs`, controller: true}],
  },
  spec: {nodeName, priority: extra.priority ?? 0, containers: [container(name.replace(/-\d+$/, ''), extra.memory)]},
  status: extra.status ?? {
    phase: 'Running',
    conditions: [
      {type: 'PodScheduled', status: 'True', lastTransitionTime: at(-7100)},
      {type: 'Ready', status: 'True', lastTransitionTime: at(-7000)},
    ],
  },
})
const MESSAGE =
  'The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container cache was using 900Mi, request is 256Mi, has larger consumption of memory. '

const DUMP = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    node('n1', true),
    node('n2', false),
    lease('n1'),
    lease('n2'),
    pod('shop', 'web-1', 'n1', {memory: '128Mi', labels: {app: 'web'}}),
    pod('shop', 'cache-1', 'n2', {
      memory: '256Mi',
      status: {
        phase: 'Failed',
        reason: 'Evicted',
        message: MESSAGE,
        conditions: [
          {type: 'PodScheduled', status: 'True', lastTransitionTime: at(-7100)},
          {type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message: MESSAGE, lastTransitionTime: at(-300)},
        ],
      },
    }),
    pod('other', 'api-1', 'n2', {priority: 1000, memory: '128Mi'}),
    pod('other', 'batch-1', 'n2', {}),
    pod('other', 'done-1', 'n2', {status: {phase: 'Succeeded'}}),
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: {name: 'web', namespace: 'shop', uid: 'pdb-web', generation: 1},
      spec: {minAvailable: 1, selector: {matchLabels: {app: 'web'}}},
      status: {observedGeneration: 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, disruptionsAllowed: 0},
    },
  ],
}

const FILE = join(mkdtempSync(join(tmpdir(), 'evicted-sweep-')), 'dump.json')
writeFileSync(FILE, JSON.stringify({...DUMP, kubectlWhy: {format: 1, capturedAt: NOW, serverVersion: {major: '1', minor: '34', gitVersion: 'v1.34.2'}}}))

async function evicted(namespace?: string, projected = false): Promise<{findings: Explanation[]; notes: string[]}> {
  const source = await SnapshotSource.open(FILE, projected ? {slim: slimmer(auditProjectionPlan())} : {})
  const report = (await runAudit(source, {
    checks: ['evicted'],
    namespace,
    version: chooseVersion(undefined, await source.serverVersion()),
    overrides: {},
    failOn: 'warning',
    wholeObjects: !projected,
  })) as unknown as {findings: Explanation[]; summary: {checks: {name: string; notes: string[]; problems: unknown[]}[]}}
  return {findings: report.findings, notes: report.summary.checks.find((c) => c.name === 'evicted')?.notes ?? []}
}

const find = (fs: Explanation[], name: string) => fs.find((f) => f.subject.name === name)

describe('the audit sweep: budgets on cordoned nodes and the pressure ranking', () => {
  test('-A: web-1 on cordoned n1 is evictionBlocked by PDB web (429 and its cause); cache-1 ranked against the pods of n2', async () => {
    const {findings, notes} = await evicted()
    const web = find(findings, 'web-1')
    assert.ok(web, JSON.stringify(findings.map((f) => `${f.subject.name} ${f.verdict}`)))
    assert.equal(web.verdict, 'evictionBlocked')
    assert.equal(web.severity, 'warning')
    assert.match(web.summary, /429 "Cannot evict pod as it would violate the pod's disruption budget\."/)
    assert.match(web.summary, /The disruption budget web needs 1 healthy pods and has 1 currently/)
    assert.ok(web.actors?.some((a) => a.actor === 'eviction-api' && a.action === 'refusesEviction'))
    assert.ok(
      notes.some((n) => /1 node\(s\) are cordoned/.test(n)),
      notes.join('\n'),
    )

    const cache = find(findings, 'cache-1')
    assert.ok(cache)
    assert.equal(cache.verdict, 'evictedByKubelet')
    const rank = cache.steps.find((s) => s.rule === 'rankMemoryPressure')
    assert.ok(rank)
    const neighbours = (rank.inputs as {neighbours: {pod: string; standing: string}[]}).neighbours
    assert.deepEqual(neighbours.map((n) => `${n.pod} ${n.standing}`).sort(), ['other/api-1 rankedAfter', 'other/batch-1 dependsOnUsage'])
  })
  test('-n shop: the same budget answer; no neighbour ranked (the other namespace was not read), and a note says so', async () => {
    const {findings, notes} = await evicted('shop')
    assert.equal(find(findings, 'web-1')?.verdict, 'evictionBlocked')
    const cache = find(findings, 'cache-1')
    const rank = cache?.steps.find((s) => s.rule === 'rankMemoryPressure')
    assert.ok(rank)
    assert.deepEqual((rank.inputs as {neighbours: unknown[]}).neighbours, [])
    assert.match(rank.why, /The other pods on the node were not read/)
    assert.ok(
      notes.some((n) => /ranked against the pods of shop only/.test(n)),
      notes.join('\n'),
    )
  })
  test('the same answers from projected objects as from whole ones (the fields the descriptors name)', async () => {
    for (const ns of [undefined, 'shop']) {
      const whole = JSON.parse(JSON.stringify(await evicted(ns)))
      const projected = JSON.parse(JSON.stringify(await evicted(ns, true)))
      assert.deepEqual(projected, whole)
    }
  })
})
