// src/util/jsonpath.ts against client-go's own tests: util/jsonpath/jsonpath_test.go and parser_test.go at
// kubernetes/client-go v0.36.3 (each case's Go test function named above it). The expected strings are client-go's.
// Where a Go test feeds a Go struct, whose fields json.Marshal writes in declaration order, the data here is what
// kubectl would hold instead (decoded JSON: maps, which json.Marshal writes with sorted keys, and which Go walks in
// random order); those expectations are re-worked by hand and say so.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {goFloat, goJson, JsonPathError, parseJsonPath, parseTree} from '../../src/util/jsonpath.js'

interface Case {
  name: string
  template: string
  input: unknown
  expect: string
  expectError?: boolean
}

/** jsonpath_test.go testJSONPath: parse, execute, compare (or expect a parse or execute error). */
function run(cases: Case[], allowMissingKeys: boolean) {
  for (const c of cases) {
    test(`${c.name}: ${c.template}`, () => {
      if (c.expectError) {
        assert.throws(() => parseJsonPath(c.template, allowMissingKeys).execute(c.input), JsonPathError)
        return
      }
      assert.equal(parseJsonPath(c.template, allowMissingKeys).execute(c.input), c.expect)
    })
  }
}

/** testJSONPathSortOutput: map order is Go's random one, so the words are compared sorted. */
function runSorted(cases: Case[]) {
  for (const c of cases) {
    test(`${c.name} (words sorted): ${c.template}`, () => {
      const words = (s: string) => s.split(/\s+/).filter(Boolean).sort()
      assert.deepEqual(words(parseJsonPath(c.template, false).execute(c.input)), words(c.expect))
    })
  }
}

/** testFailJSONPath: the error message itself. */
function runFail(cases: Omit<Case, 'expectError'>[]) {
  for (const c of cases) {
    test(`${c.name} fails: ${c.template}`, () => {
      assert.throws(
        () => parseJsonPath(c.template, false).execute(c.input),
        (err: Error) => err instanceof JsonPathError && err.message === c.expect,
      )
    })
  }
}

