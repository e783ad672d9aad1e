// A small JSON input is read whole by JSON.parse (readWholeDocument) instead of the byte-by-byte scan. The scan is
// the reference: the same input cut into 7-byte pieces (so nothing is ever read whole) must make the sink see the
// very same calls, or, where the fast path declines, the same error. Each case says which way it must go, so a fast
// path that silently stopped being taken fails too.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import fc from 'fast-check'
import {JsonStreamReader, type JsonStreamSink, readWholeDocument} from '../../../src/cluster/snapshot/json-stream.js'

type Call = [string, ...unknown[]]

function recorder(calls: Call[]): JsonStreamSink {
  // The envelope is copied at each call: the reader keeps adding members after items to the object it passed.
  return {
    listStart: (envelope, where) => void calls.push(['listStart', structuredClone(envelope), where]),
    item: (value, where, index) => void calls.push(['item', value, where, index]),
    documentEnd: (envelope, hadItems, where) => void calls.push(['documentEnd', structuredClone(envelope), hadItems, where]),
    logs: (header) => void calls.push(['logs', header]),
  }
}

/**
 * What the reader makes of the text: `whole`, pushed in one piece (read whole where it can be); `lines`, in one piece
 * but never read whole (an element that is its line is found by its newline); `scan`, in 7-byte pieces and never read
 * whole (every element is scanned byte by byte: its line is never all there when it starts).
 */
function read(text: string, mode: 'whole' | 'lines' | 'scan' = 'whole'): {calls: Call[]; error?: string} {
  const calls: Call[] = []
  const reader = new JsonStreamReader(recorder(calls), 'dump.json', mode === 'whole' ? undefined : 0)
  const bytes = Buffer.from(text)
  try {
    if (mode !== 'scan') reader.push(bytes)
    else for (let i = 0; i < bytes.length; i += 7) reader.push(bytes.subarray(i, i + 7))
    reader.end()
  } catch (err) {
    return {calls, error: (err as Error).message}
  }
  return {calls}
}

const scanned = (text: string) => read(text, 'scan')

const wholeTaken = (text: string) => readWholeDocument(Buffer.from(text), recorder([]), 'dump.json')

const cases: {name: string; text: string; whole: boolean}[] = [
  {
    name: 'a List, kind before items',
    text: '{"apiVersion":"v1","kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Node"}],"metadata":{"resourceVersion":""}}',
    whole: true,
  },
  {name: 'items before kind (the List test sees no kind yet)', text: '{"items":[{"kind":"Pod"}],"kind":"PodList"}', whole: true},
  {name: 'a typed non-List keeps its items member whole', text: '{"kind":"ConfigMap","items":[1,2],"data":{}}', whole: true},
  {name: 'a PodList', text: '{"kind":"PodList","apiVersion":"v1","items":[]}', whole: true},
  {name: 'items that is not an array', text: '{"kind":"List","items":{"a":1}}', whole: true},
  {name: 'a bare array', text: ' [ {"kind":"Pod"} , {"kind":"Service"} ]\n', whole: true},
  {name: 'an empty bare array', text: '[]', whole: true},
  {name: 'one object, no items', text: '{\n  "kind": "Pod",\n  "metadata": {"name": "p", "labels": {"a": "b"}}\n}\n', whole: true},
  {name: 'escapes and non-ASCII text', text: '{"kind":"List","items":[{"s":"a\\"b\\\\","t":"ü→✓","u":"\\u00e9"}]}', whole: true},
  {name: 'two documents one after another', text: '{"kind":"Pod"}\n{"kind":"Node"}\n', whole: false},
  {
    name: 'cluster-info dump log blocks',
    text: '{"kind":"PodList","items":[]}\n==== START logs for container c of pod ns/p ====\nhello\n==== END logs for container c of pod ns/p ====\n',
    whole: false,
  },
  {name: 'an integer beyond 2^53 (read exactly by the scan)', text: '{"kind":"List","items":[{"n":9007199254740993}]}', whole: false},
  {name: 'a member named like an array index', text: '{"kind":"List","7":true,"items":[]}', whole: false},
  {name: 'malformed: a missing comma', text: '{"kind":"List" "items":[]}', whole: false},
  {name: 'malformed: truncated', text: '{"kind":"List","items":[{"kind":"Pod"},', whole: false},
  {name: 'not JSON at all', text: 'kind: Pod\n', whole: false},
]

for (const c of cases) {
  test(`whole-document read: ${c.name}`, () => {
    assert.equal(wholeTaken(c.text), c.whole, c.whole ? 'the fast path should read this' : 'the fast path should decline this')
    assert.deepEqual(read(c.text), scanned(c.text))
    assert.deepEqual(read(c.text, 'lines'), scanned(c.text))
  })
}

