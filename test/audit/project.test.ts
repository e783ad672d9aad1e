// The projections keep what the engines read and drop the rest: the engines give the same explanation from a projected
// object as from the whole one (the zone-outage and deletion-cost examples, every pod), and what is dropped is dropped.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import {auditProjectionPlan, Interner, projectMetadata, projectMetadataOnly, projector} from '../../src/audit/project.js'
import {fieldProjection, projectWhole} from '../../src/cluster/projection.js'
import type {KubeObject} from '../../src/cluster/source.js'
import {GRAPH_FIELDS} from '../../src/engine/garbagecollector/descriptor.js'
import {REPLICAS_REPLAY} from '../../src/engine/replicaset/descriptor.js'
import {analyzeCluster} from '../../src/engine/nodelifecycle/analyze.js'
import type {LeaseLike, NodeLike} from '../../src/engine/nodelifecycle/types.js'
import {NEWEST_DEFAULTS} from '../../src/engine/nodelifecycle/types.js'
import {explainReplicaSet, type Pod, type ReplicaSet} from '../../src/engine/replicaset/index.js'
import {explainEvicted} from '../../src/engine/tainteviction/explain.js'
import type {EventLike, PodLike} from '../../src/engine/tainteviction/types.js'

// Each kind's projection as the audit makes it from every replay's reads (the descriptors), as a snapshot applies it.
const plan = auditProjectionPlan()
const ofKind = (key: string) => (o: KubeObject, intern?: Interner) => fieldProjection(plan.byKind.get(key)!, intern)(o)
const projectPod = ofKind('/Pod')
const projectNode = ofKind('/Node')
const projectReplicaSet = (o: KubeObject) =>
  projector({metadataOnly: false, needs: [{fields: REPLICAS_REPLAY.reads.find((r) => r.key === 'replicasets')!.fields}, {fields: GRAPH_FIELDS}]})(o)
const projectObject = projectWhole

const example = (name: string): {items: KubeObject[]; kubectlWhy?: {capturedAt: string}} =>
  parse(readFileSync(fileURLToPath(new URL(`../../examples/${name}`, import.meta.url)), 'utf8'))

