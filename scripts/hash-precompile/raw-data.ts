// The per-version struct layouts as scripts/gen-hash-fixture.ts writes them from the Go reflection dumps in
// ../shared/k8s-hash/layouts (data/layouts/layouts.json): the source of data/layouts/compiled.json, what a
// run reads (src/hash/layout-data.ts). Read here only to make those and to test them.
import {readFileSync} from 'node:fs'

/** [kind, reflect.Type.String(), named type key or 0, elem ref or -1, key ref or -1] */
export type RefTuple = [string, string, string | 0, number, number]
/** [Go field name, type ref, json tag or 0, flags: 1 exported, 2 embedded] */
export type FieldTuple = [string, number, string | 0, number]

export interface TypeDefData {
  key: string
  spewName: string
  kind: string
  fields?: FieldTuple[]
  underlying?: number
}

export interface VersionData {
  goVersion: string
  root: number
  types: number[]
}

export interface LayoutData {
  refs: RefTuple[]
  defs: TypeDefData[]
  versions: Record<string, VersionData>
}

export const RAW_LAYOUTS_URL = new URL('../../data/layouts/layouts.json', import.meta.url)

let data: LayoutData | undefined

export function rawLayoutData(): LayoutData {
  data ??= JSON.parse(readFileSync(RAW_LAYOUTS_URL, 'utf8')) as LayoutData
  return data
}

/** The minor versions of the data ("1.20" …), oldest first. */
export function rawLayoutVersions(): string[] {
  return Object.keys(rawLayoutData().versions).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]))
}
