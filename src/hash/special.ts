// The four types whose JSON is not their struct (custom UnmarshalJSON), as the Go values a controller
// ends up holding after decoding and the protobuf round trip. Their struct layouts still come from the
// data; the field names used here are checked against it so a layout change fails loudly.
import type {Quantity} from '../apimachinery/quantity.js'

/** Go struct values by Go field name; nil as null; ints as number or bigint; []uint8 as Uint8Array. */
export type GoValue = null | string | number | bigint | boolean | Uint8Array | GoValue[] | {[field: string]: GoValue}

const MASK64 = (1n << 64n) - 1n

/** big.nat: 64-bit words, least significant first; zero is a nil slice (big.Int's zero value). */
function natWords(x: bigint): GoValue {
  if (x === 0n) return null
  const words: bigint[] = []
  for (let v = x; v > 0n; v >>= 64n) words.push(v & MASK64)
  return words
}

/** resource.Quantity{i, d, s, Format}. */
export function quantityGoValue(q: Quantity): GoValue {
  const dec = q.d === null ? null : {unscaled: {neg: q.d.unscaled < 0n, abs: natWords(q.d.unscaled < 0n ? -q.d.unscaled : q.d.unscaled)}, scale: q.d.scale}
  return {i: {value: q.i.value, scale: q.i.scale}, d: {Dec: dec}, s: q.s, Format: q.format}
}

/** intstr.IntOrString: a JSON number is Type Int (0), a JSON string Type String (1). */
export function intOrStringGoValue(v: number | string): GoValue {
  return typeof v === 'number' ? {Type: 0, IntVal: v, StrVal: ''} : {Type: 1, IntVal: 0, StrVal: v}
}

/** v1.FieldsV1{Raw}: the raw JSON bytes. */
export function fieldsV1GoValue(raw: Uint8Array): GoValue {
  return {Raw: raw}
}

const EXPECTED_FIELDS: Record<string, string[]> = {
  'k8s.io/apimachinery/pkg/api/resource.Quantity': ['i', 'd', 's', 'Format'],
  'k8s.io/apimachinery/pkg/api/resource.int64Amount': ['value', 'scale'],
  'k8s.io/apimachinery/pkg/api/resource.infDecAmount': ['Dec'],
  'gopkg.in/inf.v0.Dec': ['unscaled', 'scale'],
  'math/big.Int': ['neg', 'abs'],
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': ['Type', 'IntVal', 'StrVal'],
  'k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1': ['Raw'],
}

/**
 * Throws when a layout gives one of these types fields other than the ones the values above fill (run when
 * compiled.json are made: scripts/hash-precompile/serialize.ts).
 */
export function checkSpecialLayout(version: string, structs: Map<string, {fields: readonly {name: string}[]}>): void {
  for (const [key, names] of Object.entries(EXPECTED_FIELDS)) {
    const sd = structs.get(key)
    if (!sd) continue
    const got = sd.fields.map((f) => f.name)
    if (got.join(',') !== names.join(',')) {
      throw new Error(`layout ${version}: ${key} has fields ${got.join(', ')}, expected ${names.join(', ')}; src/hash/special.ts needs updating`)
    }
  }
}