describe('TestTypesInput', () => {
  const types = {
    bools: [true, false, true, false],
    integers: [1, 2, 3, 4],
    floats: [1.0, 2.2, 3.3, 4.0],
    strings: ['one', 'two', 'three', 'four'],
    interfaces: [true, 'one', 1, 1.1],
    maps: [
      {name: 'one', value: 1},
      {name: 'two', value: 2.02},
      {name: 'three', value: 3.03},
      {name: 'four', value: 4.04},
    ],
  }
  run(
    [
      {name: 'boolSlice', template: '{ .bools }', input: types, expect: '[true,false,true,false]'},
      {name: 'boolSliceIndex', template: '{ .bools[0] }', input: types, expect: 'true'},
      {name: 'boolSliceIndex', template: '{ .bools[-1] }', input: types, expect: 'false'},
      {name: 'boolSubSlice', template: '{ .bools[0:2] }', input: types, expect: 'true false'},
      {name: 'boolSubSliceFirst2', template: '{ .bools[:2] }', input: types, expect: 'true false'},
      {name: 'boolSubSliceStep2', template: '{ .bools[:4:2] }', input: types, expect: 'true true'},
      {name: 'integerSlice', template: '{ .integers }', input: types, expect: '[1,2,3,4]'},
      {name: 'integerSliceIndex', template: '{ .integers[0] }', input: types, expect: '1'},
      {name: 'integerSliceIndexReverse', template: '{ .integers[-2] }', input: types, expect: '3'},
      {name: 'integerSubSliceFirst2', template: '{ .integers[0:2] }', input: types, expect: '1 2'},
      {name: 'integerSubSliceFirst2Alt', template: '{ .integers[:2] }', input: types, expect: '1 2'},
      {name: 'integerSubSliceStep2', template: '{ .integers[:4:2] }', input: types, expect: '1 3'},
      {name: 'floatSlice', template: '{ .floats }', input: types, expect: '[1,2.2,3.3,4]'},
      {name: 'floatSliceIndex', template: '{ .floats[0] }', input: types, expect: '1'},
      {name: 'floatSliceIndexReverse', template: '{ .floats[-2] }', input: types, expect: '3.3'},
      {name: 'floatSubSliceFirst2', template: '{ .floats[0:2] }', input: types, expect: '1 2.2'},
      {name: 'floatSubSliceFirst2Alt', template: '{ .floats[:2] }', input: types, expect: '1 2.2'},
      {name: 'floatSubSliceStep2', template: '{ .floats[:4:2] }', input: types, expect: '1 3.3'},
      {name: 'stringSlice', template: '{ .strings }', input: types, expect: '["one","two","three","four"]'},
      {name: 'stringSliceIndex', template: '{ .strings[0] }', input: types, expect: 'one'},
      {name: 'stringSliceIndexReverse', template: '{ .strings[-2] }', input: types, expect: 'three'},
      {name: 'stringSubSliceFirst2', template: '{ .strings[0:2] }', input: types, expect: 'one two'},
      {name: 'stringSubSliceFirst2Alt', template: '{ .strings[:2] }', input: types, expect: 'one two'},
      {name: 'stringSubSliceStep2', template: '{ .strings[:4:2] }', input: types, expect: 'one three'},
      {name: 'interfaceSlice', template: '{ .interfaces }', input: types, expect: '[true,"one",1,1.1]'},
      {name: 'interfaceSliceIndex', template: '{ .interfaces[0] }', input: types, expect: 'true'},
      {name: 'interfaceSliceIndexReverse', template: '{ .interfaces[-2] }', input: types, expect: '1'},
      {name: 'interfaceSubSliceFirst2', template: '{ .interfaces[0:2] }', input: types, expect: 'true one'},
      {name: 'interfaceSubSliceFirst2Alt', template: '{ .interfaces[:2] }', input: types, expect: 'true one'},
      {name: 'interfaceSubSliceStep2', template: '{ .interfaces[:4:2] }', input: types, expect: 'true 1'},
      {
        name: 'mapSlice',
        template: '{ .maps }',
        input: types,
        expect: '[{"name":"one","value":1},{"name":"two","value":2.02},{"name":"three","value":3.03},{"name":"four","value":4.04}]',
      },
      {name: 'mapSliceIndex', template: '{ .maps[0] }', input: types, expect: '{"name":"one","value":1}'},
      {name: 'mapSliceIndexReverse', template: '{ .maps[-2] }', input: types, expect: '{"name":"three","value":3.03}'},
      {name: 'mapSubSliceFirst2', template: '{ .maps[0:2] }', input: types, expect: '{"name":"one","value":1} {"name":"two","value":2.02}'},
      {name: 'mapSubSliceFirst2Alt', template: '{ .maps[:2] }', input: types, expect: '{"name":"one","value":1} {"name":"two","value":2.02}'},
      {name: 'mapSubSliceStepOdd', template: '{ .maps[::2] }', input: types, expect: '{"name":"one","value":1} {"name":"three","value":3.03}'},
      {name: 'mapSubSliceStepEven', template: '{ .maps[1::2] }', input: types, expect: '{"name":"two","value":2.02} {"name":"four","value":4.04}'},
    ],
    false,
  )
})

