// encoding/json.Marshal of generic values (map[string]interface{}, []interface{}, float64, string,
// bool, nil) as the StatefulSet and DaemonSet controllers' getPatch writes them: map keys sorted as Go
// strings (UTF-8 byte order), no whitespace, HTML-safe string escaping, float64 formatting.
import {compareGoStrings, wellFormed} from './utf8.js'

const HEX = '0123456789abcdef'

/**
 * encoding/json's appendString with escapeHTML: <, >, & as \u003c \u003e \u0026; U+2028/U+2029
 * escaped; control characters short-escaped where Go has a short form (\b and \f since Go 1.22, the
 * toolchain of the vectors) and \u00XX otherwise; everything else raw. Strings reaching here came
 * through Go's JSON decoder, so a lone surrogate is U+FFFD, written raw.
 */
export function goJsonString(text: string): string {
  const s = wellFormed(text)
  let out = '"'
  let start = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    let esc: string | undefined
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22:
          esc = '\\"'
          break
        case 0x5c:
          esc = '\\\\'
          break
        case 0x0a:
          esc = '\\n'
          break
        case 0x0d:
          esc = '\\r'
          break
        case 0x09:
          esc = '\\t'
          break
        case 0x08:
          esc = '\\b'
          break
        case 0x0c:
          esc = '\\f'
          break
        default:
          esc = `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`
      }
    } else if (c === 0x2028 || c === 0x2029) {
      esc = `\\u20${HEX[(c >> 4) & 0xf]}${HEX[c & 0xf]}`
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc
      start = i + 1
    }
  }
  return `${out + s.slice(start)}"`
}

/** encoding/json's float64 encoder: 'f' format in [1e-6, 1e21), else 'e' with a short exponent. */
export function goJsonFloat(f: number): string {
  if (!Number.isFinite(f)) throw new Error(`json: unsupported value: ${f}`)
  if (Object.is(f, -0)) return '-0'
  // JavaScript's shortest round-trip formatting switches to exponent form at the same bounds and
  // writes the exponent like Go after its e-09 → e-9 clean-up ("1e-7", "1e+21").
  return String(f)
}

export type GoJson = null | boolean | number | bigint | string | GoJson[] | {[key: string]: GoJson}

/**
 * json.Marshal of a generic value. bigint is written as a float64 would be (the generic map holds
 * float64). sortKeys false keeps the objects' key order (compacting raw JSON rather than a map).
 */
export function goJsonMarshal(v: GoJson, sortKeys = true): string {
  if (v === null) return 'null'
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false'
    case 'number':
      return goJsonFloat(v)
    case 'bigint':
      return goJsonFloat(Number(v))
    case 'string':
      return goJsonString(v)
  }
  if (Array.isArray(v)) return `[${v.map((e) => goJsonMarshal(e, sortKeys)).join(',')}]`
  const keys = Object.keys(v).map((k) => [wellFormed(k), k] as const)
  if (sortKeys) keys.sort((a, b) => compareGoStrings(a[0], b[0]))
  return `{${keys.map(([wk, k]) => `${goJsonString(wk)}:${goJsonMarshal(v[k], sortKeys)}`).join(',')}}`
}
