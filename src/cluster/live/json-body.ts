// A response body as JSON. A large one (a List of every pod of a big cluster, which the watch cache serves in one
// piece whatever the limit) is read by the snapshot's streaming reader, each item parsed on its own: as one string
// it would pass V8's limit (2^29 - 24 characters, ~512 MiB; a 150,000-pod list is ~530 MB), and hold the whole
// text in memory beside the objects made from it. Either way integers beyond 2^53 stay exact (src/util/json.ts).
import {JsonStreamReader, type JsonStreamSink} from '../snapshot/json-stream.js'
import {parseJson} from '../../util/json.js'

/** Above this, the body is streamed (64 MiB: well below V8's string limit, and where a List's text starts to weigh). */
export const STREAM_BODIES_ABOVE = 64 * 1024 * 1024
/**
 * Above this, a body whose items are mapped (the audit's projected reads) is streamed: read whole, its text and every
 * item made in full sit in the heap at once before the first is projected, about four times the text (a 300-node
 * cluster's 9,000 pods from the watch cache, 22 MB of text, took a 40 MiB heap to V8's dump before the heap budget
 * could say a word). Pages of 500 stay below it and are parsed whole.
 */
export const STREAM_MAPPED_BODIES_ABOVE = 4 * 1024 * 1024

const EMPTY = Buffer.alloc(0)

/**
 * What the caller's `mapItem` threw (the audit's heap budget, say), carried out of the reader as it is: it says
 * nothing of the body, which must not be reported as "not JSON" (a list that failed that way let a 20,000-node audit
 * go on without its pods and end partial, exit 1, instead of stopping with the budget's one line, exit 2).
 */
export class MapItemError extends Error {
  constructor(readonly error: unknown) {
    super('an item could not be mapped')
    this.name = 'MapItemError'
  }
}

/**
 * A response body taken as it arrives (transport.ts BodySink): kept in its pieces up to `streamAbove` bytes and then
 * parsed whole; past that, the pieces go to the streaming reader, each let go once read, with `mapItem` making a
 * List's items as they are read, so that neither the text nor the pieces sit whole beside the objects made from
 * them. A body that is not JSON is read to its end all the same (the connection stays usable), and result() says so.
 */
export class JsonBody {
  private pieces: Buffer[] = []
  private length = 0
  private stream: {reader: JsonStreamReader; value: () => unknown} | undefined
  private failed: {error: unknown} | undefined

  private readonly mapItem?: (item: unknown) => unknown

  constructor(
    private readonly where: string,
    mapItem?: (item: unknown) => unknown,
    private readonly streamAbove = mapItem ? STREAM_MAPPED_BODIES_ABOVE : STREAM_BODIES_ABOVE,
  ) {
    this.mapItem =
      mapItem &&
      ((item) => {
        try {
          return mapItem(item)
        } catch (error) {
          throw new MapItemError(error)
        }
      })
  }

  push(piece: Buffer): void {
    if (this.failed) return
    try {
      if (this.stream) {
        this.stream.reader.push(piece)
        return
      }
      this.pieces.push(piece)
      this.length += piece.length
      if (this.length <= this.streamAbove) return
      this.stream = this.streamed()
      const held = this.pieces
      this.pieces = []
      for (let i = 0; i < held.length; i++) {
        const p = held[i]
        held[i] = EMPTY
        this.stream.reader.push(p)
      }
    } catch (error) {
      this.failed = {error}
      this.pieces = []
      this.stream = undefined
    }
  }

  /** The body's JSON; throws what made it unreadable. */
  result(): unknown {
    if (this.failed) throw this.failed.error
    if (this.stream) {
      this.stream.reader.end()
      return this.stream.value()
    }
    const pieces = this.pieces
    this.pieces = []
    const value = parseJson((pieces.length === 1 ? pieces[0] : Buffer.concat(pieces)).toString('utf8'), this.where)
    const items = (value as {items?: unknown} | null)?.items
    if (this.mapItem && Array.isArray(items)) for (let i = 0; i < items.length; i++) items[i] = this.mapItem(items[i])
    return value
  }

  private streamed(): {reader: JsonStreamReader; value: () => unknown} {
    const {where, mapItem} = this
    // A top-level array's elements come as items too, without a listStart.
    let items: unknown[] = []
    let inObject = false
    let value: unknown
    let documents = 0
    const sink: JsonStreamSink = {
      listStart: () => {
        inObject = true
      },
      item: (v) => {
        items.push(inObject && mapItem ? mapItem(v) : v)
      },
      documentEnd: (envelope, hadItems) => {
        documents++
        value = !hadItems ? envelope : inObject ? {...(envelope as object), items} : items
        items = []
        inObject = false
      },
    }
    return {
      // wholeMax 0: whether to read the body whole was decided here (streamAbove); the reader only scans.
      reader: new JsonStreamReader(sink, where, 0),
      value: () => {
        // One JSON document, as JSON.parse would insist: a bare array or a second document is not an API answer.
        if (documents !== 1) throw new SyntaxError(`${where}: ${documents === 0 ? 'not a JSON object' : 'more than one JSON document'}`)
        return value
      },
    }
  }
}