describe('TestStructInput (the store as decoded JSON)', () => {
  const storeData = {
    Name: 'jsonpath',
    Book: [
      {Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95},
      {Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99},
      {Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99},
    ],
    Bicycle: [
      {Color: 'red', Price: 19.95, IsNew: true},
      {Color: 'green', Price: 20.01, IsNew: false},
    ],
    Labels: {engieer: 10, 'web/html': 15, 'k8s-app': 20},
    Employees: {jason: 'manager', dan: 'clerk'},
  }
  run(
    [
      {name: 'plain', template: 'hello jsonpath', input: null, expect: 'hello jsonpath'},
      {name: 'recursive', template: '{..}', input: [1, 2, 3], expect: '[1,2,3]'},
      {name: 'filter', template: '{[?(@<5)]}', input: [2, 6, 3, 7], expect: '2 3'},
      {name: 'quote', template: '{"{"}', input: null, expect: '{'},
      {name: 'union', template: '{[1,3,4]}', input: [0, 1, 2, 3, 4], expect: '1 3 4'},
      {name: 'array', template: '{[0:2]}', input: ['Monday', 'Tudesday'], expect: 'Monday Tudesday'},
      {name: 'variable', template: 'hello {.Name}', input: storeData, expect: 'hello jsonpath'},
      {name: 'dict/', template: '{$.Labels.web/html}', input: storeData, expect: '15'},
      {name: 'dict/', template: '{$.Employees.jason}', input: storeData, expect: 'manager'},
      {name: 'dict/', template: '{$.Employees.dan}', input: storeData, expect: 'clerk'},
      {name: 'dict-', template: '{.Labels.k8s-app}', input: storeData, expect: '20'},
      {name: 'nest', template: '{.Bicycle[*].Color}', input: storeData, expect: 'red green'},
      {name: 'allarray', template: '{.Book[*].Author}', input: storeData, expect: 'Nigel Rees Evelyn Waugh Herman Melville'},
      // By hand: a map's values in key order here (Color, IsNew, Price); Go's struct gives field order, red 19.95 true.
      {name: 'allfields', template: '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', input: storeData, expect: '{red true 19.95} {green false 20.01} '},
      {
        name: 'superrecurfields',
        template: '{............................................................Price}',
        input: storeData,
        expect: '',
        expectError: true,
      },
      // By hand: json.Marshal of maps sorts their keys (Go's test has struct field order: Color, Price, IsNew).
      {
        name: 'allstructsSlice',
        template: '{.Bicycle}',
        input: storeData,
        expect: '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]',
      },
      {
        name: 'allstructs',
        template: '{range .Bicycle[*]}{ @ }{ " " }{end}',
        input: storeData,
        expect: '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} ',
      },
      {
        name: 'lastarray',
        template: '{.Book[-1:]}',
        input: storeData,
        expect: '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
      },
      {
        name: 'recurarray',
        template: '{..Book[2]}',
        input: storeData,
        expect: '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
      },
      {name: 'bool', template: '{.Bicycle[?(@.IsNew==true)]}', input: storeData, expect: '{"Color":"red","IsNew":true,"Price":19.95}'},
    ],
    false,
  )
  // Go's order is the structs' (Book before Bicycle); over maps it is random, so compared as a set of words.
  runSorted([
    {name: 'recurfields', template: '{..Price}', input: storeData, expect: '8.95 12.99 8.99 19.95 20.01'},
    {name: 'recurdotfields', template: '{...Price}', input: storeData, expect: '8.95 12.99 8.99 19.95 20.01'},
  ])
  run(
    [
      {name: 'nonexistent field', template: '{.hello}', input: storeData, expect: ''},
      {name: 'nonexistent field 2', template: 'before-{.hello}after', input: storeData, expect: 'before-after'},
    ],
    true,
  )
  runFail([
    {name: 'invalid identifier', template: '{hello}', input: storeData, expect: 'unrecognized identifier hello'},
    {name: 'nonexistent field', template: '{.hello}', input: storeData, expect: 'hello is not found'},
    // Go's test has map[string]int; decoded JSON's maps are map[string]interface {}.
    {name: 'invalid array', template: '{.Labels[0]}', input: storeData, expect: 'map[string]interface {} is not array or slice'},
    {name: 'invalid filter operator', template: '{.Book[?(@.Price<>10)]}', input: storeData, expect: 'unrecognized filter operator <>'},
    {name: 'redundant end', template: '{range .Labels.*}{@}{end}{end}', input: storeData, expect: 'not in range, nothing to end'},
  ])
})

