// Where serialized bytes go: straight into an FNV-1a state (hashing while serializing — no text is
// built), or into a growing buffer (for --show-serialization, the vector text comparison, and layout
// inference, which compares texts to share hashed prefixes). One class with a mode flag keeps every
// call site monomorphic.
import {FNV32_OFFSET, FNV32_PRIME} from './fnv.js'

const P = FNV32_PRIME

export class ByteSink {
  hashing = true
  /** FNV-1a state (hashing mode). */
  h = FNV32_OFFSET
  /** Output (buffer mode). */
  buf: Uint8Array = new Uint8Array(1 << 15)
  pos = 0

  protected startSink(hashing: boolean): void {
    this.hashing = hashing
    this.h = FNV32_OFFSET
    this.pos = 0
  }

  /** The buffered bytes (a copy). */
  takeBytes(): Uint8Array {
    return this.buf.slice(0, this.pos)
  }

  private grow(extra: number): void {
    let size = this.buf.length * 2
    while (size < this.pos + extra) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.pos))
    this.buf = next
  }

  bytes(b: Uint8Array): void {
    const n = b.length
    if (this.hashing) {
      let h = this.h
      for (let i = 0; i < n; i++) h = Math.imul(h ^ b[i], P)
      this.h = h
      return
    }
    if (this.pos + n > this.buf.length) this.grow(n)
    const buf = this.buf
    const p = this.pos
    if (n > 32) buf.set(b, p)
    else for (let i = 0; i < n; i++) buf[p + i] = b[i]
    this.pos = p + n
  }

  /** b[start, end). */
  bytesRange(b: Uint8Array, start: number, end: number): void {
    if (this.hashing) {
      let h = this.h
      for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], P)
      this.h = h
      return
    }
    const n = end - start
    if (this.pos + n > this.buf.length) this.grow(n)
    const buf = this.buf
    const p = this.pos
    if (n > 32) buf.set(b.subarray(start, end), p)
    else for (let i = 0; i < n; i++) buf[p + i] = b[start + i]
    this.pos = p + n
  }

  /** bytes[start, end) of an earlier text (buffer mode only). */
  copy(b: Uint8Array, start: number, end: number): void {
    const n = end - start
    if (this.pos + n > this.buf.length) this.grow(n)
    this.buf.set(b.subarray(start, end), this.pos)
    this.pos += n
  }

  /** Text known to be ASCII (numbers). */
  ascii(s: string): void {
    const n = s.length
    if (this.hashing) {
      let h = this.h
      for (let i = 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), P)
      this.h = h
      return
    }
    if (this.pos + n > this.buf.length) this.grow(n)
    const buf = this.buf
    const p = this.pos
    for (let i = 0; i < n; i++) buf[p + i] = s.charCodeAt(i)
    this.pos = p + n
  }

  /** A Go string: its UTF-8 bytes, each lone surrogate as U+FFFD (Go's JSON decoder put one there). */
  str(s: string): void {
    const n = s.length
    if (this.hashing) {
      let h = this.h
      for (let i = 0; i < n; i++) {
        let c = s.charCodeAt(i)
        if (c < 0x80) {
          h = Math.imul(h ^ c, P)
          continue
        }
        if (c < 0x800) {
          h = Math.imul(h ^ (0xc0 | (c >> 6)), P)
          h = Math.imul(h ^ (0x80 | (c & 0x3f)), P)
          continue
        }
        if (c >= 0xd800 && c <= 0xdfff) {
          const d = i + 1 < n ? s.charCodeAt(i + 1) : 0
          if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
            const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00)
            i++
            h = Math.imul(h ^ (0xf0 | (cp >> 18)), P)
            h = Math.imul(h ^ (0x80 | ((cp >> 12) & 0x3f)), P)
            h = Math.imul(h ^ (0x80 | ((cp >> 6) & 0x3f)), P)
            h = Math.imul(h ^ (0x80 | (cp & 0x3f)), P)
            continue
          }
          c = 0xfffd
        }
        h = Math.imul(h ^ (0xe0 | (c >> 12)), P)
        h = Math.imul(h ^ (0x80 | ((c >> 6) & 0x3f)), P)
        h = Math.imul(h ^ (0x80 | (c & 0x3f)), P)
      }
      this.h = h
      return
    }
    if (this.pos + 3 * n > this.buf.length) this.grow(3 * n)
    const buf = this.buf
    let p = this.pos
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i)
      if (c < 0x80) {
        buf[p++] = c
        continue
      }
      if (c < 0x800) {
        buf[p++] = 0xc0 | (c >> 6)
        buf[p++] = 0x80 | (c & 0x3f)
        continue
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00)
          i++
          buf[p++] = 0xf0 | (cp >> 18)
          buf[p++] = 0x80 | ((cp >> 12) & 0x3f)
          buf[p++] = 0x80 | ((cp >> 6) & 0x3f)
          buf[p++] = 0x80 | (cp & 0x3f)
          continue
        }
        c = 0xfffd
      }
      buf[p++] = 0xe0 | (c >> 12)
      buf[p++] = 0x80 | ((c >> 6) & 0x3f)
      buf[p++] = 0x80 | (c & 0x3f)
    }
    this.pos = p
  }
}
