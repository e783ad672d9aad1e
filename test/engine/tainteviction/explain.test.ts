// explainEvicted verdicts over a replayed cluster. Expected values worked out by hand per test from the
// decisions document (§6, §7, §8, §10 decision chain).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {analyzeCluster} from '../../../src/engine/nodelifecycle/analyze.js'
import {NEWEST_DEFAULTS, type NodeLike, type Taint} from '../../../src/engine/nodelifecycle/types.js'
import {explainEvicted} from '../../../src/engine/tainteviction/explain.js'
import {admitDefaultTolerationSeconds} from '../../../src/engine/tainteviction/origins.js'
import type {PodLike, Toleration} from '../../../src/engine/tainteviction/types.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace('.000Z', 'Z')
const UNREACH = (s: number): Taint => ({key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(s)})
const source = {mode: 'snapshot' as const, settings: {}}

function node(name: string, zone: string, ready: string, taints: Taint[] = []): NodeLike {
  return {
    metadata: {name, uid: name, creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': zone}},
    spec: {taints},
    status: {
      conditions: [
        {
          type: 'Ready',
          status: ready,
          reason: ready === 'Unknown' ? 'NodeStatusUnknown' : undefined,
          lastHeartbeatTime: at(ready === 'True' ? -5 : -600),
          lastTransitionTime: at(-550),
        },
      ],
    },
  }
}
function pod(nodeName: string, tolerations: Toleration[], extra: Partial<PodLike> = {}): PodLike {
  return {
    metadata: {name: 'p', namespace: 'ns', uid: 'u', creationTimestamp: at(-7200), ...extra.metadata},
    spec: {nodeName, tolerations},
    status: {conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: at(-7200)}, ...(extra.status?.conditions ?? [])]},
  }
}
function explain(nodes: NodeLike[], p: PodLike, settings = NEWEST_DEFAULTS, events = []) {
  const cluster = analyzeCluster({nodes, cachedLeases: new Map(), liveLeases: new Map(), now: NOW, settings})
  const nodeName = p.spec?.nodeName
  return explainEvicted({
    namespace: 'ns',
    name: 'p',
    pod: p,
    events,
    node: nodes.find((n) => n.metadata?.name === nodeName),
    nodeAnalysis: cluster.nodes.find((n) => n.name === nodeName),
    cluster,
    now: NOW,
    settings,
    source,
  })
}
const defaults = admitDefaultTolerationSeconds([])
const healthy = (zone: string, k: number) => Array.from({length: k}, (_, i) => node(`${zone}-h${i}`, zone, 'True'))