describe('TestJSONInput', () => {
  const pointsData = JSON.parse(`[
    {"id": "i1", "x":4, "y":-5},
    {"id": "i2", "x":-2, "y":-5, "z":1},
    {"id": "i3", "x":  8, "y":  3 },
    {"id": "i4", "x": -6, "y": -1 },
    {"id": "i5", "x":  0, "y":  2, "z": 1 },
    {"id": "i6", "x":  1, "y":  4 },
    {"id": "i7", "x":  null, "y":  4 }
  ]`)
  run(
    [
      {name: 'exists filter', template: '{[?(@.z)].id}', input: pointsData, expect: 'i2 i5'},
      {name: 'bracket key', template: "{[0]['id']}", input: pointsData, expect: 'i1'},
      {name: 'nil value', template: "{[-1]['x']}", input: pointsData, expect: 'null'},
    ],
    false,
  )
})

const nodesData = JSON.parse(`{
  "kind": "List",
  "items":[
    {"kind":"None", "metadata":{"name":"127.0.0.1", "labels":{"kubernetes.io/hostname":"127.0.0.1"}},
     "status":{"capacity":{"cpu":"4"}, "ready": true, "addresses":[{"type": "LegacyHostIP", "address":"127.0.0.1"}]}},
    {"kind":"None", "metadata":{"name":"127.0.0.2", "labels":{"kubernetes.io/hostname":"127.0.0.2"}},
     "status":{"capacity":{"cpu":"8"}, "ready": false,
               "addresses":[{"type": "LegacyHostIP", "address":"127.0.0.2"}, {"type": "another", "address":"127.0.0.3"}]}}
  ],
  "users":[{"name": "myself", "user": {}}, {"name": "e2e", "user": {"username": "admin", "password": "secret"}}]
}`)

describe('TestKubernetes', () => {
  run(
    [
      {name: 'range item', template: '{range .items[*]}{.metadata.name}, {end}{.kind}', input: nodesData, expect: '127.0.0.1, 127.0.0.2, List'},
      {name: 'range item with quote', template: '{range .items[*]}{.metadata.name}{"\\t"}{end}', input: nodesData, expect: '127.0.0.1\t127.0.0.2\t'},
      {name: 'range addresss', template: '{.items[*].status.addresses[*].address}', input: nodesData, expect: '127.0.0.1 127.0.0.2 127.0.0.3'},
      {
        name: 'double range',
        template: '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}',
        input: nodesData,
        expect: '127.0.0.1, 127.0.0.2, 127.0.0.3, ',
      },
      {name: 'item name', template: '{.items[*].metadata.name}', input: nodesData, expect: '127.0.0.1 127.0.0.2'},
      {
        name: 'union nodes capacity',
        template: "{.items[*]['metadata.name', 'status.capacity']}",
        input: nodesData,
        expect: '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}',
      },
      {
        name: 'range nodes capacity',
        template: '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}',
        input: nodesData,
        expect: '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] ',
      },
      {name: 'user password', template: '{.users[?(@.name=="e2e")].user.password}', input: nodesData, expect: 'secret'},
      {name: 'hostname', template: '{.items[0].metadata.labels.kubernetes\\.io/hostname}', input: nodesData, expect: '127.0.0.1'},
      {
        name: 'hostname filter',
        template: '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}',
        input: nodesData,
        expect: 'None',
      },
      {name: 'bool item', template: '{.items[?(@..ready==true)].metadata.name}', input: nodesData, expect: '127.0.0.1'},
    ],
    false,
  )
  runSorted([{name: 'recursive name', template: '{..name}', input: nodesData, expect: '127.0.0.1 127.0.0.2 myself e2e'}])
})

