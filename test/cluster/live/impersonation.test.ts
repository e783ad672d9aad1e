// Impersonation as kubectl sends it: the kubeconfig user's as, as-uid, as-groups and as-user-extra, and the --as,
// --as-group, --as-uid flags over them. Expected headers are client-go's own test cases
// (transport/round_trippers_test.go TestImpersonationRoundTripper), the refusals validation.go's wording as kubectl
// v1.32 prints it, and, where kubectl is on PATH, what kubectl sends to the same fake API server.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {headerKeyEscape, impersonationHeaders} from '../../../src/cluster/live/credentials.js'
import type {ResolvedConfig, UserEntry} from '../../../src/cluster/live/kubeconfig.js'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import {UserError} from '../../../src/errors.js'
import {FakeApiServer, type KubeconfigOptions, type RequestRecord} from '../../support/fake-apiserver/index.js'

const probe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const NO_KUBECTL = probe.status === 0 ? false : 'no kubectl on PATH: the side-by-side check needs the real client'
const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))

const configWith = (user: UserEntry | undefined, userName = 'u'): ResolvedConfig =>
  ({user, userName, context: 'c', origin: 'test', server: 'https://127.0.0.1', cluster: {server: 'https://127.0.0.1'}}) as unknown as ResolvedConfig

/** Header name (lower case: HTTP names are case-insensitive) → its values in order. */
function impersonateOf(raw: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase()
    if (!name.startsWith('impersonate-')) continue
    out[name] ??= []
    out[name].push(raw[i + 1])
  }
  return out
}

describe('impersonation headers (round_trippers.go impersonatingRoundTripper)', () => {
  // TestImpersonationRoundTripper's cases: kubeconfig fields in, headers out (names as Go's Header canonicalises them).
  const cases: {name: string; user: UserEntry; expected: Record<string, string | string[]>}[] = [
    {
      name: 'all',
      user: {as: 'user', 'as-uid': 'uid-a', 'as-groups': ['one', 'two'], 'as-user-extra': {first: ['A', 'a'], second: ['B', 'b']}},
      expected: {
        'Impersonate-User': 'user',
        'Impersonate-Uid': 'uid-a',
        'Impersonate-Group': ['one', 'two'],
        'Impersonate-Extra-First': ['A', 'a'],
        'Impersonate-Extra-Second': ['B', 'b'],
      },
    },
    {
      name: 'username, groups and extra',
      user: {as: 'user', 'as-groups': ['one', 'two'], 'as-user-extra': {first: ['A', 'a'], second: ['B', 'b']}},
      expected: {
        'Impersonate-User': 'user',
        'Impersonate-Group': ['one', 'two'],
        'Impersonate-Extra-First': ['A', 'a'],
        'Impersonate-Extra-Second': ['B', 'b'],
      },
    },
    {name: 'username and uid', user: {as: 'user', 'as-uid': 'uid-a'}, expected: {'Impersonate-User': 'user', 'Impersonate-Uid': 'uid-a'}},
    {
      name: 'escape handling',
      user: {as: 'user', 'as-user-extra': {'test.example.com/thing.thing': ['A', 'a']}},
      expected: {'Impersonate-User': 'user', 'Impersonate-Extra-Test.example.com%2fthing.thing': ['A', 'a']},
    },
    {
      name: 'double escape handling',
      user: {as: 'user', 'as-user-extra': {'test.example.com/thing.thing%20another.thing': ['A', 'a']}},
      expected: {'Impersonate-User': 'user', 'Impersonate-Extra-Test.example.com%2fthing.thing%2520another.thing': ['A', 'a']},
    },
  ]
  for (const c of cases) test(c.name, () => assert.deepEqual(impersonationHeaders(configWith(c.user)), c.expected))

  test('headerKeyEscape: every byte outside the token characters, and %, as %XX of the UTF-8', () => {
    // By hand: ' ' 0x20, '/' 0x2F, '%' 0x25, 'é' UTF-8 C3 A9, ':' 0x3A; '!', '~', '|' are token characters.
    assert.equal(headerKeyEscape('a b/c%d'), 'a%20b%2Fc%25d')
    assert.equal(headerKeyEscape('é:x'), '%C3%A9%3Ax')
    assert.equal(headerKeyEscape('ok!~|'), 'ok!~|')
  })

  test('nothing to impersonate: no header', () => {
    assert.deepEqual(impersonationHeaders(configWith({token: 't'})), {})
    assert.deepEqual(impersonationHeaders(configWith(undefined)), {})
  })

  test('the flags over the kubeconfig: a non-empty flag replaces its field, --as-group the whole list; extra stays', () => {
    const user: UserEntry = {as: 'jane', 'as-uid': 'u-1', 'as-groups': ['dev', 'ops'], 'as-user-extra': {scopes: ['a']}}
    assert.deepEqual(impersonationHeaders(configWith(user), {groups: ['zz']}), {
      'Impersonate-User': 'jane',
      'Impersonate-Uid': 'u-1',
      'Impersonate-Group': ['zz'],
      'Impersonate-Extra-Scopes': ['a'],
    })
    assert.deepEqual(impersonationHeaders(configWith(user), {user: 'bob', uid: '9', groups: []}), {
      'Impersonate-User': 'bob',
      'Impersonate-Uid': '9',
      'Impersonate-Group': ['dev', 'ops'],
      'Impersonate-Extra-Scopes': ['a'],
    })
  })

  test('a uid, groups or extra without a user is refused in validation.go\'s words (kubectl v1.32: exit 1, "error: ...")', () => {
    const message = 'requesting uid, groups or user-extra for fake-apiserver-user without impersonating a user'
    for (const [user, flags] of [
      [{'as-groups': ['dev']}, {}],
      [{token: 't'}, {groups: ['g1']}],
      [{token: 't'}, {uid: '1'}],
      [{'as-user-extra': {k: ['v']}}, {}],
    ] as [UserEntry, object][])
      assert.throws(
        () => impersonationHeaders(configWith(user, 'fake-apiserver-user'), flags),
        (e: Error) => e instanceof UserError && e.message === message,
      )
  })

  test('a value with a control character is one line before any request (kubectl: invalid header field value)', () => {
    assert.throws(
      () => impersonationHeaders(configWith({}), {user: 'a\nb'}),
      (e: Error) =>
        e instanceof UserError && e.message.startsWith('invalid header field value for "Impersonate-User" (from --as)') && !e.message.includes('\n'),
    )
  })

  test('a value is sent as its UTF-8 bytes, as Go sends it (Node writes header text as latin1)', () => {
    // 'ë' is U+00EB, UTF-8 C3 AB: two characters of the latin1 text.
    assert.deepEqual(impersonationHeaders(configWith({as: 'zoë'})), {'Impersonate-User': 'zo\u00c3\u00ab'})
  })
})

