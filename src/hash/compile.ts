// Turns one version's layout data into the tree the serializers walk: a node per Go type with the
// constant bytes spew writes around values (field name, "(type)" prefix, and the whole rendering of a
// field the JSON lacks), and each struct's JSON field names (from the json tags, as encoding/json
// resolves them). Nothing here is written per field: every struct comes from the data.
import {layoutData, type RefTuple, type TypeDefData} from './layout-data.js'

export const T_STRING = 0
export const T_BOOL = 1
export const T_INT = 2
export const T_UINT = 3
export const T_PTR = 4
export const T_SLICE = 5
export const T_MAP = 6
export const T_STRUCT = 7
// Types with their own UnmarshalJSON/MarshalJSON: the JSON shape is not the struct's.
export const T_QUANTITY = 8
export const T_INTORSTRING = 9
export const T_TIME = 10
export const T_FIELDSV1 = 11

export const QUANTITY_KEY = 'k8s.io/apimachinery/pkg/api/resource.Quantity'
export const INTORSTRING_KEY = 'k8s.io/apimachinery/pkg/util/intstr.IntOrString'
export const TIME_KEY = 'k8s.io/apimachinery/pkg/apis/meta/v1.Time'
export const FIELDSV1_KEY = 'k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1'
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
}

export interface JsonName {
  name: string
  omitempty: boolean
  omitzero: boolean
}

export interface FieldDef {
  name: string
  node: TypeNode
  /** "{Name:(T)" for the first field, " Name:(T)" after. */
  pre: Uint8Array
  /** pre followed by the zero rendering: what a field the JSON lacks prints. */
  absent: Uint8Array
  /** How encoding/json names it; null when JSON never sets it (unexported, "-", promoted-into-parent). */
  json: JsonName | null
  /** An embedded struct whose JSON fields are promoted into the parent object. */
  inline: boolean
}

export interface StructDef {
  key: string
  type: string
  fields: FieldDef[]
  /** Own JSON names → field index (a null-prototype object: the fastest lookup for decoded keys). */
  jsonFields: Record<string, number>
  /** Every JSON name an object of this type accepts (own and promoted through inline fields). */
  known: Set<string>
  /** Indices of inline fields. */
  inlines: number[]
  /** Every field absent, then "}": runs of absent fields are slices of it. */
  zero: Uint8Array
  /** Where field i's absent rendering starts in zero (offsets[fields.length]: the closing brace). */
  offsets: Int32Array
  /** Interned id of everything that shapes this struct's output; equal ids across versions = same output. */
  sig: number
  /** Interned id of the type key (the same in every version). */
  keyId: number
}

export interface CompiledLayout {
  version: string
  /** Order of compilation (a small integer for tables indexed by layout). */
  index: number
  goVersion: string
  root: TypeNode
  structs: Map<string, StructDef>
  /** sig of each struct by keyId (undefined: the version has no such type). */
  sigByKey: number[]
  /** Rendered bytes of quantities by JSON text, for this layout. */
  quantityCache: Map<string, Uint8Array>
}

const encoder = new TextEncoder()
const bytes = (s: string): Uint8Array => encoder.encode(s)
const NIL = bytes('<nil>')

const keyIds = new Map<string, number>()
function keyIdOf(key: string): number {
  let id = keyIds.get(key)
  if (id === undefined) {
    id = keyIds.size
    keyIds.set(key, id)
  }
  return id
}

let compiledCount = 0

/** How many struct keys have an id so far (bitsets over key ids need this many bits). */
export function keyIdCount(): number {
  return keyIds.size
}

const signatures = new Map<string, number>()
function intern(s: string): number {
  let id = signatures.get(s)
  if (id === undefined) {
    id = signatures.size
    signatures.set(s, id)
  }
  return id
}

