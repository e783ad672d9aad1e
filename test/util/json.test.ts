// Kubernetes int64 values beyond 2^53 must survive reading and writing exactly.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {parseJson, parseYamlDocuments, stringifyJson} from '../../src/util/json.js'

test('JSON: integers beyond 2^53 become bigint; safe ones and floats stay numbers', () => {
  const v = parseJson('{"big": 9223372036854775807, "safe": 9007199254740991, "neg": -9223372036854775808, "f": 1.5, "s": "12345678901234567890"}') as Record<
    string,
    unknown
  >
  assert.equal(v.big, 9223372036854775807n)
  assert.equal(v.safe, 9007199254740991)
  assert.equal(v.neg, -9223372036854775808n)
  assert.equal(v.f, 1.5)
  assert.equal(v.s, '12345678901234567890')
})

test('JSON round trip writes bigint back as the same literal', () => {
  const text = '{"a":[9223372036854775807,1,"x"],"b":{"c":18446744073709551615}}'
  assert.equal(stringifyJson(parseJson(text)), text)
})

test('YAML: the same exactness, several documents, empty documents dropped', () => {
  assert.deepEqual(parseYamlDocuments('a: 9223372036854775807\n---\n---\nb: 2\n'), [{a: 9223372036854775807n}, {b: 2}])
})

test('YAML keeps timestamps and yes/no as kubectl wrote them (strings where quoted, booleans only true/false)', () => {
  assert.deepEqual(parseYamlDocuments('t: 2026-11-29T03:00:00Z\nq: "yes"\nb: true\n'), [{t: '2026-11-29T03:00:00Z', q: 'yes', b: true}])
})
