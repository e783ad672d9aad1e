// ComputeZoneState, GetZoneKey and the per-state rate table. Expected values are worked out by hand from
// nlc.go:1318-1336 (ComputeZoneState), :1198-1211 (setLimiterInZone), :1253-1258 (ReducedQPSFunc) and
// topology/helpers.go GetZoneKey, as the decisions document quotes them.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  computeZoneState,
  getZoneKey,
  isNodeExcludedFromDisruptionChecks,
  rateForState,
  reducedQPS,
  zoneDisplayName,
} from '../../../src/engine/nodelifecycle/zone.js'
import {NEWEST_DEFAULTS, type NodeCondition} from '../../../src/engine/nodelifecycle/types.js'

const T: NodeCondition = {type: 'Ready', status: 'True'}
const F: NodeCondition = {type: 'Ready', status: 'False'}
const U: NodeCondition = {type: 'Ready', status: 'Unknown'}
const many = (n: number, c: NodeCondition | undefined) => Array.from({length: n}, () => c)

describe('computeZoneState', () => {
  it('no ready node and at least one not ready → FullDisruption; nil (never posted) counts as not ready', () => {
    assert.equal(computeZoneState([U], 0.55).state, 'FullDisruption')
    assert.equal(computeZoneState([undefined, undefined], 0.55).state, 'FullDisruption')
  })
  it('an empty list is Normal (ready == 0 but notReady == 0)', () => {
    assert.deepEqual(computeZoneState([], 0.55), {notReady: 0, ready: 0, state: 'Normal'})
  })
  it('needs more than 2 not-ready nodes: 2 of 3 (67%) is Normal, 3 of 4 (75%) is Partial', () => {
    assert.equal(computeZoneState([F, U, T], 0.55).state, 'Normal')
    assert.equal(computeZoneState([F, U, undefined, T], 0.55).state, 'PartialDisruption')
  })
  it('float32 arithmetic: 11/20 and 0.55 round to the same float32, so 11 of 20 is Partial', () => {
    assert.equal(Math.fround(11 / 20), Math.fround(0.55))
    assert.equal(computeZoneState([...many(11, U), ...many(9, T)], 0.55).state, 'PartialDisruption')
    assert.equal(computeZoneState([...many(10, U), ...many(10, T)], 0.55).state, 'Normal')
  })
  it('a zone of 60: 40% not ready (24) is Normal, 70% (42) is Partial', () => {
    assert.equal(computeZoneState([...many(24, U), ...many(36, T)], 0.55).state, 'Normal')
    assert.equal(computeZoneState([...many(42, U), ...many(18, T)], 0.55).state, 'PartialDisruption')
  })
  it('threshold 0.7 with 7 of 10: float32(7/10) and float32(0.7) are the same value → Partial', () => {
    assert.equal(computeZoneState([...many(7, F), ...many(3, T)], 0.7).state, 'PartialDisruption')
  })
  it('returns the not-ready count', () => {
    assert.equal(computeZoneState([F, U, T, T], 0.55).notReady, 2)
  })
})

describe('rate per zone state (setLimiterInZone, ReducedQPSFunc)', () => {
  const s = NEWEST_DEFAULTS
  it('Normal → --node-eviction-rate', () => assert.equal(rateForState('Normal', 10, s), 0.1))
  it('FullDisruption → --node-eviction-rate (HealthyQPSFunc)', () => assert.equal(rateForState('FullDisruption', 10, s), 0.1))
  it('PartialDisruption, exactly 50 counted nodes → small zone → 0', () => assert.equal(rateForState('PartialDisruption', 50, s), 0))
  it('PartialDisruption, 51 counted nodes → --secondary-node-eviction-rate', () => assert.equal(rateForState('PartialDisruption', 51, s), 0.01))
  it('Initial sets no limiter', () => assert.equal(rateForState('Initial', 51, s), undefined))
  it('reducedQPS compares with the threshold flag as given', () => {
    assert.equal(reducedQPS(21, {largeClusterSizeThreshold: 20, secondaryNodeEvictionRate: 0.5}), 0.5)
    assert.equal(reducedQPS(20, {largeClusterSizeThreshold: 20, secondaryNodeEvictionRate: 0.5}), 0)
  })
})

describe('getZoneKey', () => {
  const node = (labels: Record<string, string>) => ({metadata: {name: 'n', labels}})
  it('no labels → ""', () => assert.equal(getZoneKey(node({})), ''))
  it('region + NUL + zone from the GA labels', () => {
    assert.equal(getZoneKey(node({'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z'})), 'r:\x00:z')
  })
  it('the beta label wins whenever its key exists, even empty', () => {
    assert.equal(
      getZoneKey(node({'failure-domain.beta.kubernetes.io/zone': '', 'topology.kubernetes.io/zone': 'z', 'topology.kubernetes.io/region': 'r'})),
      'r:\x00:',
    )
  })
  it('zone only', () => assert.equal(getZoneKey(node({'topology.kubernetes.io/zone': 'z'})), ':\x00:z'))
  it('display names', () => {
    assert.equal(zoneDisplayName(''), '(no zone)')
    assert.equal(zoneDisplayName('r:\x00:z'), 'r/z')
    assert.equal(zoneDisplayName(':\x00:z'), 'z')
  })
  it('exclusion label: the key alone is enough', () => {
    assert.equal(isNodeExcludedFromDisruptionChecks(node({'node.kubernetes.io/exclude-disruption': ''})), true)
    assert.equal(isNodeExcludedFromDisruptionChecks(node({'node.kubernetes.io/exclude-balancer': ''})), false)
  })
})
