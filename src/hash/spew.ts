// The spew text of a PodTemplateSpec as the Deployment controller's ComputeHash writes it: go-spew
// (spew/format.go) with %#v, DisableMethods, SortKeys, DisablePointerAddresses, DisableCapacities, over
// the Go struct the controller holds after decoding the API server's JSON and a protobuf round trip.
//
// spew rules re-executed here: every value prints "(type)value" except slice/array elements and map
// keys/values (no prefix); a struct prints every field in declaration order, "{F1:(T1)v F2:(T2)v}";
// strings are raw bytes; nil pointer/slice/map "<nil>"; a non-nil pointer "(*T)value" in a field and
// "<*>value" as an element; maps "map[k:v k:v]" with keys sorted as Go strings.
// The round trip adds: empty slices and maps become nil; quantities are re-parsed from String().
import * as compiled from './compile.js'
import {type CompiledLayout, keyIdCount, ready, type StructDef, type TypeNode, zeroOf} from './compile.js'
import {sameUnder} from './def-bits.js'
import {fnv1a32, foldWith, newFoldTable} from './fnv.js'
import {describeJson, formatPath} from './describe.js'
import {HashInputError, UnreproducibleHashError} from './errors.js'
import {sortedEntries} from './map-keys.js'
import {goJsonMarshal, type GoJson} from './go-json.js'
import {controllerQuantity, QuantityError} from '../apimachinery/quantity.js'
import {fieldsV1GoValue, type GoValue, intOrStringGoValue, quantityGoValue} from './special.js'
import {ByteSink} from './writer.js'

// Local copies: a transpiler's module interop may turn imported bindings into getter calls, which
// the switch below would pay on every value.
const {T_BOOL, T_FIELDSV1, T_INT, T_INTORSTRING, T_MAP, T_PTR, T_QUANTITY, T_SLICE, T_STRING, T_STRUCT, T_TIME, T_UINT} = compiled

const enc = new TextEncoder()
const NIL = enc.encode('<nil>')
const TRUE = enc.encode('true')
const FALSE = enc.encode('false')
const CLOSE_BRACE = enc.encode('}')
const OPEN_BRACKET = enc.encode('[')
const CLOSE_BRACKET = enc.encode(']')
const SPACE = enc.encode(' ')
const COLON = enc.encode(':')
const OPEN_MAP = enc.encode('map[')
const STAR = enc.encode('<*>')

const INT_RANGE: Record<number, [bigint, bigint]> = {
  8: [-(1n << 7n), (1n << 7n) - 1n],
  16: [-(1n << 15n), (1n << 15n) - 1n],
  32: [-(1n << 31n), (1n << 31n) - 1n],
  64: [-(1n << 63n), (1n << 63n) - 1n],
}
const UINT_MAX: Record<number, bigint> = {8: 255n, 16: 65535n, 32: (1n << 32n) - 1n, 64: (1n << 64n) - 1n}

/** Thrown in the fast pass; the renderer then reruns with path tracking to name the field. */
const RETRY = Symbol('retry with path tracking')

/**
 * A struct instance's text from an earlier rendering (layout inference renders one template under many
 * layouts): reusable by a later layout when every struct definition its text went through is the same.
 */
export interface Span {
  key: string
  /** The earlier rendering's text (set once that rendering is complete). */
  text: Uint8Array | undefined
  start: number
  end: number
  /** The layout that wrote it. */
  layout: CompiledLayout
  /** The struct definitions the span's text went through, as bits over their key ids. */
  bits: Uint32Array
}

/** Spans by JSON object, shared by the renderings of one template. */
export type SpanMemo = Map<object, Span[]>

