// The kubeconfig reader's fast path must answer exactly what the `yaml` library answers (the reference it stands in
// for), or not answer at all. The expected values are the library's own parse of the same text; the property test
// feeds both readers documents built from tricky pieces (indicators, quotes, escapes, comments, numbers, odd
// indentation), most of which the fast path must refuse.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import fc from 'fast-check'
import {parse} from 'yaml'
import {parseSimpleYaml} from '../../../src/cluster/live/simple-yaml.js'
import {kubeconfigText} from '../../support/fake-apiserver/kubeconfig.js'

const SEED = 1414
const RUNS = 3000

// Pieces scalars are made of: ordinary text, and text that changes a scalar's meaning or ends it.
const ORDINARY = ['a', 'b', 'x-y', 'yes', 'on', '0', '7', '12', '--flag', '-x', 'a:b', 'a#b', 'https://h:6443', '=', 'a.b/c']
const TRICKY = [
  'true',
  'False',
  'TRUE',
  'null',
  'Null',
  'NULL',
  '~',
  '007',
  '-3',
  '1.5',
  '.5',
  '1e3',
  '0x1',
  '.nan',
  '-',
  ':',
  'a: b',
  'a:',
  '#',
  ' #c',
  '&',
  '*',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '?',
  ',',
  '[',
  ']',
  '{',
  '}',
  '{}',
  '[]',
  "'",
  "''",
  '"',
  '\\',
  '\\"',
  '\\n',
  '\\x',
  ' ',
  '  ',
  '<<',
]

/** The fast path's answer, checked against the library: equal when given, and given only where the library succeeds. */
function agrees(text: string): Record<string, unknown> | undefined {
  const fast = parseSimpleYaml(text)
  if (fast === undefined) return undefined
  let reference: unknown
  try {
    reference = parse(text)
  } catch (err) {
    assert.fail(`the fast path read a document the library rejects (${(err as Error).message.split('\n')[0]}):\n${text}`)
  }
  assert.deepEqual(fast, reference, text)
  return fast
}

// As `kubectl config view --raw` writes it (clientcmd through sigs.k8s.io/yaml): compact sequences, plain scalars.
const KUBECTL = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=
    server: https://127.0.0.1:6443
  name: kind-kind
contexts:
- context:
    cluster: kind-kind
    user: kind-kind
  name: kind-kind
current-context: kind-kind
kind: Config
preferences: {}
users:
- name: kind-kind
  user:
    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=
`

// As \`aws eks update-kubeconfig\` writes it (PyYAML): the exec plugin's arguments and a null env.
const EKS = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0t
    server: https://ABCDEF.gr7.eu-west-1.eks.amazonaws.com
  name: arn:aws:eks:eu-west-1:123456789012:cluster/shop
contexts:
- context:
    cluster: arn:aws:eks:eu-west-1:123456789012:cluster/shop
    user: arn:aws:eks:eu-west-1:123456789012:cluster/shop
  name: arn:aws:eks:eu-west-1:123456789012:cluster/shop
current-context: arn:aws:eks:eu-west-1:123456789012:cluster/shop
kind: Config
preferences: {}
users:
- name: arn:aws:eks:eu-west-1:123456789012:cluster/shop
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - --region
      - eu-west-1
      - eks
      - get-token
      - --cluster-name
      - shop
      command: aws
      env: null
      interactiveMode: IfAvailable
      provideClusterInfo: false
`

// Hand-written: comments, quotes, flow mappings, a document marker, CRLF-free indentation of sequences.
const HAND = `---
# the lab cluster
apiVersion: v1
kind: Config
current-context: 'lab'   # default
clusters:
  - name: lab
    cluster: {server: https://lab.example:6443, certificate-authority: ca.crt, insecure-skip-tls-verify: false}
contexts:
  - name: "lab"
    context:
      cluster: lab
      user: me
      namespace: it's-mine
users:
  - name: me
    user:
      exec: {apiVersion: client.authentication.k8s.io/v1, command: "/opt/bin/plugin", args: null}
      token: "a\\tb\\"c"
`

