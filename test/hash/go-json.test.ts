// encoding/json.Marshal of generic values, as worked out from Go's encode.go (appendString with
// escapeHTML, float64 encoder, sorted map keys).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {goJsonFloat, goJsonMarshal, goJsonString} from '../../src/hash/go-json.js'

describe('Go json.Marshal', () => {
  it('escapes <, >, & and U+2028/U+2029, and control characters', () => {
    assert.equal(goJsonString('<b>&</b>'), '"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"')
    assert.equal(goJsonString('\u2028\u2029'), '"\\u2028\\u2029"')
    assert.equal(goJsonString('a\u0000b\u0001c\u001fd\u007fe'), '"a\\u0000b\\u0001c\\u001fd\u007fe"')
    assert.equal(goJsonString('"\\\n\r\t\b\f'), '"\\"\\\\\\n\\r\\t\\b\\f"')
    assert.equal(goJsonString('日本 😀'), '"日本 😀"')
    assert.equal(goJsonString('x\ud800'), '"x\ufffd"')
  })

  it('sorts object keys as Go strings and writes no whitespace', () => {
    assert.equal(goJsonMarshal({b: 1, $patch: 'replace', a: [true, null], '😀': 1, ｚ: 2}), '{"$patch":"replace","a":[true,null],"b":1,"ｚ":2,"😀":1}')
  })

  it('writes numbers as float64: integers beyond 2^53 lose precision, large and small use exponents', () => {
    assert.equal(goJsonMarshal(9223372036854775807n), '9223372036854776000')
    assert.equal(goJsonMarshal(9007199254740993n), '9007199254740992')
    assert.equal(goJsonFloat(1e21), '1e+21')
    assert.equal(goJsonFloat(1e20), '100000000000000000000')
    assert.equal(goJsonFloat(0.000001), '0.000001')
    assert.equal(goJsonFloat(0.0000001), '1e-7')
    assert.equal(goJsonFloat(1.5), '1.5')
  })
})
