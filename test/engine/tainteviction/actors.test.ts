// explainPod with the actors (src/engine/tainteviction/actors.ts): the three cases issue 25 opens with, each of which
// used to be notAffected, plus the cases where no actor is named. Pods written by hand in the shape the actors leave
// them (messages as upstream formats them: helpers.go evictionMessage; executor.go PreemptPod's condition message
// "<schedulerName>: preempting to accommodate a higher priority pod"; the 1.29+ Preempted event "Preempted by pod
// <uid> on node <node>"; eviction.go's 429). Each verdict is worked out in the test from evictions.md §1.5.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {analyzeCluster} from '../../../src/engine/nodelifecycle/analyze.js'
import type {NodeLifecycleWorld} from '../../../src/engine/nodelifecycle/drive.js'
import {NEWEST_DEFAULTS, type NodeLike} from '../../../src/engine/nodelifecycle/types.js'
import type {EvictionContext} from '../../../src/engine/tainteviction/actors.js'
import {explainPod} from '../../../src/engine/tainteviction/drive.js'
import type {PodLike} from '../../../src/engine/tainteviction/types.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace('.000Z', 'Z')

function node(name: string, extra: {conditions?: {type: string; status: string; lastTransitionTime?: string}[]; unschedulable?: boolean} = {}): NodeLike {
  return {
    metadata: {name, uid: name, creationTimestamp: at(-86400), labels: {'topology.kubernetes.io/zone': 'z', 'kubernetes.io/os': 'linux'}},
    spec: {taints: [], ...(extra.unschedulable ? {unschedulable: true} : {})},
    status: {
      conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: at(-5), lastTransitionTime: at(-80000)}, ...(extra.conditions ?? [])],
    },
  } as NodeLike
}
function world(nodes: NodeLike[]): NodeLifecycleWorld {
  const analysis = analyzeCluster({nodes, cachedLeases: new Map(), liveLeases: new Map(), now: NOW, settings: NEWEST_DEFAULTS})
  return {nodes, analysis, now: NOW, settings: {settings: NEWEST_DEFAULTS}, source: {mode: 'snapshot', settings: {}}} as unknown as NodeLifecycleWorld
}
const base = (name: string, extra: Record<string, unknown> = {}): PodLike =>
  ({
    metadata: {
      name,
      namespace: 'shop',
      uid: `${name}-uid`,
      creationTimestamp: at(-7200),
      labels: {app: 'web'},
      ownerReferences: [{kind: 'ReplicaSet', name: 'web-7d', uid: 'rs', controller: true}],
    },
    spec: {nodeName: 'n1', priority: 0, containers: [{name: 'app', resources: {requests: {memory: '256Mi', cpu: '100m'}, limits: {memory: '2Gi'}}}]},
    status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: at(-7000)}]},
    ...extra,
  }) as PodLike

/** The scheduler's Preempted event as 1.29+ words it: "Preempted by pod <uid> on node <node>". */
const preempted = (name: string, uid: string, s: number) => ({
  involvedObject: {kind: 'Pod', name, namespace: 'shop'},
  reason: 'Preempted',
  message: `Preempted by pod ${uid} on node n1`,
  type: 'Normal',
  lastTimestamp: at(s),
})

const PRESSURE =
  'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91572Ki. Container app was using 1520852Ki, request is 256Mi, has larger consumption of memory. '

