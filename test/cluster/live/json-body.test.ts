// A response body read as a stream (the path taken above 64 MiB, forced here with a threshold of 0) gives what
// JSON.parse (src/util/json.ts's parseJson) gives: the List, its items in order, integers beyond 2^53 exact.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {JsonBody, MapItemError, STREAM_BODIES_ABOVE} from '../../../src/cluster/live/json-body.js'
import {parseJson} from '../../../src/util/json.js'

/** What JsonBody makes of a body that came in these pieces. */
function parseJsonBody(pieces: Buffer[], where: string, mapItem?: (item: unknown) => unknown, streamAbove?: number): unknown {
  const body = new JsonBody(where, mapItem, streamAbove)
  for (const piece of pieces) body.push(piece)
  return body.result()
}

/** The body cut where a socket might cut it: in 7-byte pieces, through strings, escapes and multi-byte characters. */
const pieces = (b: Buffer): Buffer[] => Array.from({length: Math.ceil(b.length / 7)}, (_, i) => b.subarray(i * 7, i * 7 + 7))

const list = {
  kind: 'PodList',
  apiVersion: 'v1',
  metadata: {resourceVersion: '42', continue: ''},
  items: Array.from({length: 50}, (_, i) => ({
    metadata: {name: `p${i}`, namespace: 'shop', labels: {app: 'web', note: 'quote " and \\ and ünï'}},
    spec: {nodeName: `n${i % 7}`},
  })),
}

test('a List streamed equals the List parsed whole, in any item count and any key order', () => {
  for (const value of [list, {...list, items: []}, {items: list.items.slice(0, 1), kind: 'PodList'}, {kind: 'Status', status: 'Success'}]) {
    const body = Buffer.from(JSON.stringify(value))
    assert.deepEqual(parseJsonBody(pieces(body), 'test', undefined, 0), parseJson(body.toString('utf8'), 'test'))
  }
})

test('integers beyond 2^53 stay exact when streamed', () => {
  const body = Buffer.from('{"kind":"PodList","items":[{"spec":{"tolerations":[{"tolerationSeconds":9223372036854775807}]}}]}')
  const value = parseJsonBody(pieces(body), 'test', undefined, 0) as {items: {spec: {tolerations: {tolerationSeconds: unknown}[]}}[]}
  assert.equal(value.items[0].spec.tolerations[0].tolerationSeconds, 9223372036854775807n)
})

test('what is not one JSON document is refused either way; a bare array is what JSON.parse makes of it', () => {
  for (const text of ['{"kind":"PodList","items":[{"a":1},', '{"a":1}{"b":2}']) {
    assert.throws(() => parseJsonBody([Buffer.from(text)], 'test', undefined, 0), text)
    assert.throws(() => parseJson(text, 'test'), text)
  }
  assert.deepEqual(parseJsonBody([Buffer.from('[1,{"a":[2]}]')], 'test', undefined, 0), [1, {a: [2]}])
})

test('the threshold sits well below V8 string limit (2^29 - 24 characters)', () => {
  assert.ok(STREAM_BODIES_ABOVE < 2 ** 29 - 24)
})

test("each item is made as mapItem makes it, streamed or not; a List's other members and a non-List are left alone", () => {
  const name = (o: unknown) => (o as {metadata: {name: string}}).metadata.name
  const body = Buffer.from(JSON.stringify(list))
  for (const streamAbove of [0, Number.POSITIVE_INFINITY]) {
    const value = parseJsonBody(pieces(body), 'test', name, streamAbove) as typeof list & {items: string[]}
    assert.deepEqual(
      value.items,
      list.items.map((o) => o.metadata.name),
    )
    assert.deepEqual(value.metadata, list.metadata)
    const status = {kind: 'Status', items: 'not a list'}
    assert.deepEqual(parseJsonBody([Buffer.from(JSON.stringify(status))], 'test', name, streamAbove), status)
  }
})

test('a body taken as it arrives: held until it passes the threshold, then each piece let go once read', () => {
  const body = Buffer.from(JSON.stringify(list))
  const parts = pieces(body)
  const json = new JsonBody('test', undefined, 100)
  const held = () => (json as unknown as {pieces: Buffer[]}).pieces.length
  let streamedFrom = -1
  for (let i = 0; i < parts.length; i++) {
    json.push(parts[i])
    if (streamedFrom === -1 && held() === 0) streamedFrom = i
  }
  // 100 bytes is 15 pieces of 7: the 15th starts the stream, and from then on nothing is held.
  assert.equal(streamedFrom, 14)
  assert.deepEqual(json.result(), parseJson(body.toString('utf8'), 'test'))
})

test('a body that is not JSON is read to its end, and result() throws the reader’s error', () => {
  for (const streamAbove of [0, Number.POSITIVE_INFINITY]) {
    const json = new JsonBody('test', undefined, streamAbove)
    for (const p of pieces(Buffer.from('{"kind":"PodList","items":[{"a":1},,{"b":2}]}'))) json.push(p)
    assert.throws(() => json.result(), /malformed JSON|Unexpected/)
  }
})

test("what mapItem throws comes out as a MapItemError holding it, streamed or not: it says nothing of the body's JSON", () => {
  const budget = new Error('the data will not fit in memory')
  const body = Buffer.from(JSON.stringify(list))
  for (const streamAbove of [0, Number.POSITIVE_INFINITY]) {
    let mapped = 0
    const refuse = (o: unknown) => {
      if (++mapped === 3) throw budget
      return o
    }
    assert.throws(
      () => parseJsonBody(pieces(body), 'test', refuse, streamAbove),
      (err: unknown) => err instanceof MapItemError && err.error === budget,
    )
  }
})
