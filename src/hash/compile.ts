// The tree the serializers walk: a node per Go type with the constant bytes spew writes around values (field name,
// "(type)" prefix, and the whole rendering of a field the JSON lacks), and each struct's JSON field names (from the
// json tags, as encoding/json resolves them). Nothing here is written per field: every struct comes from the data.
//
// Compiled at generation time (scripts/hash-precompile/, from the raw layouts) into data/layouts/compiled.json:
// a run parses no tags, shares out no nodes, assembles no zero renderings and compares no structs; it only makes the
// objects a rendering reaches — a node and its struct shell when first reached, a struct's fields when a text first
// goes through it (ready()). Nodes and structs are shared by every layout: versions whose definitions agree all the
// way down (most types, most versions) hold the same object.
import {FIELD_INLINE, FIELD_JSON, FIELD_OMITEMPTY, FIELD_OMITZERO, FIELD_STRIDE, NODE_STRIDE, STRUCT_STRIDE} from './compiled-format.js'
import {layoutData} from './layout-data.js'

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

export interface TypeNode {
  tag: number
  /** reflect.Type.String(): what spew prints inside "(...)". */
  type: string
  /** Integer width and signedness (T_INT, T_UINT). */
  bits: number
  elem: TypeNode | undefined
  mapKey: TypeNode | undefined
  /** The struct behind T_STRUCT and the special types. */
  struct: StructDef | undefined
  /** Struct definitions a special type's rendering goes through (layout inference records them). */
  family: StructDef[] | undefined
  /** spew of the value a controller holds when the JSON has null or nothing here, without type prefix (zeroOf). */
  zero: Uint8Array
}

export interface JsonName {
  name: string
  omitempty: boolean
  omitzero: boolean
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
  /** Whether the fields below are made: ready(sd) makes them on first use. */
  ready: boolean
  fields: FieldDef[]
  /** Own JSON names → field index (a null-prototype object: the fastest lookup for decoded keys). */
  jsonFields: Record<string, number>
  /** With inline fields: every JSON name an object of this type accepts, own and promoted (knows(), knownNames()). */
  known: Set<string> | undefined
  /** Indices of inline fields. */
  inlines: number[]
  /** Every field absent, then "}": runs of absent fields are slices of it. */
  zero: Uint8Array
  /** Where field i's absent rendering starts in zero (offsets[fields.length]: the closing brace). */
  offsets: Int32Array
  /** Output class: two structs of one class write the same bytes wherever a text goes through them. */
  cls: number
  /** Its record in compiled.json. */
  index: number
  /**
   * Fold tables (fnv.ts) of the slices of zero the hashing renderer folds, by run * (fields + 1) + end: the slice
   * from field run's absent rendering to field end's "Name:(type)" (end = fields: to the closing brace). Made when
   * first hashed.
   */
  folds: (Int32Array | undefined)[] | undefined
}

export interface CompiledLayout {
  version: string
  goVersion: string
  root: TypeNode
  /** Each struct by keyId (undefined: the version has no such type), made when asked for. */
  readonly structByKey: (StructDef | undefined)[]
  /** Each struct's output class by keyId (-1: the version has no such type). */
  classByKey: Int32Array
  /** The structs by type key. */
  readonly structs: Map<string, StructDef>
  /** Rendered bytes of quantities by JSON text, for this layout. */
  quantityCache: Map<string, Uint8Array>
}

const encoder = new TextEncoder()
// The zero renderings of basic kinds, shared by their nodes (never written to).
const NIL = encoder.encode('<nil>')
const EMPTY = new Uint8Array(0)
const FALSE = encoder.encode('false')
const ZERO = encoder.encode('0')

function basicZero(tag: number): Uint8Array {
  if (tag === T_STRING) return EMPTY
  if (tag === T_BOOL) return FALSE
  if (tag === T_INT || tag === T_UINT) return ZERO
  // Pointers, slices, maps; a struct's (and a special type's) is set by ready().
  return tag === T_PTR || tag === T_SLICE || tag === T_MAP ? NIL : EMPTY
}

// Placeholders of a struct not made yet (replaced, never written to).
const EMPTY_FIELDS = Object.freeze(Object.create(null)) as Record<string, number>
const NO_FIELDS: FieldDef[] = []
const NO_INLINES: number[] = []
const NO_OFFSETS = new Int32Array(1)

