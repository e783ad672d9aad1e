// Go strings are UTF-8 bytes; JSON decoding (Go's and ours) turns lone surrogates into U+FFFD.
// These helpers give JavaScript strings Go's view: the bytes, and Go's string ordering.

/** The string with every lone surrogate replaced by U+FFFD, as Go's JSON decoder leaves it. */
export function wellFormed(s: string): string {
  if (!/[\ud800-\udfff]/.test(s)) return s
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
}

/**
 * Go's string comparison: byte-wise on UTF-8, which is code point order. JavaScript's < compares UTF-16
 * code units, which differs when one side has a surrogate pair and the other a char in U+E000–U+FFFF.
 */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (pairs: U+10000 and up) sort after U+E000–U+FFFF in code point order.
      const xs = x <= 0xdfff
      const ys = y <= 0xdfff
      if (xs !== ys) return xs ? 1 : -1
    }
    return x < y ? -1 : 1
  }
  return a.length - b.length
}

const encoder = new TextEncoder()

/** UTF-8 bytes of a string, lone surrogates as U+FFFD (what TextEncoder does). */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s)
}

const decoder = new TextDecoder('utf-8')

export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}
