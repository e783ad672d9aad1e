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

/** SafeEncodeString of each decimal digit, by digit (0 → '4' … 9 → 'f'). */
const DIGITS = [...'0123456789'].map((d) => ALPHANUMS[d.charCodeAt(0) % ALPHANUMS.length])

/** fmt.Sprint(hasher.Sum32()) through SafeEncodeString: the hash text every controller uses. */
export function encodeSum32(sum: number): string {
  const decimal = String(sum >>> 0)
  let out = ''
  for (let i = 0; i < decimal.length; i++) out += DIGITS[decimal.charCodeAt(i) - 48]
  return out
}

/**
 * The Sum32 a SafeEncoded decimal hash came from (the mapping of digits is one-to-one), or null when
 * the text is not such a hash. Lets a search compare numbers instead of encoding every candidate.
 */
export function decodeSum32(hash: string): number | null {
  if (hash.length === 0 || hash.length > 10) return null
  let digits = ''
  for (const ch of hash) {
    const d = DIGIT_OF.get(ch)
    if (d === undefined) return null
    digits += d
  }
  if (digits.length > 1 && digits[0] === '0') return null
  const n = Number(digits)
  return n <= 0xffffffff ? n : null
}

const DIGIT_OF = new Map([...'0123456789'].map((d) => [ALPHANUMS[d.charCodeAt(0) % ALPHANUMS.length], d]))
