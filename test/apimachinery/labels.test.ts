// metav1.LabelSelectorAsSelector (apimachinery pkg/apis/meta/v1/helpers.go) and labels.Selector.Matches
// (pkg/labels/selector.go): the expected values follow from upstream's rules, written out in each case.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {labelSelectorAsSelector} from '../../src/apimachinery/labels.js'

describe('LabelSelectorAsSelector', () => {
  it('nil matches nothing, empty matches everything', () => {
    assert.equal(labelSelectorAsSelector(undefined)({a: 'b'}), false)
    assert.equal(labelSelectorAsSelector({})({}), true)
  })
  it('expressions: In, NotIn (absent key matches), Exists, DoesNotExist', () => {
    const s = labelSelectorAsSelector({
      matchExpressions: [
        {key: 'tier', operator: 'In', values: ['web', 'api']},
        {key: 'env', operator: 'NotIn', values: ['dev']},
        {key: 'app', operator: 'Exists'},
        {key: 'canary', operator: 'DoesNotExist'},
      ],
    })
    assert.equal(s({tier: 'web', app: 'x'}), true)
    assert.equal(s({tier: 'web', app: 'x', env: 'dev'}), false)
    assert.equal(s({tier: 'db', app: 'x'}), false)
    assert.equal(s({tier: 'web', app: 'x', canary: ''}), false)
  })
  it('rejects an unknown operator and an empty In', () => {
    assert.throws(() => labelSelectorAsSelector({matchExpressions: [{key: 'a', operator: 'Gt', values: ['1']}]}), /not a valid label selector operator/)
    assert.throws(() => labelSelectorAsSelector({matchExpressions: [{key: 'a', operator: 'In', values: []}]}), /can't be empty/)
  })
})
