// Validation of flag values: each failure is a UserError naming the flag and the expected form.
import {UserError} from '../errors.js'

const UNIT_MS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** kubectl's --request-timeout: "0" (no timeout), a bare number of seconds, or a Go duration like 1m30s. */
export function parseDuration(value: string, flag: string): number {
  if (/^\d+$/.test(value)) return Number(value) * 1000
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
  if (value === '' || total > 24 * 3_600_000) throw new UserError(`--${flag}: "${value}" is not a usable duration`, 'use a value between 0 and 24h')
  return total
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

export function parseInstant(value: string, flag: string): Date {
  const d = new Date(value)
  if (!RFC3339.test(value) || Number.isNaN(d.getTime())) {
    throw new UserError(`--${flag}: "${value}" is not an RFC 3339 time`, 'write it like 2026-11-29T03:00:00Z')
  }
  return d
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