export interface SpewOptions {
  /** Collect the text instead of only hashing it. */
  text?: boolean
  /** With text: skip hashing it (the caller hashes it itself). */
  skipHash?: boolean
  /** Record which struct definitions the rendering went through (layout inference). */
  record?: boolean
  /** With text and record: reuse and extend the spans of earlier renderings of the same template. */
  memo?: SpanMemo
  /** Do not name unknown fields (saves the second pass that finds their paths). */
  skipUnknownPaths?: boolean
  /** With text: write into this buffer and return a view of it (while it is large enough). */
  into?: Uint8Array
  /** Path of the template inside the input object, for messages ("spec.template"). */
  basePath?: (string | number)[]
}

export interface SpewResult {
  /** FNV-1a state after the text (before any collision-count suffix). */
  state: number
  /** The text's UTF-8 bytes, when asked for. */
  text?: Uint8Array
  /** JSON fields the layout does not know (Go's decoder drops them), as paths. */
  unknownFields: string[]
  /** The struct definitions the text went through, as bits over their key ids, when asked for. */
  visited?: Uint32Array
}

class SpewRenderer extends ByteSink {
  private layout!: CompiledLayout
  private trace = false
  private path: (string | number)[] = []
  /** A stack of (field index, value) pairs for the structs being written (grown as structs need: a PodSpec already does). */
  private presentIdx = new Int32Array(64)
  private slots: unknown[] = []
  private sp = 0
  private unknownCount = 0
  private unknownPaths: string[] = []
  private recording = false
  /** Bits of the struct definitions visited, one accumulator per struct being written (memo mode). */
  private bitsStack: Uint32Array[] = []
  private bitsTop = 0
  private words = 0
  private memo: SpanMemo | null = null
  private newSpans: Span[] = []

  run(layout: CompiledLayout, template: unknown, opts: SpewOptions): SpewResult {
    this.layout = layout
    this.recording = opts.record === true
    if (this.recording) {
      this.words = (keyIdCount() >>> 5) + 1
      this.bitsTop = 0
      this.pushBits()
    }
    this.memo = opts.text && opts.record && opts.memo ? opts.memo : null
    this.newSpans = []
    const own = this.buf
    if (opts.text && opts.into) this.buf = opts.into
    const base = opts.basePath ?? []
    let text: Uint8Array | undefined
    try {
      try {
        this.pass(template, opts.text === true, false, base)
      } catch (err) {
        if (err !== RETRY) throw err
        this.pass(template, false, true, base)
        throw new Error('internal: the traced pass did not fail like the fast one')
      }
      // A text written into the caller's buffer is handed over as a view; otherwise copied out.
      text = opts.text ? (opts.into ? this.buf.subarray(0, this.pos) : this.takeBytes()) : undefined
    } finally {
      this.buf = own
      this.memo = null
    }
    const state = text ? (opts.skipHash ? 0 : fnv1a32(text)) : this.h
    for (const span of this.newSpans) span.text = text
    let unknownFields: string[] = []
    if (this.unknownCount > 0 && opts.skipUnknownPaths !== true) {
      // The fast pass only counts them: a second pass with paths names them (rare).
      this.recording = false
      this.pass(template, false, true, base)
      unknownFields = this.unknownPaths
    }
    return {state, text, unknownFields, visited: opts.record === true ? this.bitsStack[0].slice() : undefined}
  }

  private pass(template: unknown, text: boolean, trace: boolean, base: (string | number)[]): void {
    this.startSink(!text)
    this.trace = trace
    this.path = [...base]
    this.sp = 0
    this.unknownCount = 0
    this.unknownPaths = []
    const root = this.layout.root
    if (typeof template !== 'object' || template === null || Array.isArray(template)) {
      this.fail(`expected an object (${root.type}), got ${describeJson(template)}`)
    }
    this.ascii(`(${root.type})`)
    this.structJson(root.struct!, template, false)
  }

  private fail(reason: string): never {
    if (!this.trace) throw RETRY
    throw new HashInputError(formatPath(this.path), reason)
  }

  private unreproducible(why: string): never {
    if (!this.trace) throw RETRY
    throw new UnreproducibleHashError(formatPath(this.path), why)
  }