describe('explainEvicted', () => {
  it('evictAt: tainted 100 s ago, default 300 s → deadline 200 s from now', () => {
    const e = explain([node('n1', 'a', 'Unknown', [UNREACH(-100)]), ...healthy('a', 3)], pod('n1', defaults))
    assert.equal(e.verdict, 'evictAt')
    assert.equal((e.timeline as {evictionDeadline: string}).evictionDeadline, at(200))
    assert.equal(e.minTolerationSeconds, 300)
  })
  // Issue 28: the advice for a Deployment's pod goes to the Deployment, and says the 300 s came from admission.
  // Worked by hand: the ReplicaSet web-7d9f8b6c5 carries the pod's pod-template-hash 7d9f8b6c5 as its suffix, so it
  // is the Deployment controller's ReplicaSet of Deployment "web"; the pod's unreachable toleration is Exists +
  // NoExecute + 300 s, the DefaultTolerationSeconds plugin's signature, so the template holds none to raise.
  const owned = (name: string, hash: string | undefined, tolerations: Toleration[]) =>
    pod('n1', tolerations, {
      metadata: {
        name: 'p',
        namespace: 'ns',
        uid: 'u',
        creationTimestamp: at(-7200),
        ...(hash ? {labels: {'pod-template-hash': hash}} : {}),
        ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: 'rs', controller: true}],
      } as PodLike['metadata'],
    })
  const changes = (e: ReturnType<typeof explain>) => (e.next ?? []).map((n) => n.change).filter((c) => c !== undefined)
  it('evictAt next step: a Deployment-made ReplicaSet sends the change to the Deployment; an admission default is added, not raised', () => {
    const e = explain([node('n1', 'a', 'Unknown', [UNREACH(-100)]), ...healthy('a', 3)], owned('web-7d9f8b6c5', '7d9f8b6c5', defaults))
    assert.equal(e.verdict, 'evictAt')
    const [change] = changes(e)
    assert.match(change ?? '', /^the pod template of Deployment ns\/web: /)
    assert.match(
      change ?? '',
      /spec\.tolerations \+= \{key: node\.kubernetes\.io\/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: <more than 300>\}/,
    )
    assert.match((e.next ?? [])[0].why, /DefaultTolerationSeconds admission plugin.*\(ReplicaSet web-7d9f8b6c5 is named as the Deployment controller names/)
  })
  it('evictAt next step: a ReplicaSet whose name lacks the pod-template-hash keeps the change; a written toleration is raised', () => {
    const own = [{key: 'node.kubernetes.io/unreachable', operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 600}]
    const e = explain([node('n1', 'a', 'Unknown', [UNREACH(-100)]), ...healthy('a', 3)], owned('batch-rs', '7d9f8b6c5', admitDefaultTolerationSeconds(own)))
    assert.equal(e.verdict, 'evictAt')
    const [change] = changes(e)
    assert.equal(
      change,
      'the pod template of ReplicaSet ns/batch-rs: spec.tolerations (the first one matching node.kubernetes.io/unreachable): raise tolerationSeconds',
    )
  })
  it('evictedImmediately: a user NoExecute taint nobody tolerates', () => {
    const e = explain([node('n1', 'a', 'True', [{key: 'maintenance', effect: 'NoExecute', timeAdded: at(-10)}]), ...healthy('a', 3)], pod('n1', defaults))
    assert.equal(e.verdict, 'evictedImmediately')
    assert.equal((e.tolerations as {index: number | null}[])[0].index, null)
  })
  it('evictedImmediately: tolerationSeconds 0 on the first match', () => {
    const e = explain(
      [node('n1', 'a', 'Unknown', [UNREACH(-10)]), ...healthy('a', 3)],
      pod('n1', admitDefaultTolerationSeconds([{key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0}])),
    )
    assert.equal(e.verdict, 'evictedImmediately')
  })
  it('toleratedForever: DaemonSet-style tolerations', () => {
    const ds = pod('n1', [{key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute'}], {
      metadata: {ownerReferences: [{kind: 'DaemonSet', name: 'ds', controller: true}]},
    })
    const e = explain([node('n1', 'a', 'Unknown', [UNREACH(-10)]), ...healthy('a', 3)], ds)
    assert.equal(e.verdict, 'toleratedForever')
    assert.equal((e.tolerations as {origin: string}[])[0].origin, 'daemonSet')
  })
  it('notEvictedBecause zoneRateZero: partially disrupted small zone, no taint on the node', () => {
    const nodes = [node('n1', 'a', 'Unknown'), node('n2', 'a', 'Unknown'), node('n3', 'a', 'Unknown'), node('n4', 'a', 'True'), node('b1', 'b', 'True')]
    const e = explain(nodes, pod('n1', defaults))
    assert.deepEqual([e.verdict, e.notEvictedBecause], ['notEvictedBecause', 'zoneRateZero'])
  })
  it('notEvictedBecause masterDisruption: every zone is down', () => {
    const e = explain([node('n1', 'a', 'Unknown'), node('b1', 'b', 'Unknown')], pod('n1', defaults))
    assert.deepEqual([e.verdict, e.notEvictedBecause], ['notEvictedBecause', 'masterDisruption'])
  })
  it('notEvictedBecause taintEvictionDisabled: the taint is there but no controller enforces it', () => {
    const e = explain([node('n1', 'a', 'Unknown', [UNREACH(-100)]), ...healthy('a', 3)], pod('n1', defaults), {...NEWEST_DEFAULTS, taintEvictionEnabled: false})
    assert.deepEqual([e.verdict, e.notEvictedBecause], ['notEvictedBecause', 'taintEvictionDisabled'])
  })
  it('evictAt estimated while the taint is still queued: within 10 s, then 300 s', () => {
    const e = explain([node('n1', 'a', 'Unknown'), ...healthy('a', 3)], pod('n1', defaults))
    assert.equal(e.verdict, 'evictAt')
    assert.equal((e.timeline as {evictionDeadline: string}).evictionDeadline, at(310))
    assert.equal((e.taints as {present: boolean}[])[0].present, false)
  })
  it('notAffected on a healthy node, and for an unscheduled pod', () => {
    assert.equal(explain(healthy('a', 2), pod('a-h0', defaults)).verdict, 'notAffected')
    assert.equal(explain(healthy('a', 2), pod('', defaults)).verdict, 'notAffected')
  })
  it('evicted: DisruptionTarget/DeletionByTaintManager on the pod', () => {
    const p = pod('n1', defaults, {
      status: {conditions: [{type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', lastTransitionTime: at(-5)}]},
    })
    assert.equal(explain([node('n1', 'a', 'Unknown', [UNREACH(-305)]), ...healthy('a', 3)], p).verdict, 'evicted')
  })
})