/** The nodes made so far, by their record in compiled.json (made when something first reaches them). */
let nodes: (TypeNode | undefined)[] | undefined
/** FieldDefs by their record in compiled.json: structs of one key share most of their fields. */
let fieldDefs: (FieldDef | undefined)[] = []
/** A name list's JSON names (the same for every struct of the list). */
let nameLists: ({jsonFields: Record<string, number>; inlines: number[]} | undefined)[] = []

/** Node i of compiled.json, and the nodes it is made of (a node's record comes after theirs). */
function nodeAt(i: number): TypeNode {
  if (nodes === undefined) {
    const d = layoutData()
    nodes = new Array(d.nodes.length / NODE_STRIDE).fill(undefined)
    fieldDefs = new Array(d.fields.length / FIELD_STRIDE).fill(undefined)
    nameLists = []
  }
  return nodes[i] ?? makeNode(i)
}

function makeNode(i: number): TypeNode {
  const d = layoutData()
  const nd = d.nodes
  const p = i * NODE_STRIDE
  const tag = nd[p]
  const elem = nd[p + 3]
  const key = nd[p + 4]
  const s = nd[p + 5]
  // Every node has the same properties in the same order: one hidden class for the serializers' loads.
  const node: TypeNode = {
    tag,
    type: d.strings[nd[p + 1]],
    bits: nd[p + 2],
    elem: elem < 0 ? undefined : nodeAt(elem),
    mapKey: key < 0 ? undefined : nodeAt(key),
    struct: undefined,
    family: undefined,
    zero: basicZero(tag),
  }
  nodes![i] = node
  if (s < 0) return node
  const sr = d.structs
  const q = s * STRUCT_STRIDE
  node.struct = {
    key: d.strings[d.keys[sr[q + 1]]],
    type: node.type,
    keyId: sr[q + 1],
    ready: false,
    fields: NO_FIELDS,
    jsonFields: EMPTY_FIELDS,
    known: undefined,
    inlines: NO_INLINES,
    zero: EMPTY,
    offsets: NO_OFFSETS,
    cls: sr[q + 2],
    index: s,
    folds: undefined,
  }
  const familySize = sr[q + 10]
  if (familySize > 0) {
    const family: StructDef[] = new Array(familySize)
    for (let k = 0; k < familySize; k++) family[k] = structAt(d.families[sr[q + 9] + k])
    node.family = family
  }
  return node
}

/** Struct s of compiled.json (its node made if need be: a special type's family holds its own, made by then). */
function structAt(s: number): StructDef {
  return nodeAt(layoutData().structs[s * STRUCT_STRIDE]).struct!
}

/** How many struct keys there are (bitsets over key ids need this many bits). */
export function keyIdCount(): number {
  return layoutData().keys.length
}

class Layout implements CompiledLayout {
  quantityCache = new Map<string, Uint8Array>()
  private byKey: (StructDef | undefined)[] | undefined
  private byName: Map<string, StructDef> | undefined

  constructor(
    readonly version: string,
    readonly goVersion: string,
    readonly root: TypeNode,
    readonly classByKey: Int32Array,
    /** Where the version's structs are in compiled.json's versionStructs. */
    private readonly own: [number, number],
  ) {}

  get structByKey(): (StructDef | undefined)[] {
    if (this.byKey === undefined) {
      const d = layoutData()
      this.byKey = new Array(d.keys.length).fill(undefined)
      for (let i = this.own[0]; i < this.own[0] + this.own[1]; i++) {
        const sd = structAt(d.versionStructs[i])
        this.byKey[sd.keyId] = sd
      }
    }
    return this.byKey
  }

  get structs(): Map<string, StructDef> {
    if (this.byName === undefined) {
      this.byName = new Map()
      for (const sd of this.structByKey) if (sd !== undefined) this.byName.set(sd.key, sd)
    }
    return this.byName
  }
}

/** A version's layout: its root and the output class of its struct of each key (its structs are made when reached). */
export function compileLayout(version: string): CompiledLayout {
  const d = layoutData()
  const v = d.versions[version]
  if (!v) throw new Error(`no layout for Kubernetes ${version}`)
  const keyCount = d.keys.length
  return new Layout(version, v.goVersion, nodeAt(v.root), d.versionClasses.subarray(v.classes, v.classes + keyCount), v.structs)
}

