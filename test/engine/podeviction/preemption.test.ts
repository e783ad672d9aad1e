// Scheduler preemption pieces (src/engine/podeviction/preemption.ts): filterPodsWithPDBViolation's budget arithmetic
// and the preemptor found from the Preempted event or nominatedNodeName. Each expected value worked by hand from
// default_preemption.go as the comments say.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {filterPodsWithPDBViolation, type PreemptionPdb, replayPreemption} from '../../../src/engine/podeviction/preemption.js'
import type {PodLike} from '../../../src/engine/podeviction/types.js'

const pod = (name: string, labels: Record<string, string>, priority = 0, extra: Partial<PodLike> = {}): PodLike => ({
  metadata: {name, namespace: 'ns', uid: `${name}-uid`, labels},
  spec: {nodeName: 'n1', priority, ...(extra.spec ?? {})},
  status: {phase: 'Running', ...(extra.status ?? {})},
})
const pdb = (
  allowed: number,
  selector: PreemptionPdb['spec'] = {selector: {matchLabels: {app: 'web'}}},
  disrupted: Record<string, string> = {},
): PreemptionPdb => ({
  metadata: {name: 'web', namespace: 'ns'},
  spec: selector,
  status: {disruptionsAllowed: allowed, disruptedPods: disrupted},
})
const names = (ps: PodLike[]) => ps.map((p) => p.metadata?.name)

describe('filterPodsWithPDBViolation', () => {
  test('allowed 1, three matching victims: the first fits the budget (1 → 0), the next two take it below zero', () => {
    const v = [pod('a', {app: 'web'}), pod('b', {app: 'web'}), pod('c', {app: 'web'})]
    const r = filterPodsWithPDBViolation(v, [pdb(1)])
    assert.deepEqual([names(r.nonViolating), names(r.violating)], [['a'], ['b', 'c']])
  })
  test('a victim already in disruptedPods is not counted and does not decrement', () => {
    const v = [pod('a', {app: 'web'}), pod('b', {app: 'web'})]
    const r = filterPodsWithPDBViolation(v, [pdb(1, undefined, {a: '2026-06-01T12:00:00Z'})])
    assert.deepEqual([names(r.nonViolating), names(r.violating)], [['a', 'b'], []])
  })
  test('an empty selector matches nothing here (the Eviction API would match every pod); a pod without labels matches nothing', () => {
    assert.deepEqual(names(filterPodsWithPDBViolation([pod('a', {app: 'web'})], [pdb(0, {selector: {}})]).violating), [])
    assert.deepEqual(
      names(filterPodsWithPDBViolation([pod('a', {})], [pdb(0, {selector: {matchExpressions: [{key: 'x', operator: 'DoesNotExist'}]}})]).violating),
      [],
    )
  })
})

describe('replayPreemption', () => {
  test('the uid in "Preempted by pod <uid> on node <node>" finds the preemptor; a lower victim priority is consistent', () => {
    const victim = pod('v', {}, 10)
    const big = pod('big', {}, 1000, {spec: {preemptionPolicy: 'PreemptLowerPriority'}, status: {phase: 'Pending'}})
    const r = replayPreemption({victim, event: {message: 'Preempted by pod big-uid on node n1', preemptorUid: 'big-uid', node: 'n1'}, pods: [victim, big]})
    assert.deepEqual([r.preemptor?.ref, r.preemptor?.found, r.lowerPriority], ['ns/big', 'uid', true])
  })
  test('a named preemptor with preemptionPolicy Never is said not to be able to preempt', () => {
    const victim = pod('v', {}, 10)
    const never = pod('never', {}, 1000, {spec: {preemptionPolicy: 'Never'}, status: {phase: 'Pending', nominatedNodeName: 'n1'}})
    const r = replayPreemption({victim, pods: [victim, never]})
    assert.equal(r.preemptor?.found, 'nominated')
    assert.ok(r.why.some((w) => /preemptionPolicy is Never/.test(w)))
  })
})
