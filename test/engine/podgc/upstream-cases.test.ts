// pkg/controller/podgc/gc_controller_test.go, converted: TestGCTerminated (every entry), TestGCOrphaned (the entries
// a dump can express: which nodes exist after the quarantine; the queue timing and the live GET are not in a dump),
// TestGCUnscheduledTerminating and TestGCTerminating. Upstream's deletedPodNames are the pods podGcDecision answers
// willDelete for; patchedPodNames (the DisruptionTarget + Failed patch of gcOrphaned) are those with condition.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {type GcNode, type GcPod, podGcDecision} from '../../../src/engine/podgc/gc.js'

interface Spec {
  name: string
  phase?: string
  reason?: string
  node?: string
  deleting?: boolean
}
/** Upstream creates the pods one hour apart, in list order. */
const pods = (specs: Spec[]): GcPod[] =>
  specs.map((s, i) => ({
    metadata: {
      name: s.name,
      namespace: 'default',
      creationTimestamp: new Date((i + 1) * 3600_000).toISOString(),
      ...(s.deleting ? {deletionTimestamp: '1970-01-01T00:00:00Z'} : {}),
    },
    spec: {nodeName: s.node ?? 'node'},
    status: {phase: s.phase, reason: s.reason},
  }))
const node = (name: string, ready = 'True', taints: {key: string; effect: string; value?: string}[] = []): GcNode => ({
  metadata: {name},
  spec: {taints},
  status: {conditions: [{type: 'Ready', status: ready}]},
})
function deleted(all: GcPod[], nodes: GcNode[], threshold: number): {deleted: string[]; patched: string[]} {
  const out = {deleted: [] as string[], patched: [] as string[]}
  for (const pod of all) {
    const d = podGcDecision({pod, nodes, nodesComplete: true, allPods: all, podsComplete: true, threshold})
    if (d.action === 'willDelete') out.deleted.push(pod.metadata!.name!)
    if (d.action === 'willDelete' && d.condition) out.patched.push(pod.metadata!.name!)
  }
  out.deleted.sort()
  out.patched.sort()
  return out
}

describe('TestGCTerminated', () => {
  const cases: [string, Spec[], number, string[]][] = [
    [
      'delete pod a which is PodFailed and pod b which is PodSucceeded',
      [
        {name: 'a', phase: 'Failed'},
        {name: 'b', phase: 'Succeeded'},
        {name: 'c', phase: 'Failed'},
      ],
      1,
      ['a', 'b'],
    ],
    [
      'threshold = 0, disables terminated pod deletion',
      [
        {name: 'a', phase: 'Failed'},
        {name: 'b', phase: 'Succeeded'},
      ],
      0,
      [],
    ],
    [
      'threshold = 1, delete pod b which is PodSucceeded',
      [
        {name: 'a', phase: 'Running'},
        {name: 'b', phase: 'Succeeded'},
        {name: 'c', phase: 'Failed'},
      ],
      1,
      ['b'],
    ],
    [
      'threshold = 1, delete pod a which is PodFailed',
      [
        {name: 'a', phase: 'Failed'},
        {name: 'b', phase: 'Succeeded'},
      ],
      1,
      ['a'],
    ],
    [
      "threshold = 5, don't delete pod",
      [
        {name: 'a', phase: 'Failed'},
        {name: 'b', phase: 'Succeeded'},
      ],
      5,
      [],
    ],
    [
      'evicted first: c (Failed, Evicted), then the oldest a',
      [
        {name: 'a', phase: 'Failed'},
        {name: 'b', phase: 'Succeeded'},
        {name: 'c', phase: 'Failed', reason: 'Evicted'},
      ],
      1,
      ['a', 'c'],
    ],
    [
      'evicted first, one running',
      [
        {name: 'a', phase: 'Running'},
        {name: 'b', phase: 'Succeeded'},
        {name: 'c', phase: 'Failed', reason: 'Evicted'},
      ],
      1,
      ['c'],
    ],
  ]
  for (const [name, specs, threshold, want] of cases) test(name, () => assert.deepEqual(deleted(pods(specs), [node('node')], threshold).deleted, want))
})