describe('TestEmptyRange', () => {
  const emptyList = {items: []}
  run(
    [
      {name: 'empty range', template: '{range .items[*]}{.metadata.name}{end}', input: emptyList, expect: ''},
      {
        name: 'empty nested range',
        template: '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}',
        input: emptyList,
        expect: '',
      },
    ],
    true,
  )
})

describe('TestNestedRanges', () => {
  const another = [{name: 'value1'}, {name: 'value2'}]
  const data = {
    items: [
      {
        metadata: {name: 'pod1'},
        spec: {
          containers: [
            {name: 'foo', another},
            {name: 'bar', another},
          ],
        },
      },
      {metadata: {name: 'pod2'}, spec: {containers: [{name: 'baz', another}]}},
    ],
  }
  run(
    [
      {
        name: 'nested range with a trailing newline',
        template: '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}',
        input: data,
        expect: 'pod1:foo,bar,+pod2:baz,+',
      },
      {
        name: 'nested range with a trailing character within another nested range with a trailing newline',
        template: '{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}',
        input: data,
        expect: 'pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#',
      },
      {
        name: 'two nested ranges at the same level with a trailing newline',
        template:
          '{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}',
        input: data,
        expect: 'pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n',
      },
    ],
    false,
  )
})

describe('TestFilterPartialMatchesSometimesMissingAnnotations (issues.k8s.io/45546)', () => {
  const data = {
    kind: 'List',
    items: [
      {kind: 'Pod', metadata: {name: 'pod1', annotations: {color: 'blue'}}},
      {kind: 'Pod', metadata: {name: 'pod2'}},
      {kind: 'Pod', metadata: {name: 'pod3', annotations: {color: 'green'}}},
      {kind: 'Pod', metadata: {name: 'pod4', annotations: {color: 'blue'}}},
    ],
  }
  const template = '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}'
  run([{name: 'tolerate missing items', template, input: data, expect: 'pod1 pod4'}], true)
  run([{name: 'error on missing items', template, input: data, expect: '', expectError: true}], false)
})

const containers = (n: number) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  spec: {containers: Array.from({length: n}, (_, i) => ({image: 'radial/busyboxplus:curl', name: `fake${i}`}))},
})

describe('TestNegativeIndex', () => {
  const data = containers(4)
  const c = (template: string, expect: string, expectError = false): Case => ({name: 'negative index', template, input: data, expect, expectError})
  run(
    [
      c('{.spec.containers[0].name}', 'fake0'),
      c('{.spec.containers[0:0].name}', ''),
      c('{.spec.containers[0:-1].name}', 'fake0 fake1 fake2'),
      c('{.spec.containers[-1:0].name}', '', true),
      c('{.spec.containers[-1].name}', 'fake3'),
      c('{.spec.containers[-1:].name}', 'fake3'),
      c('{.spec.containers[-2].name}', 'fake2'),
      c('{.spec.containers[-2:].name}', 'fake2 fake3'),
      c('{.spec.containers[-3].name}', 'fake1'),
      c('{.spec.containers[-4].name}', 'fake0'),
      c('{.spec.containers[-4:].name}', 'fake0 fake1 fake2 fake3'),
      c('{.spec.containers[-5].name}', '', true),
      c('{.spec.containers[5:5].name}', ''),
      c('{.spec.containers[-5:-5].name}', ''),
      c('{.spec.containers[3:1].name}', '', true),
      c('{.spec.containers[-1:-2].name}', '', true),
    ],
    false,
  )
})

describe('TestRunningPodsJSONPathOutput', () => {
  const data = {
    kind: 'List',
    items: [
      {kind: 'Pod', metadata: {name: 'pod1'}, status: {phase: 'Running'}},
      {kind: 'Pod', metadata: {name: 'pod2'}, status: {phase: 'Running'}},
      {kind: 'Pod', metadata: {name: 'pod3'}, status: {phase: 'Running'}},
      {resourceVersion: ''},
    ],
  }
  run(
    [
      {
        name: 'range over pods without selecting the last one',
        template: '{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}',
        input: data,
        expect: 'pod1 is Running\npod2 is Running\npod3 is Running\n',
      },
    ],
    true,
  )
})

