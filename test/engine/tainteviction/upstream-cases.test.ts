// TE-01, TE-03, TE-05 and ADM-01 of the decisions case file (copied into test/fixtures/nodelifecycle):
// upstream's taint_eviction_test.go and admission_test.go assertions, run through the replay.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {admitDefaultTolerationSeconds} from '../../../src/engine/tainteviction/origins.js'
import {processPodOnNode} from '../../../src/engine/tainteviction/process.js'
import {getMinTolerationTime} from '../../../src/engine/tainteviction/toleration.js'
import type {Taint, Toleration} from '../../../src/engine/tainteviction/types.js'
import {caseById} from '../nodelifecycle/harness.js'

interface Sub {
  name: string
  source: string
  pod?: {nodeName: string; tolerations: Toleration[]}
  pods?: {nodeName: string; tolerations: Toleration[]}[]
  taintedNodes?: Record<string, Taint[]>
  newNodeTaints?: Taint[]
  expected: {delete: boolean; deleteAfterSeconds?: number; derivedScheduledDeleteAfterSeconds?: number; derivedDeleteAfterSeconds?: number}
}

const clean = (taints: Taint[]) => taints.map(({timeAdded: _, ...t}) => t)

/** Upstream "delete within the 5s window" ⇔ deleted at once, or after a minimum shorter than the window. */
function deletesWithinWindow(d: ReturnType<typeof processPodOnNode>): boolean {
  return d.kind === 'notAllTolerated' || (d.kind === 'timed' && d.minMs < 5000)
}

describe('TestCreatePod (TE-01)', () => {
  const c = caseById('TE-01')
  for (const sub of c.subcases as Sub[]) {
    it(sub.name, () => {
      const pod = sub.pod!
      // "not scheduled": a pod without nodeName is ignored before any taint lookup (handlePodUpdate).
      const taints = pod.nodeName ? clean(sub.taintedNodes?.[pod.nodeName] ?? []) : []
      const d = processPodOnNode(taints, pod.tolerations)
      assert.equal(deletesWithinWindow(d), sub.expected.delete, sub.source)
      if (sub.expected.deleteAfterSeconds === 0) assert.ok(d.kind === 'notAllTolerated' || (d.kind === 'timed' && d.minMs === 0))
      if (sub.expected.derivedScheduledDeleteAfterSeconds !== undefined)
        assert.deepEqual(d.kind === 'timed' && d.minMs, sub.expected.derivedScheduledDeleteAfterSeconds * 1000)
      if ('derivedScheduledDelete' in sub.expected) assert.equal(d.kind, 'forever')
    })
  }
})

describe('TestUpdateNode (TE-03)', () => {
  const c = caseById('TE-03')
  for (const sub of c.subcases as Sub[]) {
    it(sub.name, () => {
      const pod = sub.pods![0]
      const d = processPodOnNode(clean(sub.newNodeTaints ?? []), pod.tolerations)
      assert.equal(deletesWithinWindow(d), sub.expected.delete, sub.source)
      if (sub.expected.derivedDeleteAfterSeconds !== undefined) assert.equal(d.kind === 'timed' && d.minMs, sub.expected.derivedDeleteAfterSeconds * 1000)
    })
  }
  it('TestUpdateNodeWithMultipleTaints (related): forever while only taint1; 60s with both; forever again without taint2', () => {
    // taint_eviction_test.go@cb6ff2d8:530 as summarised in the case file's relatedCases.
    const tolerations: Toleration[] = [
      {key: 'testTaint1', operator: 'Exists', effect: 'NoExecute'},
      {key: 'testTaint2', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60},
    ]
    const t1: Taint = {key: 'testTaint1', value: 'test1', effect: 'NoExecute'}
    const t2: Taint = {key: 'testTaint2', value: 'test2', effect: 'NoExecute'}
    assert.equal(processPodOnNode([], tolerations).kind, 'noTaints')
    assert.equal(processPodOnNode([t1], tolerations).kind, 'forever')
    const both = processPodOnNode([t1, t2], tolerations)
    assert.equal(both.kind === 'timed' && both.minMs, 60_000)
    assert.equal(processPodOnNode([t1], tolerations).kind, 'forever')
  })
})

describe('getMinTolerationTime (TE-05)', () => {
  const c = caseById('TE-05')
  for (const sub of c.subcases as {tolerationSeconds: (number | null)[]; expectedSeconds: number}[]) {
    it(`[${sub.tolerationSeconds.map(String).join(', ')}] → ${sub.expectedSeconds}`, () => {
      const ms = getMinTolerationTime(sub.tolerationSeconds.map((s) => ({tolerationSeconds: s})))
      assert.equal(ms, sub.expectedSeconds < 0 ? -1 : sub.expectedSeconds * 1000)
    })
  }
})

describe('DefaultTolerationSeconds admission (ADM-01)', () => {
  const c = caseById('ADM-01')
  for (const sub of c.subcases as {source: string; tolerations: Toleration[]; expected: Toleration[] | 'unchanged'}[]) {
    it(sub.source, () => {
      const got = admitDefaultTolerationSeconds(sub.tolerations)
      assert.deepEqual(got, sub.expected === 'unchanged' ? sub.tolerations : sub.expected)
    })
  }
})
