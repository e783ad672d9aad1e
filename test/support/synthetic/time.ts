// Timestamps as the API server writes them. Every instant in the synthetic cluster is computed from the
// `now` option (never Date.now()), so a cluster generated twice is identical and replays have a fixed clock.

const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

const TWO_DIGITS: string[] = Array.from({length: 60}, (_, i) => String(i).padStart(2, '0'))
/** "YYYY-MM-DDT" per day since the epoch: formatting a date is the costly part, and pods share few days. */
const DAY_PREFIX = new Map<number, string>()

/** metav1.Time: RFC 3339 with whole seconds, e.g. 2026-11-29T02:59:51Z. (Hot: a few million calls per benchmark cluster.) */
export function isoSeconds(ms: number): string {
  const seconds = Math.floor(ms / SECOND)
  const day = Math.floor(seconds / 86_400)
  let prefix = DAY_PREFIX.get(day)
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11)
    DAY_PREFIX.set(day, prefix)
  }
  const inDay = seconds - day * 86_400
  const h = Math.floor(inDay / 3600)
  const m = Math.floor((inDay % 3600) / 60)
  return `${prefix}${TWO_DIGITS[h]}:${TWO_DIGITS[m]}:${TWO_DIGITS[inDay % 60]}Z`
}

/** metav1.MicroTime (Lease renewTime/acquireTime): always six fractional digits, e.g. ...51.123456Z. */
export function isoMicros(ms: number, extraMicros: number): string {
  return `${new Date(Math.floor(ms)).toISOString().slice(0, 23) + String(extraMicros % 1000).padStart(3, '0')}Z`
}

/** Go's time.Time with nanoseconds (the kubelet's kubernetes.io/config.seen annotation). */
export function isoNanos(ms: number, extraNanos: number): string {
  return `${new Date(Math.floor(ms)).toISOString().slice(0, 23) + String(extraNanos % 1_000_000).padStart(6, '0')}Z`
}

/** Parses the `now` option; only an explicit RFC 3339 instant is accepted (no clock fallback). */
export function parseNow(text: string): number {
  const ms = Date.parse(text)
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text) || Number.isNaN(ms)) {
    throw new Error(`synthetic cluster: now "${text}" is not an RFC 3339 instant like 2026-11-29T03:00:00Z`)
  }
  return ms
}

/** A Go duration as kube-controller-manager flags take it ("40s", "1m0s", "5m", "500ms") in milliseconds. */
export function goDurationMs(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/y
  const unit: Record<string, number> = {ms: 1, s: SECOND, m: MINUTE, h: HOUR}
  let total = 0
  let pos = 0
  while (pos < text.length) {
    re.lastIndex = pos
    const m = re.exec(text)
    if (!m) throw new Error(`synthetic cluster: "${text}" is not a Go duration`)
    total += Number(m[1]) * unit[m[2]]
    pos = re.lastIndex
  }
  if (text === '') throw new Error('synthetic cluster: empty duration')
  return total
}