/** What a value of this node's type renders when the JSON has null or nothing (making its struct if need be). */
export function zeroOf(node: TypeNode): Uint8Array {
  if (node.struct !== undefined && !node.struct.ready) ready(node.struct)
  return node.zero
}

/** The zero length of a field's node, without making its struct. */
function zeroLength(node: TypeNode, sr: Int32Array): number {
  return node.struct === undefined ? node.zero.length : sr[node.struct.index * STRUCT_STRIDE + 8]
}

function fieldDef(record: number): FieldDef {
  const d = layoutData()
  const p = record * FIELD_STRIDE
  const name = d.strings[d.fields[p]]
  const node = nodeAt(d.fields[p + 1])
  const flags = d.fields[p + 3]
  const json =
    (flags & FIELD_JSON) === 0 ? null : {name: d.strings[d.fields[p + 2]], omitempty: (flags & FIELD_OMITEMPTY) !== 0, omitzero: (flags & FIELD_OMITZERO) !== 0}
  // "{Name:(type)" or " Name:(type)": ASCII (the generator refuses anything else).
  const field: FieldDef = {name, node, preLength: name.length + node.type.length + 4, json, inline: (flags & FIELD_INLINE) !== 0}
  fieldDefs[record] = field
  return field
}

/** The struct's fields, JSON names and zero rendering, made on first use. */
export function ready(sd: StructDef): StructDef {
  if (sd.ready) return sd
  const d = layoutData()
  const sr = d.structs
  const zeros = d.zeros
  const q = sd.index * STRUCT_STRIDE
  const node = nodeAt(sr[q])
  const first = sr[q + 3]
  const n = sr[q + 4]
  const zero = zeros.subarray(sr[q + 5], sr[q + 5] + sr[q + 6])
  // Each field's "Name:(type)" and absent rendering are ranges of the zero rendering (offsets).
  const offsets = new Int32Array(n + 1)
  const fields: FieldDef[] = new Array(n)
  let at = 0
  for (let i = 0; i < n; i++) {
    const record = d.structFields[first + i]
    const f = fieldDefs[record] ?? fieldDef(record)
    offsets[i] = at
    at += f.preLength + zeroLength(f.node, sr)
    fields[i] = f
  }
  offsets[n] = at
  if (at + (n === 0 ? 2 : 1) !== zero.length) throw new Error(`compiled layouts: ${sd.key}'s fields do not add up to its zero rendering`)
  const names = nameLists[sr[q + 11]] ?? namesOf(sr[q + 11], fields)
  // JSON names promoted through inline fields; a name defined twice is ambiguous in encoding/json
  // (dropped or shadowed by depth), which no layout has needed so far — refuse rather than guess.
  let known: Set<string> | undefined
  if (names.inlines.length > 0) {
    known = new Set(Object.keys(names.jsonFields))
    for (const i of names.inlines) {
      for (const name of knownNames(ready(fields[i].node.struct!))) {
        if (known.has(name)) throw new Error(`JSON field ${name} of ${sd.type} is ambiguous`)
        known.add(name)
      }
    }
  }
  sd.fields = fields
  sd.jsonFields = names.jsonFields
  sd.known = known
  sd.inlines = names.inlines
  sd.offsets = offsets
  sd.zero = zero
  sd.ready = true
  node.zero = node.tag === T_STRUCT ? zero : zeros.subarray(sr[q + 7], sr[q + 7] + sr[q + 8])
  return sd
}

/** A name list's own JSON names → field index, and its inline fields (shared, never written to). */
function namesOf(list: number, fields: FieldDef[]): {jsonFields: Record<string, number>; inlines: number[]} {
  const jsonFields = Object.create(null) as Record<string, number>
  let inlines = NO_INLINES
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]
    if (f.json !== null) jsonFields[f.json.name] = i
    if (f.inline) {
      if (inlines === NO_INLINES) inlines = []
      inlines.push(i)
    }
  }
  const names = {jsonFields, inlines}
  nameLists[list] = names
  return names
}

/** Whether an object of this (ready) struct type takes this JSON name: its own, or one promoted through inline fields. */
export function knows(sd: StructDef, name: string): boolean {
  return sd.known === undefined ? sd.jsonFields[name] !== undefined : sd.known.has(name)
}

/** Every JSON name an object of this (ready) struct type takes. */
export function knownNames(sd: StructDef): Iterable<string> {
  return sd.known ?? Object.keys(sd.jsonFields)
}
