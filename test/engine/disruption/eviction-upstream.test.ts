// pkg/registry/core/pod/storage/eviction_test.go TestEvictionIgnorePDB, converted: the entries whose pod does not
// change during the request (the conflict-and-retry entries need the store's mock and have no offline meaning),
// each run under the policies upstream runs it with (AlwaysAllow, nil, IfHealthyBudget, or the subset the entry
// names). expectedDeleteCount ≥ 1 with no error is a 200; the expected 429 cause is upstream's string.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {evictionAnswer, type PdbLike, type PdbPod} from '../../../src/engine/disruption/pdb.js'

type Policy = 'AlwaysAllow' | 'IfHealthyBudget' | undefined
const ALL: Policy[] = ['AlwaysAllow', undefined, 'IfHealthyBudget']
const pdb = (status: PdbLike['status'], policy: Policy, selector: PdbLike['spec'] = {selector: {matchLabels: {a: 'true'}}}): PdbLike => ({
  metadata: {name: 'foo', namespace: 'default'},
  spec: {...selector, ...(policy ? {unhealthyPodEvictionPolicy: policy} : {})},
  status,
})
const pod = (name: string, phase: string | undefined, ready?: boolean, terminating = false): PdbPod => ({
  metadata: {name, namespace: 'default', labels: {a: 'true'}, ...(terminating ? {deletionTimestamp: '2026-06-01T12:00:00Z'} : {})},
  status: {phase, conditions: ready === undefined ? [] : [{type: 'Ready', status: ready ? 'True' : 'False'}]},
})
const cause = (a: ReturnType<typeof evictionAnswer>) => (a.code === 429 ? a.cause : a.code)

interface Entry {
  name: string
  status: PdbLike['status']
  pod: PdbPod
  policies?: Policy[]
  empty?: boolean
  want: 200 | string
}
const ENTRIES: Entry[] = [
  {name: 'pdbs No disruptions allowed, pod pending … pod deleted successfully', status: {disruptionsAllowed: 0}, pod: pod('t1', 'Pending'), want: 200},
  {
    name: 'pdbs No disruptions allowed, pod pending, … pod becomes running, continueToPDBs',
    status: {disruptionsAllowed: 0},
    pod: pod('t2', 'Running'),
    policies: [undefined, 'IfHealthyBudget'],
    want: 'The disruption budget foo needs 0 healthy pods and has 0 currently',
  },
  {name: 'matching pdbs with no disruptions allowed, pod terminating', status: {disruptionsAllowed: 0}, pod: pod('t6', undefined, undefined, true), want: 200},
  {
    name: 'matching pdbs with no disruptions allowed, pod running, pod healthy, unhealthy pod not ours',
    status: {disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2},
    pod: pod('t7', 'Running', true),
    want: 'The disruption budget foo needs 2 healthy pods and has 2 currently',
  },
  {
    name: 'matching pdbs with disruptions allowed, pod running, pod healthy, healthy pod ours, deletes pod by honoring the PDB',
    status: {disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 3},
    pod: pod('t8', 'Running', true),
    want: 200,
  },
  {
    name: 'matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours',
    status: {disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2},
    pod: pod('t8', 'Running', false),
    want: 200,
  },
  {
    name: 'matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours, skips the PDB check and deletes',
    status: {disruptionsAllowed: 0},
    pod: pod('t8', 'Running', false),
    policies: ['AlwaysAllow'],
    want: 200,
  },
  {
    name: 'matching pdbs with no disruptions allowed, pod running, pod healthy, empty selector, pod not deleted by honoring the PDB',
    status: {disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3},
    pod: pod('t11', 'Running', true),
    empty: true,
    want: 'The disruption budget foo needs 3 healthy pods and has 3 currently',
  },
]

describe('TestEvictionIgnorePDB', () => {
  for (const e of ENTRIES)
    for (const policy of e.policies ?? ALL)
      test(`${e.name} with ${policy ?? 'nil'} policy`, () => {
        const b = pdb(e.status, policy, e.empty ? {selector: {}} : undefined)
        assert.equal(cause(evictionAnswer(e.pod, [b])), e.want)
      })
  test('derived from the "skips the PDB check" entry: with nil or IfHealthyBudget the check is not skipped (desiredHealthy 0 is not > 0)', () => {
    for (const policy of [undefined, 'IfHealthyBudget'] as Policy[])
      assert.equal(
        cause(evictionAnswer(pod('t8', 'Running', false), [pdb({disruptionsAllowed: 0}, policy)])),
        'The disruption budget foo needs 0 healthy pods and has 0 currently',
      )
  })
})