describe('TestGCOrphaned (after the quarantine)', () => {
  test('nodes present in lister: nothing', () => {
    const p = pods([
      {name: 'a', node: 'existing1', phase: 'Running'},
      {name: 'b', node: 'existing2', phase: 'Failed'},
      {name: 'c', node: 'existing2', phase: 'Succeeded'},
    ])
    assert.deepEqual(deleted(p, [node('existing1'), node('existing2')], -1), {deleted: [], patched: []})
  })
  test('no nodes: a, b deleted, none patched (both terminal)', () => {
    const p = pods([
      {name: 'a', node: 'deleted', phase: 'Failed'},
      {name: 'b', node: 'deleted', phase: 'Succeeded'},
    ])
    assert.deepEqual(deleted(p, [], -1), {deleted: ['a', 'b'], patched: []})
  })
  test('no nodes, one running pod: a, b, c deleted; c patched', () => {
    const p = pods([
      {name: 'a', node: 'deleted', phase: 'Failed'},
      {name: 'b', node: 'deleted', phase: 'Succeeded'},
      {name: 'c', node: 'deleted', phase: 'Running'},
    ])
    assert.deepEqual(deleted(p, [], -1), {deleted: ['a', 'b', 'c'], patched: ['c']})
  })
  test('wrong nodes: a deleted and patched', () => {
    assert.deepEqual(deleted(pods([{name: 'a', node: 'deleted', phase: 'Running'}]), [node('existing')], -1), {deleted: ['a'], patched: ['a']})
  })
  test('some nodes missing: a, c, d deleted; d patched', () => {
    const p = pods([
      {name: 'a', node: 'deleted', phase: 'Failed'},
      {name: 'b', node: 'existing', phase: 'Failed'},
      {name: 'c', node: 'deleted', phase: 'Succeeded'},
      {name: 'd', node: 'deleted', phase: 'Running'},
    ])
    assert.deepEqual(deleted(p, [node('existing')], -1), {deleted: ['a', 'c', 'd'], patched: ['d']})
  })
})

describe('TestGCUnscheduledTerminating', () => {
  test('unscheduled pod in any phase must be deleted', () => {
    const p = pods([
      {name: 'a', phase: 'Failed', deleting: true, node: ''},
      {name: 'b', phase: 'Succeeded', deleting: true, node: ''},
      {name: 'c', phase: 'Running', deleting: true, node: ''},
    ])
    assert.deepEqual(deleted(p, [], -1).deleted, ['a', 'b', 'c'])
  })
  test('scheduled pod in any phase must not be deleted', () => {
    const p = pods([
      {name: 'a', phase: 'Failed', node: ''},
      {name: 'b', phase: 'Succeeded', node: 'node'},
      {name: 'c', phase: 'Running', deleting: true, node: 'node'},
    ])
    assert.deepEqual(deleted(p, [node('node')], -1).deleted, [])
  })
})

describe('TestGCTerminating', () => {
  test('deletion timestamp on NotReady nodes without the out-of-service taint: nothing', () => {
    const p = pods([
      {name: 'a', deleting: true, node: 'worker-0'},
      {name: 'b', deleting: true, node: 'worker-1'},
    ])
    assert.deepEqual(deleted(p, [node('worker-0', 'False'), node('worker-1', 'False')], -1).deleted, [])
  })
  test('out-of-service taint (any effect, any value) on a NotReady node: only the terminating pods go', () => {
    const oos = (effect: string, value?: string) => [{key: 'node.kubernetes.io/out-of-service', effect, ...(value ? {value} : {})}]
    const nodes = [
      node('worker-0', 'False', oos('NoExecute')),
      node('worker-1', 'False'),
      node('worker-2', 'True'),
      node('worker-3', 'False', oos('NoSchedule')),
      node('worker-4', 'False', oos('PreferNoSchedule')),
      node('worker-5', 'False', oos('NoExecute', 'any-value')),
    ]
    const specs: Spec[] = []
    for (let w = 0; w < 6; w++) {
      const n = `worker-${w}`
      specs.push(
        {name: `a${w + 1}`, node: n},
        {name: `b${w + 1}`, node: n, deleting: true},
        {name: `c${w + 1}`, node: n, phase: 'Pending'},
        {name: `d${w + 1}`, node: n, phase: 'Running'},
        {name: `e${w + 1}`, node: n, phase: 'Unknown'},
      )
    }
    assert.deepEqual(deleted(pods(specs), nodes, -1).deleted, ['b1', 'b4', 'b5', 'b6'])
  })
})
