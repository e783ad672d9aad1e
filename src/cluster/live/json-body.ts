// A response body as JSON. A large one (a List of every pod of a big cluster, which the watch cache serves in one
// piece whatever the limit) is read by the snapshot's streaming reader, each item parsed on its own: as one string
// it would pass V8's limit (2^29 - 24 characters, ~512 MiB; a 150,000-pod list is ~530 MB), and hold the whole
// text in memory beside the objects made from it. Either way integers beyond 2^53 stay exact (src/util/json.ts).
import {JsonStreamReader, type JsonStreamSink} from '../snapshot/json-stream.js'
import {parseJson} from '../../util/json.js'

/** Above this, the body is streamed (64 MiB: well below V8's string limit, and where a List's text starts to weigh). */
export const STREAM_BODIES_ABOVE = 64 * 1024 * 1024

const EMPTY = Buffer.alloc(0)

/**
 * The body's JSON, from the pieces it came in; with `mapItem`, a List's items each as it makes them (made as they
 * are read when streamed). Streamed, each piece is let go once read, so the text and the objects never peak together.
 */
export function parseJsonBody(pieces: Buffer[], where: string, mapItem?: (item: unknown) => unknown, streamAbove = STREAM_BODIES_ABOVE): unknown {
  let length = 0
  for (const p of pieces) length += p.length
  if (length <= streamAbove) {
    const value = parseJson((pieces.length === 1 ? pieces[0] : Buffer.concat(pieces)).toString('utf8'), where)
    const items = (value as {items?: unknown} | null)?.items
    if (mapItem && Array.isArray(items)) for (let i = 0; i < items.length; i++) items[i] = mapItem(items[i])
    return value
  }
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
  const reader = new JsonStreamReader(sink, where)
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]
    pieces[i] = EMPTY
    reader.push(piece)
  }
  reader.end()
  // One JSON document, as JSON.parse would insist: a bare array or a second document is not an API answer.
  if (documents !== 1) throw new SyntaxError(`${where}: ${documents === 0 ? 'not a JSON object' : 'more than one JSON document'}`)
  return value
}
