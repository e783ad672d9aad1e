// Validation of flag values: each failure is a UserError naming the flag and the expected form.
import {UserError} from '../errors.js'

const UNIT_MS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** The longest a Node timer can wait (2^31 - 1 ms, 596h31m23.647s): a longer one fires at once, with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * kubectl's --request-timeout: "0" (no timeout), a bare number of seconds, or a Go duration like 1m30s; at most what
 * a timer can hold (MAX_TIMER_MS), beyond which it is one line rather than a timer that fires at once.
 */
export function parseDuration(value: string, flag: string): number {
  const total = /^\d+$/.test(value) ? Number(value) * 1000 : durationMs(value, flag)
  if (total > MAX_TIMER_MS)
    throw new UserError(
      `--${flag}: "${value}" is longer than the longest wait there can be (596h31m23.647s, about 24.8 days)`,
      'use a shorter duration, or 0 for none',
    )
  return total
}

function durationMs(value: string, flag: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y
  let total = 0
  let pos = 0
  while (pos < value.length) {
    re.lastIndex = pos
    const m = re.exec(value)
    if (!m) throw new UserError(`--${flag}: "${value}" is not a duration`, 'use a form like 30s, 1m or 1m30s (0 for none)')
    total += Number(m[1]) * UNIT_MS[m[2]]
    pos = re.lastIndex
  }
  if (value === '') throw new UserError(`--${flag}: "${value}" is not a duration`, 'use a form like 30s, 1m or 1m30s (0 for none)')
  return total
}

const RFC3339 = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)$/

/**
 * Whether a string is an RFC 3339 instant that exists. Each field is checked against the calendar as Go's time.Parse
 * checks it (time/format.go: "day out of range", "hour out of range"...), which the metav1.Time decoder uses:
 * JavaScript's Date would take 2026-02-30 as March 2 and 24:00:00 as the next midnight.
 */
export function isRfc3339(value: string): boolean {
  if (!RFC3339.test(value)) return false
  // Fields by position (the pattern fixed them): no match array for the millions of timestamps of a large dump.
  const month = two(value, 5)
  const day = two(value, 8)
  if (month < 1 || month > 12 || day < 1 || two(value, 11) > 23 || two(value, 14) > 59 || two(value, 17) > 59) return false
  if (day > 28 && day > daysIn(two(value, 0) * 100 + two(value, 2), month)) return false
  const zone = value.length - 6
  return value.charCodeAt(zone) === 0x2b || value.charCodeAt(zone) === 0x2d ? two(value, zone + 1) <= 23 && two(value, zone + 4) <= 59 : true
}

function two(s: string, i: number): number {
  return (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48
}

/** Milliseconds since the epoch of an RFC 3339 instant (isRfc3339), or undefined when it is not one. */
export function rfc3339Millis(value: string): number | undefined {
  if (!isRfc3339(value)) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

export function parseInstant(value: string, flag: string): Date {
  const ms = rfc3339Millis(value)
  if (ms === undefined) {
    throw new UserError(`--${flag}: "${value}" is not an RFC 3339 time`, 'write it like 2026-11-29T03:00:00Z (a real date, hours 00–23)')
  }
  // A Date holds milliseconds; the microseconds after them (MicroTime's precision) ride along so that replays
  // comparing against a Lease renewTime compare at its precision (microsOf).
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? ''
  return Object.assign(new Date(ms), {subMillisecondMicros: Number(fraction.padEnd(6, '0').slice(3, 6))})
}

/** Microseconds since the epoch of an instant parseInstant made (its sub-millisecond digits kept), or of any Date. */
export function microsOf(d: Date): number {
  const extra = (d as Date & {subMillisecondMicros?: number}).subMillisecondMicros
  return d.getTime() * 1000 + (typeof extra === 'number' ? extra : 0)
}

export interface MinorVersion {
  major: number
  minor: number
}

/** "1.31", "v1.31", "1.31.2", "v1.31.2-gke.1" → {1, 31}. */
export function parseMinorVersion(value: string, flag = 'k8s-version'): MinorVersion {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(value.trim())
  if (!m || Number(m[1]) !== 1) throw new UserError(`--${flag}: "${value}" is not a Kubernetes version`, 'write it as X.Y, e.g. 1.31')
  return {major: 1, minor: Number(m[2])}
}
