// Issue 12.4: dumps that lack evidence. Hand-written fixtures in the shape real dumps have — a `kubectl cluster-info
// dump` of a healthy single-node k3s cluster (nodes, no Leases; the newest timestamp in it written by k3s's own etcd
// agent) and one NotReady node pasted from a larger cluster — run through the node lifecycle driver with the Evidence
// a dump reader gives (constructed here until the snapshot reader's lands). The answers are reasoned in each test.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {parse} from 'yaml'
import type {Evidence, KindCoverage} from '../../../src/explanation.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest} from '../../../src/cluster/source.js'
import {explainWorld, nodeFindings, readNodeLifecycle} from '../../../src/engine/nodelifecycle/drive.js'
import {explainPod} from '../../../src/engine/tainteviction/drive.js'
import type {PodLike} from '../../../src/engine/tainteviction/types.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/nodelifecycle/${name}`, import.meta.url), 'utf8')
/**
 * `kubectl cluster-info dump` prints its Lists one after another, each opening with "{" at the start of a line; its
 * items carry no kind (the List's kind names it), as a dump reader restores.
 */
const concatenatedLists = (text: string): KubeObject[] =>
  text.split(/\n(?=\{\n)/).flatMap((d) => {
    const list = JSON.parse(d) as {kind: string; items: KubeObject[]}
    return list.items.map((o) => ({...o, kind: list.kind.replace(/List$/, ''), apiVersion: 'v1'}))
  })

function evidence(o: {nodeSet: Evidence['nodeSet']; clock: string; clockFrom: string; kinds: KindCoverage[]}): Evidence {
  return {
    kinds: o.kinds,
    servedVersions: [],
    nodeLeases: 'absent',
    nodeSet: o.nodeSet,
    clock: {at: o.clock, from: o.clockFrom, trust: 'estimated'},
    missing: [],
    coverage: (group, kind) => {
      const k = o.kinds.find((x) => x.group === group && x.kind === kind)
      return {held: !!k && k.count > 0, absenceIsProof: k?.absenceIsProof ?? false, why: `the data holds no ${kind}`}
    },
  }
}

/** A dump in memory: lists and GETs answered from the objects, the clock and Evidence as a dump reader gives them. */
function dump(objects: KubeObject[], ev: Evidence): ClusterSource {
  const kindOf = (o: KubeObject) => o.kind ?? ''
  const match = (o: KubeObject, r: ListRequest | GetRequest) => kindOf(o) === r.kind && (r.namespace === undefined || o.metadata?.namespace === r.namespace)
  return {
    describe: () => ({mode: 'snapshot', file: 'dump.json'}),
    serverVersion: async () => undefined,
    discovery: async () => [],
    get: async (r) => objects.find((o) => match(o, r) && o.metadata?.name === r.name),
    list: async (r) => ({
      items: objects.filter(
        (o) =>
          match(o, r) &&
          (!r.labelSelector || Object.entries(o.metadata?.labels ?? {}).some(([k, v]) => r.labelSelector === `${k}=${v}`)) &&
          (!r.fieldSelector || r.fieldSelector === `spec.nodeName=${(o.spec as {nodeName?: string} | undefined)?.nodeName}`),
      ),
    }),
    async *pages(r) {
      yield (await this.list(r)).items
    },
    defaultNamespace: () => 'default',
    now: () => new Date(ev.clock.at),
    problems: () => [],
    evidence: async () => ev,
  }
}

const covered = (kind: string, count: number, group = ''): KindCoverage => ({
  group,
  kind,
  coverage: 'all',
  absenceIsProof: false,
  from: 'objects in the dump',
  count,
})

describe('kubectl cluster-info dump of a healthy single-node cluster (nodes, no Leases)', () => {
  const objects = concatenatedLists(fixture('cluster-info-dump-healthy.json'))
  const ev = evidence({
    nodeSet: 'complete',
    clock: '2026-11-29T10:21:40Z',
    clockFrom: "the newest timestamp in the data (a Node condition's lastHeartbeatTime)",
    kinds: [covered('Node', 1), covered('Pod', 1), covered('Lease', 0, 'coordination.k8s.io')],
  })

  it('no finding above info: the 3m38s-old status heartbeat is no sign of death without the Lease', async () => {
    // Ready True, lastHeartbeatTime 10:18:02; the clock 10:21:40 (k3s's EtcdIsVoter heartbeat, the newest time in
    // the file). 3m38s > the 50 s grace — but a kubelet that renews its Lease posts status only every 5 min, and
    // the data holds no Lease: the node is `unknown` (info), not stale; nothing is marked Unknown, the zone stays
    // Normal, no master disruption (the old answer: critical masterDisruption, "Ready becomes Unknown now").
    const world = await readNodeLifecycle(dump(objects, ev), {overrides: {}})
    const c = explainWorld(world) as Any
    assert.deepEqual([c.verdict, c.severity, c.masterDisruption], ['healthy', 'info', false])
    assert.deepEqual(
      c.nodes.map((n: Any) => [n.name, n.verdict, n.severity]),
      [['edge-1', 'unknown', 'info']],
    )
    assert.deepEqual(
      c.zones.map((z: Any) => [z.state, z.rate]),
      [['Normal', 0.1]],
    )
    assert.match(c.summary, /cannot tell whether 1 node\(s\) are alive: it holds no Lease/)
    assert.match(c.summary, /Evaluated at 2026-11-29T10:21:40Z, an estimated clock: the newest timestamp in the data/)
    assert.doesNotMatch(c.summary, /Ready becomes Unknown|read live/)
    const node = nodeFindings(world).findings[0] as Any
    assert.equal(node.verdict, 'unknown')
    assert.deepEqual(node.conditionsSetUnknown, [])
    assert.ok(node.next.some((n: Any) => /kubectl get lease edge-1 -n kube-node-lease/.test(n.command)))
  })
  it('its coredns pod is notAffected: no NoExecute taint is present or owed on what the data shows', async () => {
    const world = await readNodeLifecycle(dump(objects, ev), {overrides: {}})
    const pod = objects.find((o) => o.kind === 'Pod') as PodLike
    assert.equal(explainPod(world, 'kube-system', 'coredns-6799fbcd5-7kq2x', pod, []).verdict, 'notAffected')
  })
})

describe('one NotReady node pasted from a larger cluster (node set partial, no Leases)', () => {
  const node = {...parse(fixture('one-notready-node-extract.yaml')), kind: 'Node'} as KubeObject
  const ev = evidence({
    nodeSet: 'partial',
    clock: '2026-11-29T10:01:12Z',
    clockFrom: "the newest timestamp in the data (a taint's timeAdded)",
    kinds: [covered('Node', 1), covered('Lease', 0, 'coordination.k8s.io')],
  })

  it('master disruption is not given: the unreachable:NoExecute taint added at 10:01:12 proves the controller was tainting', async () => {
    // The only node in the data is Ready Unknown since 10:00:52, so "every zone in the data" is fully disrupted
    // and the replay would say master disruption (critical, "tainting stopped everywhere"). But the controller
    // added unreachable:NoExecute at 10:01:12, after that: in master disruption mode it adds none. So other nodes
    // are ready; zone eu-central-1b alone is FullDisruption and keeps the normal 0.1/s. The node's verdict rests
    // on the controller's own marks (NodeStatusUnknown, the taint): unhealthy, warning.
    const world = await readNodeLifecycle(dump([node], ev), {overrides: {}})
    const c = explainWorld(world) as Any
    assert.deepEqual([c.verdict, c.masterDisruption], ['degraded', false])
    assert.match(c.summary, /Not master disruption mode: worker-7 carries node\.kubernetes\.io\/unreachable:NoExecute added at 2026-11-29T10:01:12Z/)
    assert.match(c.summary, /from the 1 node in the data/)
    assert.deepEqual(
      c.zones.map((z: Any) => [z.name, z.state, z.rate]),
      [['eu-central-1/eu-central-1b', 'FullDisruption', 0.1]],
    )
    assert.deepEqual(
      c.nodes.map((n: Any) => [n.name, n.verdict, n.severity]),
      [['worker-7', 'unhealthy', 'warning']],
    )
    assert.ok(c.severity !== 'critical')
  })
  it('with every Node listed (node set complete) the refusal does not assume missing nodes: it names the other explanations', async () => {
    // Same node, but the dump lists Nodes completely: there is no node outside the data to be ready. The taint
    // after the zone went down still contradicts master disruption mode; what is left is another actor's taint of
    // that key and effect, or a controller restart (fresh memory, zone states not those the conditions show).
    const world = await readNodeLifecycle(dump([node], {...ev, nodeSet: 'complete'}), {overrides: {}})
    const c = explainWorld(world) as Any
    assert.match(c.summary, /Not master disruption mode: worker-7 carries/)
    assert.doesNotMatch(c.summary, /nodes outside the data are ready/)
    assert.match(c.summary, /another actor/)
    assert.match(c.summary, /restarted/)
  })
  it('two NotReady nodes with no taint: master disruption from the 2 nodes in the data, info, not critical', async () => {
    // Nothing contradicts it here, but the other nodes of the cluster may be ready: the verdict is given "from the
    // nodes in the data" and no severity above info rests on the nodes the data lacks.
    const bare = (name: string) => ({...node, metadata: {...node.metadata, name, uid: name}, spec: {}}) as KubeObject
    const world = await readNodeLifecycle(dump([bare('worker-7'), bare('worker-8')], ev), {overrides: {}})
    const c = explainWorld(world) as Any
    assert.deepEqual([c.verdict, c.severity], ['masterDisruption', 'info'])
    assert.match(c.summary, /^Master disruption mode \(from the 2 nodes in the data, which may not hold every node\)/)
    assert.ok(c.nodes.every((n: Any) => n.verdict === 'taintBlocked' && n.severity === 'info'))
  })
})

describe('a pending taint judged from a partial node set', () => {
  it("taintPending and the pod's deadline are info: the zone's rate depends on nodes the data may lack", async () => {
    // worker-7 (Unknown, NodeStatusUnknown, no NoExecute taint yet) and worker-8 (Ready, heartbeat 5 s before the
    // clock) in eu-central-1b: 1 of 2 not ready → Normal → 0.1/s → taintPending. But the real zone may be larger
    // and partially disrupted (rate 0 when ≤ 50 nodes): the rate, so the taint and the pod's deadline, rest on
    // missing nodes → info, not warning.
    const node = {...parse(fixture('one-notready-node-extract.yaml')), kind: 'Node'} as KubeObject
    const down = {...node, spec: {}} as KubeObject
    const up = {
      ...node,
      metadata: {...node.metadata, name: 'worker-8', uid: 'w8'},
      spec: {},
      status: {
        conditions: [
          {type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: '2026-11-29T10:01:07Z', lastTransitionTime: '2026-11-01T00:00:00Z'},
        ],
      },
    } as KubeObject
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'web-1', namespace: 'shop', uid: 'p1', creationTimestamp: '2026-11-29T08:00:00Z'},
      spec: {nodeName: 'worker-7', tolerations: [{key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300}]},
      status: {conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-11-29T08:00:00Z'}]},
    } as KubeObject
    const ev = evidence({
      nodeSet: 'partial',
      clock: '2026-11-29T10:01:12Z',
      clockFrom: 'the newest timestamp in the data',
      kinds: [covered('Node', 2), covered('Pod', 1)],
    })
    const world = await readNodeLifecycle(dump([down, up, pod], ev), {overrides: {}})
    const c = explainWorld(world) as Any
    assert.deepEqual(
      c.nodes.map((n: Any) => [n.name, n.verdict, n.severity]),
      [
        ['worker-7', 'taintPending', 'info'],
        ['worker-8', 'healthy', 'none'],
      ],
    )
    const e = explainPod(world, 'shop', 'web-1', pod as PodLike, [])
    assert.deepEqual([e.verdict, e.severity], ['evictAt', 'info'])
  })
})

describe('no nodes in the data', () => {
  it('is its own answer, not "All nodes healthy. 0 nodes"', async () => {
    const ev = evidence({nodeSet: 'none', clock: '2026-11-29T10:00:00Z', clockFrom: 'the newest timestamp in the data', kinds: [covered('Node', 0)]})
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'web-1', namespace: 'shop', creationTimestamp: '2026-11-29T09:00:00Z'},
      spec: {nodeName: 'n1'},
    } as KubeObject
    const c = explainWorld(await readNodeLifecycle(dump([pod], ev), {overrides: {}})) as Any
    assert.deepEqual([c.verdict, c.severity], ['noNodes', 'info'])
    assert.match(c.summary, /^No nodes in the data: nothing to replay\./)
    assert.doesNotMatch(c.summary, /All nodes healthy/)
    assert.equal(c.next[0].command, 'kubectl get nodes -o yaml')
  })
})