describe('explainPod names the actor the record names', () => {
  test('kubelet memory pressure (TerminationByKubelet, reason Evicted, MemoryPressure=True) → evictedByKubelet, not notAffected', () => {
    const pod = base('web-1', {
      status: {
        phase: 'Failed',
        reason: 'Evicted',
        message: PRESSURE,
        conditions: [{type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message: PRESSURE, lastTransitionTime: at(-120)}],
      },
    })
    const n = node('n1', {conditions: [{type: 'MemoryPressure', status: 'True', lastTransitionTime: at(-180)}]})
    const e = explainPod(world([n]), 'shop', 'web-1', pod, [], {podsOnNode: [pod]})
    assert.equal(e.verdict, 'evictedByKubelet')
    assert.equal(e.severity, 'warning')
    assert.equal(e.actors?.[0].actor, 'kubelet')
    assert.equal(e.actors?.[0].action, 'evicted')
    assert.equal(e.actors?.[0].at, at(-120))
    assert.equal(e.actors?.[0].rule, 'rankMemoryPressure')
    assert.match(e.summary, /memory pressure/)
    // The next step is about requests, the kubelet's own lever.
    assert.match(e.actors?.[0].next[0].change ?? '', /requests\.memory/)
  })
  test('scheduler preemption (PreemptionByScheduler, deletionTimestamp, preemptor pending with nominatedNodeName) → preempted, preemptor found', () => {
    const victim = base('web-2', {
      metadata: {name: 'web-2', namespace: 'shop', uid: 'v', deletionTimestamp: at(-10), creationTimestamp: at(-7200)},
      status: {
        phase: 'Running',
        conditions: [
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'PreemptionByScheduler',
            message: 'default-scheduler: preempting to accommodate a higher priority pod',
            lastTransitionTime: at(-11),
          },
        ],
      },
    })
    const preemptor = base('batch-big', {
      metadata: {name: 'batch-big', namespace: 'shop', uid: 'big-uid'},
      spec: {priority: 100000, priorityClassName: 'high', containers: []},
      status: {phase: 'Pending', nominatedNodeName: 'n1'},
    })
    const e = explainPod(world([node('n1')]), 'shop', 'web-2', victim, [], {
      namespacePods: [victim, preemptor],
      priorityClasses: [{metadata: {name: 'high'}, value: 100000}],
    })
    assert.equal(e.verdict, 'preempted')
    assert.equal(e.actors?.[0].actor, 'scheduler')
    // Found through nominatedNodeName (no event): 100000 > 0.
    assert.match(e.summary, /shop\/batch-big \(priority 100000 > 0\)/)
  })
  test('the Preempted event names the preemptor by uid (1.29+ format)', () => {
    const victim = base('web-3', {metadata: {name: 'web-3', namespace: 'shop', uid: 'v3', deletionTimestamp: at(-10)}})
    const preemptor = base('other', {
      metadata: {name: 'other', namespace: 'shop', uid: 'pre-uid'},
      spec: {priority: 50, containers: []},
      status: {phase: 'Pending'},
    })
    const e = explainPod(world([node('n1')]), 'shop', 'web-3', victim, [preempted('web-3', 'pre-uid', -9)], {namespacePods: [victim, preemptor]})
    assert.equal(e.verdict, 'preempted')
    assert.match(e.summary, /shop\/other \(priority 50 > 0\)/)
  })
  test('a drain that never finishes: cordoned node, PDB allowing 0 → evictionBlocked, eviction-api refusesEviction with the 429', () => {
    const pod = base('web-4')
    const pdb = {
      metadata: {name: 'web', namespace: 'shop', generation: 1},
      spec: {selector: {matchLabels: {app: 'web'}}, minAvailable: 1},
      status: {observedGeneration: 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, disruptionsAllowed: 0},
    }
    const e = explainPod(world([node('n1', {unschedulable: true})]), 'shop', 'web-4', pod, [], {pdbs: [pdb], namespacePods: [pod]})
    assert.equal(e.verdict, 'evictionBlocked')
    const a = e.actors?.find((x) => x.actor === 'eviction-api')
    assert.equal(a?.action, 'refusesEviction')
    assert.match(e.summary, /429 "Cannot evict pod as it would violate the pod's disruption budget\."/)
    assert.match(e.summary, /needs 1 healthy pods and has 1 currently/)
    assert.ok(e.next?.some((n) => /minAvailable/.test(n.change ?? '')))
  })
  test('an admission rejection (OutOfmemory) → rejectedAtAdmission, said not to be an eviction', () => {
    const pod = base('web-5', {
      status: {
        phase: 'Failed',
        reason: 'OutOfmemory',
        message: "Pod was rejected: Node didn't have enough resource: memory, requested: 2147483648, used: 7000000000, capacity: 8000000000",
      },
    })
    const e = explainPod(world([node('n1')]), 'shop', 'web-5', pod, [])
    assert.equal(e.verdict, 'rejectedAtAdmission')
    assert.match(e.summary, /^Not an eviction/)
  })
  test('deleting with nothing naming an actor → beingDeleted, never notAffected', () => {
    const pod = base('web-6', {metadata: {name: 'web-6', namespace: 'shop', uid: 'u6', deletionTimestamp: at(-5)}})
    const e = explainPod(world([node('n1')]), 'shop', 'web-6', pod, [])
    assert.equal(e.verdict, 'beingDeleted')
  })
  test('a healthy pod on a healthy node stays notAffected and says what was examined', () => {
    const pod = base('web-7')
    const ctx: EvictionContext = {pdbs: [], namespacePods: [pod]}
    const e = explainPod(world([node('n1')]), 'shop', 'web-7', pod, [], ctx)
    assert.equal(e.verdict, 'notAffected')
    assert.match(e.summary, /examined no DisruptionTarget condition, status phase Running/)
    assert.deepEqual(e.actors, [])
  })
  test('orphaned on a node that is gone (complete node set) → willBeCollected by podgc', () => {
    const pod = base('web-8', {spec: {nodeName: 'gone', containers: []}})
    const e = explainPod(world([node('n1')]), 'shop', 'web-8', pod, [])
    // The taint replay answers notAffected for a node that no longer exists; PodGC's gcOrphaned takes the pod.
    assert.equal(e.verdict, 'willBeCollected')
    assert.equal(e.actors?.find((a) => a.actor === 'podgc')?.action, 'willDelete')
  })
  test('atRisk: a pod below a pending preemptor nominated to its node (scheduler willEvict)', () => {
    const pod = base('web-9')
    const pending = base('big', {
      metadata: {name: 'big', namespace: 'shop', uid: 'b'},
      spec: {priority: 500, containers: []},
      status: {phase: 'Pending', nominatedNodeName: 'n1'},
    })
    // The pending pod is not bound (base sets nodeName n1: clear it, as a pending preemptor has none).
    delete (pending.spec as {nodeName?: string}).nodeName
    const e = explainPod(world([node('n1')]), 'shop', 'web-9', pod, [], {nominated: [pending]})
    assert.equal(e.verdict, 'atRisk')
    assert.deepEqual([e.actors?.[0].actor, e.actors?.[0].action], ['scheduler', 'willEvict'])
    // Equal priority is never a victim: the same pod at priority 500 is not at risk.
    const same = base('web-10', {spec: {nodeName: 'n1', priority: 500, containers: []}})
    assert.equal(explainPod(world([node('n1')]), 'shop', 'web-10', same, [], {nominated: [pending]}).verdict, 'notAffected')
  })
  test('atRisk: a BestEffort pod on a node with MemoryPressure=True (kubelet willEvict, rankMemoryPressure); a Burstable one is not', () => {
    const n = node('n1', {conditions: [{type: 'MemoryPressure', status: 'True', lastTransitionTime: at(-60)}]})
    const be = base('web-11', {spec: {nodeName: 'n1', priority: 0, containers: [{name: 'app'}]}})
    const e = explainPod(world([n]), 'shop', 'web-11', be, [])
    assert.equal(e.verdict, 'atRisk')
    assert.deepEqual([e.actors?.[0].actor, e.actors?.[0].rule], ['kubelet', 'rankMemoryPressure'])
    assert.equal(explainPod(world([n]), 'shop', 'web-12', base('web-12'), []).verdict, 'notAffected')
  })
  // Worked by hand: n1 and n2 hold 4 cpu / 8Gi each. The preemptor asks 3 cpu / 4Gi at priority 1000. On n1 the victim
  // (priority 0, 3 cpu) leaves 1 cpu: removing it lets the preemptor fit, and nothing else is there — one victim of
  // priority 0. On n2 a pod of priority 500 asks 2 cpu: one victim of priority 500. pickOneNodeForPreemption:
  // no PDB violations on either, then the lower highest victim priority — n1 (0 < 500), the nominated node.
  test('preemption: the node the preemptor chose, replayed over every node (pickOneNodeForPreemption), this pod its victim', () => {
    const cap = {status: {allocatable: {cpu: '4', memory: '8Gi', pods: '110'}}}
    const n1 = {...node('n1'), ...cap, status: {...node('n1').status, ...cap.status}} as NodeLike
    const n2 = {...node('n2'), status: {...node('n2').status, ...cap.status}} as NodeLike
    const res = (cpu: string, memory: string) => [{name: 'c', resources: {requests: {cpu, memory}}}]
    const victim = base('web-20', {
      metadata: {name: 'web-20', namespace: 'shop', uid: 'v20', deletionTimestamp: at(-5)},
      spec: {nodeName: 'n1', priority: 0, containers: res('3', '1Gi')},
      status: {
        phase: 'Running',
        startTime: at(-3600),
        conditions: [
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'PreemptionByScheduler',
            message: 'default-scheduler: preempting to accommodate a higher priority pod',
            lastTransitionTime: at(-6),
          },
        ],
      },
    })
    const other = base('api-1', {spec: {nodeName: 'n2', priority: 500, containers: res('2', '1Gi')}, status: {phase: 'Running', startTime: at(-3600)}})
    const preemptor = base('big', {
      metadata: {name: 'big', namespace: 'shop', uid: 'big-uid'},
      spec: {priority: 1000, containers: res('3', '4Gi')},
      status: {phase: 'Pending', nominatedNodeName: 'n1'},
    })
    delete (preemptor.spec as {nodeName?: string}).nodeName
    const ctx: EvictionContext = {
      nodes: [n1, n2] as EvictionContext['nodes'],
      namespacePods: [victim, other, preemptor],
      allPods: [victim, other, preemptor],
      allPodsComplete: true,
      pdbs: [],
    }
    const e = explainPod(world([n1, n2]), 'shop', 'web-20', victim, [], ctx)
    const s = e.steps.find((x) => x.rule === 'pickOneNodeForPreemption')
    assert.equal(s?.result, 'n1', s?.why)
    assert.match(s?.why ?? '', /picks n1 by minHighestPriority, victims shop\/web-20 — this pod among them; the preemptor's nominatedNodeName is n1, the same/)
    // Without every namespace's pods the node is not named, and the step says what is missing.
    const partial = explainPod(world([n1, n2]), 'shop', 'web-20', victim, [], {...ctx, allPodsComplete: false})
    const p = partial.steps.find((x) => x.rule === 'pickOneNodeForPreemption')
    assert.equal(p?.result, 'unknown')
    assert.match(p?.why ?? '', /every node's pods/)
  })
  test('a pod that is gone, known only from its Preempted event → preempted, at the event time', () => {
    const e = explainPod(world([node('n1')]), 'shop', 'gone-1', undefined, [preempted('gone-1', 'x-uid', -30)])
    assert.equal(e.verdict, 'preempted')
    assert.equal(e.actors?.[0].at, at(-30))
  })
  test('a True DisruptionTarget with a reason no replay knows → disrupted, never notAffected', () => {
    const pod = base('web-13', {
      status: {
        phase: 'Running',
        conditions: [{type: 'DisruptionTarget', status: 'True', reason: 'DeletionByWorkloadController', message: 'x', lastTransitionTime: at(-5)}],
      },
    })
    const e = explainPod(world([node('n1')]), 'shop', 'web-13', pod, [])
    assert.equal(e.verdict, 'disrupted')
    assert.match(e.summary, /reason DeletionByWorkloadController/)
  })
})
