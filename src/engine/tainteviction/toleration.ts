// The taint-eviction controller's own use of tolerations: getMinTolerationTime
// (pkg/controller/tainteviction/taint_eviction.go) over tolerationSeconds; matching a toleration to a taint is
// component-helpers/tolerations.ts.
import {UserError} from '../../errors.js'
import type {Toleration} from './types.js'

const INT64_MAX = 2n ** 63n - 1n

const INT64_NS_MOD = 2n ** 64n

/** tolerationSeconds as Go's int64; a JSON number beyond 2^53 or with a fraction is not one an int64 decodes to. */
export function int64Seconds(v: number | bigint): bigint {
  if (typeof v === 'bigint') return v
  if (!Number.isSafeInteger(v))
    throw new UserError(
      `tolerationSeconds ${v} is not an exact int64 (a fraction, or beyond 2^53 read as a float): the eviction time cannot be replayed`,
      'give the pod spec as the API returns it (an integer)',
    )
  return BigInt(v)
}

/**
 * getMinTolerationTime (pkg/controller/tainteviction/taint_eviction.go@5ce22905:161-183) over the first-match
 * tolerations: none → 0; any tolerationSeconds ≤ 0 → 0 (immediate); none with seconds → -1 (forever);
 * otherwise the smallest, as a Go time.Duration (seconds × 1e9 ns in int64, which wraps for absurd values).
 * Returns milliseconds (−1 for forever).
 */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0
  let min: bigint | undefined
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue
    const s = int64Seconds(t.tolerationSeconds)
    if (s <= 0n) return 0
    if (min === undefined || s < min) min = s
  }
  // Upstream starts its minimum at math.MaxInt64 and reads "still MaxInt64" as "none set": a toleration of exactly
  // 9223372036854775807 s is forever too.
  if (min === undefined || min === INT64_MAX) return -1
  // time.Duration(min) * time.Second: int64 multiplication, two's complement on overflow.
  let ns = (min * 1_000_000_000n) % INT64_NS_MOD
  if (ns > INT64_MAX) ns -= INT64_NS_MOD
  return Number(ns / 1_000_000n)
}

/** The smallest of non-empty int64s (Math.min takes no bigint). */
function smallest(xs: readonly bigint[]): bigint {
  let min = xs[0]
  for (const x of xs) if (x < min) min = x
  return min
}

/**
 * Why getMinTolerationTime said forever, in words: no first-match toleration has tolerationSeconds (the usual case),
 * or one has a value Go reads as forever — exactly math.MaxInt64 (upstream's "none set" sentinel), or so large that
 * seconds × 1e9 wraps Go's int64 time.Duration to a negative value (any above 9,223,372,036 s, ~292 years).
 */
export function foreverBecause(tolerations: readonly Toleration[]): string {
  const set = tolerations.filter((t) => t.tolerationSeconds !== undefined && t.tolerationSeconds !== null)
  if (set.length === 0) return 'without tolerationSeconds'
  const min = smallest(set.map((t) => int64Seconds(t.tolerationSeconds!)))
  if (min === INT64_MAX) return `with tolerationSeconds ${min} (math.MaxInt64, which getMinTolerationTime takes for "none set": forever)`
  return `with tolerationSeconds ${min}, which getMinTolerationTime turns into a negative time.Duration (${min} s × 1e9 ns wraps Go's int64), read as forever`
}

/**
 * Why the smallest tolerationSeconds gave a minimum of 0 (deleted at once) when a timer would be expected: a value
 * ≤ 0, or one whose seconds × 1e9 wraps Go's int64 time.Duration to exactly 0 (2^55 s and its multiples do).
 */
export function immediateBecause(tolerations: readonly Toleration[]): string {
  const set = tolerations.filter((t) => t.tolerationSeconds !== undefined && t.tolerationSeconds !== null).map((t) => int64Seconds(t.tolerationSeconds!))
  if (set.length === 0 || set.some((s) => s <= 0n)) return 'a matching toleration has tolerationSeconds ≤ 0'
  const min = smallest(set)
  return `the smallest matching tolerationSeconds, ${min}, becomes a time.Duration of 0 in getMinTolerationTime (${min} s × 1e9 ns wraps Go's int64)`
}

/** tolerationSeconds as a number, or as the exact bigint when it is beyond 2^53 (the JSON writer prints it whole). */
export function secondsOf(t: Toleration | undefined): number | bigint | undefined {
  if (!t || t.tolerationSeconds === undefined || t.tolerationSeconds === null) return undefined
  return typeof t.tolerationSeconds === 'bigint' && !Number.isSafeInteger(Number(t.tolerationSeconds)) ? t.tolerationSeconds : Number(t.tolerationSeconds)
}
