// The kubelet's rank functions against upstream's own tables: pkg/kubelet/eviction/helpers_test.go
// TestOrderedByExceedsRequestMemory, TestOrderedByExceedsRequestDisk, TestOrderedByPriority, TestOrderedbyDisk,
// TestOrderedbyInodes, TestOrderedByPriorityDisk, TestOrderedByPriorityInodes, TestOrderedByMemory,
// TestOrderedByPriorityMemory, TestOrderedByPriorityProcess. Each pod, its request and its usage are upstream's
// (newResourceList(cpu, memory, disk); newPodDiskStats(root, logs, perLocalVolume) summed; newPodMemoryStats the
// working set), and so is the expected order. Upstream's lowPriority/highPriority/defaultPriority are -1, 1, 0.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {
  disk,
  exceedDiskRequests,
  exceedMemoryRequests,
  memory,
  orderedBy,
  priority,
  process,
  type RankPod,
  rankDiskPressure,
  rankMemoryPressure,
  rankPIDPressure,
} from '../../../src/engine/podeviction/kubelet.js'

const Mi = 1024 * 1024
const Gi = 1024 * Mi
const low = -1
const high = 1
const pod = (name: string, prio: number, requests: RankPod['requests'], usage: RankPod['usage']): RankPod => ({name, priority: prio, requests, usage})
const names = (pods: RankPod[]) => pods.map((p) => p.name)

