// TestPickOneNodeForPreemption converted (the scheduler's preemption tests; stored copy id 801727309, the
// registerPlugins layout whose only filter is noderesources.Fit — the one choosePreemptionNode replays). Upstream's
// fixtures: every node makeNode(name, 1000*5, DefaultMemoryRequest*5) = 5000m cpu and 5 × 200Mi of memory;
// smallContainers request DefaultMilliCPURequest (100m) and DefaultMemoryRequest (200Mi), medium ×2, large ×3,
// veryLarge ×5; priorities neg -100, low 0, mid 100, high 1000, veryHigh 10000; every pod started at startTime
// (2019-01-01T01:01:01Z). The expected nodes are upstream's ("any of the items is valid"). Upstream's oldest layout
// returned a node needing no preemption; newer schedulers bind there and never preempt — both give that node.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {choosePreemptionNode} from '../../../src/engine/podeviction/preemption.js'
import type {NodeLike, PodLike} from '../../../src/engine/podeviction/types.js'

const MI = 1024 * 1024
const SIZE = {small: 1, medium: 2, large: 3, veryLarge: 5} as const
type Size = keyof typeof SIZE
const PRIO = {neg: -100, low: 0, mid: 100, high: 1000, veryHigh: 10000} as const
type Prio = keyof typeof PRIO
const START = '2019-01-01T01:01:01Z'

const containers = (s: Size) => [{name: 'c', resources: {requests: {cpu: `${100 * SIZE[s]}m`, memory: String(200 * MI * SIZE[s])}}}]
const node = (name: string): NodeLike => ({metadata: {name}, spec: {}, status: {allocatable: {cpu: '5000m', memory: String(1000 * MI), pods: '100'}}})
const pod = (name: string, size: Size, priority: Prio, nodeName?: string): PodLike => ({
  metadata: {name, namespace: 'default', uid: name},
  spec: {containers: containers(size), priority: PRIO[priority], ...(nodeName ? {nodeName} : {})},
  status: nodeName ? {phase: 'Running', startTime: START} : {phase: 'Pending'},
})

interface Entry {
  name: string
  nodes: string[]
  preemptor: [Size, Prio]
  pods: [string, Size, Prio, string][]
  expected: string[]
}

const ENTRIES: Entry[] = [
  {
    name: 'No node needs preemption',
    nodes: ['machine1'],
    preemptor: ['large', 'high'],
    pods: [['m1.1', 'small', 'mid', 'machine1']],
    expected: ['machine1'],
  },
  {
    name: 'a pod that fits on both machines when lower priority pods are preempted',
    nodes: ['machine1', 'machine2'],
    preemptor: ['large', 'high'],
    pods: [
      ['m1.1', 'large', 'mid', 'machine1'],
      ['m2.1', 'large', 'mid', 'machine2'],
    ],
    expected: ['machine1', 'machine2'],
  },
  {
    name: 'a pod that fits on a machine with no preemption',
    nodes: ['machine1', 'machine2', 'machine3'],
    preemptor: ['large', 'high'],
    pods: [
      ['m1.1', 'large', 'mid', 'machine1'],
      ['m2.1', 'large', 'mid', 'machine2'],
    ],
    expected: ['machine3'],
  },
  {
    name: 'machine with min highest priority pod is picked',
    nodes: ['machine1', 'machine2', 'machine3'],
    preemptor: ['veryLarge', 'high'],
    pods: [
      ['m1.1', 'medium', 'mid', 'machine1'],
      ['m1.2', 'large', 'mid', 'machine1'],
      ['m2.1', 'medium', 'mid', 'machine2'],
      ['m2.2', 'medium', 'low', 'machine2'],
      ['m3.1', 'medium', 'low', 'machine3'],
      ['m3.2', 'medium', 'low', 'machine3'],
    ],
    expected: ['machine3'],
  },
  {
    name: 'when highest priorities are the same, minimum sum of priorities is picked',
    nodes: ['machine1', 'machine2', 'machine3'],
    preemptor: ['veryLarge', 'high'],
    pods: [
      ['m1.1', 'medium', 'mid', 'machine1'],
      ['m1.2', 'large', 'mid', 'machine1'],
      ['m2.1', 'large', 'mid', 'machine2'],
      ['m2.2', 'medium', 'low', 'machine2'],
      ['m3.1', 'medium', 'mid', 'machine3'],
      ['m3.2', 'medium', 'mid', 'machine3'],
    ],
    expected: ['machine2'],
  },
  {
    name: 'when highest priority and sum are the same, minimum number of pods is picked',
    nodes: ['machine1', 'machine2', 'machine3'],
    preemptor: ['veryLarge', 'high'],
    pods: [
      ['m1.1', 'small', 'mid', 'machine1'],
      ['m1.2', 'small', 'neg', 'machine1'],
      ['m1.3', 'small', 'mid', 'machine1'],
      ['m1.4', 'small', 'neg', 'machine1'],
      ['m2.1', 'large', 'mid', 'machine2'],
      ['m2.2', 'medium', 'neg', 'machine2'],
      ['m3.1', 'medium', 'mid', 'machine3'],
      ['m3.2', 'small', 'neg', 'machine3'],
      ['m3.3', 'small', 'low', 'machine3'],
    ],
    expected: ['machine2'],
  },
  {
    name: 'sum of adjusted priorities is considered',
    nodes: ['machine1', 'machine2', 'machine3'],
    preemptor: ['veryLarge', 'high'],
    pods: [
      ['m1.1', 'small', 'mid', 'machine1'],
      ['m1.2', 'small', 'neg', 'machine1'],
      ['m1.3', 'small', 'neg', 'machine1'],
      ['m2.1', 'large', 'mid', 'machine2'],
      ['m2.2', 'medium', 'neg', 'machine2'],
      ['m3.1', 'medium', 'mid', 'machine3'],
      ['m3.2', 'small', 'neg', 'machine3'],
      ['m3.3', 'small', 'low', 'machine3'],
    ],
    expected: ['machine2'],
  },
  {
    name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
    nodes: ['machine1', 'machine2', 'machine3', 'machine4'],
    preemptor: ['veryLarge', 'veryHigh'],
    pods: [
      ['m1.1', 'small', 'mid', 'machine1'],
      ['m1.2', 'small', 'low', 'machine1'],
      ['m1.3', 'small', 'low', 'machine1'],
      ['m2.1', 'large', 'high', 'machine2'],
      ['m3.1', 'medium', 'mid', 'machine3'],
      ['m3.2', 'small', 'low', 'machine3'],
      ['m3.3', 'small', 'low', 'machine3'],
      ['m3.4', 'medium', 'low', 'machine3'],
      ['m4.1', 'medium', 'mid', 'machine4'],
      ['m4.2', 'small', 'mid', 'machine4'],
      ['m4.3', 'small', 'mid', 'machine4'],
      ['m4.4', 'small', 'neg', 'machine4'],
    ],
    expected: ['machine1'],
  },
]