describe('impersonation on the fake API server, next to kubectl', () => {
  let server: FakeApiServer
  let dir: string
  let n = 0
  const NODE = 'worker-1'
  before(async () => {
    server = await FakeApiServer.start({
      objects: [
        {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: {name: NODE},
          status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-29T10:00:00Z'}]},
        },
      ],
    })
    dir = mkdtempSync(join(tmpdir(), 'impersonation-'))
  })
  after(async () => server.close())

  const kubeconfig = (userFields: Record<string, unknown>) =>
    server.writeKubeconfig(dir, {fileName: `kubeconfig-${++n}`, userFields: {token: server.token, ...userFields}} satisfies KubeconfigOptions)

  function run(cmd: string, args: string[]): Promise<{code: number; stderr: string}> {
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, {env: {PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1'}})
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString()
      })
      child.stdout.resume()
      child.on('error', reject)
      child.on('close', (code) => resolve({code: code ?? -1, stderr}))
    })
  }

  /** The impersonation headers of every request a run sent: all alike, and returned once. */
  function sent(requests: RequestRecord[]): Record<string, string[]> {
    assert.ok(requests.length > 0, 'the run sent a request')
    const each = requests.map((r) => impersonateOf(r.rawHeaders))
    for (const h of each) assert.deepEqual(h, each[0], 'every request impersonates alike')
    return each[0]
  }

  const USER = {as: 'zoë', 'as-uid': 'u-1', 'as-groups': ['dev', 'ops'], 'as-user-extra': {scopes: ['a', 'b'], 'example.com/Odd key%': ['x']}}
  // By hand from round_trippers.go: the extra key escaped ('/' %2F, ' ' %20, '%' %25), the name lower-cased here
  // (HTTP names are case-insensitive; Node's server lowers nothing in rawHeaders, so compare lowered); 'ë' as UTF-8.
  const EXPECTED = {
    'impersonate-user': ['zo\u00c3\u00ab'],
    'impersonate-uid': ['u-1'],
    'impersonate-group': ['dev', 'ops'],
    'impersonate-extra-scopes': ['a', 'b'],
    'impersonate-extra-example.com%2fodd%20key%25': ['x'],
  }

  test("the kubeconfig user's as, as-uid, as-groups, as-user-extra reach the server from the live source", async () => {
    const file = kubeconfig(USER)
    server.clearRequests()
    const source = await LiveSource.open({kubeconfig: file, requestTimeout: 10_000, interactive: false}, {HOME: dir})
    await source.serverVersion()
    source.close?.()
    const got = sent(server.requests)
    const lowered = Object.fromEntries(Object.entries(got).map(([k, v]) => [k.toLowerCase(), v]))
    assert.deepEqual(lowered, EXPECTED)
  })

  test('kubectl-why node NAME sends what kubectl get node NAME sends: kubeconfig fields, then --as, --as-group, --as-uid', {skip: NO_KUBECTL}, async () => {
    const file = kubeconfig(USER)
    const flagSets = [[], ['--as', 'bob', '--as-group', 'g1', '--as-group', 'g2', '--as-uid', '9'], ['--as-group', 'zz']]
    for (const flags of flagSets) {
      server.clearRequests()
      const k = await run('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), ...flags, 'get', 'node', NODE, '-o', 'json'])
      assert.equal(k.code, 0, k.stderr)
      const kubectl = sent(server.requests)
      server.clearRequests()
      const w = await run(process.execPath, [BIN, 'node', NODE, '--kubeconfig', file, ...flags, '-o', 'json'])
      assert.ok(w.code === 0 || w.code === 1, w.stderr)
      assert.deepEqual(sent(server.requests), kubectl, `flags ${flags.join(' ') || '(none)'}`)
    }
    // Without any flag the headers are the kubeconfig's, as worked out by hand above.
    server.clearRequests()
    await run('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), 'get', 'node', NODE, '-o', 'json'])
    assert.deepEqual(sent(server.requests), EXPECTED)
  })

  test('a group without a user: kubectl and kubectl-why both refuse before any request', {skip: NO_KUBECTL}, async () => {
    const file = kubeconfig({})
    server.clearRequests()
    const k = await run('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), '--as-group', 'g1', 'get', 'node', NODE])
    assert.notEqual(k.code, 0)
    const w = await run(process.execPath, [BIN, 'node', NODE, '--kubeconfig', file, '--as-group', 'g1'])
    assert.equal(w.code, 2)
    assert.equal(server.requests.length, 0)
    const line = 'requesting uid, groups or user-extra for fake-apiserver-user without impersonating a user'
    assert.ok(k.stderr.includes(line), k.stderr)
    assert.ok(w.stderr.includes(line), w.stderr)
  })
})
