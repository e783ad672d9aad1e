// The readers find the numbers JSON.parse may have rounded by walking its value (util/json.ts inspectParsed), in the
// walk that bounds the nesting, instead of a regular expression over the text. Expected values worked by hand:
// 2^53 + 1 = 9007199254740993 has no double (JSON.parse gives 9007199254740992); 1234567890123456 < 2^53 is exact.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {JsonStreamReader} from '../../../src/cluster/snapshot/json-stream.js'
import {exactJson, inspectParsed, MAX_DEPTH, PARSED_OK, PARSED_ROUNDED, PARSED_TOO_DEEP, parseJson, tooDeep} from '../../../src/util/json.js'

const nest = (levels: number): unknown => {
  let v: unknown = 1
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : {a: v}
  return v
}

test('an integer beyond 2^53 anywhere in a member or element is exact; a 16-digit safe one, a hex id, a float stay numbers', () => {
  const text = '{"items":[{"metadata":{"generation":9007199254740993,"uid":"8878e18e7714088493008416"}},[-9007199254740993]]}'
  assert.equal(inspectParsed(JSON.parse(text)), PARSED_ROUNDED)
  assert.deepEqual(parseJson(text), {items: [{metadata: {generation: 9007199254740993n, uid: '8878e18e7714088493008416'}}, [-9007199254740993n]]})
  const safe = '{"a":1234567890123456,"b":"containerd://9050217848964045562dda","c":1.5}'
  assert.equal(inspectParsed(JSON.parse(safe)), PARSED_OK)
  assert.deepEqual(parseJson(safe), {a: 1234567890123456, b: 'containerd://9050217848964045562dda', c: 1.5})
  // 1e20 is beyond 2^53 but no integer literal: looked at again, and the exact parser gives the same double.
  assert.equal(inspectParsed(JSON.parse('[1e20]')), PARSED_ROUNDED)
  assert.deepEqual(exactJson('[1e20]', JSON.parse('[1e20]')), [1e20])
  // A bare top-level number is not looked at (LONG_INTEGER never matched one either).
  assert.equal(inspectParsed(JSON.parse('9007199254740993')), PARSED_OK)
})

test('nesting: MAX_DEPTH levels of objects and arrays read, one more refused, by tooDeep and by parseJson', () => {
  assert.equal(MAX_DEPTH, 1000)
  assert.equal(tooDeep(nest(MAX_DEPTH)), false)
  assert.equal(tooDeep(nest(MAX_DEPTH + 1)), true)
  assert.equal(inspectParsed(nest(MAX_DEPTH + 1)), PARSED_TOO_DEEP)
  assert.throws(
    () => parseJson(JSON.stringify(nest(MAX_DEPTH + 1)), 'x.json'),
    /^UserError: x\.json: nested deeper than 1000 levels$|x\.json: nested deeper than 1000 levels/,
  )
  assert.doesNotThrow(() => parseJson(JSON.stringify(nest(MAX_DEPTH)), 'x.json'))
})

test('the snapshot layout (one item a line, read by its newline) keeps an integer beyond 2^53 exact', () => {
  const items: unknown[] = []
  const reader = new JsonStreamReader({listStart() {}, item: (v) => void items.push(v), documentEnd() {}}, 'snap.json', 0)
  reader.push(Buffer.from('{"kind":"List","items":[\n{"spec":{"n":9007199254740993}},\n{"spec":{"n":12}}\n]}\n'))
  reader.end()
  assert.deepEqual(items, [{spec: {n: 9007199254740993n}}, {spec: {n: 12}}])
})
