// Instants as numbers. API times are RFC 3339 with whole seconds (metav1.Time) or microseconds
// (metav1.MicroTime, a Lease's renewTime); both are kept exactly as microseconds since the epoch so that
// "renewTime advanced" compares the way MicroTime.Before does.
import {UserError} from '../../errors.js'

const RFC3339 = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/

// A pass compares the same few thousand timestamps many times; parsing each once matters at 5,000 nodes.
const parsed = new Map<string, number>()

/** Microseconds since the epoch, or undefined for an absent time. Malformed times are a UserError. */
export function parseMicros(value: string | null | undefined, what: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const hit = parsed.get(value)
  if (hit !== undefined) return hit
  const m = RFC3339.exec(value)
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : Number.NaN
  if (!m || Number.isNaN(ms)) throw new UserError(`${what}: "${value}" is not an RFC 3339 time`)
  const fraction = (m[2] ?? '').padEnd(6, '0').slice(0, 6)
  const us = ms * 1000 + Number(fraction)
  if (parsed.size > 200_000) parsed.clear()
  parsed.set(value, us)
  return us
}

/** Milliseconds since the epoch (sub-millisecond digits dropped), or undefined. */
export function parseMillis(value: string | null | undefined, what: string): number | undefined {
  const us = parseMicros(value, what)
  return us === undefined ? undefined : Math.floor(us / 1000)
}

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z')
}

/** "50s", "1m30s", "2h" — for explanations: the one formatter for people (util/duration.ts), its precise form. */
export {humanDuration} from '../../util/duration.js'

/** RFC 3339 with the microseconds when there are any (a MicroTime's precision), else as iso(). */
export function isoMicros(us: number): string {
  const ms = Math.floor(us / 1000)
  const rest = us - ms * 1000
  if (rest === 0) return iso(ms)
  return new Date(ms).toISOString().replace(/Z$/, `${String(rest).padStart(3, '0')}Z`)
}