describe('TestStep', () => {
  const data = containers(6)
  const c = (template: string, expect: string, expectError = false): Case => ({name: 'step', template, input: data, expect, expectError})
  run(
    [
      c('{.spec.containers[0:].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'),
      c('{.spec.containers[0:6:].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'),
      c('{.spec.containers[0:6:1].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'),
      c('{.spec.containers[0:6:0].name}', '', true),
      c('{.spec.containers[0:6:-1].name}', '', true),
      c('{.spec.containers[1:4:2].name}', 'fake1 fake3'),
      c('{.spec.containers[1:4:3].name}', 'fake1'),
      c('{.spec.containers[1:4:4].name}', 'fake1'),
      c('{.spec.containers[0:6:2].name}', 'fake0 fake2 fake4'),
      c('{.spec.containers[0:6:3].name}', 'fake0 fake3'),
      c('{.spec.containers[0:6:5].name}', 'fake0 fake5'),
      c('{.spec.containers[0:6:6].name}', 'fake0'),
    ],
    false,
  )
})

describe('parser_test.go TestParser: the tree, node by node', () => {
  const cases: [string, string, string[]][] = [
    ['plain', 'hello jsonpath', ['NodeText: hello jsonpath']],
    ['variable', 'hello {.jsonpath}', ['NodeText: hello ', 'NodeList', 'NodeField: jsonpath']],
    ['arrayfiled', "hello {['jsonpath']}", ['NodeText: hello ', 'NodeList', 'NodeField: jsonpath']],
    ['quote', '{"{"}', ['NodeList', 'NodeText: {']],
    ['array', '{[1:3]}', ['NodeList', 'NodeArray: [{1 true false} {3 true false} {0 false false}]']],
    ['allarray', '{.book[*].author}', ['NodeList', 'NodeField: book', 'NodeArray: [{0 false false} {0 false false} {0 false false}]', 'NodeField: author']],
    ['wildcard', '{.bicycle.*}', ['NodeList', 'NodeField: bicycle', 'NodeWildcard']],
    ['filter', '{[?(@.price<3)]}', ['NodeList', 'NodeFilter: NodeList < NodeList', 'NodeList', 'NodeField: price', 'NodeList', 'NodeInt: 3']],
    ['recursive', '{..}', ['NodeList', 'NodeRecursive']],
    ['recurField', '{..price}', ['NodeList', 'NodeRecursive', 'NodeField: price']],
    ['arraydict', "{['book.price']}", ['NodeList', 'NodeField: book', 'NodeField: price']],
    [
      'union',
      "{['bicycle.price', 3, 'book.price']}",
      [
        'NodeList',
        'NodeUnion',
        'NodeList',
        'NodeField: bicycle',
        'NodeField: price',
        'NodeList',
        'NodeArray: [{3 true false} {4 true true} {0 false false}]',
        'NodeList',
        'NodeField: book',
        'NodeField: price',
      ],
    ],
    [
      'range',
      '{range .items}{.name},{end}',
      ['NodeList', 'NodeIdentifier: range', 'NodeField: items', 'NodeList', 'NodeField: name', 'NodeText: ,', 'NodeList', 'NodeIdentifier: end'],
    ],
    [
      'paired parentheses in quotes',
      '{[?(@.status.nodeInfo.osImage == "()")]}',
      [
        'NodeList',
        'NodeFilter: NodeList == NodeList',
        'NodeList',
        'NodeField: status',
        'NodeField: nodeInfo',
        'NodeField: osImage',
        'NodeList',
        'NodeText: ()',
      ],
    ],
    [
      'paired parentheses in double quotes and with double quotes escape',
      '{[?(@.status.nodeInfo.osImage == "(\\"\\")")]}',
      [
        'NodeList',
        'NodeFilter: NodeList == NodeList',
        'NodeList',
        'NodeField: status',
        'NodeField: nodeInfo',
        'NodeField: osImage',
        'NodeList',
        'NodeText: ("")',
      ],
    ],
    [
      'unregular parentheses in double quotes',
      '{[?(@.test == "())(")]}',
      ['NodeList', 'NodeFilter: NodeList == NodeList', 'NodeList', 'NodeField: test', 'NodeList', 'NodeText: ())('],
    ],
    [
      'plain text in single quotes',
      "{[?(@.status.nodeInfo.osImage == 'Linux')]}",
      [
        'NodeList',
        'NodeFilter: NodeList == NodeList',
        'NodeList',
        'NodeField: status',
        'NodeField: nodeInfo',
        'NodeField: osImage',
        'NodeList',
        'NodeText: Linux',
      ],
    ],
    [
      'test filter suffix',
      '{[?(@.status.nodeInfo.osImage == "{[()]}")]}',
      [
        'NodeList',
        'NodeFilter: NodeList == NodeList',
        'NodeList',
        'NodeField: status',
        'NodeField: nodeInfo',
        'NodeField: osImage',
        'NodeList',
        'NodeText: {[()]}',
      ],
    ],
    [
      'double inside single',
      `{[?(@.status.nodeInfo.osImage == "''")]}`,
      [
        'NodeList',
        'NodeFilter: NodeList == NodeList',
        'NodeList',
        'NodeField: status',
        'NodeField: nodeInfo',
        'NodeField: osImage',
        'NodeList',
        "NodeText: ''",
      ],
    ],
    [
      'single inside double',
      `{[?(@.status.nodeInfo.osImage == '""')]}`,
      [
        'NodeList',
        'NodeFilter: NodeList == NodeList',
        'NodeList',
        'NodeField: status',
        'NodeField: nodeInfo',
        'NodeField: osImage',
        'NodeList',
        'NodeText: ""',
      ],
    ],
    [
      'single containing escaped single',
      "{[?(@.status.nodeInfo.osImage == '\\\\\\'')]}",
      [
        'NodeList',
        'NodeFilter: NodeList == NodeList',
        'NodeList',
        'NodeField: status',
        'NodeField: nodeInfo',
        'NodeField: osImage',
        'NodeList',
        "NodeText: \\'",
      ],
    ],
    ['negative index slice, equals a[len-5] to a[len-1]', '{[-5:]}', ['NodeList', 'NodeArray: [{-5 true false} {0 false false} {0 false false}]']],
    ['negative index slice, equals a[len-1]', '{[-1]}', ['NodeList', 'NodeArray: [{-1 true false} {0 true true} {0 false false}]']],
    ['negative index slice, equals a[1] to a[len-1]', '{[1:-1]}', ['NodeList', 'NodeArray: [{1 true false} {-1 true false} {0 false false}]']],
  ]
  for (const [name, text, nodes] of cases) test(`${name}: ${text}`, () => assert.deepEqual(parseTree(text), nodes))
  test('malformat input: {\\\\\\} is refused', () => assert.throws(() => parseTree('{\\\\\\}'), JsonPathError))
})

