// k8s.io/apimachinery/pkg/util/rand: SafeEncodeString maps each rune onto a vowel-free alphabet.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789'

/**
 * rand.SafeEncodeString. Upstream allocates len(s) bytes and fills one per rune, so a non-ASCII input
 * leaves trailing NUL bytes; the controllers only ever pass decimal digits, where that cannot happen.
 */
export function SafeEncodeString(s: string): string {
  const out: string[] = []
  for (const ch of s) out.push(ALPHANUMS[ch.codePointAt(0)! % ALPHANUMS.length])
  const byteLength = Buffer.byteLength(s, 'utf8')
  return out.join('') + '\u0000'.repeat(byteLength - out.length)
}

/** fmt.Sprint(hasher.Sum32()) through SafeEncodeString: the hash text every controller uses. */
export function encodeSum32(sum: number): string {
  return SafeEncodeString(String(sum >>> 0))
}
