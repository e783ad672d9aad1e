// ParseQuantity and String() against values worked out by hand from upstream's rules
// (k8s.io/apimachinery/pkg/api/resource quantity.go, amount.go, suffix.go); the observations listed in
// ../shared/k8s-hash/README.md are among them.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {controllerQuantity, ParseQuantity, QuantityError, quantityCmp, quantityString} from '../../src/apimachinery/quantity.js'

function state(text: string) {
  const q = ParseQuantity(text)
  return {value: q.i.value, scale: q.i.scale, d: q.d, s: q.s, format: q.format}
}

describe('ParseQuantity', () => {
  it('"0" is its own branch: DecimalSI with s="0"', () => {
    assert.deepEqual(state('0'), {value: 0n, scale: 0, d: null, s: '0', format: 'DecimalSI'})
  })

  it('keeps the input as s only when it is already canonical', () => {
    // 500m: num "500", scale -3 (a multiple of 3), no trailing "000", no leading 0 → canonical
    assert.deepEqual(state('500m'), {value: 500n, scale: -3, d: null, s: '500m', format: 'DecimalSI'})
    // 0.5: shifted "05" × 10^-1; scale -1 is not a multiple of 3
    assert.deepEqual(state('0.5'), {value: 5n, scale: -1, d: null, s: '', format: 'DecimalSI'})
    // 1000m: shifted "1000" ends in "000"
    assert.deepEqual(state('1000m'), {value: 1000n, scale: -3, d: null, s: '', format: 'DecimalSI'})
    // +1: the sign is kept in s
    assert.deepEqual(state('+1'), {value: 1n, scale: 0, d: null, s: '+1', format: 'DecimalSI'})
    // -100m
    assert.deepEqual(state('-100m'), {value: -100n, scale: -3, d: null, s: '-100m', format: 'DecimalSI'})
    // 1e3: DecimalExponent 3; 5e-3: exponent -3
    assert.deepEqual(state('1e3'), {value: 1n, scale: 3, d: null, s: '1e3', format: 'DecimalExponent'})
    assert.deepEqual(state('5e-3'), {value: 5n, scale: -3, d: null, s: '5e-3', format: 'DecimalExponent'})
    // 1E is the exa suffix, not an exponent
    assert.deepEqual(state('1E'), {value: 1n, scale: 18, d: null, s: '1E', format: 'DecimalSI'})
  })

  it('binary SI: canonical only when the mantissa is not a multiple of 8', () => {
    // 1Mi = 1 << 20; 1 & 7 != 0
    assert.deepEqual(state('1Mi'), {value: 1048576n, scale: 0, d: null, s: '1Mi', format: 'BinarySI'})
    // 1536Mi: 1536 & 7 == 0 (1536 could be written 1.5Gi)
    assert.deepEqual(state('1536Mi'), {value: 1610612736n, scale: 0, d: null, s: '', format: 'BinarySI'})
    // 1024Ki: 1024 & 7 == 0
    assert.deepEqual(state('1024Ki'), {value: 1048576n, scale: 0, d: null, s: '', format: 'BinarySI'})
  })

  it('takes the inf.Dec path beyond 18 digits or a binary fraction, rounding up to nano', () => {
    // 1.5Gi: 15 × 10^-1 × 2^30 = 16106127360 × 10^-1, rescaled to 10^-9
    assert.deepEqual(ParseQuantity('1.5Gi').d, {unscaled: 1610612736000000000n, scale: 9})
    // 1Ei: precision 15-1-18-1 < 0 → 2^60 at scale 9
    assert.deepEqual(ParseQuantity('1Ei').d, {unscaled: (1n << 60n) * 10n ** 9n, scale: 9})
    // 19 digits: no fast path, and decimal SI is not capped at 2^63-1
    assert.deepEqual(ParseQuantity('9223372036854775808').d, {unscaled: 9223372036854775808n * 10n ** 9n, scale: 9})
    // 1.5n → 2n (rounded away from zero), via the fast path's scale < -9 check
    assert.deepEqual(ParseQuantity('1.5n').d, {unscaled: 2n, scale: 9})
  })

  it('caps binary SI at 2^63-1 (8Ei = 2^63)', () => {
    assert.deepEqual(ParseQuantity('8Ei').d, {unscaled: (1n << 63n) - 1n, scale: 0})
  })

  it('rejects what upstream rejects, with its messages', () => {
    for (const bad of ['', '1.2.3', 'abc', '1Qi', '1e3.5']) {
      assert.throws(
        () => ParseQuantity(bad),
        (e) => e instanceof QuantityError && /regular expression/.test(e.message),
        bad,
      )
    }
    // "--1": the scanner reads "-" as the number and "-1" as the suffix
    for (const bad of ['1e', '1Ki2', '1ee3', '--1']) {
      assert.throws(
        () => ParseQuantity(bad),
        (e) => e instanceof QuantityError && /suffix/.test(e.message),
        bad,
      )
    }
    // a binary fraction with no digits reaches inf.Dec's scanner
    assert.throws(
      () => ParseQuantity('.Ei'),
      (e) => e instanceof QuantityError && /numeric/.test(e.message),
    )
  })
})

