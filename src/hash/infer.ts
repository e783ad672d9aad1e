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
import type {StructDef} from './compile.js'
import {FNV32_OFFSET, FNV32_PRIME, sum32, withCollisionCount} from './fnv.js'
import {layoutVersions} from './layout-data.js'
import {getLayout} from './layouts.js'
import {decodeSum32} from './safe-encode.js'
import {type SpanMemo, spewTemplate} from './spew.js'

const CHECKPOINT = 256
// A local copy: module interop may turn an imported binding into a getter call per byte.
const PRIME = FNV32_PRIME

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
  visited: StructDef[]
  text: Uint8Array
  checkpoints: Int32Array
  state: number
}

/** Length of the common prefix of a and b. */
function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const wa = new Uint32Array(a.buffer, a.byteOffset, n >>> 2)
    const wb = new Uint32Array(b.buffer, b.byteOffset, n >>> 2)
    let w = 0
    while (w < wa.length && wa[w] === wb[w]) w++
    i = w * 4
  }
  while (i < n && a[i] === b[i]) i++
  return i
}

/** FNV-1a of text from byte `from` (a checkpoint) with state h, filling checkpoints from there on. */
function hashFrom(text: Uint8Array, from: number, h: number, checkpoints: Int32Array): number {
  for (let start = from; start < text.length; start += CHECKPOINT) {
    checkpoints[start / CHECKPOINT] = h
    const end = Math.min(start + CHECKPOINT, text.length)
    for (let i = start; i < end; i++) h = Math.imul(h ^ text[i], PRIME)
  }
  return h
}

export interface InferOptions {
  /** Collision counts tried: none, then 0..maxCollisionCount. */
  maxCollisionCount: number
  /** Versions to try (default: every layout). */
  versions?: string[]
}

/** Every (versions, collision count) whose hash of the template equals label. */
export function inferLayouts(template: unknown, label: string, opts: InferOptions): {matches: InferredLayout[]; stats: InferenceStats} {
  const versions = [...(opts.versions ?? layoutVersions())].reverse()
  const classes: TextClass[] = []
  const memo: SpanMemo = new Map()
  let hashedBytes = 0
  for (const version of versions) {
    const layout = getLayout(version)
    const sigs = layout.sigByKey
    const same = classes.find((c) => c.visited.every((sd) => sigs[sd.keyId] === sd.sig))
    if (same) {
      same.versions.push(version)
      continue
    }
    const r = spewTemplate(layout, template, {text: true, skipHash: true, record: true, memo})
    const text = r.text!
    const checkpoints = new Int32Array(Math.floor(text.length / CHECKPOINT) + 1)
    let best: TextClass | undefined
    let bestPrefix = 0
    for (const c of classes) {
      const p = commonPrefix(text, c.text)
      if (p > bestPrefix) {
        bestPrefix = p
        best = c
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
    classes.push({versions: [version], visited: [...new Set(r.visited)], text, checkpoints, state})
  }
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
  return {matches, stats: {versions: versions.length, texts: classes.length, hashedBytes, textBytes: classes[0]?.text.length ?? 0}}
}
