// 32-bit FNV hashes as Go's hash/fnv computes them: FNV-1a (fnv.New32a, the pod-template-hash) and
// FNV-1 (fnv.New32, HashControllerRevision). The state is kept as a signed int32 so Math.imul does the
// multiplication mod 2^32; sum32() turns it into Go's uint32.
//
// Why a plain loop over a Uint8Array and not fnv-plus: fnv-plus's default functions hash UTF-16 code
// units (wrong for any non-ASCII text), its *utf variants take no byte arrays (the 8 collision-count
// bytes would have to go in as a latin1 string), it has no incremental update (hashing while
// serializing needs one), and the issue measured it 2-3x slower than this loop. Measured by
// `npm run bench:hash` on the 291 public 1.37 templates (9.7 KB of text each, CPU time, best of 60
// samples on a busy 2-core machine): this loop 22-26 µs per text; the same loop over a string's char
// codes, as fnv-plus reads its input, 20-26 µs — no faster, so nothing is gained by strings either.

export const FNV32_OFFSET = 0x811c9dc5 | 0
export const FNV32_PRIME = 0x01000193

/** FNV-1a over bytes[start, end), continuing from state h. */
export function fnv1a32(bytes: Uint8Array, h: number = FNV32_OFFSET, start = 0, end = bytes.length): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], FNV32_PRIME)
  return h
}

/** FNV-1 (multiply, then xor) over bytes[start, end), continuing from state h. */
export function fnv132(bytes: Uint8Array, h: number = FNV32_OFFSET, start = 0, end = bytes.length): number {
  for (let i = start; i < end; i++) h = Math.imul(h, FNV32_PRIME) ^ bytes[i]
  return h
}

/** Go's hash.Sum32(): the state as an unsigned 32-bit integer. */
export function sum32(h: number): number {
  return h >>> 0
}

/**
 * ComputeHash's collision-count suffix (pkg/controller/controller_utils.go): when collisionCount is set,
 * 8 more bytes go into the FNV-1a hasher — uint32(*collisionCount) little-endian, then 4 zero bytes.
 */
export function withCollisionCount(h: number, collisionCount: number | null | undefined): number {
  if (collisionCount === null || collisionCount === undefined) return h
  const c = collisionCount >>> 0
  h = Math.imul(h ^ (c & 0xff), FNV32_PRIME)
  h = Math.imul(h ^ ((c >>> 8) & 0xff), FNV32_PRIME)
  h = Math.imul(h ^ ((c >>> 16) & 0xff), FNV32_PRIME)
  h = Math.imul(h ^ (c >>> 24), FNV32_PRIME)
  for (let i = 0; i < 4; i++) h = Math.imul(h, FNV32_PRIME)
  return h
}

/**
 * A fixed byte string's FNV-1a, folded in one step whatever the state: over n bytes s, h -> h*P^n + K_s[h & 0xff]
 * (mod 2^32). Why: h ^ b = h + δ with δ = ((h & 0xff) ^ b) - (h & 0xff), since b changes only the low byte; so
 * h_n = h_0*P^n + Σ δ_i*P^(n-i), and each δ_i depends only on the low byte of h_i, which depends only on the low
 * byte of h_(i-1) and b_(i-1) (a product's low byte is the low bytes' product's). The low byte the string starts
 * from decides every δ: 256 constants K_s, each found once by folding the bytes from that low byte (K_s[x] =
 * fnv(x, s) - x*P^n) when first needed. For the slices of struct zero renderings a text is mostly made of
 * (spew.ts), folded again and again: one multiply-add instead of a step a byte.
 */
export type FoldTable = Int32Array

const FOLD_KNOWN = 256
const FOLD_POWER = 264

/** A table for a string of n bytes: K unknown, P^n. */
export function newFoldTable(n: number): FoldTable {
  const t = new Int32Array(FOLD_POWER + 1)
  let pn = 1
  for (let i = 0; i < n; i++) pn = Math.imul(pn, FNV32_PRIME)
  t[FOLD_POWER] = pn
  return t
}

/** fnv1a32(bytes, h, start, end) through table t, made for bytes[start, end) (newFoldTable(end - start)). */
export function foldWith(t: FoldTable, h: number, bytes: Uint8Array, start: number, end: number): number {
  const x = h & 0xff
  const w = FOLD_KNOWN + (x >>> 5)
  const bit = 1 << (x & 31)
  const pn = t[FOLD_POWER]
  let k: number
  if ((t[w] & bit) !== 0) k = t[x]
  else {
    k = (fnv1a32(bytes, x, start, end) - Math.imul(x, pn)) | 0
    t[x] = k
    t[w] |= bit
  }
  return (Math.imul(h, pn) + k) | 0
}
