// Items and documents written as JSON in a YAML stream (`- {"kind": …}`) are read by JSON.parse, which must give
// what a YAML 1.2 reader gives for them (JSON is a subset of YAML 1.2). The expected values come from js-yaml
// itself (core schema, as the reader uses it), over generated JSON values and the shapes the reader must still
// leave to YAML: a comment after the JSON, YAML flow syntax, and integers too long for a double.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import fc from 'fast-check'
import {CORE_SCHEMA, loadAll} from 'js-yaml'
import type {JsonStreamSink} from '../../../src/cluster/snapshot/json-stream.js'
import {YamlStreamReader} from '../../../src/cluster/snapshot/yaml-stream.js'

function readItems(text: string): unknown[] {
  const items: unknown[] = []
  const sink: JsonStreamSink = {listStart() {}, item: (v) => void items.push(v), documentEnd() {}}
  const reader = new YamlStreamReader(sink, 'test.yaml')
  reader.push(Buffer.from(text))
  reader.end()
  return items
}

function jsYamlItems(text: string): unknown[] {
  const docs: unknown[] = []
  loadAll(text, (d) => docs.push(d), {schema: CORE_SCHEMA, json: true})
  return (docs[0] as {items: unknown[]}).items
}

const list = (items: string[]) => `apiVersion: v1\nkind: List\nitems:\n${items.map((i) => `- ${i}`).join('\n')}\n`

test('JSON items read as js-yaml reads them, on generated JSON values', () => {
  // fc.jsonValue: objects, arrays, strings with any characters (escaped by JSON.stringify), numbers, booleans.
  const value = fc.jsonValue({maxDepth: 3}).filter((v) => !/\d{16,}/.test(JSON.stringify(v)))
  fc.assert(
    fc.property(fc.array(fc.dictionary(fc.string(), value), {minLength: 1, maxLength: 5}), (objects) => {
      const text = list(objects.map((o) => JSON.stringify(o)))
      assert.deepEqual(readItems(text), jsYamlItems(text))
    }),
    {seed: 14, numRuns: 300},
  )
})

test('what is not JSON alone is still read as YAML', () => {
  const text = list([
    '{"kind": "Pod", "metadata": {"name": "a"}} # a comment after the JSON',
    '{kind: Pod, metadata: {name: b}}',
    '{\'kind\': \'Pod\', "metadata": {"name": "c"},}',
    '{"kind": "Pod", "spec": {"tolerations": [{"tolerationSeconds": 9223372036854775807}]}}',
  ])
  const items = readItems(text) as Record<string, unknown>[]
  assert.deepEqual(items.slice(0, 3), jsYamlItems(text).slice(0, 3))
  // The long integer stays exact (the yaml package reads it), where JSON.parse and js-yaml would round it.
  assert.equal((items[3] as {spec: {tolerations: {tolerationSeconds: unknown}[]}}).spec.tolerations[0].tolerationSeconds, 9223372036854775807n)
})

test('comment and blank lines between JSON items are read as YAML reads them', () => {
  // A comment line after an item belongs to that item's entry; the JSON before it is what YAML reads (as the
  // examples write them: `- {…}` then `# why this object is here`).
  const comment = fc.constantFrom('# a note', '  # indented note', '#', '', '   ', '# {"kind": "Not", "an": "item"}')
  const value = fc.jsonValue({maxDepth: 2}).filter((v) => !/\d{16,}/.test(JSON.stringify(v)))
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.dictionary(fc.string(), value), fc.array(comment, {maxLength: 3})), {minLength: 1, maxLength: 4}), (entries) => {
      const text = list(entries.map(([o, after]) => [JSON.stringify(o), ...after].join('\n')))
      assert.deepEqual(readItems(text), jsYamlItems(text))
    }),
    {seed: 14, numRuns: 300},
  )
})

test('a JSON item that repeats a key is refused at its line, as the YAML reader refuses it (JSON.parse let the last win)', () => {
  const text = list(['{"kind": "Node", "metadata": {"name": "a"}}', '{"kind": "Node", "metadata": {"name": "a", "name": "b"}}'])
  // The repeated key is on the file's line 5 (apiVersion, kind, items:, the first item, then this one), column 46:
  // "- " (2), `{"kind": "Node", "metadata": {"name": "a", ` (43), so the second "name" starts at the 46th character.
  assert.throws(
    () => readItems(text),
    (e: Error) => e.message === 'test.yaml:5:46: malformed YAML: duplicate key (a key may appear once in a mapping)',
  )
})

test('the same key in sibling objects, in arrays, or inside a string value is no repetition', () => {
  const text = list([
    '{"kind": "Pod", "spec": {"containers": [{"name": "a"}, {"name": "b"}]}, "metadata": {"name": "p", "labels": {"name": "x"}}}',
    '{"kind": "Pod", "metadata": {"name": "q", "annotations": {"k": "\\"name\\": 1, \\"name\\": 2", "j": "a\\\\"}}}',
  ])
  const items = readItems(text) as {metadata: {name: string}}[]
  assert.deepEqual(
    items.map((i) => i.metadata.name),
    ['p', 'q'],
  )
})

test('a key repeated with escapes ("\\u006eame" is "name") is refused like a plain repetition, at its line', () => {
  // Item 3 is on line 6; `- ` (2) and `{"kind": "Node", "metadata": {"name": "a", ` (43): the escaped key starts at
  // the 46th character, as the plain repetition above. The escape sits in the key's middle, not before its quote.
  const text = list([
    '{"kind": "Node", "metadata": {"name": "z"}}',
    '{"kind": "Node", "metadata": {"name": "y"}}',
    '{"kind": "Node", "metadata": {"name": "a", "\\u006eame": "b"}}',
  ])
  assert.throws(
    () => readItems(text),
    (e: Error) => e.message === 'test.yaml:6:46: malformed YAML: duplicate key (a key may appear once in a mapping)',
  )
  // Two different keys that differ only once decoded are not one ("n\\u0061me" vs "nome").
  assert.doesNotThrow(() => readItems(list(['{"kind": "Node", "metadata": {"n\\u0061me": "a", "nome": "b"}}'])))
})

test('YAML: a plain key and its quoted spellings ("a", \'a\', "\\x61") are one key, refused at the repetition\'s line', () => {
  for (const [spelling, col] of [
    ['"name"', 3],
    ["'name'", 3],
    ['"n\\x61me"', 3],
  ] as const) {
    const text = `apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata:\n    name: a\n    ${spelling}: b\n`
    assert.throws(
      () => readItems(text),
      (e: Error) => e.message.startsWith(`test.yaml:7:${col + 2}: malformed YAML: duplicate key`),
      spelling,
    )
  }
})