describe('parser_test.go TestFailParser: the messages', () => {
  const cases: [string, string][] = [
    ['{.hello', 'unclosed action'],
    ['{*}', "unrecognized character in action: U+002A '*'"],
    ['{+12.3.0}', 'cannot parse number +12.3.0'],
    ['{[1}', 'unterminated array'],
    ['{[?(.price]}', 'unterminated filter'],
    ['{........}', 'invalid multiple recursive descent'],
  ]
  for (const [text, message] of cases)
    test(text, () =>
      assert.throws(
        () => parseTree(text),
        (err: Error) => err instanceof JsonPathError && err.message === message,
      ),
    )
})

describe("Go's printing and comparisons (worked by hand from strconv, encoding/json and text/template)", () => {
  test("fmt's %v of a float64: shortest digits, %e from exponent -5 down and from 6 up, two exponent digits", () => {
    assert.equal(goFloat(19.95), '19.95')
    assert.equal(goFloat(123456.5), '123456.5') // exponent 5 < 6
    assert.equal(goFloat(1234567.5), '1.2345675e+06') // exponent 6
    assert.equal(goFloat(0.0001), '0.0001') // exponent -4
    assert.equal(goFloat(0.00001), '1e-05') // exponent -5
    assert.equal(goFloat(-2.5e-7), '-2.5e-07')
  })

  test('a data integer prints as an int64 (kubectl decodes integers so), a non-integer by %v', () => {
    assert.equal(parseJsonPath('{.a} {.b} {.c}').execute({a: 1000000, b: 1500000.5, c: 9007199254740993n}), '1000000 1.5000005e+06 9007199254740993')
  })

  test('maps and slices as json.Marshal writes them: keys sorted, <, > and & escaped, bigints exact', () => {
    assert.equal(
      goJson({b: '<x&y>', a: [1, {d: 2, c: 3}], big: 9007199254740993n}),
      '{"a":[1,{"c":3,"d":2}],"b":"\\u003cx\\u0026y\\u003e","big":9007199254740993}',
    )
  })

  test('null prints null; a range over a null element hands its body no value (Go: <no value>)', () => {
    assert.equal(parseJsonPath('{.a}').execute({a: null}), 'null')
    assert.equal(parseJsonPath('{range .a[*]}[{@}]{end}').execute({a: [null, 1]}), '[<no value>][1]')
  })

  test('comparisons follow text/template: an int and a float literal are incompatible; a string and an int too', () => {
    // 2 is an int64 in the data; 2.0 in a template is a float (parseNumber: Atoi fails, ParseFloat succeeds).
    assert.throws(() => parseJsonPath('{[?(@.n==2.0)].n}').execute([{n: 2}]), /incompatible types for comparison/)
    assert.throws(() => parseJsonPath('{[?(@.n=="2")].n}').execute([{n: 2}]), /incompatible types for comparison/)
    assert.equal(parseJsonPath('{[?(@.n>=2)].n}').execute([{n: 1}, {n: 2}, {n: 3}]), '2 3')
    assert.equal(parseJsonPath('{[?(@.r<0.5)].r}').execute([{r: 0.25}, {r: 0.75}]), '0.25')
    assert.throws(() => parseJsonPath('{[?(@.b<true)].b}').execute([{b: false}]), /invalid type for comparison/)
  })

  test("an exists filter keeps an element whose expression failed but returned something beside the error (jsonpath.go:507 with evalArray's `return input, err`)", () => {
    // [{a:[1]}]: a[1] is out of bounds (index 1, length 1), evalArray returns its input with the error: kept.
    // A missing key returns nothing beside its error: dropped.
    assert.equal(parseJsonPath('{[?(@.a[1])].n}').execute([{a: [1], n: 'x'}, {a: [1, 2], n: 'y'}, {n: 'z'}]), 'x y')
  })

  test('a wildcard over a string yields its bytes (value.Index on a Go string), printed as numbers', () => {
    assert.equal(parseJsonPath('{.s.*}').execute({s: 'hé'}), '104 195 169')
  })

  test('jsonpath-as-json: the results as one indented JSON array (EnableJSONOutput)', () => {
    assert.equal(parseJsonPath('{.items[*].n}', true, true).execute({items: [{n: 1}, {n: 'x'}]}), '[\n    1,\n    "x"\n]\n')
  })

  test('a long template does not grow the stack per token (jsonpath-file)', () => {
    const template = '{.a}-'.repeat(20_000)
    assert.equal(parseJsonPath(template).execute({a: 1}), '1-'.repeat(20_000))
  })
})
