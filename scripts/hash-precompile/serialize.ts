// Generation time: the compiled layouts of every version (compile-raw.ts) written as data/layouts/compiled.json, the
// file a run loads (src/hash/layout-data.ts, src/hash/compile.ts), so that a run compiles nothing: no tags parsed, no
// nodes shared out, no zero renderings assembled, no structs compared. The integer sections are JSON arrays a run
// copies into typed arrays, and the zero renderings one latin1 string. (A binary .bin beside it for the sections
// saved 0.3 % of `hash --all`: under the README's threshold for keeping hand-made formats.)
//   strings       (JSON) every name, type string and type key, once
//   keys          the string of each type key id (bitsets over key ids: src/hash/def-bits.ts)
//   nodes         NODE_STRIDE per node: tag, type string, bits, elem node, map key node, struct (-1: none); a node
//                 comes after every node it is made of, its struct's fields' included (children first, no cycles)
//   structs       STRUCT_STRIDE per struct: node, key id, output class, first of its fields in structFields, field
//                 count, zero start, zero length, the node's zero start and length (a special type's differs from its
//                 struct's), first family member, family size, name list; two structs of one output class write the
//                 same bytes wherever a text goes through them; of one name list, have the same JSON fields in order
//   structFields  the field of each struct's fields, in order (structs of one key share most of theirs)
//   fields        FIELD_STRIDE per distinct field: Go name string, node, JSON name string (-1: none), flags (FIELD_*)
//   families      struct indices: the structs a special type's rendering goes through
//   versionStructs each version's structs, one after the other
//   versionClasses each version's output class by key id (-1: no such struct), one version after the other
//                 (versions in the JSON: Go version, root, where its structs and classes are)
//   zeros         every zero rendering (latin1 bytes), each a range of it (nested ones found inside their parents')
import {renderGoBytes, specialZeroGoValue} from '../../src/hash/spew.js'
import {checkSpecialLayout} from '../../src/hash/special.js'
import type {TypeNode as RuntimeNode} from '../../src/hash/compile.js'
import {
  COMPILED_FORMAT,
  FIELD_INLINE,
  FIELD_JSON,
  FIELD_OMITEMPTY,
  FIELD_OMITZERO,
  FIELD_STRIDE,
  INT_SECTIONS,
  NODE_STRIDE,
  STRUCT_STRIDE,
} from '../../src/hash/compiled-format.js'
import {type CompiledLayout, compileRawLayouts, keyNames, outputSignature, type TypeNode} from './compile-raw.js'
import {type LayoutData, rawLayoutData} from './raw-data.js'

/** What compiled.json holds, before they are written. */
export interface CompiledData {
  strings: string[]
  sections: Record<(typeof INT_SECTIONS)[number], number[]>
  zeros: string
  versions: Record<string, {goVersion: string; root: number; structs: [number, number]; classes: number}>
}

/** A special type's zero, rendered by spew from the Go value a controller holds for it (its family is compiled by then). */
function renderSpecialZero(node: TypeNode): Uint8Array {
  const n = node as unknown as RuntimeNode
  return renderGoBytes(n, specialZeroGoValue(n))
}

/** The raw layouts compiled (oldest first) and checked against what src/hash/special.ts fills in. */
export function compileAll(raw: LayoutData = rawLayoutData()): Map<string, CompiledLayout> {
  const order = Object.keys(raw.versions).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]))
  const layouts = compileRawLayouts(renderSpecialZero, raw, order)
  for (const [version, layout] of layouts) checkSpecialLayout(version, layout.structs)
  return layouts
}

function record(into: number[], stride: number, ...values: number[]): void {
  if (values.length !== stride) throw new Error(`a record of ${values.length} values where the format has ${stride}`)
  into.push(...values)
}

const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1')

