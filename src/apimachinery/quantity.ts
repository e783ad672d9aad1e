// resource.Quantity's internal state, re-executed from k8s.io/apimachinery/pkg/api/resource
// (quantity.go ParseQuantity/CanonicalizeBytes, amount.go, suffix.go, math.go) and the parts of
// gopkg.in/inf.v0 they use. spew prints the internals (i, d, s, Format), so the hash depends on
// exactly which branch ParseQuantity takes — including whether it caches the input string in s.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI'

/** inf.Dec: unscaled × 10^-scale. */
export interface Dec {
  unscaled: bigint
  scale: number
}

/** The Go struct's state: i (int64Amount) when d is null, else d (*inf.Dec); s the cached string. */
export interface Quantity {
  i: {value: bigint; scale: number}
  d: Dec | null
  s: string
  format: QuantityFormat | ''
}

export class QuantityError extends Error {}

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
const ERR_FORMAT = `quantities must match the regular expression '${SPLIT_RE}'`
const ERR_NUMERIC = 'unable to parse numeric part of quantity'
const ERR_SUFFIX = "unable to parse quantity's suffix"

const MAX_INT64 = (1n << 63n) - 1n
const MIN_INT64 = -(1n << 63n)
const MAX_INT64_FACTORS = 18
const NANO = -9

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9'
}

interface Parts {
  positive: boolean
  value: string
  num: string
  denom: string
  suffix: string
}

/** parseQuantityString: a fast scanner that splits sign, number and suffix. */
function parseQuantityString(str: string): Parts {
  let positive = true
  let pos = 0
  const end = str.length
  if (pos < end) {
    if (str[0] === '-') {
      positive = false
      pos++
    } else if (str[0] === '+') {
      pos++
    }
  }
  // strip leading zeros
  for (let i = pos; ; i++) {
    if (i >= end) return {positive, value: '0', num: '0', denom: '', suffix: ''}
    if (str[i] === '0') pos++
    else break
  }
  let num = ''
  // extract the numerator
  for (let i = pos; ; i++) {
    if (i >= end) return {positive, value: str.slice(0, end), num: str.slice(pos, end), denom: '', suffix: ''}
    if (!isDigit(str[i])) {
      num = str.slice(pos, i)
      pos = i
      break
    }
  }
  if (num.length === 0) num = '0'
  let denom = ''
  if (pos < end && str[pos] === '.') {
    pos++
    for (let i = pos; ; i++) {
      if (i >= end) return {positive, value: str.slice(0, end), num, denom: str.slice(pos, end), suffix: ''}
      if (!isDigit(str[i])) {
        denom = str.slice(pos, i)
        pos = i
        break
      }
    }
  }
  const value = str.slice(0, pos)
  const suffixStart = pos
  for (let i = pos; ; i++) {
    if (i >= end) return {positive, value, num, denom, suffix: str.slice(suffixStart, end)}
    if (!'eEinumkKMGTP'.includes(str[i])) {
      pos = i
      break
    }
  }
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++
  for (let i = pos; ; i++) {
    if (i >= end) return {positive, value, num, denom, suffix: str.slice(suffixStart, end)}
    if (!isDigit(str[i])) break
  }
  // a non-digit in the exponent: the last character was not a valid exponent
  throw new QuantityError(ERR_FORMAT)
}

const DEC_SUFFIXES: Record<string, number> = {'': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18}
const BIN_SUFFIXES: Record<string, number> = {Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60}

/** suffixHandler.interpret: decimal SI, binary SI, then e/E exponents (int64, truncated to int32). */
function interpretSuffix(s: string): {base: number; exponent: number; format: QuantityFormat} {
  if (Object.hasOwn(DEC_SUFFIXES, s)) return {base: 10, exponent: DEC_SUFFIXES[s], format: 'DecimalSI'}
  if (Object.hasOwn(BIN_SUFFIXES, s)) return {base: 2, exponent: BIN_SUFFIXES[s], format: 'BinarySI'}
  if (s.length > 1 && (s[0] === 'E' || s[0] === 'e')) {
    const parsed = parseGoInt64(s.slice(1))
    if (parsed === null) throw new QuantityError(ERR_SUFFIX)
    return {base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent'}
  }
  throw new QuantityError(ERR_SUFFIX)
}

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, in range. */
function parseGoInt64(s: string): bigint | null {
  if (!/^[+-]?[0-9]+$/.test(s)) return null
  const v = BigInt(s)
  return v > MAX_INT64 || v < MIN_INT64 ? null : v
}

function fitsInt64(v: bigint): boolean {
  return v <= MAX_INT64 && v >= MIN_INT64
}

/** int64Multiply: the product, or null when it overflows int64. */
function int64Multiply(a: bigint, b: bigint): bigint | null {
  const c = a * b
  return fitsInt64(c) ? c : null
}

const pow10Cache: bigint[] = []
function pow10(n: number): bigint {
  pow10Cache[n] ??= 10n ** BigInt(n)
  return pow10Cache[n]
}

// ------------------------------------------------------------------ inf.Dec

/** inf.Dec.SetString via scan: [sign] digits [. digits], the scale being the digits after the point. */
function decSetString(s: string): Dec {
  let digits = ''
  let dp = -1
  let sawDigit = false
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]
    if (ch === '+' || ch === '-') {
      if (digits.length > 0 || dp >= 0) throw new QuantityError(ERR_NUMERIC)
    } else if (ch === '.') {
      if (dp >= 0) throw new QuantityError(ERR_NUMERIC)
      dp = digits.length
      continue
    } else if (isDigit(ch)) {
      sawDigit = true
    } else {
      throw new QuantityError(ERR_NUMERIC)
    }
    digits += ch
  }
  if (!sawDigit) throw new QuantityError(ERR_NUMERIC)
  const scale = dp >= 0 ? digits.length - dp : 0
  return {unscaled: BigInt(digits), scale}
}

