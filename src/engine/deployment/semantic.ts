// apiequality.Semantic.DeepEqual (k8s.io/apimachinery/pkg/api/equality/semantic.go) over a PodTemplateSpec,
// walked with the controller's Go struct layout so that JSON that decodes to equal structs compares equal:
//  - a field the JSON lacks is the Go zero value ("" / 0 / false), so absent equals zero;
//  - a nil slice or map equals an empty one (third_party/forked/golang/reflect/deep_equal.go);
//  - a nil pointer differs from a pointer to a zero value;
//  - resource.Quantity compares with Cmp ("1" equals "1000m"), metav1.Time by instant;
//  - JSON fields the struct does not have are dropped by the decoder, so they never count.
import {
  type CompiledLayout,
  ready,
  T_BOOL,
  T_FIELDSV1,
  T_INT,
  T_INTORSTRING,
  T_MAP,
  T_PTR,
  T_QUANTITY,
  T_SLICE,
  T_STRING,
  T_TIME,
  T_UINT,
  type TypeNode,
  type StructDef,
} from '../../hash/compile.js'
import {goTrimSpace, ParseQuantity, type Quantity, quantityCmp} from '../../apimachinery/quantity.js'

type Obj = Record<string, unknown>

const isNil = (v: unknown): v is null | undefined => v === null || v === undefined

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function quantityOf(v: unknown): Quantity | undefined {
  if (isNil(v)) return ParseQuantity('0')
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint') return undefined
  try {
    return ParseQuantity(goTrimSpace(String(v)))
  } catch {
    return undefined
  }
}

/** Quantity.Cmp(other) == 0. */
function quantitiesEqual(a: unknown, b: unknown): boolean {
  const qa = quantityOf(a)
  const qb = quantityOf(b)
  if (!qa || !qb) return JSON.stringify(a) === JSON.stringify(b)
  return quantityCmp(qa, qb) === 0
}

function integerOf(v: unknown): bigint | undefined {
  if (isNil(v)) return 0n
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v)
  return undefined
}

/** intstr.IntOrString as its struct: {Type, IntVal, StrVal}; null is the zero struct (an int 0). */
function intOrString(v: unknown): string {
  if (isNil(v)) return 'i0'
  return typeof v === 'string' ? `s${v}` : `i${String(v)}`
}

function instant(v: unknown): number | undefined {
  if (isNil(v)) return undefined
  return typeof v === 'string' ? Date.parse(v) : Number.NaN
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
  }
  return typeof a === 'bigint' || typeof b === 'bigint' ? String(a) === String(b) : false
}

function structEqual(sd: StructDef, a: unknown, b: unknown): boolean {
  const x = isObj(a) ? a : {}
  const y = isObj(b) ? b : {}
  for (const f of ready(sd).fields) {
    if (f.inline) {
      if (!structEqual(f.node.struct!, x, y)) return false
      continue
    }
    if (f.json === null) continue
    const name = f.json.name
    if (!equalAt(f.node, Object.hasOwn(x, name) ? x[name] : undefined, Object.hasOwn(y, name) ? y[name] : undefined)) return false
  }
  return true
}

function equalAt(node: TypeNode, a: unknown, b: unknown): boolean {
  switch (node.tag) {
    case T_STRING:
      return (isNil(a) ? '' : a) === (isNil(b) ? '' : b)
    case T_BOOL:
      return (isNil(a) ? false : a) === (isNil(b) ? false : b)
    case T_INT:
    case T_UINT: {
      const x = integerOf(a)
      const y = integerOf(b)
      return x !== undefined && y !== undefined ? x === y : jsonEqual(a, b)
    }
    case T_PTR:
      if (isNil(a) || isNil(b)) return isNil(a) && isNil(b)
      return equalAt(node.elem!, a, b)
    case T_SLICE: {
      const x = Array.isArray(a) ? a : []
      const y = Array.isArray(b) ? b : []
      if ((!isNil(a) && !Array.isArray(a)) || (!isNil(b) && !Array.isArray(b))) return jsonEqual(a, b)
      return x.length === y.length && x.every((e, i) => equalAt(node.elem!, e, y[i]))
    }
    case T_MAP: {
      if ((!isNil(a) && !isObj(a)) || (!isNil(b) && !isObj(b))) return jsonEqual(a, b)
      const x = (a ?? {}) as Obj
      const y = (b ?? {}) as Obj
      const keys = Object.keys(x)
      return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && equalAt(node.elem!, x[k], y[k]))
    }
    case T_QUANTITY:
      return quantitiesEqual(a, b)
    case T_INTORSTRING:
      return intOrString(a) === intOrString(b)
    case T_TIME: {
      const x = instant(a)
      const y = instant(b)
      return x === undefined || y === undefined ? x === y : x === y && !Number.isNaN(x)
    }
    case T_FIELDSV1:
      return jsonEqual(a ?? null, b ?? null)
    default:
      return node.struct ? structEqual(node.struct, a, b) : jsonEqual(a, b)
  }
}

/** Semantic.DeepEqual of two PodTemplateSpecs (as JSON) under the given version's Go types. */
export function semanticTemplateEqual(layout: CompiledLayout, a: unknown, b: unknown): boolean {
  return equalAt(layout.root, a, b)
}
