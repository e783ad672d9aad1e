// Go time semantics the ranking depends on: the zero time, afterOrZero, and logarithmicRankDiff's
// floor(log2(nanoseconds)) computed the way Go's math.Log2 computes it.
import type {Instant} from './types.js'

/** An API timestamp in milliseconds; null for absent, null or unparseable values (Go's zero time). */
export function instant(value: unknown): Instant {
  if (typeof value !== 'string' || value === '') return null
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? null : ms
}

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z')
}

/** afterOrZero (controller_utils.go): is t1 after t2, a zero time counting as after any other. */
export function afterOrZero(t1: Instant, t2: Instant): boolean {
  if (t1 === null || t2 === null) return t1 === null
  return t1 > t2
}

/** Go's math.Frexp for positive finite x: x = frac × 2^exp with frac in [0.5, 1). */
function frexp(x: number): [number, number] {
  let exp = Math.floor(Math.log2(x)) + 1
  let frac = x / 2 ** exp
  // Math.log2 may land one off near powers of two; correct so that frac is exactly in [0.5, 1).
  while (frac >= 1) {
    exp++
    frac = x / 2 ** exp
  }
  while (frac < 0.5) {
    exp--
    frac = x / 2 ** exp
  }
  return [frac, exp]
}

/** int64(math.Log2(x)) for x > 0, following Go's math.Log2 (log2.go): exact for powers of two. */
export function goLog2Trunc(x: number): number {
  const [frac, exp] = frexp(x)
  if (frac === 0.5) return exp - 1
  return Math.trunc(Math.log(frac) * (1 / Math.LN2) + exp)
}

/** The floor(log2) bucket of now − t in nanoseconds, or −1 when t is not before now (logarithmicRankDiff). */
export function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6
  return d > 0 ? goLog2Trunc(d) : -1
}

/** logarithmicRankDiff (controller_utils.go): negative when t1 is more recent in log2 buckets. */
export function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  return logRank(t1, now) - logRank(t2, now)
}

/** "3m20s" style durations for summaries: the one formatter for people (util/duration.ts), its short form. */
export {shortDuration as human} from '../../util/duration.js'