describe('Quantity.String (CanonicalizeBytes)', () => {
  const canonical = (s: string): string => quantityString(ParseQuantity(s))
  it('writes the largest suffix without fractions or lost precision', () => {
    assert.equal(canonical('0.5'), '500m')
    assert.equal(canonical('1.5Gi'), '1536Mi')
    assert.equal(canonical('2.5Gi'), '2560Mi')
    assert.equal(canonical('1024Ki'), '1Mi')
    assert.equal(canonical('1000m'), '1')
    // 1.1Ki = 1126.4: not a whole number, so decimal SI with milli
    assert.equal(canonical('1.1Ki'), '1126400m')
    // binary SI below 1024 is written as decimal SI
    assert.equal(canonical('0.5Ki'), '512')
    assert.equal(canonical('1500e6'), '1500e6')
    assert.equal(canonical('15e8'), '1500e6')
    assert.equal(canonical('1e3'), '1e3')
    assert.equal(canonical('12000'), '12k')
    assert.equal(canonical('0.0000000001'), '1n')
    assert.equal(canonical('-1.5'), '-1500m')
    assert.equal(canonical('1Ei'), '1Ei')
    assert.equal(canonical('8Ei'), '9223372036854775807')
  })

  it("the controller's quantity: decode, then the protobuf round trip through String()", () => {
    // 1.5Gi → "1536Mi" → binary SI int64 form without a cached string
    assert.deepEqual(controllerQuantity('1.5Gi'), {i: {value: 1610612736n, scale: 0}, d: null, s: '', format: 'BinarySI'})
    // 0.5 → "500m" → canonical, cached
    assert.deepEqual(controllerQuantity('0.5'), {i: {value: 500n, scale: -3}, d: null, s: '500m', format: 'DecimalSI'})
    // surrounding whitespace is trimmed by UnmarshalJSON
    assert.deepEqual(controllerQuantity(' 1Mi\n'), controllerQuantity('1Mi'))
    // a zero Quantity{} (JSON null, absent non-pointer field) marshals as "0"
    assert.deepEqual(controllerQuantity(null), {i: {value: 0n, scale: 0}, d: null, s: '0', format: 'DecimalSI'})
  })
})

describe('Quantity.Cmp', () => {
  // By value, whatever the suffix or the internal form: 1000m is 1 (int64Amount 1000 × 10^-3 against 1 × 10^0),
  // 1Ki is 1024, 1e3 is 1k, 0.5 is 500m; 1500m is less than 2; a negative is less than zero.
  const cmp = (a: string, b: string) => quantityCmp(ParseQuantity(a), ParseQuantity(b))
  it('equal values in other forms compare 0', () => {
    assert.equal(cmp('1', '1000m'), 0)
    assert.equal(cmp('1Ki', '1024'), 0)
    assert.equal(cmp('1e3', '1k'), 0)
    assert.equal(cmp('0.5', '500m'), 0)
  })
  it('orders by value', () => {
    assert.equal(cmp('1500m', '2'), -1)
    assert.equal(cmp('2', '1500m'), 1)
    assert.equal(cmp('-1', '0'), -1)
    assert.equal(cmp('1Mi', '1M'), 1)
  })
})
