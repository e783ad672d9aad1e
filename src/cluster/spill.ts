// Objects kept compressed instead of as JavaScript objects (issue 29.1): a projected pod is about 1.1 KB of heap as
// objects and strings, about 0.9 KB as JSON text, and a few dozen bytes once a chunk of them is deflated — objects of
// one kind repeat the same keys and most of their values. What the audit has read of the largest lists waits here
// while the checks run one after another; each check takes back only the fields it reads (src/audit/gather.ts
// Gathered.forCheck), and lets them go when it is done, so the heap holds one check's projection of the cluster at a
// time instead of every check's at once.
//
// Hand-written rather than a library's: zlib's raw deflate (Node's own) over JSON lines is the whole of it. Measured
// on 100,000 projected pods: JSON.stringify 6 µs an object, deflate (level 1) 2.6 µs, inflate and JSON.parse 8 µs;
// v8.serialize/deserialize were slower both ways (10 and 11 µs) and no smaller before compression.
import {deflateRawSync, inflateRawSync} from 'node:zlib'
import type {KubeObject} from './source.js'

/** JSON text per chunk before it is deflated: big enough for deflate to find the repeats, small enough to parse at once. */
const CHUNK_TEXT = 256 * 1024

export class SpilledObjects {
  /** Deflated chunks of JSON lines, in order; an array holds the objects JSON cannot write (an int64 kept as a bigint). */
  private readonly chunks: (Buffer | KubeObject[])[] = []
  private pending: string[] = []
  private pendingText = 0
  private compressed = 0
  /** How many objects are kept. */
  count = 0

  add(o: KubeObject): void {
    let text: string
    try {
      text = JSON.stringify(o)
    } catch {
      // A bigint (src/util/json.ts keeps integers beyond 2^53 exact): that object is kept as it is, in its place.
      this.flush()
      const last = this.chunks[this.chunks.length - 1]
      if (Array.isArray(last)) last.push(o)
      else this.chunks.push([o])
      this.count++
      return
    }
    this.pending.push(text)
    this.pendingText += text.length
    this.count++
    if (this.pendingText >= CHUNK_TEXT) this.flush()
  }

  /** Deflates what waits to be (each chunk also when it is full, and before the objects are read back). */
  flush(): void {
    if (this.pending.length === 0) return
    const chunk = deflateRawSync(this.pending.join('\n'), {level: 1})
    this.compressed += chunk.length
    this.chunks.push(chunk)
    this.pending = []
    this.pendingText = 0
  }

  /** Appends what `other` holds, in its order, after what this holds; `other` is not to be used again. */
  append(other: SpilledObjects): void {
    this.flush()
    other.flush()
    this.chunks.push(...other.chunks)
    this.compressed += other.compressed
    this.count += other.count
  }

  /** Bytes held compressed (for the heap budget and the benchmark). */
  get bytes(): number {
    return this.compressed + this.pendingText
  }

  /** The objects in the order they were added, a chunk at a time: each array is new, the caller's to keep or drop. */
  *chunksOf(): Generator<KubeObject[]> {
    this.flush()
    for (const c of this.chunks) {
      if (Array.isArray(c)) yield c
      else yield JSON.parse(`[${inflateRawSync(c).toString('utf8').replaceAll('\n', ',')}]`) as KubeObject[]
    }
  }
}