describe('TestPickOneNodeForPreemption (SelectVictimsOnNode with NodeResourcesFit, then pickOneNodeForPreemption)', () => {
  for (const e of ENTRIES)
    test(e.name, () => {
      const r = choosePreemptionNode({
        preemptor: pod('preemptor', ...e.preemptor),
        nodes: e.nodes.map(node),
        pods: e.pods.map(([n, s, p, on]) => pod(n, s, p, on)),
        podsComplete: true,
        pdbs: [],
        now: Date.parse('2026-06-01T00:00:00Z'),
      })
      assert.deepEqual(r.missing, [])
      assert.ok(r.chosen && e.expected.includes(r.chosen), `chose ${r.chosen} (${r.decidedBy}), expected one of ${e.expected.join(', ')}`)
    })

  // Worked by hand on the "minimum number of pods" entry: veryLarge asks 1000Mi, the whole node, so every pod of
  // lower priority on a node must go (no reprieve fits): 4, 2 and 3 victims, the highest of each priority 100. The
  // sum of (priority + MaxInt32 + 1) is 0 + 4·2^31, 0 + 2·2^31 and 0 + 3·2^31: the offset makes the count weigh in
  // already, so minSumPriorities decides (machine2) before minNumPods is reached.
  test('the victims per node: every lower-priority pod when the preemptor needs the whole node', () => {
    const e = ENTRIES[5]
    const r = choosePreemptionNode({
      preemptor: pod('preemptor', ...e.preemptor),
      nodes: e.nodes.map(node),
      pods: e.pods.map(([n, s, p, on]) => pod(n, s, p, on)),
      podsComplete: true,
      pdbs: [],
      now: 0,
    })
    assert.deepEqual(
      r.candidates.map((c) => [c.node, c.victims.length]),
      [
        ['machine1', 4],
        ['machine2', 2],
        ['machine3', 3],
      ],
    )
    assert.equal(r.decidedBy, 'minSumPriorities')
  })

  // Worked by hand: large (600Mi) next to a small mid pod (200Mi) fits 1000Mi once the large mid pod goes, so on a
  // node holding both a large and a small mid pod only the large one is a victim — the small one is reprieved.
  test('the reprieve keeps what still leaves room', () => {
    const r = choosePreemptionNode({
      preemptor: pod('preemptor', 'large', 'high'),
      nodes: [node('n1')],
      pods: [pod('big', 'large', 'mid', 'n1'), pod('little', 'small', 'mid', 'n1')],
      podsComplete: true,
      pdbs: [],
      now: 0,
    })
    assert.deepEqual(r.candidates, [{node: 'n1', victims: ['default/big'], numPDBViolations: 0}])
  })

  test('without every node’s pods it names no node and says what is missing', () => {
    const r = choosePreemptionNode({preemptor: pod('p', 'large', 'high'), nodes: [node('n1')], pods: [], podsComplete: false, now: 0})
    assert.equal(r.chosen, undefined)
    assert.equal(r.missing.length, 2)
  })
})
