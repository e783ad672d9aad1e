// pickOneNodeForPreemption (src/engine/podeviction/preemption.ts), criterion by criterion as preemption.go's default
// score functions order them. Upstream's TestPickOneNodeForPreemption (default_preemption_test.go) derives each node's
// victims from a full scheduling simulation (SelectVictimsOnNode over node resources), which is not replayed here; the
// victims below are written directly, in the shapes those entries reach, and each winner is worked out by hand.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {earliestPodStartTime, pickOneNodeForPreemption} from '../../../src/engine/podeviction/preemption.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const pod = (priority: number, startTime?: string) => ({spec: {priority}, status: startTime ? {startTime} : {}})
const c = (node: string, pods: ReturnType<typeof pod>[], numPDBViolations = 0) => ({node, pods, numPDBViolations})

describe('pickOneNodeForPreemption', () => {
  test('no candidate: no node', () => assert.deepEqual(pickOneNodeForPreemption([], NOW), {}))
  test('fewest PDB violations first, whatever the priorities', () => {
    const r = pickOneNodeForPreemption([c('a', [pod(1)], 1), c('b', [pod(1000)], 0)], NOW)
    assert.deepEqual(r, {node: 'b', decidedBy: 'minNumPDBViolating'})
  })
  test('machine with min highest priority pod is picked', () => {
    const r = pickOneNodeForPreemption([c('m1', [pod(10), pod(0)]), c('m2', [pod(5), pod(5), pod(5)])], NOW)
    assert.deepEqual(r, {node: 'm2', decidedBy: 'minHighestPriority'})
  })
  test('same highest priority: the smallest sum of priorities', () => {
    // m1: 10 + 5 = 15; m2: 10 + 1 = 11 (each + 2^31, same count, so the offsets cancel).
    const r = pickOneNodeForPreemption([c('m1', [pod(10), pod(5)]), c('m2', [pod(10), pod(1)])], NOW)
    assert.deepEqual(r, {node: 'm2', decidedBy: 'minSumPriorities'})
  })
  test('sum of adjusted priorities: fewer negative-priority victims beat more (the MaxInt32+1 offset)', () => {
    // m1: (-1 + 2^31) + (-1 + 2^31) + (-1 + 2^31); m2: 2 × (-1 + 2^31): m2's sum is smaller. A raw sum (-3 < -2) would pick m1.
    const r = pickOneNodeForPreemption([c('m1', [pod(-1), pod(-1), pod(-1)]), c('m2', [pod(-1), pod(-1)])], NOW)
    assert.deepEqual(r, {node: 'm2', decidedBy: 'minSumPriorities'})
  })
  // minNumPods decides only when the adjusted sums tie: rawSum + count·2^31 equal with different counts needs priorities
  // 2^31 apart (system-critical next to negative ones), so it is not exercised here.
  test('same priority, same number of victims: the node whose earliest highest-priority victim started latest', () => {
    const r = pickOneNodeForPreemption(
      [
        c('m1', [pod(10, '2026-06-01T10:00:00Z'), pod(10, '2026-06-01T11:00:00Z')]),
        c('m2', [pod(10, '2026-06-01T10:30:00Z'), pod(10, '2026-06-01T10:40:00Z')]),
      ],
      NOW,
    )
    // m1's earliest is 10:00, m2's 10:30: m2 started later.
    assert.deepEqual(r, {node: 'm2', decidedBy: 'latestStartTime'})
  })
  test('a victim not started yet counts as starting now (GetPodStartTime)', () => {
    assert.equal(earliestPodStartTime([pod(10)], NOW), NOW)
    const r = pickOneNodeForPreemption([c('m1', [pod(10, '2026-06-01T10:00:00Z')]), c('m2', [pod(10)])], NOW)
    assert.deepEqual(r, {node: 'm2', decidedBy: 'latestStartTime'})
  })
  test('the earliest start time is taken over the highest-priority victims only', () => {
    // The priority-1 victim started first, but only the priority-10 ones count: 11:00.
    assert.equal(earliestPodStartTime([pod(10, '2026-06-01T11:00:00Z'), pod(1, '2026-06-01T09:00:00Z')], NOW), Date.parse('2026-06-01T11:00:00Z'))
  })
  test('a full tie: the first candidate', () => {
    const r = pickOneNodeForPreemption([c('m1', [pod(1, '2026-06-01T10:00:00Z')]), c('m2', [pod(1, '2026-06-01T10:00:00Z')])], NOW)
    assert.deepEqual(r, {node: 'm1', decidedBy: 'first'})
  })
})
