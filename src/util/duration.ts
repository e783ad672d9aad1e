// Durations for people, in one place: the precise form explanations use ("1m55.5s"), the short form tables and
// summaries use ("1m55s", "2d3h"), the tense around it ("in 1m55s", "2m ago") and kubectl's AGE column. All pure
// (no clock): the caller passes the instants. Go duration flags keep their own syntax (settings/go-duration.ts).

const UNITS = [
  {suffix: 'd', ms: 86_400_000},
  {suffix: 'h', ms: 3_600_000},
  {suffix: 'm', ms: 60_000},
  {suffix: 's', ms: 1000},
] as const

export interface DurationStyle {
  /** Largest unit used: 'd', or 'h' (hours go past 24: "49h"). */
  largest: 'd' | 'h'
  /** How many adjacent units are kept, from the largest non-zero one down (Infinity: all). */
  units: number
  /** Seconds to one decimal ("1.5s") and milliseconds below a second ("500ms"), else whole seconds. */
  fractions: boolean
}

/** "50s", "1m30.5s", "2h0m5s" less the zeros: every unit down to tenths of a second, hours the largest. */
export const PRECISE: DurationStyle = {largest: 'h', units: Number.POSITIVE_INFINITY, fractions: true}
/** "1m55s", "1h5m", "2d3h": the two largest adjacent units, whole seconds. */
export const SHORT: DurationStyle = {largest: 'd', units: 2, fractions: false}

/** The one formatter: a duration in milliseconds in the given style; "forever" for an infinite one. */
export function formatDuration(ms: number, style: DurationStyle = SHORT): string {
  if (!Number.isFinite(ms)) return 'forever'
  const sign = ms < 0 ? '-' : ''
  let rest = Math.abs(ms)
  if (style.fractions && rest < 1000) return `${sign}${Math.round(rest)}ms`
  if (!style.fractions) rest = Math.round(rest / 1000) * 1000
  const units = UNITS.slice(style.largest === 'd' ? 0 : 1)
  const parts: string[] = []
  let first = -1
  for (let i = 0; i < units.length; i++) {
    const u = units[i]
    const last = i === units.length - 1
    const n = last ? rest / u.ms : Math.floor(rest / u.ms)
    rest -= last ? rest : n * u.ms
    const value = last && style.fractions ? Math.round(n * 10) / 10 : Math.round(n)
    if (first === -1 && value !== 0) first = i
    if (first !== -1 && i - first >= style.units) break
    if (value !== 0) parts.push(`${value}${u.suffix}`)
  }
  return sign + (parts.length > 0 ? parts.join('') : '0s')
}

/** "50s", "1m30.5s", "500ms": the precise form explanations give (engines' summaries). */
export function humanDuration(ms: number): string {
  return formatDuration(ms, PRECISE)
}

/** "1m55s", "2d3h": the short form. */
export function shortDuration(ms: number): string {
  return formatDuration(ms, SHORT)
}

/** An instant against now, in the right tense: "in 1m55s", "2m ago", "now". */
export function relativeTime(atMs: number, nowMs: number, style: DurationStyle = SHORT): string {
  const d = atMs - nowMs
  const text = formatDuration(Math.abs(d), style)
  if (text === '0s' || text === '0ms') return 'now'
  return d > 0 ? `in ${text}` : `${text} ago`
}

/**
 * kubectl's AGE column: duration.HumanDuration (k8s.io/apimachinery/pkg/util/duration/duration.go), precision
 * falling as the age grows ("90s", "5m30s", "47m", "5h3m", "30h", "3d4h", "45d", "2y10d"). Under -1s it is
 * "<invalid>" and within a second of now "0s", as kubectl allows for clock skew.
 */
export function kubectlAge(ms: number): string {
  const seconds = Math.trunc(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 60 * 2) return `${seconds}s`
  const minutes = Math.trunc(ms / 60_000)
  if (minutes < 10) {
    const s = seconds % 60
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`
  }
  if (minutes < 60 * 3) return `${minutes}m`
  const hours = Math.trunc(ms / 3_600_000)
  if (hours < 8) {
    const m = minutes % 60
    return m === 0 ? `${hours}h` : `${hours}h${m}m`
  }
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) {
    const h = hours % 24
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`
  }
  return `${Math.trunc(hours / 24 / 365)}y`
}
