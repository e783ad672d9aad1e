// The upstream test cases of ../shared/docs/decisions/nodelifecycle-cases.json (copied into fixtures), run
// through the replayed controller. Expected values are upstream's assertions, read from the fixture.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {findTaint} from '../../../src/engine/nodelifecycle/taints.js'
import {caseById, doNoExecuteTaintingPass, loadCases, monitorNodeHealth, newControllerState, runPasses, TEST_SETTINGS, toNode, viewOf} from './harness.js'

describe('TestMonitorNodeHealth zone states (NLC-ZONE-*)', () => {
  for (const c of loadCases().filter((x) => x.id.startsWith('NLC-ZONE-'))) {
    it(`${c.id}: ${String(c.title)}`, () => {
      const {zoneStatesAfter} = runPasses(c)
      assert.deepEqual(zoneStatesAfter, c.expected.zoneStatesAfterPass, c.source)
    })
  }
})

interface ExpectedStatus {
  nodeStatusUpdate: Record<string, {conditions: unknown[]}> | null
  podStatusUpdated: boolean
}

describe('node health updates (NLC-HEALTH-02, NLC-LEASE-01, NLC-LEASE-03)', () => {
  for (const id of ['NLC-HEALTH-02', 'NLC-LEASE-01', 'NLC-LEASE-03']) {
    const c = caseById(id)
    it(`${id}: ${String(c.title)}`, () => {
      const {nodes, results} = runPasses(c)
      const expected = c.expected as unknown as ExpectedStatus
      const last = results.at(-1)!
      for (const [name, status] of Object.entries(expected.nodeStatusUpdate ?? {})) {
        const node = nodes.find((n) => n.metadata?.name === name)!
        assert.deepEqual(node.status?.conditions, status.conditions, `${c.source}: conditions written for ${name}`)
        const r = last.nodes.find((n) => n.name === name)!
        assert.equal(r.outcome.kind === 'evaluated' && r.outcome.statusWritten, true)
      }
      assert.equal(
        last.nodes.some((n) => n.markPodsNotReady),
        expected.podStatusUpdated,
        `${c.source}: podStatusUpdated`,
      )
    })
  }

  const lease01 = caseById('NLC-LEASE-01')
  const related = lease01.relatedCasesSameTest as {source: string; expected: unknown}[]
  it('NLC-LEASE-01 related: a lease renewed in pass 2 keeps a never-posted node alive (no status update, no pod update)', () => {
    // nlc_test.go@f8bf6b97:1388: lease renewTime 12:00 in pass 1, 13:00 in pass 2 → nodeStatusUpdate nil.
    const c = structuredClone(lease01)
    c.input.passes![1].leases = [{name: 'node0', holderIdentity: 'node0', renewTime: '2015-01-01T13:00:00.000000Z'}]
    const {nodes, results} = runPasses(c)
    assert.equal((related[0].expected as {nodeStatusUpdate: null}).nodeStatusUpdate, null)
    assert.deepEqual(nodes[0].status, {}, related[0].source)
    const r = results[1].nodes[0]
    assert.equal(r.outcome.kind === 'evaluated' && r.outcome.statusWritten, false)
    assert.equal(r.markPodsNotReady, false)
  })
  it('NLC-LEASE-01 related: no lease at all, one pass at 12:00 → the four NeverUpdated conditions stamped 12:00', () => {
    // nlc_test.go@f8bf6b97:1326: probe = creationTimestamp (2012) + 60s startup grace is long past.
    const c = structuredClone(lease01)
    c.input.passes = [{now: '2015-01-01T12:00:00Z'}]
    const {nodes, results} = runPasses(c)
    const expected = (lease01.expected as unknown as ExpectedStatus).nodeStatusUpdate!.node0.conditions as {lastTransitionTime: string}[]
    const at12 = expected.map((x) => ({...x, lastTransitionTime: '2015-01-01T12:00:00Z'}))
    assert.deepEqual(nodes[0].status?.conditions, at12, related[1].source)
    assert.equal(results[0].nodes[0].markPodsNotReady, false)
  })
})

describe('TestSwapUnreachableNotReadyTaints (NLC-TAINT-02)', () => {
  const c = caseById('NLC-TAINT-02')
  it('unreachable:NoExecute after step 1, swapped to not-ready:NoExecute in step 2 without the queue', () => {
    const nodes = (c.input.nodes ?? []).map(toNode)
    const state = newControllerState()
    const now = Date.parse('2017-01-01T12:00:00Z')
    const expected = c.expected as Record<string, Record<string, {hasTaint: {key: string; effect: string}}>>
    for (const step of c.input.steps ?? []) {
      for (const [name, status] of Object.entries(step.statusUpdates ?? {})) {
        nodes.find((n) => n.metadata?.name === name)!.status = structuredClone(status) as never
      }
      const view = viewOf(nodes)
      monitorNodeHealth(state, view, now, TEST_SETTINGS)
      doNoExecuteTaintingPass(state, view, now)
      for (const [name, want] of Object.entries(expected[`afterStep${step.step}`])) {
        const node = nodes.find((n) => n.metadata?.name === name)!
        assert.ok(findTaint(node.spec?.taints, want.hasTaint), `${c.source}: after step ${step.step} ${name} has ${want.hasTaint.key}:${want.hasTaint.effect}`)
      }
    }
    // Derived (not asserted upstream): the swap removed the unreachable NoExecute taint.
    assert.equal(findTaint(nodes[0].spec?.taints, {key: 'node.kubernetes.io/unreachable', effect: 'NoExecute'}), undefined)
  })
})
