// Layout inference: which known struct layouts (and collision counts) reproduce an existing
// pod-template-hash — how a user learns "this ReplicaSet was created by a 1.28 controller".
//
// Not one full hash per version:
//  - versions whose layouts agree on every struct the template's text went through produce the same
//    text, so they share one FNV state (found by comparing interned struct signatures, no rendering);
//  - a version whose text differs reuses, struct instance by struct instance, the text of earlier
//    renderings wherever the definitions involved agree (only the changed structs are walked again);
//  - a version whose text differs is rendered, and its FNV resumes from the longest prefix it shares
//    with a text already hashed (states are kept every CHECKPOINT bytes);
//  - every collision count only adds its 8 bytes to the state before the suffix.
import type {CompiledLayout} from './compile.js'
import {sameUnder} from './def-bits.js'
import {FNV32_OFFSET, fnv1a32, sum32, withCollisionCount} from './fnv.js'
import {layoutVersions} from './layout-data.js'
import {getLayout} from './layouts.js'
import {contentKey} from './content-key.js'
import {decodeSum32, encodeSum32} from './safe-encode.js'
import {type SpanMemo, spewTemplate} from './spew.js'

const CHECKPOINT = 256
/**
 * One inference's texts are written one after the other here (reused: nothing outlives the call). Made on first use
 * and no larger than a few texts: a text that does not fit goes to the renderer's own growing buffer instead.
 */
const ARENA = 1 << 16
let arena: Uint8Array | undefined

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
  /** Bytes that went through FNV (a full hash per version would be versions × text length). */
  hashedBytes: number
  /** Length of the newest version's text. */
  textBytes: number
}

interface TextClass {
  versions: string[]
  layout: CompiledLayout
  /** The struct definitions the text went through, as a bitset. */
  bits: Uint32Array
  text: Uint8Array
  checkpoints: Int32Array
  state: number
  /** Common prefix length with each earlier class, by index. */
  lcp: number[]
}

/** Length of the common prefix of a and b, knowing they agree on the first `from` bytes (binary search over memcmp). */
function commonPrefix(a: Uint8Array, b: Uint8Array, from = 0): number {
  let lo = from
  let hi = Math.min(a.length, b.length)
  // Invariant: the first lo bytes agree, and (past the first check) a and b differ somewhere in [lo, hi).
  if (Buffer.compare(a.subarray(lo, hi), b.subarray(lo, hi)) === 0) return hi
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1
    if (Buffer.compare(a.subarray(lo, mid), b.subarray(lo, mid)) === 0) lo = mid
    else hi = mid
  }
  return lo
}

/**
 * FNV-1a of text from byte `from` (a checkpoint) with state h, filling checkpoints from there on. One call of
 * fnv1a32 per checkpoint: no call loops long enough for V8 to compile it while it runs (on-stack replacement), which
 * on a short run is a second compile of the same loop.
 */
function hashFrom(text: Uint8Array, from: number, h: number, checkpoints: Int32Array): number {
  for (let start = from; start < text.length; start += CHECKPOINT) {
    checkpoints[start / CHECKPOINT] = h
    h = fnv1a32(text, h, start, Math.min(start + CHECKPOINT, text.length))
  }
  return h
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

/** The inference of a template over these versions (newest first), remembered by content. */
function inferenceOf(template: unknown, versions: string[]): Inference {
  const content = contentKey(template)
  const key = content === undefined ? undefined : `${versions.join(',')}\n${content}`
  let inference = key === undefined ? undefined : inferences.get(key)
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
  const classes: TextClass[] = []
  const memo: SpanMemo = new Map()
  let hashedBytes = 0
  let free = 0
  for (const version of versions) {
    const layout = getLayout(version)
    const same = classes.find((c) => sameUnder(c.layout, layout, c.bits))
    if (same) {
      same.versions.push(version)
      continue
    }
    if (arena === undefined || arena.length - free < ARENA >> 2) {
      // Earlier texts stay where they are (still referenced); later ones go to a new arena.
      arena = new Uint8Array(ARENA)
      free = 0
    }
    const r = spewTemplate(layout, template, {text: true, skipHash: true, record: true, memo, skipUnknownPaths: true, into: arena.subarray(free)})
    const text = r.text!
    if (text.buffer === arena.buffer) free = text.byteOffset + text.length
    free = (free + 7) & ~7
    const checkpoints = new Int32Array(Math.floor(text.length / CHECKPOINT) + 1)
    // Common prefixes with every earlier text, comparing bytes about once: against the latest text in
    // full; for any other text c, the prefix it shares with the latest one decides, unless it equals
    // the new text's prefix with the latest — only then can c share more, and only beyond that point.
    const lcp: number[] = []
    let best: TextClass | undefined
    let bestPrefix = 0
    const last = classes.length - 1
    if (last >= 0) {
      const withLast = commonPrefix(text, classes[last].text)
      lcp[last] = withLast
      for (let j = 0; j < last; j++) {
        const between = classes[last].lcp[j]
        lcp[j] = between !== withLast ? Math.min(between, withLast) : commonPrefix(text, classes[j].text, withLast)
      }
      for (let j = 0; j <= last; j++) {
        if (lcp[j] > bestPrefix) {
          bestPrefix = lcp[j]
          best = classes[j]
        }
      }
    }
    let from = 0
    let h = FNV32_OFFSET
    if (best) {
      const k = Math.floor(bestPrefix / CHECKPOINT)
      checkpoints.set(best.checkpoints.subarray(0, k + 1))
      from = k * CHECKPOINT
      h = best.checkpoints[k]
    }
    const state = hashFrom(text, from, h, checkpoints)
    hashedBytes += text.length - from
    classes.push({versions: [version], layout, bits: r.visited!, text, checkpoints, state, lcp})
  }
  return {
    classes: classes.map((c) => ({versions: c.versions, state: c.state})),
    stats: {versions: versions.length, texts: classes.length, hashedBytes, textBytes: classes[0]?.text.length ?? 0},
  }
}
