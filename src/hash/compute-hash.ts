// ComputeHash (pkg/controller/controller_utils.go): FNV-1a 32 over the spew dump of the template,
// then the collision count, SafeEncoded — for a given Kubernetes version's struct layout.
import {contentKey} from './content-key.js'
import {encodeSum32} from './safe-encode.js'
import {sum32, withCollisionCount} from './fnv.js'
import {getLayout} from './layouts.js'
import {spewTemplate} from './spew.js'
import {newestLayoutVersion} from './versions.js'

export interface TemplateHash {
  version: string
  collisionCount: number | null
  hash: string
  /** FNV-1a state after the spew text, before the collision-count suffix. */
  state: number
  /** JSON fields the version's Go structs do not have (dropped by the decoder, not hashed). */
  unknownFields: string[]
  /** The exact bytes hashed (without the 8 collision-count bytes), when asked for. */
  text?: Uint8Array
}

export interface HashOptions {
  version?: string
  collisionCount?: number | null
  text?: boolean
  /** Where the template sits in the input object, for messages. */
  basePath?: (string | number)[]
}

/**
 * Renderings by layout, base path (unknown fields are named from it) and template content (content-key.ts). A key
 * costs about half a rendering (a JSON.stringify of the template): worth it while templates repeat, as in a run over a
 * few workloads; over many distinct templates (hash --all on a large cluster) keying stops once most lookups miss.
 */
const rendered = new Map<string, {state: number; unknownFields: string[]}>()
let lookups = 0
let hits = 0

function render(version: string, template: unknown, basePath: (string | number)[] | undefined): {state: number; unknownFields: string[]} {
  const keying = lookups < 64 || hits * 4 >= lookups
  const content = keying ? contentKey(template) : undefined
  const key = content === undefined ? undefined : `${version}\n${JSON.stringify(basePath ?? [])}\n${content}`
  const known = key === undefined ? undefined : rendered.get(key)
  if (key !== undefined) lookups++
  if (known !== undefined) {
    hits++
    return {state: known.state, unknownFields: known.unknownFields.slice()}
  }
  const r = spewTemplate(getLayout(version), template, {basePath})
  if (key !== undefined) {
    if (rendered.size >= 256) rendered.clear()
    rendered.set(key, {state: r.state, unknownFields: r.unknownFields.slice()})
  }
  return r
}

export function hashPodTemplate(template: unknown, opts: HashOptions = {}): TemplateHash {
  const version = opts.version ?? newestLayoutVersion()
  const collisionCount = opts.collisionCount ?? null
  const r = opts.text ? spewTemplate(getLayout(version), template, {text: true, basePath: opts.basePath}) : render(version, template, opts.basePath)
  return {
    version,
    collisionCount,
    hash: encodeSum32(sum32(withCollisionCount(r.state, collisionCount))),
    state: r.state,
    unknownFields: r.unknownFields,
    text: opts.text ? (r as {text?: Uint8Array}).text : undefined,
  }
}

/** controller.ComputeHash(template, collisionCount) as the given version's controller computes it. */
export function ComputeHash(template: unknown, collisionCount: number | null | undefined, version: string = newestLayoutVersion()): string {
  return hashPodTemplate(template, {version, collisionCount}).hash
}
