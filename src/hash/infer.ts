// Layout inference: which known struct layouts (and collision counts) reproduce an existing
// pod-template-hash — how a user learns "this ReplicaSet was created by a 1.28 controller".
//
// Not one full hash per version: versions whose layouts agree on every struct the template's text went through
// produce the same text, so they share one FNV state (found by comparing the structs' output classes, no rendering);
// each distinct text is rendered once, straight into FNV (no text kept), and every collision count only adds its 8
// bytes to that state. Measured cold (bench:hash-check, bench:hash), this is faster than building the texts to resume
// FNV from their shared prefixes (span reuse, checkpoints, prefix search), which it replaced: 13.9 distinct texts per
// template of the synthetic cluster cost ~1.5× more that way, in the prefix search and the texts' garbage.
import type {CompiledLayout} from './compile.js'
import {sameUnder} from './def-bits.js'
import {sum32, withCollisionCount} from './fnv.js'
import {layoutVersions} from './layout-data.js'
import {getLayout} from './layouts.js'
import {contentKey} from './content-key.js'
import {decodeSum32, encodeSum32} from './safe-encode.js'
import {spewTemplate} from './spew.js'

export interface InferredLayout {
  /** The versions (oldest first) whose controllers produce this hash with this collision count. */
  versions: string[]
  /** null: no collision count (status.collisionCount unset). */
  collisionCount: number | null
}

export interface InferenceStats {
  /** Versions tried. */
  versions: number
  /** Distinct texts among them (each rendered once). */
  texts: number
}

export interface InferOptions {
  /** Collision counts tried: none, then 0..maxCollisionCount. */
  maxCollisionCount: number
  /** Versions to try (default: every layout). */
  versions?: string[]
}

/** The distinct texts' FNV states of one template, by the versions that write each. */
interface Inference {
  classes: {versions: string[]; state: number}[]
  stats: InferenceStats
}

/**
 * Inferences by template content: a run checks several labels against the same template (a DaemonSet's revision and
 * its pods' labels), and each would cost one inference.
 */
const inferences = new Map<string, Inference>()

/** Forget every remembered inference: benchmarks measure inference itself, not a lookup. */
export function forgetInferences(): void {
  inferences.clear()
  lookups = 0
  hits = 0
}

/**
 * The inference of a template over these versions (newest first), remembered by content while that pays: a key is a
 * JSON.stringify of the template (about 0.7× a hash of it), so over many distinct templates (a large cluster's
 * ReplicaSets) keying stops once most lookups miss, as hashPodTemplate's rendering cache does.
 */
let lookups = 0
let hits = 0
function inferenceOf(template: unknown, versions: string[]): Inference {
  const keying = lookups < 64 || hits * 4 >= lookups
  const content = keying ? contentKey(template) : undefined
  const key = content === undefined ? undefined : `${versions.join(',')}\n${content}`
  let inference = key === undefined ? undefined : inferences.get(key)
  if (key !== undefined) lookups++
  if (inference !== undefined) hits++
  if (inference === undefined) {
    inference = infer(template, versions)
    if (key !== undefined) {
      if (inferences.size >= 256) inferences.clear()
      inferences.set(key, inference)
    }
  }
  return inference
}

const byMinor = (a: string, b: string) => Number(a.split('.')[1]) - Number(b.split('.')[1])

/** One answer of ComputeHash over several releases: the hash and the releases (oldest first) that compute it. */
export interface ReleaseHash {
  hash: string
  versions: string[]
}

/**
 * ComputeHash(template, collisionCount) as each of these releases' controllers computes it, one entry per distinct
 * hash (oldest releases first): what to answer when the data does not say which release the controller runs. The
 * same inference as a label check (one text per class of versions that agree on every struct the template uses).
 */
export function hashesByRelease(template: unknown, collisionCount: number | null, versions: readonly string[] = layoutVersions()): ReleaseHash[] {
  const {classes} = inferenceOf(template, [...versions].sort(byMinor).reverse())
  const byHash = new Map<string, string[]>()
  for (const c of classes) {
    const hash = encodeSum32(sum32(withCollisionCount(c.state, collisionCount)))
    const l = byHash.get(hash)
    if (l) l.push(...c.versions)
    else byHash.set(hash, [...c.versions])
  }
  return [...byHash].map(([hash, vs]) => ({hash, versions: vs.sort(byMinor)})).sort((a, b) => byMinor(a.versions[0], b.versions[0]))
}

/** Every (versions, collision count) whose hash of the template equals label. */
export function inferLayouts(template: unknown, label: string, opts: InferOptions): {matches: InferredLayout[]; stats: InferenceStats} {
  const versions = [...(opts.versions ?? layoutVersions())].reverse()
  const {classes, stats} = inferenceOf(template, versions)
  const counts: (number | null)[] = [null]
  for (let c = 0; c <= opts.maxCollisionCount; c++) counts.push(c)
  const matches: InferredLayout[] = []
  const wanted = decodeSum32(label)
  for (const cc of counts) {
    if (wanted === null) break
    const found: string[] = []
    for (const c of classes) {
      if (sum32(withCollisionCount(c.state, cc)) === wanted) found.push(...c.versions)
    }
    if (found.length > 0) matches.push({versions: found.sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1])), collisionCount: cc})
  }
  return {matches, stats: {...stats}}
}

function infer(template: unknown, versions: string[]): Inference {
  const classes: {versions: string[]; layout: CompiledLayout; bits: Uint32Array; state: number}[] = []
  for (const version of versions) {
    const layout = getLayout(version)
    const same = classes.find((c) => sameUnder(c.layout, layout, c.bits))
    if (same) {
      same.versions.push(version)
      continue
    }
    const r = spewTemplate(layout, template, {record: true, skipUnknownPaths: true})
    classes.push({versions: [version], layout, bits: r.visited!, state: r.state})
  }
  return {
    classes: classes.map((c) => ({versions: c.versions, state: c.state})),
    stats: {versions: versions.length, texts: classes.length},
  }
}
