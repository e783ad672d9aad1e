// Go's time.ParseDuration, the syntax kube-controller-manager duration flags use ("40s", "1m0s", "1.5h", "300ms").
const UNIT_MS: Record<string, number> = {ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** Milliseconds, or undefined when the text is not a Go duration. */
export function parseGoDuration(text: string): number | undefined {
  let s = text.trim()
  if (s === '0' || s === '+0' || s === '-0') return 0
  let sign = 1
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1
    s = s.slice(1)
  }
  if (s === '') return undefined
  const re = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y
  let total = 0
  let pos = 0
  while (pos < s.length) {
    re.lastIndex = pos
    const m = re.exec(s)
    if (!m) return undefined
    total += Number(m[1]) * UNIT_MS[m[2]]
    pos = re.lastIndex
  }
  return sign * total
}

/** The way Go prints a duration: 50s, 1m0s, 1h30m0s, 500ms. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s'
  const sign = ms < 0 ? '-' : ''
  let rest = Math.abs(ms)
  if (rest < 1000) return `${sign}${rest}ms`
  const h = Math.floor(rest / 3_600_000)
  rest -= h * 3_600_000
  const m = Math.floor(rest / 60_000)
  rest -= m * 60_000
  const s = rest / 1000
  if (h) return `${sign}${h}h${m}m${s}s`
  if (m) return `${sign}${m}m${s}s`
  return `${sign}${s}s`
}
