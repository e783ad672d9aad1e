// FNV-1a / FNV-1 32 against the reference test vectors of the FNV specification (draft-eastlake-fnv,
// isthe.com/chongo/tech/comp/fnv), the collision-count suffix layout, and SafeEncodeString's alphabet.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {FNV32_OFFSET, fnv132, fnv1a32, foldWith, newFoldTable, sum32, withCollisionCount} from '../../src/hash/fnv.js'
import {decodeSum32, encodeSum32, SafeEncodeString} from '../../src/hash/safe-encode.js'

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s)

describe('FNV 32', () => {
  it('FNV-1a matches the reference values', () => {
    assert.equal(sum32(fnv1a32(ascii(''))), 0x811c9dc5)
    assert.equal(sum32(fnv1a32(ascii('a'))), 0xe40c292c)
    assert.equal(sum32(fnv1a32(ascii('foobar'))), 0xbf9cf968)
  })

  it('FNV-1 matches the reference values', () => {
    assert.equal(sum32(fnv132(ascii(''))), 0x811c9dc5)
    assert.equal(sum32(fnv132(ascii('a'))), 0x050c5d7e)
    assert.equal(sum32(fnv132(ascii('foobar'))), 0x31f0b262)
  })

  it('continues from a state and over a byte range', () => {
    const whole = fnv1a32(ascii('foobar'))
    assert.equal(fnv1a32(ascii('bar'), fnv1a32(ascii('foo'))), whole)
    assert.equal(fnv1a32(ascii('xxfoobarxx'), FNV32_OFFSET, 2, 8), whole)
  })

  it("a fold table gives the byte loop's state from any state, its constants found on first use or reused", () => {
    // The reference value: FNV-1a over 'foobar' from the offset basis (the spec's vector above, 0xbf9cf968).
    const bytes = ascii('xx foobar xx')
    const t = newFoldTable(6)
    assert.equal(sum32(foldWith(t, FNV32_OFFSET, bytes, 3, 9)), 0xbf9cf968)
    assert.equal(sum32(foldWith(t, FNV32_OFFSET, bytes, 3, 9)), 0xbf9cf968, 'the second time, from the stored constant')
    // States sharing a low byte but not the rest: each reuses the constant the first one stored, and must still
    // equal the byte loop (fnv1a32, checked against the spec above) from that state.
    for (const h of [0x811c9dc5, 0x000000c5, 0x7fffffc5 | 0, 0x123456c5, -59, 0x00000000, 0xffffffff | 0, 0x00000100, 0x5a5a5a5a]) {
      assert.equal(foldWith(t, h, bytes, 3, 9), fnv1a32(bytes, h, 3, 9), `from ${sum32(h).toString(16)}`)
    }
  })

  it('appends the collision count as uint32 little-endian plus four zero bytes', () => {
    const h = fnv1a32(ascii('template'))
    assert.equal(withCollisionCount(h, null), h)
    assert.equal(withCollisionCount(h, undefined), h)
    assert.equal(withCollisionCount(h, 0), fnv1a32(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0]), h))
    // 0x01020304 = 16909060
    assert.equal(withCollisionCount(h, 16909060), fnv1a32(new Uint8Array([4, 3, 2, 1, 0, 0, 0, 0]), h))
    assert.equal(withCollisionCount(h, 2147483647), fnv1a32(new Uint8Array([0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]), h))
  })
})

describe('SafeEncodeString', () => {
  it('maps each rune onto bcdfghjklmnpqrstvwxz2456789 by code point modulo 27', () => {
    // '0' is 48, 48 % 27 = 21 → '4'; '6' is 54, 54 % 27 = 0 → 'b'.
    assert.equal(SafeEncodeString('0123456789'), '456789bcdf')
    // 'a' is 97, 97 % 27 = 16 → 'v'
    assert.equal(SafeEncodeString('a'), 'v')
  })

  it("keeps upstream's byte-length buffer for non-ASCII input (trailing NULs)", () => {
    // 'é' is U+00E9 = 233, 233 % 27 = 17 → 'w'; two UTF-8 bytes, one rune.
    assert.equal(SafeEncodeString('é'), 'w\u0000')
  })

  it('encodes a Sum32 in decimal, and decodes it back', () => {
    assert.equal(encodeSum32(733928534), 'c77f6d978')
    assert.equal(decodeSum32('c77f6d978'), 733928534)
    assert.equal(decodeSum32('4'), 0)
    // '4' encodes the digit 0, which never leads a decimal Sum32
    assert.equal(decodeSum32('45'), null)
    assert.equal(decodeSum32('aeiou'), null)
    assert.equal(decodeSum32('ffffffffff'), null, '9999999999 > 2^32-1')
  })
})
