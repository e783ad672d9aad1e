// Generation time (scripts/gen-hash-fixture.ts, and the test that holds data/layouts/compiled.* to its source):
// turns the raw per-version layouts (data/layouts/layouts.json) into the tree the serializers walk, a node per Go
// type with the constant bytes spew writes around values (field name, "(type)" prefix, and the whole rendering of a
// field the JSON lacks), and each struct's JSON field names (from the json tags, as encoding/json resolves them).
// scripts/hash-precompile/serialize.ts writes the result as compiled.json, which a run loads (src/hash/compile.ts).
//
// Nodes are shared by every layout: a node is keyed by its definition and the nodes it is made of, so versions whose
// definitions agree all the way down (most types, most versions) get the same object — in compiled.json, the same
// index; a layout compiled after another walks only the types whose definitions differ from it, and the types above.
import {
  FIELDSV1_KEY,
  INTORSTRING_KEY,
  type JsonName,
  QUANTITY_KEY,
  T_BOOL,
  T_FIELDSV1,
  T_INT,
  T_INTORSTRING,
  T_MAP,
  T_PTR,
  T_QUANTITY,
  T_SLICE,
  T_STRING,
  T_STRUCT,
  T_TIME,
  T_UINT,
  TIME_KEY,
} from '../../src/hash/compile.js'
import {type LayoutData, type RefTuple, rawLayoutData, type TypeDefData} from './raw-data.js'

const SPECIAL: Record<string, number> = {[QUANTITY_KEY]: T_QUANTITY, [INTORSTRING_KEY]: T_INTORSTRING, [TIME_KEY]: T_TIME, [FIELDSV1_KEY]: T_FIELDSV1}

export interface TypeNode {
  tag: number
  /** reflect.Type.String(): what spew prints inside "(...)". */
  type: string
  /** Integer width and signedness (T_INT, T_UINT). */
  bits: number
  elem?: TypeNode
  mapKey?: TypeNode
  /** The struct behind T_STRUCT and the special types. */
  struct?: StructDef
  /** Struct definitions a special type's rendering goes through (for layout comparison). */
  family?: StructDef[]
  /** spew of the value a controller holds when the JSON has null or nothing here, without type prefix. */
  zero: Uint8Array
  /** Shape of the node for layout comparison; named structs appear by key (they are compared on their own). */
  desc: string
  /** zero as a latin1 string (one char per byte): what a struct's zero is assembled from. */
  zeroText: string
  /** A number per node (for the hashes that find a shared node by its parts). */
  id: number
}

export interface FieldDef {
  name: string
  node: TypeNode
  /** Bytes of "{Name:(T)" (the first field) or " Name:(T)" (after): in the struct's zero from offsets[i], then the zero rendering. */
  preLength: number
  /** How encoding/json names it; null when JSON never sets it (unexported, "-", promoted-into-parent). */
  json: JsonName | null
  /** An embedded struct whose JSON fields are promoted into the parent object. */
  inline: boolean
}

export interface StructDef {
  key: string
  type: string
  /** Interned id of the type key (the same in every version). */
  keyId: number
  /** The definition from the data (its Go field names are known before the fields are compiled). */
  def: TypeDefData
  /** Whether the fields below are compiled: ready(sd) compiles them on first use. */
  ready: boolean
  fields: FieldDef[]
  /** Own JSON names → field index. */
  jsonFields: Record<string, number>
  /** Every JSON name an object of this type accepts (own and promoted through inline fields). */
  known: Set<string>
  /** Indices of inline fields. */
  inlines: number[]
  /** Every field absent, then "}": runs of absent fields are slices of it. */
  zero: Uint8Array
  /** Where field i's absent rendering starts in zero (offsets[fields.length]: the closing brace). */
  offsets: Int32Array
  /** What compiling the fields needs; null once ready. */
  pending: PendingStruct | null
}

interface PendingStruct {
  version: string
  def: TypeDefData
  node: TypeNode
  fieldNodes: TypeNode[]
  renderSpecialZero: ZeroRenderer
}