  private unknownField(key: string): void {
    this.unknownCount++
    if (this.trace) this.unknownPaths.push(formatPath([...this.path, key]))
  }

  // ------------------------------------------------------------ JSON-decoded values

  private structJson(sd: StructDef, obj: unknown, inline: boolean): void {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) this.fail(`expected an object (${sd.type}), got ${describeJson(obj)}`)
    if (!sd.ready) ready(sd)
    if (this.memo !== null) {
      this.memoStruct(sd, obj, inline)
      return
    }
    if (this.recording) this.mark(sd)
    this.structFields(sd, obj, inline)
  }

  private pushBits(): void {
    let acc = this.bitsStack[this.bitsTop]
    if (acc === undefined || acc.length !== this.words) acc = this.bitsStack[this.bitsTop] = new Uint32Array(this.words)
    else acc.fill(0)
    this.bitsTop++
  }

  /** Pops the current accumulator, merges it into its parent, and returns it. */
  private popBits(): Uint32Array {
    const acc = this.bitsStack[--this.bitsTop]
    this.orBits(acc)
    return acc
  }

  private orBits(bits: Uint32Array): void {
    const parent = this.bitsStack[this.bitsTop - 1]
    const n = Math.min(bits.length, parent.length)
    for (let w = 0; w < n; w++) parent[w] |= bits[w]
  }

  private mark(sd: StructDef): void {
    this.bitsStack[this.bitsTop - 1][sd.keyId >>> 5] |= 1 << (sd.keyId & 31)
  }

  /** structJson through the span memo: copy an earlier rendering when this layout would write the same. */
  private memoStruct(sd: StructDef, obj: object, inline: boolean): void {
    const memo = this.memo!
    const spans = memo.get(obj)
    if (spans !== undefined) {
      // Latest first: the version just before is the likeliest to agree.
      for (let k = spans.length - 1; k >= 0; k--) {
        const span = spans[k]
        if (span.key === sd.key && span.text !== undefined && sameUnder(span.layout, this.layout, span.bits)) {
          this.copy(span.text, span.start, span.end)
          this.orBits(span.bits)
          return
        }
      }
    }
    const start = this.pos
    this.pushBits()
    this.mark(sd)
    this.structFields(sd, obj, inline)
    const bits = this.popBits().slice()
    const span: Span = {key: sd.key, text: undefined, start, end: this.pos, layout: this.layout, bits}
    this.newSpans.push(span)
    if (spans === undefined) memo.set(obj, [span])
    else spans.push(span)
  }

  /**
   * The fields in Go order. Only the present ones are visited: the JSON keys are collected (already in
   * Go order when the API server wrote them, insertion-sorted otherwise), and each run of absent
   * fields between them is one slice of the struct's precomputed all-absent rendering.
   */
  private structFields(sd: StructDef, obj: object, inline: boolean): void {
    const o = obj as Record<string, unknown>
    const jsonFields = sd.jsonFields
    // At most one entry a field (unknown keys take none): room for them all on top of the structs below.
    if (this.sp + sd.fields.length > this.presentIdx.length) this.growPresent(this.sp + sd.fields.length)
    const idxs = this.presentIdx
    const vals = this.slots
    const base = this.sp
    let n = 0
    for (const k in o) {
      const idx = jsonFields[k]
      if (idx === undefined) {
        // Not an own name: unknown unless promoted through an inline field (then known lists it).
        if (!inline && (sd.known === undefined || !sd.known.has(k))) this.unknownField(k)
        continue
      }
      const v = o[k]
      if (v === null || v === undefined) continue
      let j = base + n
      while (j > base && idxs[j - 1] > idx) {
        idxs[j] = idxs[j - 1]
        vals[j] = vals[j - 1]
        j--
      }
      idxs[j] = idx
      vals[j] = v
      n++
    }
    for (const idx of sd.inlines) {
      let j = base + n
      while (j > base && idxs[j - 1] > idx) {
        idxs[j] = idxs[j - 1]
        vals[j] = vals[j - 1]
        j--
      }
      idxs[j] = idx
      vals[j] = obj
      n++
    }
    this.sp = base + n
    const zero = sd.zero
    const offsets = sd.offsets
    const fields = sd.fields
    let run = 0
    for (let p = base; p < base + n; p++) {
      const i = idxs[p]
      const f = fields[i]
      // The absent fields before this one and this field's "Name:(type)" are one slice of zero.
      if (this.hashing) this.h = foldZero(sd, run * (fields.length + 1) + i, this.h, offsets[run], offsets[i] + f.preLength)
      else this.bytesRange(zero, offsets[run], offsets[i] + f.preLength)
      const v = vals[p]
      if (f.inline) {
        this.structJson(f.node.struct!, obj, true)
      } else if (this.trace) {
        this.path.push(f.json!.name)
        this.value(f.node, v)
        this.path.pop()
      } else {
        // The common shapes inline; everything else (and every type error) through value().
        const node = f.node
        const tag = node.tag
        if (tag === T_STRING && typeof v === 'string') this.str(v)
        else if (tag === T_PTR && node.elem!.tag === T_STRUCT) this.structJson(node.elem!.struct!, v, false)
        else if (tag === T_STRUCT) this.structJson(node.struct!, v, false)
        else if (tag === T_SLICE) this.slice(node, v)
        else this.value(node, v)
      }
      run = i + 1
    }
    if (this.hashing) this.h = foldZero(sd, run * (fields.length + 1) + fields.length, this.h, offsets[run], zero.length)
    else this.bytesRange(zero, offsets[run], zero.length)
    this.sp = base
  }

  private growPresent(size: number): void {
    const next = new Int32Array(Math.max(size, this.presentIdx.length * 2))
    next.set(this.presentIdx)
    this.presentIdx = next
  }

  /** A value without its type prefix (the caller wrote it, or its position has none). */
  private value(node: TypeNode, v: unknown): void {
    if (v === null || v === undefined) {
      this.bytes(zeroOf(node))
      return
    }
    switch (node.tag) {
      case T_STRING:
        if (typeof v !== 'string') this.fail(`expected a string (${node.type}), got ${describeJson(v)}`)
        this.str(v)
        return
      case T_BOOL:
        if (typeof v !== 'boolean') this.fail(`expected a boolean (${node.type}), got ${describeJson(v)}`)
        this.bytes(v ? TRUE : FALSE)
        return
      case T_INT:
      case T_UINT:
        this.ascii(this.integer(node, v))
        return
      case T_PTR:
        this.value(node.elem!, v)
        return
      case T_SLICE:
        this.slice(node, v)
        return
      case T_MAP:
        this.map(node, v)
        return
      case T_STRUCT:
        this.structJson(node.struct!, v, false)
        return
      case T_QUANTITY:
        this.quantity(node, v)
        return
      case T_INTORSTRING:
        if (typeof v === 'string') this.goValue(node, intOrStringGoValue(v))
        else if (typeof v === 'number' || typeof v === 'bigint') this.goValue(node, intOrStringGoValue(Number(this.integer(INT32, v))))
        else this.fail(`expected a number or a string (${node.type}), got ${describeJson(v)}`)
        return
      case T_TIME:
        if (typeof v !== 'string') this.fail(`expected a timestamp string (${node.type}), got ${describeJson(v)}`)
        this.unreproducible(
          `is set (${v}); the controller decodes timestamps into the controller-manager's local time zone, and spew prints time.Local's internals, so the hash depends on that machine's time-zone setup`,
        )
        return
      case T_FIELDSV1:
        // Raw is the JSON as stored (written by the API server's field manager); the JSON read back
        // keeps its key order, so it is written compact in that order, not re-sorted.
        this.goValue(node, fieldsV1GoValue(enc.encode(goJsonMarshal(v as GoJson, false))))
        return
    }
    throw new Error(`internal: node tag ${node.tag}`)
  }

  /** Slice and map elements: no type prefix; a pointer shows as <*>. */
  private element(node: TypeNode, v: unknown): void {
    if (node.tag === T_PTR) {
      if (v === null || v === undefined) {
        this.bytes(NIL)
        return
      }
      this.bytes(STAR)
      this.value(node.elem!, v)
      return
    }
    this.value(node, v)
  }

  private slice(node: TypeNode, v: unknown): void {
    if (!Array.isArray(v)) this.fail(`expected an array (${node.type}), got ${describeJson(v)}`)
    // protobuf round trip: an empty list comes back nil
    if (v.length === 0) {
      this.bytes(NIL)
      return
    }
    this.bytes(OPEN_BRACKET)
    const elem = node.elem!
    for (let i = 0; i < v.length; i++) {
      if (i > 0) this.bytes(SPACE)
      if (this.trace) {
        this.path.push(i)
        this.element(elem, v[i])
        this.path.pop()
      } else {
        this.element(elem, v[i])
      }
    }
    this.bytes(CLOSE_BRACKET)
  }

  private map(node: TypeNode, v: unknown): void {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(`expected an object (${node.type}), got ${describeJson(v)}`)
    const o = v as Record<string, unknown>
    const keys = Object.keys(o)
    if (keys.length === 0) {
      this.bytes(NIL)
      return
    }
    const entries = sortedEntries(keys)
    this.bytes(OPEN_MAP)
    const elem = node.elem!
    for (let i = 0; i < entries.length; i += 2) {
      if (i > 0) this.bytes(SPACE)
      const goKey = entries[i]
      this.str(goKey)
      this.bytes(COLON)
      const value = o[entries[i + 1]]
      if (this.trace) {
        this.path.push(goKey)
        this.element(elem, value)
        this.path.pop()
      } else {
        this.element(elem, value)
      }
    }
    this.bytes(CLOSE_BRACKET)
  }

  private integer(node: {type: string; tag: number; bits: number}, v: unknown): string {
    let n: bigint
    if (typeof v === 'number') {
      if ((v | 0) === v && node.bits >= 32 && (node.tag === T_INT || v >= 0)) return String(v)
      if (!Number.isSafeInteger(v)) this.fail(`expected an integer (${node.type}), got number ${v}`)
      if (node.bits < 53 && node.tag === T_INT && v >= -(2 ** (node.bits - 1)) && v < 2 ** (node.bits - 1)) return String(v)
      n = BigInt(v)
    } else if (typeof v === 'bigint') {
      n = v
    } else {
      this.fail(`expected an integer (${node.type}), got ${describeJson(v)}`)
    }
    const [lo, hi] = node.tag === T_INT ? INT_RANGE[node.bits] : [0n, UINT_MAX[node.bits]]
    if (n < lo || n > hi) this.fail(`number ${n} overflows ${node.type}`)
    return n.toString()
  }

  private quantity(node: TypeNode, v: unknown): void {
    let text: string
    if (typeof v === 'string') text = v
    // A JSON number is parsed from its literal text by Quantity.UnmarshalJSON.
    else if (typeof v === 'number' || typeof v === 'bigint') text = String(v)
    else this.fail(`expected a quantity string (${node.type}), got ${describeJson(v)}`)
    const cache = this.layout.quantityCache
    let rendered = cache.get(text)
    if (rendered === undefined) {
      let q: ReturnType<typeof controllerQuantity>
      try {
        q = controllerQuantity(text)
      } catch (err) {
        if (err instanceof QuantityError) this.fail(`quantity ${JSON.stringify(text)} does not parse: ${err.message}`)
        throw err
      }
      rendered = renderGoBytes(node, quantityGoValue(q))
      if (cache.size > 10_000) cache.clear()
      cache.set(text, rendered)
    }
    this.bytes(rendered)
    if (this.recording) for (const sd of node.family!) this.mark(sd)
  }

  // ------------------------------------------------------------ Go values (special types' internals)

  goValue(node: TypeNode, v: GoValue | undefined): void {
    if (v === null || v === undefined) {
      this.bytes(node.tag === T_PTR || node.tag === T_SLICE || node.tag === T_MAP ? NIL : node.struct ? ready(node.struct).zero : node.zero)
      return
    }
    switch (node.tag) {
      case T_STRING:
        this.str(v as string)
        return
      case T_BOOL:
        this.bytes(v ? TRUE : FALSE)
        return
      case T_INT:
      case T_UINT:
        this.ascii(String(v))
        return
      case T_PTR:
        this.goValue(node.elem!, v)
        return
      case T_SLICE: {
        // Go values keep empty slices: "[]".
        const list = v as ArrayLike<GoValue>
        this.bytes(OPEN_BRACKET)
        for (let i = 0; i < list.length; i++) {
          if (i > 0) this.bytes(SPACE)
          if (node.elem!.tag === T_PTR) {
            if (list[i] === null) this.bytes(NIL)
            else {
              this.bytes(STAR)
              this.goValue(node.elem!.elem!, list[i])
            }
          } else {
            this.goValue(node.elem!, list[i])
          }
        }
        this.bytes(CLOSE_BRACKET)
        return
      }
      default: {
        const sd = node.struct
        if (!sd) throw new Error(`internal: Go value for ${node.type}`)
        ready(sd)
        if (this.recording) this.mark(sd)
        const o = v as Record<string, GoValue>
        const {fields, offsets, zero} = sd
        for (let i = 0; i < fields.length; i++) {
          const f = fields[i]
          const fv = o[f.name]
          if (fv === undefined) {
            this.bytesRange(zero, offsets[i], offsets[i + 1])
            continue
          }
          this.bytesRange(zero, offsets[i], offsets[i] + f.preLength)
          this.goValue(f.node, fv)
        }
        this.bytes(CLOSE_BRACE)
      }
    }
  }

  renderGo(node: TypeNode, v: GoValue): Uint8Array {
    // Compiling a special type renders its zero with this renderer: done before this rendering starts, not inside it.
    zeroOf(node)
    this.startSink(false)
    this.goValue(node, v)
    return this.takeBytes()
  }
}