describe('kubeconfig YAML fast path', () => {
  it('reads the files kubectl, the cloud CLIs and people write, as the library does', () => {
    for (const text of [KUBECTL, EKS, HAND]) assert.notEqual(agrees(text), undefined, text)
    assert.equal((agrees(HAND)!.users as {user: {token: string}}[])[0].user.token, 'a\tb"c')
    assert.notEqual(agrees(KUBECTL.replaceAll('\n', '\r\n')), undefined)
    // Items whose keys line up further right than `- ` puts them.
    assert.deepEqual(agrees('users:\n-   name: me\n    user: {token: t}\n'), {users: [{name: 'me', user: {token: 't'}}]})
  })

  it("reads the fake API server's kubeconfig (JSON-quoted scalars)", () => {
    assert.notEqual(agrees(kubeconfigText('https://127.0.0.1:1', '/tmp/ca.crt', 'token', {namespace: 'shop'})), undefined)
    assert.notEqual(agrees(kubeconfigText('https://127.0.0.1:1', '/tmp/ca.crt', 'token', {userFields: null})), undefined)
  })

  it('leaves to the library what it does not read exactly', () => {
    const beyond = [
      'a: &x 1\nb: *x\n', // anchors and aliases
      'a: !!str 1\n', // tags
      'a: |\n  text\n', // block scalars
      'a: >\n  text\n',
      'a: one\n  two\n', // a plain scalar over two lines
      'a: "one\n  two"\n', // a quoted one
      'a: 1\na: 2\n', // duplicate keys (the library refuses them)
      'a:\n\tb: 1\n', // a tab
      'name: Jürgen\n', // non-ASCII
      'a: 1.5\n', // floats, octal, hex, signs
      'a: 0o17\n',
      'a: 0x1f\n',
      'a: -1\n',
      'a: .inf\n',
      'a: {b: {c: 1}}\n', // nested flow
      'a: [1, 2,]\n',
      'a: "\\x41"\n', // YAML-only escapes
      'a: "\\u00e9"\n',
      '- a\n- b\n', // not a mapping
      'a: 1\n---\nb: 2\n', // two documents
      '%YAML 1.2\n---\na: 1\n',
      '"a": 1\n', // quoted keys
      'a b: 1\n',
      '? a\n: 1\n',
      'a: b: c\n',
      '',
      '# only a comment\n',
    ]
    for (const text of beyond) assert.equal(parseSimpleYaml(text), undefined, text)
  })

  it('resolves every scalar made of one or two pieces as the library does, wherever it stands', () => {
    const pieces = [...ORDINARY, ...TRICKY]
    const at = (v: string) => [`k: ${v}\n`, `k:\n- ${v}\n`, `k: {a: ${v}}\n`, `k: [${v}, b]\n`, `k: '${v}'\n`, `k: "${v}"\n`]
    let read = 0
    for (const p of pieces) for (const text of at(p)) if (agrees(text) !== undefined) read++
    for (const p of pieces) for (const q of pieces) for (const text of at(p + q).slice(0, 2)) if (agrees(text) !== undefined) read++
    // Ordinary text is read, not refused: the fast path is taken for the files it is for.
    for (const p of ORDINARY) for (const text of at(p)) assert.notEqual(parseSimpleYaml(text), undefined, text)
    assert.ok(read > 2000, `${read} documents read`)
  })

  it('never answers differently from the library (generated documents)', () => {
    const piece = fc.oneof({arbitrary: fc.constantFrom(...ORDINARY), weight: 6}, {arbitrary: fc.constantFrom(...TRICKY), weight: 1})
    const scalarText = fc.array(piece, {minLength: 1, maxLength: 4}).map((p) => p.join(''))
    const scalar = fc.oneof(
      scalarText,
      scalarText.map((s) => `'${s}'`),
      scalarText.map((s) => `"${s}"`),
      fc.array(scalarText, {maxLength: 3}).map((a) => `[${a.join(', ')}]`),
      fc.array(fc.tuple(fc.constantFrom('k', 'v', 'true', 'a-b'), scalarText), {maxLength: 3}).map((a) => `{${a.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    )
    const key = fc.oneof(
      {arbitrary: fc.constantFrom('name', 'server', 'a', 'b', 'a-b', 'x.y', 'constructor'), weight: 6},
      {arbitrary: fc.constantFrom('true', 'null', '"q"', 'a b', '__proto__', '-', '? k'), weight: 1},
    )
    // step: how far a block below a key is indented; marker: a sequence's `- ` with the spaces after it.
    type Tree =
      | {kind: 'map'; entries: [string, Tree | string][]; step: number}
      | {kind: 'seq'; items: (Tree | string)[]; compact: boolean; step: number; marker: string}
    const step = fc.integer({min: 1, max: 4})
    const marker = fc.constantFrom('- ', '- ', '-  ', '-   ')
    const {value} = fc.letrec<{tree: Tree; value: Tree | string}>((tie) => ({
      value: fc.oneof({depthSize: 'small'}, scalar, tie('tree')),
      tree: fc.oneof(
        {depthSize: 'small'},
        fc.record({kind: fc.constant('map' as const), entries: fc.array(fc.tuple(key, tie('value')), {minLength: 1, maxLength: 4}), step}),
        fc.record({kind: fc.constant('seq' as const), items: fc.array(tie('value'), {minLength: 1, maxLength: 3}), compact: fc.boolean(), step, marker}),
      ),
    }))
    const extra = fc.oneof(
      {arbitrary: fc.constant(''), weight: 12},
      {arbitrary: fc.constantFrom(' ', ' # note', '#x', '\n# comment', '\n  ', '\n   stray', '\n---', '\t', '\r'), weight: 1},
    )
    const render = (t: Tree, indent: number, noise: string[]): string[] => {
      const pad = ' '.repeat(indent)
      const lines: string[] = []
      const bit = () => noise.shift() ?? ''
      if (t.kind === 'map') {
        for (const [k, v] of t.entries) {
          if (typeof v === 'string') lines.push(`${pad}${k}: ${v}${bit()}`)
          else {
            lines.push(`${pad}${k}:${bit()}`)
            lines.push(...render(v, v.kind === 'seq' && v.compact ? indent : indent + t.step, noise))
          }
        }
      } else {
        for (const item of t.items) {
          if (typeof item === 'string') lines.push(`${pad}${t.marker}${item}${bit()}`)
          else {
            const inner = render(item, indent + t.marker.length, noise)
            lines.push(`${pad}${t.marker}${inner[0].trimStart()}`, ...inner.slice(1))
          }
        }
      }
      return lines
    }
    fc.assert(
      fc.property(
        fc.record({kind: fc.constant('map' as const), entries: fc.array(fc.tuple(key, value), {minLength: 1, maxLength: 4}), step}),
        fc.array(extra, {maxLength: 12}),
        (doc, noise) => {
          agrees(`${render(doc as Tree, 0, [...noise]).join('\n')}\n`)
        },
      ),
      {seed: SEED, numRuns: RUNS},
    )
  })
})