/** Every node has the same properties in the same order: one hidden class for the serializers' loads. */
function makeNode(tag: number, type: string, bits: number, zero: Uint8Array, desc: string): TypeNode {
  return {tag, type, bits, elem: undefined, mapKey: undefined, struct: undefined, family: undefined, zero, desc}
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

function parseJsonTag(tag: string | 0, goName: string, exported: boolean, embedded: boolean, isStruct: boolean): {json: JsonName | null; inline: boolean} {
  if (tag === '-') return {json: null, inline: false}
  const [name = '', ...opts] = tag === 0 ? [] : tag.split(',')
  // encoding/json: an embedded struct without a JSON name has its fields promoted (exported or not).
  if (embedded && isStruct && name === '') return {json: null, inline: true}
  if (!exported) return {json: null, inline: false}
  return {json: {name: name === '' ? goName : name, omitempty: opts.includes('omitempty'), omitzero: opts.includes('omitzero')}, inline: false}
}

/** Renders a Go value of a special type's zero; set by spew.ts to avoid an import cycle. */
export type ZeroRenderer = (node: TypeNode) => Uint8Array

export function compileLayout(version: string, renderSpecialZero: ZeroRenderer): CompiledLayout {
  const data = layoutData()
  const v = data.versions[version]
  if (!v) throw new Error(`no layout for Kubernetes ${version}`)
  const defs = new Map<string, TypeDefData>()
  for (const i of v.types) defs.set(data.defs[i].key, data.defs[i])

  const refNodes = new Map<number, TypeNode>()
  const namedNodes = new Map<string, TypeNode>()
  const structs = new Map<string, StructDef>()
  const pendingStructs: {def: TypeDefData; node: TypeNode}[] = []

  const basic = (kind: string, type: string): TypeNode => {
    if (kind === 'string') return makeNode(T_STRING, type, 0, new Uint8Array(0), `s:${type}`)
    if (kind === 'bool') return makeNode(T_BOOL, type, 0, bytes('false'), `b:${type}`)
    const ib = INT_BITS[kind]
    if (ib) return makeNode(ib[1] ? T_INT : T_UINT, type, ib[0], bytes('0'), `${kind}:${type}`)
    throw new Error(`layout ${version}: unsupported Go kind ${kind} (${type})`)
  }

  const nodeFor = (ref: number): TypeNode => {
    const known = refNodes.get(ref)
    if (known) return known
    const [kind, type, named, elem, key] = data.refs[ref] as RefTuple
    let node: TypeNode
    if (named !== 0) {
      node = namedNode(named, type)
    } else if (kind === 'ptr') {
      node = makeNode(T_PTR, type, 0, NIL, '')
      refNodes.set(ref, node)
      node.elem = nodeFor(elem)
      node.desc = `p:${type}[${node.elem.desc}]`
    } else if (kind === 'slice') {
      node = makeNode(T_SLICE, type, 0, NIL, '')
      refNodes.set(ref, node)
      node.elem = nodeFor(elem)
      node.desc = `l:${type}[${node.elem.desc}]`
    } else if (kind === 'map') {
      node = makeNode(T_MAP, type, 0, NIL, '')
      refNodes.set(ref, node)
      node.mapKey = nodeFor(key)
      node.elem = nodeFor(elem)
      if (node.mapKey.tag !== T_STRING) throw new Error(`layout ${version}: map key ${node.mapKey.type} is not a string kind`)
      node.desc = `m:${type}[${node.mapKey.desc}][${node.elem.desc}]`
    } else {
      node = basic(kind, type)
    }
    refNodes.set(ref, node)
    return node
  }

  const namedNode = (key: string, type: string): TypeNode => {
    const known = namedNodes.get(key)
    if (known) return known
    const def = defs.get(key)
    if (!def) throw new Error(`layout ${version}: type ${key} is referenced but not defined`)
    let node: TypeNode
    if (def.kind === 'struct') {
      node = makeNode(SPECIAL[key] ?? T_STRUCT, type, 0, new Uint8Array(0), `S:${key}`)
      namedNodes.set(key, node)
      pendingStructs.push({def, node})
    } else {
      if (def.underlying === undefined) throw new Error(`layout ${version}: ${key} has no underlying type`)
      const [ukind, , , uelem, ukey] = data.refs[def.underlying]
      if (ukind === 'ptr' || ukind === 'slice' || ukind === 'map') {
        // A named composite (v1.ResourceList, big.nat): the underlying shape under the named type string.
        node = makeNode(ukind === 'ptr' ? T_PTR : ukind === 'slice' ? T_SLICE : T_MAP, type, 0, NIL, '')
        namedNodes.set(key, node)
        node.elem = nodeFor(uelem)
        if (ukind === 'map') node.mapKey = nodeFor(ukey)
        node.desc = `${ukind}:${type}[${node.mapKey?.desc ?? ''}][${node.elem.desc}]`
      } else {
        node = basic(ukind, type)
        namedNodes.set(key, node)
      }
    }
    return node
  }

  const root = nodeFor(v.root)

  // Fields after every node exists (pointers may point back up the tree).
  for (let n = 0; n < pendingStructs.length; n++) {
    const {def, node} = pendingStructs[n]
    const fields: FieldDef[] = []
    const jsonFields = Object.create(null) as Record<string, number>
    const inlines: number[] = []
    for (const [i, [name, ref, tag, flags]] of (def.fields ?? []).entries()) {
      const fnode = nodeFor(ref)
      const embedded = (flags & 2) !== 0
      const {json, inline} = parseJsonTag(tag, name, (flags & 1) !== 0, embedded, fnode.tag === T_STRUCT)
      const pre = bytes(`${i === 0 ? '{' : ' '}${name}:(${fnode.type})`)
      fields.push({name, node: fnode, pre, absent: pre, json, inline})
      if (inline) inlines.push(i)
      if (json) jsonFields[json.name] = i
    }
    const sd: StructDef = {
      key: def.key,
      type: node.type,
      fields,
      jsonFields,
      known: new Set(),
      inlines,
      zero: new Uint8Array(0),
      offsets: new Int32Array(fields.length + 1),
      sig: -1,
      keyId: keyIdOf(def.key),
    }
    structs.set(def.key, sd)
    node.struct = sd
  }

  // JSON names promoted through inline fields; a name defined twice is ambiguous in encoding/json
  // (dropped or shadowed by depth), which no layout has needed so far — refuse rather than guess.
  const resolveKnown = (sd: StructDef, seen: Set<string>): Set<string> => {
    if (sd.known.size > 0 || seen.has(sd.key)) return sd.known
    seen.add(sd.key)
    const known = new Set(Object.keys(sd.jsonFields))
    for (const i of sd.inlines) {
      const inner = sd.fields[i].node.struct!
      for (const name of resolveKnown(inner, seen)) {
        if (known.has(name)) throw new Error(`layout ${version}: JSON field ${name} of ${sd.type} is ambiguous`)
        known.add(name)
      }
    }
    sd.known = known
    return known
  }
  for (const sd of structs.values()) resolveKnown(sd, new Set())

  // Zero renderings, innermost first (a struct's zero embeds its non-pointer struct fields' zeros).
  const done = new Set<StructDef>()
  const finish = (sd: StructDef): void => {
    if (done.has(sd)) return
    done.add(sd)
    const parts: Uint8Array[] = []
    let offset = 0
    for (const [i, f] of sd.fields.entries()) {
      f.absent = concat([f.pre, zeroOf(f.node)])
      parts.push(f.absent)
      sd.offsets[i] = offset
      offset += f.absent.length
    }
    sd.offsets[sd.fields.length] = offset
    parts.push(sd.fields.length === 0 ? bytes('{}') : bytes('}'))
    sd.zero = concat(parts)
  }
  const zeroOf = (node: TypeNode): Uint8Array => {
    if (node.tag === T_STRUCT) {
      finish(node.struct!)
      return node.struct!.zero
    }
    if (node.struct && !node.family) {
      node.family = familyOf(node.struct)
      for (const sd of node.family) finish(sd)
      node.zero = renderSpecialZero(node)
    }
    return node.zero
  }
  for (const sd of structs.values()) finish(sd)
  for (const {node} of pendingStructs) node.zero = zeroOf(node)

  const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1')
  for (const sd of structs.values()) {
    const node = namedNodes.get(sd.key)!
    sd.sig = intern(JSON.stringify([sd.key, sd.type, node.tag, sd.fields.map((f) => [f.name, latin1(f.absent), f.json, f.inline, f.node.desc])]))
  }

  const sigByKey: number[] = []
  for (const sd of structs.values()) sigByKey[sd.keyId] = sd.sig
  return {version, index: compiledCount++, goVersion: v.goVersion, root, structs, sigByKey, quantityCache: new Map()}
}

/** Every struct reachable from sd (through fields, pointers, slices and maps). */
function familyOf(sd: StructDef): StructDef[] {
  const out: StructDef[] = []
  const walk = (s: StructDef): void => {
    if (out.includes(s)) return
    out.push(s)
    for (const f of s.fields) {
      for (let n: TypeNode | undefined = f.node; n; n = n.elem) if (n.struct) walk(n.struct)
    }
  }
  walk(sd)
  return out
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}