const INT32 = {type: 'int32', tag: T_INT, bits: 32}

/** Below this many bytes a slice is folded a byte at a time (as fast as a table lookup). */
const FOLD_MIN = 8

/** FNV-1a of sd.zero[start, end) from state h, through the slice's fold table (fnv.ts foldWith). */
function foldZero(sd: StructDef, key: number, h: number, start: number, end: number): number {
  const zero = sd.zero
  if (end - start < FOLD_MIN) return fnv1a32(zero, h, start, end)
  let folds = sd.folds
  if (folds === undefined) {
    const n = sd.fields.length + 1
    folds = sd.folds = new Array(n * n).fill(undefined)
  }
  let t = folds[key]
  if (t === undefined) t = folds[key] = newFoldTable(end - start)
  return foldWith(t, h, zero, start, end)
}

const renderer = new SpewRenderer()
/** Quantities' internals are rendered by a renderer of their own (a quantity is met while a template is written). */
let goRenderer: SpewRenderer | undefined

/** The spew text (or just its FNV-1a state) of a JSON PodTemplateSpec under a compiled layout. */
export function spewTemplate(layout: CompiledLayout, template: unknown, opts: SpewOptions = {}): SpewResult {
  return renderer.run(layout, template, opts)
}

/** spew of a Go value (a special type's internals) without type prefix. */
export function renderGoBytes(node: TypeNode, v: GoValue): Uint8Array {
  goRenderer ??= new SpewRenderer()
  return goRenderer.renderGo(node, v)
}

/** What a controller holds for a special type's JSON null or absence, rendered (used by compile). */
export function specialZeroGoValue(node: TypeNode): GoValue {
  if (node.tag === T_QUANTITY) return quantityGoValue(controllerQuantity(null))
  return {}
}
