// pkg/kubelet/nodeshutdown/nodeshutdown_manager_test.go Test_migrateConfig and Test_groupByPriority, converted: the
// same settings and pods, upstream's expected groups. scheduling.HighestUserDefinablePriority is 1000000000.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {groupByPriority, migrateConfig, SYSTEM_CRITICAL_PRIORITY, shutdownKillGrace} from '../../../src/engine/podeviction/shutdown.js'

const pod = (name: string, priority: number) => ({name, spec: {priority}})
const HIGHEST_USER_DEFINABLE = 1_000_000_000

describe('Test_migrateConfig', () => {
  test('both shutdownGracePeriodRequested and shutdownGracePeriodCriticalPods: 300 s, 120 s → 180 and 120', () => {
    assert.deepEqual(migrateConfig(300, 120), [
      {priority: 0, shutdownGracePeriodSeconds: 180},
      {priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: 120},
    ])
  })
  test('only shutdownGracePeriodRequested: 100 s → 100 and 0', () => {
    assert.deepEqual(migrateConfig(100, 0), [
      {priority: 0, shutdownGracePeriodSeconds: 100},
      {priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: 0},
    ])
  })
  test('empty configuration → nil', () => assert.equal(migrateConfig(0, 0), undefined))
  test('wrong configuration (1 s requested, 100 s critical) → nil', () => assert.equal(migrateConfig(1, 100), undefined))
})

describe('Test_groupByPriority', () => {
  test('migrate config: normal and highest-user-definable pods in the 180 s group, the critical pod in the 120 s one', () => {
    const groups = groupByPriority(migrateConfig(300, 120)!, [
      pod('normal-pod', 0),
      pod('highest-user-definable-pod', HIGHEST_USER_DEFINABLE),
      pod('critical-pod', SYSTEM_CRITICAL_PRIORITY),
    ])
    assert.deepEqual(
      groups.map((g) => [g.group.shutdownGracePeriodSeconds, g.pods.map((p) => p.name)]),
      [
        [180, ['normal-pod', 'highest-user-definable-pod']],
        [120, ['critical-pod']],
      ],
    )
  })
  test('pod priority: below the lowest joins it, above the highest joins it', () => {
    const config = [1, 2, 3, 4].map((p) => ({priority: p, shutdownGracePeriodSeconds: p * 10}))
    const groups = groupByPriority(
      config,
      [0, 1, 2, 3, 4, 5].map((p) => pod(`pod-${p}`, p)),
    )
    assert.deepEqual(
      groups.map((g) => [g.group.priority, g.pods.map((p) => p.name)]),
      [
        [1, ['pod-0', 'pod-1']],
        [2, ['pod-2']],
        [3, ['pod-3']],
        [4, ['pod-4', 'pod-5']],
      ],
    )
  })
  test("killPods' grace: the group's seconds, or terminationGracePeriodSeconds when not larger", () => {
    assert.equal(shutdownKillGrace(180, 30), 30)
    assert.equal(shutdownKillGrace(20, 30), 20)
    assert.equal(shutdownKillGrace(20, undefined), 20)
  })
})
