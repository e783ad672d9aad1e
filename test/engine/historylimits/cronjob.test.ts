// cleanupFinishedJobs / byJobStartTime: upstream TestControllerV2CleanupFinishedJobs (cronjob_controllerv2_test.go)
// and TestByJobStartTime (utils_test.go) entries, converted; plus the worked example of cleanups.md §5.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {cleanupFinishedJobs, compareByJobStartTime, replayCronJobHistory} from '../../../src/engine/historylimits/index.js'

const cj = (successful?: number, failed?: number): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: {name: 'nightly', namespace: 'ops', uid: 'cj-1'},
  spec: {...(successful !== undefined ? {successfulJobsHistoryLimit: successful} : {}), ...(failed !== undefined ? {failedJobsHistoryLimit: failed} : {})},
})
const job = (name: string, start: string | undefined, type: 'Complete' | 'Failed' | undefined, owner = 'cj-1'): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {
    name,
    namespace: 'ops',
    uid: `u-${name}`,
    ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: owner, controller: true}],
  },
  status: {...(start ? {startTime: start} : {}), conditions: type ? [{type, status: 'True'}] : []},
})

describe('TestControllerV2CleanupFinishedJobs (upstream entries)', () => {
  it("jobs are still deleted when a cronjob can't create jobs due to jobs quota being reached: limit 1, two Complete → the older goes", () => {
    const jobs = [job('old', '2026-11-29T08:00:00Z', 'Complete'), job('new', '2026-11-29T09:00:00Z', 'Complete')]
    assert.deepEqual(
      cleanupFinishedJobs(cj(1, 1), jobs).deleted.map((j) => j.metadata?.name),
      ['old'],
    )
  })
  it('jobs are not deleted if history limit not reached: limit 2, one job', () => {
    assert.deepEqual(cleanupFinishedJobs(cj(2, 1), [job('a', '2026-11-29T08:00:00Z', 'Complete')]).deleted, [])
  })
})

describe('byJobStartTime (the rules upstream TestByJobStartTime asserts, cleanups.md §10)', () => {
  it('nil start times last; equal start times by name', () => {
    const a = job('a', undefined, 'Complete')
    const b = job('b', '2026-11-29T08:00:00Z', 'Complete')
    const c = job('c', '2026-11-29T08:00:00Z', 'Complete')
    const d = job('d', undefined, 'Complete')
    assert.deepEqual(
      [d, a, c, b].sort(compareByJobStartTime).map((j) => j.metadata?.name),
      ['b', 'c', 'a', 'd'],
    )
  })
})

describe('cleanups.md §5 worked example', () => {
  // limit 3; Complete A 10:00, B 11:00, C no start, D 09:00, E 11:00 → sorted D, A, B, E, C → 5 − 3 = 2: D and A go.
  const jobs = [
    job('a', '2026-11-29T10:00:00Z', 'Complete'),
    job('b', '2026-11-29T11:00:00Z', 'Complete'),
    job('c', undefined, 'Complete'),
    job('d', '2026-11-29T09:00:00Z', 'Complete'),
    job('e', '2026-11-29T11:00:00Z', 'Complete'),
    job('f', '2026-11-29T07:00:00Z', 'Failed'),
    job('other', '2026-11-29T06:00:00Z', 'Complete', 'cj-2'),
  ]
  it('D and A are deleted; the failed job and a job of another CronJob never compete', () => {
    assert.deepEqual(
      cleanupFinishedJobs(cj(3, 1), jobs)
        .deleted.map((j) => j.metadata?.name)
        .sort(),
      ['a', 'd'],
    )
  })
  it('the replay for one Job names the actor and the limit to raise', () => {
    const r = replayCronJobHistory(jobs[3], cj(3, 1), jobs)
    assert.equal(r.actor.actor, 'cronjob')
    assert.equal(r.actor.action, 'willDelete')
    assert.equal(r.actor.next[0].change, 'CronJob ops/nightly: spec.successfulJobsHistoryLimit')
    assert.equal(replayCronJobHistory(jobs[1], cj(3, 1), jobs).actor.action, 'none')
  })
  it('unset limits trim nothing', () => {
    assert.deepEqual(cleanupFinishedJobs(cj(), jobs).deleted, [])
  })
})
