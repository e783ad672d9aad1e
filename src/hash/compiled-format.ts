// The parts, record sizes and flags of data/layouts/compiled.json (written by
// scripts/hash-precompile/serialize.ts, which says what each part holds; read by src/hash/compile.ts).
/** compiled.json's format: a run refuses files of another. */
export const COMPILED_FORMAT = 'kubectl-why compiled layouts 3'

export const INT_SECTIONS = ['keys', 'nodes', 'structs', 'structFields', 'fields', 'families', 'versionStructs', 'versionClasses'] as const

export const NODE_STRIDE = 6
export const STRUCT_STRIDE = 12
export const FIELD_STRIDE = 4

/** encoding/json sets the field (its name is the field's JSON name). */
export const FIELD_JSON = 1
export const FIELD_OMITEMPTY = 2
export const FIELD_OMITZERO = 4
/** An embedded struct whose JSON fields are promoted into the parent object. */
export const FIELD_INLINE = 8