describe('helpers_test.go ranking tables', () => {
  test('TestOrderedByExceedsRequestMemory: 101Mi of 100Mi before 199Mi of 200Mi', () => {
    const below = pod('below-requests', -1, {memory: 200 * Mi}, {memory: 199 * Mi})
    const exceeds = pod('exceeds-requests', 1, {memory: 100 * Mi}, {memory: 101 * Mi})
    assert.deepEqual(names(orderedBy(exceedMemoryRequests)([below, exceeds])), ['exceeds-requests', 'below-requests'])
  })
  test('TestOrderedByExceedsRequestDisk: 90+11 of 100Mi before 100+99 of 200Mi', () => {
    const below = pod('below-requests', -1, {'ephemeral-storage': 200 * Mi}, {disk: 199 * Mi})
    const exceeds = pod('exceeds-requests', 1, {'ephemeral-storage': 100 * Mi}, {disk: 101 * Mi})
    assert.deepEqual(names(orderedBy(exceedDiskRequests('ephemeral-storage'))([below, exceeds])), ['exceeds-requests', 'below-requests'])
  })
  test('TestOrderedByPriority: -134, 1, 12534', () => {
    const l = pod('low-priority', -134, {}, {})
    const m = pod('medium-priority', 1, {memory: 100 * Mi}, {})
    const h = pod('high-priority', 12534, {memory: 200 * Mi}, {})
    assert.deepEqual(names(orderedBy(priority)([h, m, l])), ['low-priority', 'medium-priority', 'high-priority'])
  })
  test('TestOrderedbyDisk: usage minus the ephemeral-storage request, largest first', () => {
    // usage = root + logs + one local volume: 300, 100, 350, 110, 375, 120 Mi; requests 0, 0, 100, 100, 400, 400 Mi.
    const ps = [
      pod('best-effort-high', 0, {}, {disk: 300 * Mi}),
      pod('best-effort-low', 0, {}, {disk: 100 * Mi}),
      pod('burstable-high', 0, {'ephemeral-storage': 100 * Mi}, {disk: 350 * Mi}),
      pod('burstable-low', 0, {'ephemeral-storage': 100 * Mi}, {disk: 110 * Mi}),
      pod('guaranteed-high', 0, {'ephemeral-storage': 400 * Mi}, {disk: 375 * Mi}),
      pod('guaranteed-low', 0, {'ephemeral-storage': 400 * Mi}, {disk: 120 * Mi}),
    ]
    assert.deepEqual(names(orderedBy(disk('ephemeral-storage'))(ps)), [
      'best-effort-high',
      'burstable-high',
      'best-effort-low',
      'burstable-low',
      'guaranteed-high',
      'guaranteed-low',
    ])
  })
  test('TestOrderedbyInodes: 400000, 300000, 200000 inodes, most first', () => {
    const ps = [pod('low', 0, {}, {inodes: 200000}), pod('medium', 0, {}, {inodes: 300000}), pod('high', 0, {}, {inodes: 400000})]
    assert.deepEqual(names(orderedBy(disk('inodes'))(ps)), ['high', 'medium', 'low'])
  })
  test('TestOrderedByPriorityDisk: exceeds requests, then priority, then usage above request', () => {
    const ps = [
      pod('pod1 above-requests-low-priority-high-usage', low, {}, {disk: 500 * Mi}),
      pod('pod2 above-requests-low-priority-low-usage', low, {}, {disk: 50 * Mi}),
      pod('pod3 above-requests-high-priority-high-usage', high, {'ephemeral-storage': 100 * Mi}, {disk: 600 * Mi}),
      pod('pod4 above-requests-high-priority-low-usage', high, {'ephemeral-storage': 100 * Mi}, {disk: 150 * Mi}),
      pod('pod5 below-requests-low-priority-high-usage', low, {'ephemeral-storage': Gi}, {disk: 800 * Mi}),
      pod('pod6 below-requests-low-priority-low-usage', low, {'ephemeral-storage': Gi}, {disk: 200 * Mi}),
      pod('pod7 below-requests-high-priority-high-usage', high, {'ephemeral-storage': Gi}, {disk: 800 * Mi}),
      pod('pod8 below-requests-high-priority-low-usage', high, {'ephemeral-storage': Gi}, {disk: 200 * Mi}),
    ]
    const expected = names(ps)
    assert.deepEqual(names(rankDiskPressure('ephemeral-storage')([...ps].reverse())), expected)
  })
  test('TestOrderedByPriorityInodes: priority, then inodes', () => {
    const ps = [
      pod('low-priority-high-usage', low, {}, {inodes: 400000}),
      pod('low-priority-low-usage', low, {}, {inodes: 100000}),
      pod('high-priority-high-usage', high, {}, {inodes: 350000}),
      pod('high-priority-low-usage', high, {}, {inodes: 150000}),
    ]
    assert.deepEqual(names(orderedBy(priority, disk('inodes'))([...ps].reverse())), names(ps))
  })
  test('TestOrderedByMemory: working set minus request, largest first', () => {
    const ps = [
      pod('best-effort-high', 0, {}, {memory: 500 * Mi}),
      pod('best-effort-low', 0, {}, {memory: 300 * Mi}),
      pod('burstable-high', 0, {memory: 100 * Mi}, {memory: 800 * Mi}),
      pod('burstable-low', 0, {memory: 100 * Mi}, {memory: 300 * Mi}),
      pod('guaranteed-high', 0, {memory: Gi}, {memory: 800 * Mi}),
      pod('guaranteed-low', 0, {memory: Gi}, {memory: 200 * Mi}),
    ]
    assert.deepEqual(names(orderedBy(memory)(ps)), [
      'burstable-high',
      'best-effort-high',
      'best-effort-low',
      'burstable-low',
      'guaranteed-high',
      'guaranteed-low',
    ])
  })
  test('TestOrderedByPriorityMemory: rankMemoryPressure puts the eight pods in upstream order', () => {
    const ps = [
      pod('pod1', low, {}, {memory: 500 * Mi}),
      pod('pod2', low, {}, {memory: 50 * Mi}),
      pod('pod3', high, {memory: 100 * Mi}, {memory: 600 * Mi}),
      pod('pod4', high, {memory: 100 * Mi}, {memory: 150 * Mi}),
      pod('pod5', low, {memory: Gi}, {memory: 800 * Mi}),
      pod('pod6', low, {memory: Gi}, {memory: 200 * Mi}),
      pod('pod7', high, {memory: Gi}, {memory: 800 * Mi}),
      pod('pod8', high, {memory: Gi}, {memory: 200 * Mi}),
    ]
    assert.deepEqual(names(rankMemoryPressure([...ps].reverse())), names(ps))
  })
  test('TestOrderedByPriorityProcess: rankPIDPressure — priority, then more processes', () => {
    const ps = [
      pod('low-priority-high-usage', low, {}, {processes: 20}),
      pod('low-priority-low-usage', low, {}, {processes: 6}),
      pod('high-priority-high-usage', high, {}, {processes: 20}),
      pod('high-priority-low-usage', high, {}, {processes: 5}),
    ]
    assert.deepEqual(names(rankPIDPressure([...ps].reverse())), names(ps))
    assert.deepEqual(names(orderedBy(priority, process)([...ps].reverse())), names(ps))
  })
  test('a pod without stats sorts before pods with stats (cmpBool(!p1Found, !p2Found))', () => {
    const withStats = pod('with-stats', -5, {}, {memory: 999 * Mi})
    const none = pod('no-stats', 100, {memory: Gi}, undefined)
    assert.deepEqual(names(rankMemoryPressure([withStats, none])), ['no-stats', 'with-stats'])
  })
})
