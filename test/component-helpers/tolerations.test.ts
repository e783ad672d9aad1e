// ToleratesTaint, expected values worked out by hand from toleration.go@19c6083b and toleration_test.go@4a0608cb,
// as the decisions document quotes them.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {Taint} from '../../src/cluster/kube-types.js'
import {toleratesTaint} from '../../src/component-helpers/tolerations.js'

const NOT_READY: Taint = {key: 'node.kubernetes.io/not-ready', effect: 'NoExecute'}
const UNREACHABLE: Taint = {key: 'node.kubernetes.io/unreachable', effect: 'NoExecute'}

describe('toleratesTaint', () => {
  it('Equal with a value never matches the controller taints (they carry no value)', () => {
    assert.equal(toleratesTaint({key: NOT_READY.key, operator: 'Equal', value: 'x', effect: 'NoExecute'}, NOT_READY), false)
    assert.equal(toleratesTaint({key: NOT_READY.key, effect: 'NoExecute'}, NOT_READY), true)
  })
  it('empty key with Exists matches every taint; empty effect matches every effect', () => {
    assert.equal(toleratesTaint({operator: 'Exists'}, UNREACHABLE), true)
    assert.equal(toleratesTaint({key: UNREACHABLE.key, operator: 'Exists'}, UNREACHABLE), true)
    assert.equal(toleratesTaint({key: UNREACHABLE.key, operator: 'Exists', effect: 'NoSchedule'}, UNREACHABLE), false)
  })
  // Issue 18.5: Lt/Gt match only with the TaintTolerationComparisonOperators gate on (alpha, off by default); this
  // test used to expect numeric matching with no gate, which upstream's ToleratesTaint does not do.
  it('Lt / Gt compare int64 values with the gate on; a value that does not parse never matches; unknown operators never match', () => {
    const on = {comparisonOperators: true}
    const taint: Taint = {key: 'gpu-mem', value: '16', effect: 'NoExecute'}
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'Lt', value: '32', effect: 'NoExecute'}, taint, on), true)
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'Lt', value: '16', effect: 'NoExecute'}, taint, on), false)
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'Gt', value: '8'}, taint, on), true)
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'Gt', value: '8x'}, taint, on), false)
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'Gt', value: '9223372036854775808'}, taint, on), false)
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'In', value: '16'}, taint, on), false)
  })
  it('with the gate off (the default) Lt / Gt match nothing, even where the numbers agree', () => {
    const taint: Taint = {key: 'gpu-mem', value: '16', effect: 'NoExecute'}
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'Lt', value: '32', effect: 'NoExecute'}, taint), false)
    assert.equal(toleratesTaint({key: 'gpu-mem', operator: 'Gt', value: '8'}, taint, {comparisonOperators: false}), false)
  })
  it('numbers as compareNumericValues reads them (toleration_test.go@4a0608cb TestCompareNumericValues): canonical decimal int64 only', () => {
    const on = {comparisonOperators: true}
    const gt = (tol: string, taint: string) => toleratesTaint({key: 'k', operator: 'Gt', value: tol}, {key: 'k', value: taint, effect: 'NoExecute'}, on)
    assert.equal(gt('100', '200'), true)
    assert.equal(gt('-100', '-50'), true)
    assert.equal(gt('9223372036854775806', '9223372036854775807'), true)
    assert.equal(gt('0100', '200'), false) // leading zero
    assert.equal(gt('+100', '200'), false) // plus sign
    assert.equal(gt('100.5', '200'), false)
    assert.equal(gt('-', '100'), false)
    assert.equal(gt('100', ' 200 '), false)
    assert.equal(gt('100', '0200'), false)
    assert.equal(gt('0', '0'), false)
    assert.equal(toleratesTaint({key: 'k', operator: 'Lt', value: '0'}, {key: 'k', value: '-9223372036854775808', effect: 'NoExecute'}, on), true)
  })
})