function decCmp(a: Dec, b: Dec): number {
  const s = Math.max(a.scale, b.scale)
  const x = a.unscaled * pow10(s - a.scale)
  const y = b.unscaled * pow10(s - b.scale)
  return x < y ? -1 : x > y ? 1 : 0
}

/** inf.Dec.Round(x, s, inf.RoundUp): to scale s, rounding away from zero when digits are dropped. */
function decRoundUp(x: Dec, s: number): Dec {
  const d = x.scale - s
  if (d <= 0) return {unscaled: x.unscaled * pow10(-d), scale: s}
  const div = pow10(d)
  let q = x.unscaled / div
  const r = x.unscaled % div
  if (r !== 0n) q += x.unscaled < 0n ? -1n : 1n
  return {unscaled: q, scale: s}
}

const MAX_ALLOWED: Dec = {unscaled: MAX_INT64, scale: 0}
const DEC_ONE: Dec = {unscaled: 1n, scale: 0}
const DEC_ZERO: Dec = {unscaled: 0n, scale: 0}

// ------------------------------------------------------------------ ParseQuantity

/** resource.ParseQuantity, branch for branch. */
export function ParseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(ERR_FORMAT)
  if (str === '0') return {i: {value: 0n, scale: 0}, d: null, s: str, format: 'DecimalSI'}
  const {positive, value, num, denom, suffix} = parseQuantityString(str)
  const {base, exponent, format: parsedFormat} = interpretSuffix(suffix)
  let format = parsedFormat

  let precision = 0
  let scale = 0
  let mantissa = 1n
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      // only handle positive binary numbers with the fast path
      mantissa = 1n << BigInt(exponent)
      // int32(float32(exponent)*3/10): exact for the binary exponents 10..60
      precision = 15 - num.length - Math.trunc(Math.fround(Math.fround(exponent * 3) / 10)) - 1
    } else {
      precision = -1
    }
  } else {
    scale = exponent
    precision = MAX_INT64_FACTORS - (num.length + denom.length)
  }

  if (precision >= 0) {
    // shift the value left by the number of places in the denominator
    scale -= denom.length
    if (scale >= NANO) {
      const shifted = num + denom
      const v = parseGoInt64(shifted)
      if (v === null) throw new QuantityError(ERR_NUMERIC)
      const product = int64Multiply(v, mantissa)
      if (product !== null) {
        const result = positive ? product : -product
        const q: Quantity = {i: {value: result, scale}, d: null, s: '', format}
        // if the number is in canonical form, reuse the string
        if (format === 'BinarySI') {
          if (exponent % 10 === 0 && (v & 7n) !== 0n) q.s = str
        } else if (scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') {
          q.s = str
        }
        return q
      }
    }
  }

  let amount = decSetString(value)
  // So that no one but us has to think about suffixes, remove it.
  if (base === 10) amount.scale = amount.scale - exponent
  else if (base === 2) amount.unscaled = amount.unscaled * (1n << BigInt(exponent))

  const negative = amount.unscaled < 0n
  if (negative) amount.unscaled = -amount.unscaled
  // rounds non-zero values up to the minimum representable value (1n)
  if (amount.unscaled !== 0n) amount = decRoundUp(amount, -NANO)
  // the cap applies to binary SI only
  if (format === 'BinarySI' && decCmp(amount, MAX_ALLOWED) > 0) amount = {...MAX_ALLOWED}
  if (format === 'BinarySI' && decCmp(amount, DEC_ONE) < 0 && decCmp(amount, DEC_ZERO) > 0) format = 'DecimalSI'
  if (negative) amount.unscaled = -amount.unscaled
  return {i: {value: 0n, scale: 0}, d: amount, s: '', format}
}

// ------------------------------------------------------------------ String / CanonicalizeBytes