// Elements laid out a line each (kubectl-why's snapshot layout), and the layouts where a line is not an element.
const lineCases: {name: string; text: string}[] = [
  {name: 'the snapshot layout', text: '{"apiVersion":"v1","kind":"List","items":[\n{"kind":"Pod","metadata":{"name":"a"}},\n{"kind":"Node"}\n]}\n'},
  {name: 'CRLF and spaces after the comma', text: '{"kind":"List","items":[\r\n  {"kind":"Pod"} ,  \r\n  {"kind":"Node"}\r\n]}'},
  {name: 'a bare array a line each', text: '[\n{"a":1},\n{"b":[1,2]}\n]\n'},
  {
    name: 'kubectl get -o json (pretty-printed)',
    text: JSON.stringify({apiVersion: 'v1', kind: 'List', items: [{kind: 'Pod', metadata: {name: 'a', labels: {x: '}'}}}, {kind: 'Node'}]}, null, 4),
  },
  {name: 'a line ending in } that is not the whole element', text: '{"kind":"List","items":[\n{"a": {"b": 1}\n, "c": 2},\n{"d": 3}\n]}'},
  {name: 'two elements on one line', text: '{"kind":"List","items":[\n{"a":1}, {"b":2},\n{"c":3}\n]}'},
  {name: "the list ends on the last element's line", text: '{"kind":"List","items":[\n{"a":1},\n{"b":2}]}\n'},
  {name: 'a string holding an escaped newline and braces', text: '{"kind":"List","items":[\n{"s":"x\\n},\\n{"},\n{"t":"}"}\n]}'},
  {name: 'an element with an integer beyond 2^53', text: '{"kind":"List","items":[\n{"n":9007199254740993},\n{"m":1}\n]}'},
  {name: 'a malformed element on its line', text: '{"kind":"List","items":[\n{"a":1,},\n{"b":2}\n]}'},
]

for (const c of lineCases) {
  test(`line-element read: ${c.name}`, () => {
    assert.deepEqual(read(c.text, 'lines'), scanned(c.text))
  })
}

test('line-element read: in the snapshot layout no element is scanned byte by byte', () => {
  // The scan still reads the envelope's members; only the one member name "items" is scanned here.
  const proto = JsonStreamReader.prototype as unknown as {scanValue: (final: boolean) => number}
  const scan = proto.scanValue
  let calls = 0
  proto.scanValue = function (this: unknown, final: boolean) {
    calls++
    return scan.call(this, final)
  }
  try {
    const items = Array.from({length: 50}, (_, i) => JSON.stringify({kind: 'Pod', metadata: {name: `p${i}`, labels: {a: '{'}}}))
    const {calls: seen} = read(`{"items":[\n${items.join(',\n')}\n]}\n`, 'lines')
    assert.equal(seen.filter((c) => c[0] === 'item').length, 50)
  } finally {
    proto.scanValue = scan
  }
  assert.equal(calls, 1)
})

test('whole-document read: not UTF-8 is declined and the scan names it', () => {
  const bytes = Buffer.concat([Buffer.from('{"kind":"List","items":[{"s":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}]}')])
  assert.equal(readWholeDocument(bytes, recorder([]), 'dump.json'), false)
  const calls: Call[] = []
  const reader = new JsonStreamReader(recorder(calls), 'dump.json')
  assert.throws(() => {
    reader.push(bytes)
    reader.end()
  }, /dump\.json: not UTF-8 text/)
})

test('whole-document read: the sink sees what the scan gives it, on generated Lists', () => {
  const value = fc.jsonValue({maxDepth: 3}).filter((v) => !/\d{16,}/.test(JSON.stringify(v)))
  const key = fc.string().filter((k) => !/^(0|[1-9]\d*)$/.test(k) && k !== 'items')
  fc.assert(
    fc.property(fc.dictionary(key, value, {maxKeys: 4}), fc.array(value, {maxLength: 5}), fc.dictionary(key, value, {maxKeys: 3}), (before, items, after) => {
      const text = JSON.stringify({...before, items, ...after}, null, items.length % 2 === 0 ? 2 : undefined)
      assert.deepEqual(read(text), scanned(text))
      const lines = `{"items":[\n${items.map((v) => JSON.stringify(v)).join(',\n')}\n]}`
      assert.deepEqual(read(lines, 'lines'), scanned(lines))
    }),
    {seed: 14, numRuns: 300},
  )
})
