// Seeded randomness for the synthetic cluster. No Math.random: the same seed must give the same cluster.
//
// Every object draws from its own generator, keyed by (seed, stream, index), instead of from one shared
// sequence. That makes any object computable on its own — a pod's owner, a node's health, an event's
// subject — without generating what comes before it, which is what keeps generation streaming.

/** murmur3's 32-bit finaliser: a bijection that spreads nearby keys (index 7, index 8) far apart. */
function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Chaotic generator): 128 bits of state, so distinct keys give
 * distinct sequences and 122-bit uids drawn from them do not collide the way a 32-bit state's would.
 */
export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a | 0
    this.b = b | 0
    this.c = c | 0
    this.d = d | 0
    for (let i = 0; i < 12; i++) this.u32()
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1))
  }

  chance(p: number): boolean {
    return this.float() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]
  }

  /** Standard normal (Box–Muller); V8's Math.log/cos are deterministic, so this is too. */
  normal(): number {
    const u = 1 - this.float()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float())
  }
}

/** The generator of one object: `stream` names what is drawn (see Stream), `index` which one. */
export function rngFor(seed: number, stream: number, index: number): Rng {
  return new Rng(fmix32(seed >>> 0), fmix32((stream ^ Math.imul(seed, 0x9e3779b1)) >>> 0), fmix32(index >>> 0), 1)
}

const HEX: string[] = Array.from({length: 256}, (_, i) => i.toString(16).padStart(2, '0'))

function hex32(n: number): string {
  return HEX[n >>> 24] + HEX[(n >>> 16) & 255] + HEX[(n >>> 8) & 255] + HEX[n & 255]
}

/** `chars` lower-case hex digits (container ids, image digests, machine ids). */
export function randomHex(rng: Rng, chars: number): string {
  let s = ''
  while (s.length < chars) s += hex32(rng.u32())
  return s.slice(0, chars)
}

/** A version-4 UUID as the API server assigns metadata.uid (google/uuid NewRandom). */
export function randomUid(rng: Rng): string {
  const a = rng.u32()
  const b = rng.u32()
  const c = rng.u32()
  const d = rng.u32()
  const h = hex32(a) + hex32(b) + hex32(c) + hex32(d)
  const variant = '89ab'[c >>> 30]
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** apimachinery's utilrand alphabet: no vowels (no accidental words), no 0/1/3 (no look-alikes). */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/** The random suffix of a generateName (`api-7d9f4b6c8-x2x4z`): utilrand.String(n). */
export function randomSuffix(rng: Rng, n = 5): string {
  let s = ''
  for (let i = 0; i < n; i++) s += SAFE_ALPHABET[Math.floor(rng.float() * 27)]
  return s
}

/** 27^5: how many distinct 5-character suffixes there are. */
const SUFFIXES = 27 ** 5

/**
 * A keyed bijection on [0, n): a 4-round Feistel network over the smallest even bit width that holds n,
 * cycle-walked back into range. Distinct indices always give distinct results.
 */
export function permute(index: number, n: number, key: number): number {
  let bits = 2
  while (2 ** bits < n) bits += 2
  const half = bits / 2
  const mask = 2 ** half - 1
  let x = index
  do {
    let l = Math.floor(x / 2 ** half)
    let r = x & mask
    for (let round = 1; round <= 4; round++) {
      const f = fmix32((r ^ Math.imul(round, 0x9e3779b9) ^ key) >>> 0) & mask
      const next = l ^ f
      l = r
      r = next
    }
    x = l * 2 ** half + r
  } while (x >= n)
  return x
}

/**
 * A generateName suffix unique to `index` (the API server retries a taken name; a generator that
 * drew suffixes at random would collide a few times in 150,000 pods): the index, permuted under the
 * seed so the suffixes look random, written in the 27-letter alphabet. Unique for up to 27^5 indices.
 */
export function uniqueSuffix(index: number, seed: number): string {
  let x = permute(index % SUFFIXES, SUFFIXES, seed)
  let s = ''
  for (let i = 0; i < 5; i++) {
    s += SAFE_ALPHABET[x % 27]
    x = Math.floor(x / 27)
  }
  return s
}

/** rand.SafeEncodeString: each byte maps to SAFE_ALPHABET[byte % 27]. */
export function safeEncodeString(s: string): string {
  let r = ''
  for (let i = 0; i < s.length; i++) r += SAFE_ALPHABET[s.charCodeAt(i) % 27]
  return r
}

/**
 * A plausible pod-template-hash / controller-revision-hash. Upstream it is
 * SafeEncodeString(decimal(FNV-32a(template, collisionCount))); here the 32-bit number is random,
 * NOT the FNV hash of the template (src/hash/ computes the real one). Going through the decimal string
 * keeps the real shape: 8 to 10 characters, only from the ten letters the digits 0–9 map to.
 */
export function randomTemplateHash(rng: Rng): string {
  return safeEncodeString(String(rng.u32()))
}