describe('projectPod', () => {
  const full: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-1',
      namespace: 'shop',
      uid: 'u1',
      labels: {app: 'web'},
      managedFields: [{manager: 'kubelet'}],
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{"huge": true}',
        'controller.kubernetes.io/pod-deletion-cost': '-5',
        'prometheus.io/scrape': 'true',
      },
      ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true}],
    },
    spec: {
      nodeName: 'n1',
      tolerations: [{key: 'a', operator: 'Exists'}],
      containers: [{name: 'web', image: 'x', env: [{name: 'A', value: 'b'}]}],
      initContainers: [{name: 'proxy', image: 'p', restartPolicy: 'Always'}],
      volumes: [{name: 'v'}],
    },
    status: {
      phase: 'Running',
      podIP: '10.0.0.1',
      conditions: [
        {type: 'PodReadyToStartContainers', status: 'True', lastTransitionTime: 't0'},
        {type: 'Initialized', status: 'True', lastTransitionTime: 't0'},
        {type: 'Ready', status: 'True', lastTransitionTime: 't', message: 'long'},
        {type: 'ContainersReady', status: 'True', lastTransitionTime: 't'},
        {type: 'PodScheduled', status: 'True', lastTransitionTime: 't0'},
        {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'DeletionByTaintManager',
          message: 'Taint manager: deleting due to NoExecute taint',
          lastTransitionTime: 't2',
        },
      ],
      containerStatuses: [{name: 'web', restartCount: 3, image: 'x', state: {running: {}}}],
      initContainerStatuses: [{name: 'proxy', restartCount: 1, ready: true}],
    },
  }

  test('keeps the fields the engines read, nothing else', () => {
    assert.deepEqual(projectPod(full), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-1',
        namespace: 'shop',
        uid: 'u1',
        labels: {app: 'web'},
        annotations: {'controller.kubernetes.io/pod-deletion-cost': '-5'},
        ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true}],
      },
      // Containers keep their names and resources (the evicted replay's QoS and pressure ranking): this one has none,
      // so only its name; image and env are gone.
      spec: {
        nodeName: 'n1',
        tolerations: [{key: 'a', operator: 'Exists'}],
        containers: [{name: 'web'}],
        initContainers: [{name: 'proxy', restartPolicy: 'Always'}],
        // Volumes keep their name, claim and ephemeral source (the deleting check's podUsesPVC): this one has only a name.
        volumes: [{name: 'v'}],
      },
      status: {
        phase: 'Running',
        // Ready (the ReplicaSet replay), PodScheduled and DisruptionTarget (taint eviction), in their order; the
        // three types no engine reads are gone.
        conditions: [
          {type: 'Ready', status: 'True', lastTransitionTime: 't'},
          {type: 'PodScheduled', status: 'True', lastTransitionTime: 't0'},
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'DeletionByTaintManager',
            message: 'Taint manager: deleting due to NoExecute taint',
            lastTransitionTime: 't2',
          },
        ],
        containerStatuses: [{name: 'web', restartCount: 3}],
        initContainerStatuses: [{name: 'proxy', restartCount: 1}],
      },
    })
  })

  test('the kube-controller-manager mirror pod keeps its command line (the node lifecycle settings come from it)', () => {
    const kcm: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'kube-controller-manager-cp-1', namespace: 'kube-system', labels: {component: 'kube-controller-manager'}, managedFields: []},
      spec: {containers: [{name: 'kube-controller-manager', command: ['kube-controller-manager', '--node-monitor-grace-period=20s']}]},
    }
    const p = projectPod(kcm)
    assert.deepEqual((p.spec as {containers: unknown[]}).containers, [
      {name: 'kube-controller-manager', command: ['kube-controller-manager', '--node-monitor-grace-period=20s']},
    ])
    assert.equal(p.metadata?.managedFields, undefined)
  })

  test('other objects lose managedFields and the last-applied annotation only; metadata-only items keep metadata only', () => {
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'r',
        managedFields: [{}],
        annotations: {'kubectl.kubernetes.io/last-applied-configuration': '{}', 'deployment.kubernetes.io/revision': '3'},
      },
      spec: {replicas: 2},
      status: {replicas: 2},
    }
    assert.deepEqual(projectObject(rs), {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {name: 'r', annotations: {'deployment.kubernetes.io/revision': '3'}},
      spec: {replicas: 2},
      status: {replicas: 2},
    })
    // Without a uid it cannot be in the collector's graph: its metadata is kept as it is (less managedFields).
    assert.deepEqual(projectMetadataOnly(rs), {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {name: 'r', annotations: {'deployment.kubernetes.io/revision': '3'}},
    })
  })

  test('a ReplicaSet keeps its template spec only when the hash check reads it (it recomputes pod-template-hash from it)', () => {
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {name: 'web-1'},
      spec: {replicas: 2, selector: {matchLabels: {app: 'web'}}, template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'web', image: 'x'}]}}},
    }
    assert.deepEqual(projectReplicaSet(rs).spec, {
      replicas: 2,
      selector: {matchLabels: {app: 'web'}},
      template: {metadata: {labels: {app: 'web'}}},
    })
    assert.deepEqual(projector({metadataOnly: false, needs: [{fields: '*'}, {fields: REPLICAS_REPLAY.reads[0].fields}]})(rs).spec, rs.spec)
  })

  test("metadata-only items take the collector's graph shape (slimObject): what gc and the terminating-namespace test read", () => {
    const ns: KubeObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'team-a',
        uid: 'ns-1',
        resourceVersion: '7',
        labels: {x: 'y'},
        annotations: {a: 'b'},
        managedFields: [{}],
        deletionTimestamp: '2026-11-29T01:00:00Z',
        finalizers: ['kubernetes'],
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
    }
    assert.deepEqual(projectMetadataOnly(ns), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {name: 'team-a', uid: 'ns-1', resourceVersion: '7', deletionTimestamp: '2026-11-29T01:00:00Z', finalizers: ['kubernetes']},
    })
  })

  test('interning shares equal values and structures, never unequal ones', () => {
    const intern = new Interner()
    const a = projectPod(structuredClone(full), intern)
    const b = projectPod({...structuredClone(full), spec: {...structuredClone(full.spec as object), tolerations: [{key: 'b', operator: 'Exists'}]}}, intern)
    assert.equal(a.metadata!.labels, b.metadata!.labels)
    assert.notEqual((a.spec as {tolerations: unknown}).tolerations, (b.spec as {tolerations: unknown}).tolerations)
    assert.deepEqual((b.spec as {tolerations: unknown}).tolerations, [{key: 'b', operator: 'Exists'}])
  })

  test("metadata-only kinds with an interner: the same metadata, the owner reference of one CronJob's Jobs shared", () => {
    const job = (n: number): KubeObject => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `backup-${n}`,
        namespace: 'ops',
        uid: `u${n}`,
        labels: {'batch.kubernetes.io/controller-uid': `u${n}`, 'job-name': `backup-${n}`},
        annotations: {'batch.kubernetes.io/cronjob-scheduled-timestamp': 't'},
        ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: 'backup', uid: 'cj', controller: true}],
        managedFields: [{manager: 'kube-controller-manager'}],
      },
      spec: {template: {spec: {containers: [{name: 'b', image: 'x'}]}}},
    })
    const intern = new Interner()
    const [a, b] = [projectMetadata(job(1), intern), projectMetadata(job(2), intern)]
    const {managedFields: _, ...kept} = job(2).metadata!
    assert.deepEqual(b, {apiVersion: 'batch/v1', kind: 'Job', metadata: kept})
    assert.equal(a.metadata!.ownerReferences, b.metadata!.ownerReferences)
    // Without an interner, the same answer.
    assert.deepEqual(projectMetadata(job(2)), b)
  })

  test('a structure holding an integer beyond 2^53 (read exactly, a bigint) is kept, not shared', () => {
    const intern = new Interner()
    const refs = [{apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', extra: 2n ** 60n}]
    assert.equal(intern.same(refs), refs)
    const again = [...refs]
    assert.equal(intern.same(again), again)
  })

  test('what a projection made passes that projection again as it is; an object read as it was (live) is projected', () => {
    // The snapshot source projects as objects arrive, the gathering projects again: the second must not copy.
    const pod = projectPod(structuredClone(full))
    assert.equal(projectPod(pod), pod)
    const node = projectNode({apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1', managedFields: [{}]}, status: {conditions: [], images: [{names: ['x']}]}})
    assert.equal(projectNode(node), node)
    const lease = projectObject({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: {name: 'n1', managedFields: [{}]}, spec: {renewTime: 't'}})
    assert.equal(projectObject(lease), lease)
    // A projection that kept more (a whole pod) holds all a narrower one asks for: passed as it is. A projected pod is
    // not taken for a whole object, and one projected narrower is copied.
    const whole = projectObject(structuredClone(full))
    assert.equal(projectPod(whole), whole)
    assert.notEqual(projectObject(pod), pod)
    const nodeNameOnly = projector({metadataOnly: false, needs: [{fields: ['spec.nodeName']}]})
    assert.equal(nodeNameOnly(pod), pod, 'it holds the node name')
    const narrow = nodeNameOnly(structuredClone(full))
    assert.deepEqual(narrow.spec, {nodeName: 'n1'})
    assert.notEqual(projectPod(narrow), narrow)
    const rs = projectObject({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {name: 'r'},
      spec: {template: {metadata: {labels: {a: 'b'}}, spec: {containers: []}}},
    })
    assert.equal(projectReplicaSet(rs), rs, 'kept whole: it holds what the ReplicaSet replay reads')
    const slim = projectReplicaSet(structuredClone(rs))
    assert.deepEqual(slim.spec, {template: {metadata: {labels: {a: 'b'}}}})
    assert.deepEqual(rs.spec, {template: {metadata: {labels: {a: 'b'}}, spec: {containers: []}}}, 'the whole one is not changed')
    assert.equal(projectReplicaSet(slim), slim)
    // An equal object that no projection made (a live read) is copied: a source's objects are never handed on as they are.
    const live = structuredClone(pod)
    assert.notEqual(projectPod(live), live)
    assert.deepEqual(projectPod(live), pod)
  })
})

describe('the engines decide the same from projected objects', () => {
  test('node lifecycle and taint eviction: examples/node-zone-outage.json, every pod', () => {
    const doc = example('node-zone-outage.json')
    const now = Date.parse(doc.kubectlWhy!.capturedAt)
    const of = (kind: string) => doc.items.filter((o) => o.kind === kind)
    const run = (nodes: NodeLike[], pods: PodLike[]) => {
      const cachedLeases = new Map(of('Lease').map((l) => [l.metadata!.name!, l as LeaseLike]))
      const analysis = analyzeCluster({nodes, cachedLeases, liveLeases: new Map(), now, settings: NEWEST_DEFAULTS})
      return pods.map((p) =>
        explainEvicted({
          namespace: p.metadata!.namespace!,
          name: p.metadata!.name!,
          pod: p,
          events: of('Event') as EventLike[],
          node: nodes.find((n) => n.metadata?.name === p.spec?.nodeName),
          nodeAnalysis: analysis.nodes.find((a) => a.name === p.spec?.nodeName),
          cluster: analysis,
          now,
          settings: NEWEST_DEFAULTS,
          source: {mode: 'snapshot'},
        }),
      )
    }
    const whole = run(of('Node') as NodeLike[], of('Pod') as PodLike[])
    const intern = new Interner()
    const projected = run(of('Node').map((n) => projectNode(n)) as NodeLike[], of('Pod').map((p) => projectPod(p, intern)) as PodLike[])
    assert.ok(whole.length >= 10)
    assert.deepEqual(projected, whole)
  })

  test('ReplicaSet replay: examples/replicas-deletion-cost.yaml (deletion costs, readiness, co-location ranks)', () => {
    const doc = example('replicas-deletion-cost.yaml')
    const rs = doc.items.find((o) => o.kind === 'ReplicaSet') as ReplicaSet
    const pods = doc.items.filter((o) => o.kind === 'Pod')
    const run = (p: KubeObject[], r: ReplicaSet) =>
      explainReplicaSet({
        replicaSet: r,
        pods: p as Pod[],
        replicaSets: [r],
        events: [],
        now: Date.parse(doc.kubectlWhy!.capturedAt),
        settings: {minor: 31},
        source: {mode: 'snapshot'},
      })
    const whole = run(pods, rs)
    assert.equal(whole.verdict, 'willDelete')
    const intern = new Interner()
    assert.deepEqual(
      run(
        pods.map((p) => projectPod(p, intern)),
        projectReplicaSet(rs) as ReplicaSet,
      ),
      whole,
    )
  })
})