export interface CompiledLayout {
  version: string
  goVersion: string
  root: TypeNode
  structs: Map<string, StructDef>
  /** Each struct by keyId (undefined: the version has no such type). */
  structByKey: (StructDef | undefined)[]
  /** The definition of each key id (-1: none), its node and each reference's: the next layout compiled starts from these. */
  defOfKey: Int32Array
  keyNodes: (TypeNode | undefined)[]
  refNodes: (TypeNode | undefined)[]
}

const encoder = new TextEncoder()
const bytes = (s: string): Uint8Array => encoder.encode(s)
// The zero renderings of basic kinds, shared by their nodes (never written to).
const NIL = bytes('<nil>')
const EMPTY = new Uint8Array(0)
const FALSE = bytes('false')
const ZERO = bytes('0')

/** The data's struct keys and references, indexed once: per-version work is then array lookups. */
interface DataIndex {
  /** Key id of each definition (the same for a key in every version). */
  keyOfDef: Int32Array
  /** Key id of the named type each reference names, or -1. */
  keyOfRef: Int32Array
  keyCount: number
  /** Key ids of the named types whose definition (in some version) refers to each key's type. */
  parents: number[][]
  /** The references made of each key's type (named by it, or a pointer, slice or map of it). */
  refsOfKey: number[][]
}

// One compilation's state (compileRawLayouts): the data, its index, the nodes shared by its layouts.
let data: LayoutData
let index: DataIndex | undefined

function source(): LayoutData {
  return data
}

function dataIndex(): DataIndex {
  if (index) return index
  const data = source()
  const ids = new Map<string, number>()
  const idOfKey = (key: string): number => {
    let id = ids.get(key)
    if (id === undefined) {
      id = ids.size
      ids.set(key, id)
    }
    return id
  }
  const keyOfDef = new Int32Array(data.defs.length)
  for (let d = 0; d < data.defs.length; d++) keyOfDef[d] = idOfKey(data.defs[d].key)
  const keyOfRef = new Int32Array(data.refs.length)
  for (let r = 0; r < data.refs.length; r++) {
    const named = data.refs[r][2]
    keyOfRef[r] = named === 0 ? -1 : idOfKey(named)
  }
  const parents: number[][] = Array.from({length: ids.size}, () => [])
  const under = (ref: number, parent: number): void => {
    if (ref < 0) return
    if (keyOfRef[ref] >= 0) {
      if (!parents[keyOfRef[ref]].includes(parent)) parents[keyOfRef[ref]].push(parent)
      return
    }
    under(data.refs[ref][3], parent)
    under(data.refs[ref][4], parent)
  }
  for (let d = 0; d < data.defs.length; d++) {
    const def = data.defs[d]
    for (const f of def.fields ?? []) under(f[1], keyOfDef[d])
    if (def.underlying !== undefined) under(def.underlying, keyOfDef[d])
  }
  const refsOfKey: number[][] = Array.from({length: ids.size}, () => [])
  const addRef = (ref: number, of: number): void => {
    if (of < 0) return
    if (keyOfRef[of] >= 0) refsOfKey[keyOfRef[of]].push(ref)
    else {
      addRef(ref, data.refs[of][3])
      addRef(ref, data.refs[of][4])
    }
  }
  for (let r = 0; r < data.refs.length; r++) addRef(r, r)
  index = {keyOfDef, keyOfRef, keyCount: ids.size, parents, refsOfKey}
  return index
}

/** The type key of each key id (the same in every version). */
export function keyNames(): string[] {
  const names: string[] = new Array(dataIndex().keyCount)
  for (let k = 0; k < names.length; k++) names[k] = keyName(k)
  return names
}

let nodeCount = 0

/** Every node has the same properties in the same order: one hidden class for the serializers' loads. */
function makeNode(tag: number, type: string, bits: number, zero: Uint8Array, zeroText: string, desc: string): TypeNode {
  return {tag, type, bits, elem: undefined, mapKey: undefined, struct: undefined, family: undefined, zero, desc, zeroText, id: nodeCount++}
}

const INT_BITS: Record<string, [number, boolean]> = {
  int: [64, true],
  int8: [8, true],
  int16: [16, true],
  int32: [32, true],
  int64: [64, true],
  uint: [64, false],
  uint8: [8, false],
  uint16: [16, false],
  uint32: [32, false],
  uint64: [64, false],
  uintptr: [64, false],
}