export function compiledData(raw: LayoutData = rawLayoutData()): CompiledData {
  const layouts = compileAll(raw)
  const strings: string[] = []
  const stringIds = new Map<string, number>()
  const str = (s: string): number => {
    let id = stringIds.get(s)
    if (id === undefined) {
      id = strings.length
      strings.push(s)
      stringIds.set(s, id)
    }
    return id
  }
  const keys = keyNames().map(str)

  // Nodes children first: elem, map key and a struct's field nodes, then the node (a special type's family is
  // among its fields' structs).
  const nodeIds = new Map<TypeNode, number>()
  const order: TypeNode[] = []
  const visit = (node: TypeNode): void => {
    if (nodeIds.has(node)) return
    if (node.elem) visit(node.elem)
    if (node.mapKey) visit(node.mapKey)
    if (node.struct) for (const f of node.struct.fields) visit(f.node)
    nodeIds.set(node, order.length)
    order.push(node)
  }
  for (const layout of layouts.values()) visit(layout.root)

  const structList = order.filter((n) => n.struct !== undefined).map((n) => n.struct!)
  const structIds = new Map(structList.map((s, i) => [s, i]))
  // Every struct of a version is one its root refers to, directly or not (the raw data is that closure).
  for (const [version, layout] of layouts) {
    for (const sd of layout.structByKey) if (sd && !structIds.has(sd)) throw new Error(`layout ${version}: ${sd.key} is not under the root`)
  }

  // The zero renderings, longest first, each found in what is there already or added.
  const texts = new Map<string, [number, number]>()
  let zeros = ''
  const wanted = new Set<string>()
  for (const n of order) if (n.struct) wanted.add(latin1(n.struct.zero)).add(latin1(n.zero))
  for (const t of [...wanted].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))) {
    let at = zeros.indexOf(t)
    if (at < 0) {
      at = zeros.length
      zeros += t
    }
    texts.set(t, [at, t.length])
  }

  const classes = new Map<string, number>()
  const nameLists = new Map<string, number>()
  const fieldIds = new Map<string, number>()
  const nodes: number[] = []
  const structs: number[] = []
  const structFields: number[] = []
  const fields: number[] = []
  const families: number[] = []
  for (const n of order) {
    const sd = n.struct
    record(
      nodes,
      NODE_STRIDE,
      n.tag,
      str(n.type),
      n.bits,
      n.elem ? nodeIds.get(n.elem)! : -1,
      n.mapKey ? nodeIds.get(n.mapKey)! : -1,
      sd ? structIds.get(sd)! : -1,
    )
    if (!sd) continue
    const signature = outputSignature(sd)
    let cls = classes.get(signature)
    if (cls === undefined) {
      cls = classes.size
      classes.set(signature, cls)
    }
    const [zs, zl] = texts.get(latin1(sd.zero))!
    const [ns, nl] = texts.get(latin1(n.zero))!
    const names = JSON.stringify(sd.fields.map((f) => [f.json && [f.json.name, f.json.omitempty, f.json.omitzero], f.inline]))
    let nameList = nameLists.get(names)
    if (nameList === undefined) {
      nameList = nameLists.size
      nameLists.set(names, nameList)
    }
    record(
      structs,
      STRUCT_STRIDE,
      nodeIds.get(n)!,
      sd.keyId,
      cls,
      structFields.length,
      sd.fields.length,
      zs,
      zl,
      ns,
      nl,
      families.length,
      n.family?.length ?? 0,
      nameList,
    )
    for (const s of n.family ?? []) {
      const id = structIds.get(s)
      if (id === undefined) throw new Error(`${sd.key}: family member ${s.key} is not under it`)
      families.push(id)
    }
    for (const [i, f] of sd.fields.entries()) {
      // A run takes "{Name:(type)" to be the name's and the type's length plus 4 (one byte a character).
      if (f.preLength !== f.name.length + f.node.type.length + 4 || /[^ -~]/.test(f.name + f.node.type)) {
        throw new Error(`${sd.key} field ${i} ${f.name} (${f.node.type}): not ASCII; compiled.json cannot hold it`)
      }
      let flags = 0
      if (f.json) flags |= FIELD_JSON | (f.json.omitempty ? FIELD_OMITEMPTY : 0) | (f.json.omitzero ? FIELD_OMITZERO : 0)
      if (f.inline) flags |= FIELD_INLINE
      const field = [str(f.name), nodeIds.get(f.node)!, f.json ? str(f.json.name) : -1, flags]
      let id = fieldIds.get(field.join())
      if (id === undefined) {
        id = fieldIds.size
        fieldIds.set(field.join(), id)
        record(fields, FIELD_STRIDE, ...field)
      }
      structFields.push(id)
    }
  }
  const versions: CompiledData['versions'] = {}
  const versionStructs: number[] = []
  const versionClasses: number[] = []
  for (const [version, layout] of layouts) {
    const own = layout.structByKey.filter((s) => s !== undefined).map((s) => structIds.get(s!)!)
    versions[version] = {
      goVersion: layout.goVersion,
      root: nodeIds.get(layout.root)!,
      structs: [versionStructs.length, own.length],
      classes: versionClasses.length,
    }
    versionStructs.push(...own)
    const classByKey = new Array<number>(keys.length).fill(-1)
    for (const s of own) classByKey[structs[s * STRUCT_STRIDE + 1]] = structs[s * STRUCT_STRIDE + 2]
    versionClasses.push(...classByKey)
  }
  return {strings, sections: {keys, nodes, structs, structFields, fields, families, versionStructs, versionClasses}, zeros, versions}
}

/** compiled.json's text: the int sections, the zeros, a version or a string a line. */
export function compiledFiles(data: CompiledData): {json: string} {
  const lines = [
    `"format":${JSON.stringify(COMPILED_FORMAT)}`,
    `"note":${JSON.stringify('Generated by scripts/gen-hash-fixture.ts from layouts.json (scripts/hash-precompile/serialize.ts says what each part holds); read by src/hash/layout-data.ts. sections: 32-bit integers; zeros: the zero renderings, latin1.')}`,
    `"sections":{\n${INT_SECTIONS.map((name) => `${JSON.stringify(name)}:[${data.sections[name].join(',')}]`).join(',\n')}}`,
    `"zeros":${JSON.stringify(data.zeros)}`,
    `"versions":{\n${Object.entries(data.versions)
      .map(([n, x]) => `${JSON.stringify(n)}:${JSON.stringify(x)}`)
      .join(',\n')}}`,
    `"strings":[\n${data.strings.map((x) => JSON.stringify(x)).join(',\n')}]`,
  ]
  return {json: `{${lines.join(',\n')}}\n`}
}