function isZero(q: Quantity): boolean {
  return q.d ? q.d.unscaled === 0n : q.i.value === 0n
}

function asDec(q: Quantity): Dec {
  return q.d ?? {unscaled: q.i.value, scale: -q.i.scale}
}

/** removeInt64Factors / removeBigIntFactors: value = result × base^times. */
function removeFactors(value: bigint, base: bigint): [bigint, number] {
  let times = 0
  while (value !== 0n && value % base === 0n) {
    value /= base
    times++
  }
  return [value, times]
}

/** int64Amount.AsCanonicalBytes (falling back to infDecAmount's on overflow), as mantissa and exponent. */
function asCanonicalBytes(q: Quantity): [string, number] {
  if (q.d === null) {
    const [amount, times] = removeFactors(q.i.value, 10n)
    let exponent = q.i.scale + times
    let scaled: bigint | null = amount
    const rem = exponent % 3
    if (rem === 1 || rem === -2) {
      scaled = int64Multiply(amount, 10n)
      exponent -= 1
    } else if (rem === 2 || rem === -1) {
      scaled = int64Multiply(amount, 100n)
      exponent -= 2
    }
    if (scaled !== null) return [scaled.toString(), exponent]
  }
  const dec = asDec(q)
  let [amount, times] = removeFactors(dec.unscaled, 10n)
  let exponent = -dec.scale + times
  while (exponent % 3 !== 0) {
    amount *= 10n
    exponent--
  }
  return [amount.toString(), exponent]
}

/** Quantity.AsScale(0) for the BinarySI branch: the value rounded up to an integer, and whether exact. */
function asScaleZero(q: Quantity): [Dec, boolean] {
  const dec = asDec(q)
  if (dec.scale <= 0) return [dec, true]
  const rounded = decRoundUp(dec, 0)
  return [rounded, decCmp(rounded, dec) === 0]
}

const DEC_SUFFIX_BY_EXPONENT = new Map(Object.entries(DEC_SUFFIXES).map(([s, e]) => [e, s]))
const BIN_SUFFIX_BY_EXPONENT = new Map(Object.entries(BIN_SUFFIXES).map(([s, e]) => [e, s]))

/**
 * Quantity.String(): the cached s, else CanonicalizeBytes. A decimal SI exponent beyond E (10^18) has no
 * suffix; released versions emit none (constructBytes fails and the suffix is dropped) and so do we.
 */
export function quantityString(q: Quantity): string {
  if (q.s.length > 0) return q.s
  if (isZero(q)) return '0'
  let format = q.format === '' ? 'DecimalExponent' : q.format
  let rounded: Dec | undefined
  if (format === 'BinarySI') {
    const dec = asDec(q)
    if (decCmp(dec, {unscaled: -1024n, scale: 0}) > 0 && decCmp(dec, {unscaled: 1024n, scale: 0}) < 0) {
      format = 'DecimalSI'
    } else {
      const [r, exact] = asScaleZero(q)
      if (exact) rounded = r
      else format = 'DecimalSI'
    }
  }
  if (format !== 'BinarySI' || rounded === undefined) {
    const [number, exponent] = asCanonicalBytes(q)
    if (format === 'DecimalExponent') return exponent === 0 ? number : `${number}e${exponent}`
    return number + (DEC_SUFFIX_BY_EXPONENT.get(exponent) ?? '')
  }
  const [amount, exponent] = removeFactors(decRoundUp(rounded, 0).unscaled, 1024n)
  return amount.toString() + (BIN_SUFFIX_BY_EXPONENT.get(exponent * 10) ?? '')
}

/** Quantity.Cmp (quantity.go): -1, 0 or 1 as q is less than, equal to or greater than y, by value ("1" equals "1000m"). */
export function quantityCmp(q: Quantity, y: Quantity): number {
  return decCmp(asDec(q), asDec(y))
}

/** strings.TrimSpace: Unicode White_Space as Go's unicode.IsSpace sees it. */
export function goTrimSpace(s: string): string {
  return s.replace(
    /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g,
    '',
  )
}

const roundTripCache = new Map<string, Quantity>()

/**
 * The Quantity a controller holds for a value the API server returned: UnmarshalJSON (TrimSpace,
 * ParseQuantity), then the protobuf round trip (marshal String(), unmarshal ParseQuantity). A zero
 * Quantity{} (JSON null, or a field the JSON lacks) goes through the same trip as "0".
 */
export function controllerQuantity(text: string | null): Quantity {
  const key = text ?? '\u0000null'
  const cached = roundTripCache.get(key)
  if (cached) return cached
  const decoded: Quantity = text === null ? {i: {value: 0n, scale: 0}, d: null, s: '', format: ''} : ParseQuantity(goTrimSpace(text))
  const result = ParseQuantity(quantityString(decoded))
  if (roundTripCache.size > 10_000) roundTripCache.clear()
  roundTripCache.set(key, result)
  return result
}