const NOT_JSON = {json: null, inline: false}
const INLINE = {json: null, inline: true}

function parseJsonTag(tag: string | 0, goName: string, exported: boolean, embedded: boolean, isStruct: boolean): {json: JsonName | null; inline: boolean} {
  if (tag === '-') return NOT_JSON
  const comma = tag === 0 ? -1 : tag.indexOf(',')
  const name = tag === 0 ? '' : comma < 0 ? tag : tag.slice(0, comma)
  // encoding/json: an embedded struct without a JSON name has its fields promoted (exported or not).
  if (embedded && isStruct && name === '') return INLINE
  if (!exported) return NOT_JSON
  const opts = tag === 0 || comma < 0 ? [] : tag.slice(comma + 1).split(',')
  return {json: {name: name === '' ? goName : name, omitempty: opts.includes('omitempty'), omitzero: opts.includes('omitzero')}, inline: false}
}

/** Renders a Go value of a special type's zero; set by spew.ts to avoid an import cycle. */
export type ZeroRenderer = (node: TypeNode) => Uint8Array

// Nodes shared by every layout (see the top of the file): the variants met so far of each unnamed reference and
// each definition; a version reuses a variant whose parts are the very nodes it has for them.
let refVariants: (TypeNode[] | undefined)[] = []
let defVariants: ({parts: TypeNode[]; node: TypeNode; hash: number}[] | undefined)[] = []

function partsHash(parts: readonly TypeNode[]): number {
  let h = parts.length
  for (let i = 0; i < parts.length; i++) h = Math.imul(h ^ parts[i].id, 0x01000193)
  return h
}

function sameParts(a: readonly TypeNode[], b: readonly TypeNode[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** The layout compiled last: the next one only walks the types whose definitions differ from it, and their users. */
let previous: CompiledLayout | undefined

/**
 * Every version of the data compiled, each struct's fields and zero rendering with it, in the order given (each layout
 * starts from the one before). renderSpecialZero renders a special type's zero (spew's renderer, passed in by the
 * caller so that this module is not a part of spew's imports).
 */
export function compileRawLayouts(renderSpecialZero: ZeroRenderer, raw: LayoutData = rawLayoutData(), order?: string[]): Map<string, CompiledLayout> {
  data = raw
  index = undefined
  refVariants = []
  defVariants = []
  previous = undefined
  nodeCount = 0
  const out = new Map<string, CompiledLayout>()
  for (const version of order ?? Object.keys(raw.versions)) {
    const layout = compileLayout(version, renderSpecialZero)
    for (const sd of layout.structs.values()) ready(sd)
    out.set(version, layout)
  }
  return out
}

function compileLayout(version: string, renderSpecialZero: ZeroRenderer): CompiledLayout {
  const v = data.versions[version]
  if (!v) throw new Error(`no layout for Kubernetes ${version}`)
  const {keyOfDef, keyOfRef, keyCount, parents, refsOfKey} = dataIndex()
  if (refVariants.length === 0) {
    refVariants = new Array(data.refs.length).fill(undefined)
    defVariants = new Array(data.defs.length).fill(undefined)
  }
  const defOfKey = new Int32Array(keyCount).fill(-1)
  for (const d of v.types) defOfKey[keyOfDef[d]] = d
  // (Loops over every key and reference are in small functions of their own: a hot loop here would have the
  // optimizing compiler spend more on this big function than the loop costs.)

  // This version's node for each named type (by key id) and each type reference. A type whose definition is the
  // previous layout's, and so are those of every type under it, has the previous layout's node: copied, not walked.
  let keyNodes: (TypeNode | undefined)[]
  let refNodes: (TypeNode | undefined)[]
  if (previous === undefined) {
    keyNodes = new Array(keyCount).fill(undefined)
    refNodes = new Array(data.refs.length).fill(undefined)
  } else {
    const stale = staleKeys(previous.defOfKey, defOfKey, parents)
    keyNodes = previous.keyNodes.slice()
    refNodes = previous.refNodes.slice()
    for (const k of stale) {
      keyNodes[k] = undefined
      for (const r of refsOfKey[k]) refNodes[r] = undefined
    }
  }
  /** Named types being walked: nodes are built bottom-up, which needs a type graph without cycles (a PodTemplateSpec's has none). */
  const open = new Uint8Array(keyCount)

  const basic = (kind: string, type: string): TypeNode => {
    if (kind === 'string') return makeNode(T_STRING, type, 0, EMPTY, '', `s:${type}`)
    if (kind === 'bool') return makeNode(T_BOOL, type, 0, FALSE, 'false', `b:${type}`)
    const ib = INT_BITS[kind]
    if (ib) return makeNode(ib[1] ? T_INT : T_UINT, type, ib[0], ZERO, '0', `${kind}:${type}`)
    throw new Error(`layout ${version}: unsupported Go kind ${kind} (${type})`)
  }

  /** A pointer, slice or map node over compiled parts (a named composite: under its own type string). */
  const composite = (kind: string, type: string, elem: TypeNode, mapKey: TypeNode | undefined, desc: string): TypeNode => {
    const node = makeNode(kind === 'ptr' ? T_PTR : kind === 'slice' ? T_SLICE : T_MAP, type, 0, NIL, '<nil>', desc)
    node.elem = elem
    node.mapKey = mapKey
    return node
  }

  const nodeFor = (ref: number): TypeNode => {
    const known = refNodes[ref]
    if (known !== undefined) return known
    const [kind, type, , elem, key] = data.refs[ref] as RefTuple
    let node: TypeNode | undefined
    if (keyOfRef[ref] >= 0) {
      node = namedNode(keyOfRef[ref], type)
    } else {
      const variants = refVariants[ref] ?? []
      refVariants[ref] = variants
      if (kind === 'ptr' || kind === 'slice' || kind === 'map') {
        const e = nodeFor(elem)
        const k = kind === 'map' ? nodeFor(key) : undefined
        if (k !== undefined && k.tag !== T_STRING) throw new Error(`layout ${version}: map key ${k.type} is not a string kind`)
        for (let i = variants.length - 1; i >= 0 && node === undefined; i--) if (variants[i].elem === e && variants[i].mapKey === k) node = variants[i]
        if (node === undefined) {
          const desc = kind === 'map' ? `m:${type}[${k!.desc}][${e.desc}]` : `${kind === 'ptr' ? 'p' : 'l'}:${type}[${e.desc}]`
          node = composite(kind, type, e, k, desc)
          variants.push(node)
        }
      } else {
        node = variants[0]
        if (node === undefined) {
          node = basic(kind, type)
          variants.push(node)
        }
      }
    }
    refNodes[ref] = node
    return node
  }

  const namedNode = (keyId: number, type: string): TypeNode => {
    const known = keyNodes[keyId]
    if (known !== undefined) return known
    const d = defOfKey[keyId]
    const def = d < 0 ? undefined : data.defs[d]
    if (def === undefined) throw new Error(`layout ${version}: type ${keyName(keyId)} is referenced but not defined`)
    if (open[keyId] === 1) throw new Error(`layout ${version}: type ${def.key} contains itself; recursive types are not supported`)
    open[keyId] = 1
    let parts: TypeNode[]
    let ukind = ''
    if (def.kind === 'struct') {
      const fields = def.fields ?? []
      parts = new Array(fields.length)
      for (let i = 0; i < fields.length; i++) parts[i] = nodeFor(fields[i][1])
    } else {
      if (def.underlying === undefined) throw new Error(`layout ${version}: ${def.key} has no underlying type`)
      const [k, , , uelem, ukey] = data.refs[def.underlying]
      ukind = k
      // A named composite (v1.ResourceList, big.nat): the underlying shape under the named type string.
      parts = k === 'map' ? [nodeFor(uelem), nodeFor(ukey)] : k === 'ptr' || k === 'slice' ? [nodeFor(uelem)] : []
    }
    const variants = defVariants[d] ?? []
    defVariants[d] = variants
    const hash = partsHash(parts)
    let node: TypeNode | undefined
    for (let i = variants.length - 1; i >= 0 && node === undefined; i--) {
      const x = variants[i]
      if (x.hash === hash && x.node.type === type && sameParts(x.parts, parts)) node = x.node
    }
    if (node === undefined) {
      if (def.kind === 'struct') node = structNode(def, keyId, type, {version, def, node: undefined!, fieldNodes: parts, renderSpecialZero})
      else if (parts.length > 0) node = composite(ukind, type, parts[0], parts[1], `${ukind}:${type}[${parts[1]?.desc ?? ''}][${parts[0].desc}]`)
      else node = basic(ukind, type)
      variants.push({parts, node, hash})
    }
    open[keyId] = 0
    keyNodes[keyId] = node
    return node
  }

  const root = nodeFor(v.root)
  // Every type of a version is one the root refers to, directly or not (the data is that closure).
  const structByKey: (StructDef | undefined)[] = new Array(keyCount).fill(undefined)
  const structs = new Map<string, StructDef>()
  for (const d of v.types) {
    const sd = keyNodes[keyOfDef[d]]?.struct
    if (sd === undefined) continue
    structByKey[sd.keyId] = sd
    structs.set(sd.key, sd)
  }
  previous = {version, goVersion: v.goVersion, root, structs, structByKey, defOfKey, keyNodes, refNodes}
  return previous
}

/** The keys whose definition differs between two versions, and the keys whose types use theirs. */
function staleKeys(before: Int32Array, after: Int32Array, parents: number[][]): number[] {
  const seen = new Uint8Array(after.length)
  const stale: number[] = []
  const changed: number[] = []
  for (let k = 0; k < after.length; k++) if (after[k] !== before[k]) changed.push(k)
  while (changed.length > 0) {
    const k = changed.pop()!
    if (seen[k] === 1) continue
    seen[k] = 1
    stale.push(k)
    for (const p of parents[k]) if (seen[p] === 0) changed.push(p)
  }
  return stale
}

function keyName(keyId: number): string {
  const data = source()
  const {keyOfDef, keyOfRef} = dataIndex()
  const d = keyOfDef.indexOf(keyId)
  if (d >= 0) return data.defs[d].key
  return String(data.refs[keyOfRef.indexOf(keyId)]?.[2] ?? keyId)
}

// Placeholders of a struct not compiled yet (replaced, never written to).
const EMPTY_FIELDS = Object.freeze(Object.create(null)) as Record<string, number>
const NO_FIELDS: FieldDef[] = []
const NO_NAMES = new Set<string>()
const NO_INLINES: number[] = []
const NO_OFFSETS = new Int32Array(1)

/** A named struct's node, its fields not compiled yet (ready() does it). */
function structNode(def: TypeDefData, keyId: number, type: string, pending: PendingStruct): TypeNode {
  const node = makeNode(SPECIAL[def.key] ?? T_STRUCT, type, 0, EMPTY, '', `S:${def.key}`)
  pending.node = node
  node.struct = {
    key: def.key,
    type,
    keyId,
    def,
    ready: false,
    fields: NO_FIELDS,
    jsonFields: EMPTY_FIELDS,
    known: NO_NAMES,
    inlines: NO_INLINES,
    zero: node.zero,
    offsets: NO_OFFSETS,
    pending,
  }
  return node
}

/** The struct's fields, JSON names and zero rendering (its parts' first). */
function ready(sd: StructDef): StructDef {
  if (sd.ready) return sd
  const {version, def, node, fieldNodes, renderSpecialZero} = sd.pending!
  const defFields = def.fields ?? []
  const n = defFields.length
  // The zero rendering as one latin1 string, then one buffer: each field's "Name:(type)" and absent rendering are
  // ranges of it (offsets), nothing is allocated per field but the FieldDef.
  const offsets = new Int32Array(n + 1)
  const fields: FieldDef[] = new Array(n)
  const names = jsonNames(def, fieldNodes)
  let text = ''
  for (let i = 0; i < n; i++) {
    const name = defFields[i][0]
    const fnode = fieldNodes[i]
    let pre = `${i === 0 ? '{' : ' '}${name}:(${fnode.type})`
    if (NON_ASCII.test(pre)) pre = latin1(bytes(pre))
    offsets[i] = text.length
    // Innermost first: a struct's zero embeds its non-pointer struct fields' zeros.
    text += pre + zeroTextOf(fnode)
    fields[i] = {name, node: fnode, preLength: pre.length, json: names.json[i], inline: names.inline[i]}
  }
  offsets[n] = text.length
  const {jsonFields, inlines} = names
  text += n === 0 ? '{}' : '}'
  const buf = Buffer.from(text, 'latin1')
  const zero = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
  // JSON names promoted through inline fields; a name defined twice is ambiguous in encoding/json
  // (dropped or shadowed by depth), which no layout has needed so far — refuse rather than guess.
  const known = inlines.length === 0 ? names.own : new Set(names.own)
  for (const i of inlines) {
    for (const name of ready(fields[i].node.struct!).known) {
      if (known.has(name)) throw new Error(`layout ${version}: JSON field ${name} of ${sd.type} is ambiguous`)
      known.add(name)
    }
  }
  sd.fields = fields
  sd.jsonFields = jsonFields
  sd.known = known
  sd.inlines = inlines
  sd.offsets = offsets
  sd.zero = zero
  sd.ready = true
  sd.pending = null
  if (node.tag === T_STRUCT) {
    node.zero = zero
    node.zeroText = text
  } else {
    node.family = familyOf(sd)
    node.zero = renderSpecialZero(node)
    node.zeroText = latin1(node.zero)
  }
  return sd
}

/**
 * What decides whether two structs of the same key (from layouts that do not share it) write the same bytes wherever
 * a text goes through them: the same fields, JSON names and node shapes, and each field absent renders the same bytes.
 * Structs with the same signature are one output class in compiled.json (src/hash/def-bits.ts compares classes).
 */
export function outputSignature(sd: StructDef): string {
  ready(sd)
  const fields = sd.fields.map((f) => [
    f.name,
    f.inline,
    f.node.type,
    f.node.desc,
    f.json && [f.json.name, f.json.omitempty, f.json.omitzero],
    zeroTextOf(f.node),
  ])
  return JSON.stringify([sd.key, sd.type, fields])
}

interface JsonNames {
  json: (JsonName | null)[]
  inline: boolean[]
  jsonFields: Record<string, number>
  inlines: number[]
  /** The own JSON names (shared: copied before promoted names are added). */
  own: Set<string>
}

/** A definition's JSON names, shared by its variants (an embedded field's depends on its type being a struct). */
const jsonNamesByDef = new Map<TypeDefData, JsonNames>()

function jsonNames(def: TypeDefData, fieldNodes: TypeNode[]): JsonNames {
  const defFields = def.fields ?? []
  const embedded = defFields.some((f) => (f[3] & 2) !== 0)
  const known = embedded ? undefined : jsonNamesByDef.get(def)
  if (known) return known
  const names: JsonNames = {json: [], inline: [], jsonFields: Object.create(null) as Record<string, number>, inlines: [], own: new Set()}
  for (let i = 0; i < defFields.length; i++) {
    const [name, , tag, flags] = defFields[i]
    const {json, inline} = parseJsonTag(tag, name, (flags & 1) !== 0, (flags & 2) !== 0, fieldNodes[i].tag === T_STRUCT)
    names.json.push(json)
    names.inline.push(inline)
    if (inline) names.inlines.push(i)
    if (json) {
      names.jsonFields[json.name] = i
      names.own.add(json.name)
    }
  }
  if (!embedded) jsonNamesByDef.set(def, names)
  return names
}

const NON_ASCII = /[^ -~]/

function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1')
}

function zeroTextOf(node: TypeNode): string {
  if (node.struct !== undefined && !node.struct.ready) ready(node.struct)
  return node.zeroText
}

/** Every struct reachable from sd (through fields, pointers, slices and maps). */
function familyOf(sd: StructDef): StructDef[] {
  const out: StructDef[] = []
  const walk = (s: StructDef): void => {
    if (out.includes(s)) return
    out.push(s)
    for (const f of ready(s).fields) {
      for (let n: TypeNode | undefined = f.node; n; n = n.elem) if (n.struct) walk(n.struct)
    }
  }
  walk(sd)
  return out
}
