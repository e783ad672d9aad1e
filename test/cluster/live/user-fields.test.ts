// Every field of a kubeconfig user that kubectl honours, and what the client sends for it: a field the client drops
// (or sends differently) fails here. The fields are clientcmd's AuthInfo (tools/clientcmd/api/v1/types.go, by their
// JSON names); each has a case below, and a test holds the two lists together. A server that asks for a client
// certificate records, per request, the Authorization and Impersonate-* headers and the certificate presented; the
// expected values are worked out by hand in each case, and, where kubectl is on PATH, kubectl must send the same.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {createHash, X509Certificate} from 'node:crypto'
import {chmodSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import https from 'node:https'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {TLSSocket} from 'node:tls'
import {after, before, describe, test} from 'node:test'
import {LiveSource} from '../../../src/cluster/live/live-source.js'

const probe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const NO_KUBECTL = probe.status === 0 ? false : 'no kubectl on PATH: the side-by-side check needs the real client'

// clientcmd api/v1 AuthInfo's fields, as its JSON tags spell them (types.go, type AuthInfo struct).
const AUTH_INFO_FIELDS = [
  'client-certificate',
  'client-certificate-data',
  'client-key',
  'client-key-data',
  'token',
  'tokenFile',
  'as',
  'as-uid',
  'as-groups',
  'as-user-extra',
  'username',
  'password',
  'auth-provider',
  'exec',
  'extensions',
]

const CERTS = new URL('../../support/fake-apiserver/certs/', import.meta.url)
const CA = readFileSync(new URL('ca.crt', CERTS))
// The serving certificate doubles as the client certificate: the test CA signed it, and that is all this server asks.
const CERT = readFileSync(new URL('server.crt', CERTS))
const KEY = readFileSync(new URL('server.key', CERTS))
const CERT_FINGERPRINT = new X509Certificate(CERT).fingerprint256

/** What one request carried that says who is asking. */
interface Seen {
  authorization?: string
  impersonate: [string, string][]
  cert?: string
}

let server: https.Server
let url: string
let dir: string
let seen: Seen[] = []

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'user-fields-'))
  server = https.createServer({key: KEY, cert: CERT, ca: CA, requestCert: true, rejectUnauthorized: false}, (req, res) => {
    const impersonate: [string, string][] = []
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (req.rawHeaders[i].toLowerCase().startsWith('impersonate-')) impersonate.push([req.rawHeaders[i].toLowerCase(), req.rawHeaders[i + 1]])
    const peer = (req.socket as TLSSocket).getPeerCertificate()
    seen.push({authorization: req.headers.authorization, impersonate, cert: peer?.fingerprint256 || undefined})
    res.writeHead(200, {'Content-Type': 'application/json'})
    res.end(JSON.stringify({major: '1', minor: '32', gitVersion: 'v1.32.4', platform: 'linux/amd64'}))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(() => server.close())

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64')
const jwt = (exp: number) => `${b64('{"alg":"none"}')}.${Buffer.from(JSON.stringify({exp})).toString('base64url')}.sig`
const ID_TOKEN = jwt(4_102_444_800) // 2100-01-01

let n = 0
function kubeconfig(user: Record<string, unknown>): string {
  const file = join(dir, `kubeconfig-${++n}`)
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{name: 'c', cluster: {server: url, 'certificate-authority-data': b64(CA)}}],
    contexts: [{name: 'c', context: {cluster: 'c', user: 'u'}}],
    'current-context': 'c',
    users: [{name: 'u', user}],
  }
  writeFileSync(file, JSON.stringify(doc)) // JSON is YAML
  return file
}

interface Case {
  field: string
  user: () => Record<string, unknown>
  expected: Seen
}

const cases: Case[] = [
  {field: 'token', user: () => ({token: 't-1'}), expected: {authorization: 'Bearer t-1', impersonate: []}},
  {
    field: 'tokenFile',
    user: () => {
      const f = join(dir, 'token')
      writeFileSync(f, 't-2\n')
      return {tokenFile: f}
    },
    // client-go's CachedFileTokenSource trims what it reads.
    expected: {authorization: 'Bearer t-2', impersonate: []},
  },
  {field: 'username', user: () => ({username: 'ann', password: 'pw'}), expected: {authorization: `Basic ${b64('ann:pw')}`, impersonate: []}},
  // (A password without a username makes kubectl prompt for one: not a case of what is sent.)
  {field: 'password', user: () => ({username: 'bob', password: 'p:w'}), expected: {authorization: `Basic ${b64('bob:p:w')}`, impersonate: []}},
  {
    field: 'client-certificate',
    user: () => {
      writeFileSync(join(dir, 'client.crt'), CERT)
      writeFileSync(join(dir, 'client.key'), KEY)
      return {'client-certificate': join(dir, 'client.crt'), 'client-key': join(dir, 'client.key')}
    },
    expected: {impersonate: [], cert: CERT_FINGERPRINT},
  },
  {
    field: 'client-key',
    user: () => ({'client-certificate-data': b64(CERT), 'client-key': join(dir, 'client.key')}),
    expected: {impersonate: [], cert: CERT_FINGERPRINT},
  },
  {
    field: 'client-certificate-data',
    user: () => ({'client-certificate-data': b64(CERT), 'client-key-data': b64(KEY)}),
    expected: {impersonate: [], cert: CERT_FINGERPRINT},
  },
  {
    field: 'client-key-data',
    user: () => ({'client-certificate': join(dir, 'client.crt'), 'client-key-data': b64(KEY)}),
    expected: {impersonate: [], cert: CERT_FINGERPRINT},
  },
  {field: 'as', user: () => ({token: 't', as: 'jane'}), expected: {authorization: 'Bearer t', impersonate: [['impersonate-user', 'jane']]}},
  {
    field: 'as-uid',
    user: () => ({token: 't', as: 'jane', 'as-uid': '42'}),
    expected: {
      authorization: 'Bearer t',
      impersonate: [
        ['impersonate-user', 'jane'],
        ['impersonate-uid', '42'],
      ],
    },
  },
  {
    field: 'as-groups',
    user: () => ({token: 't', as: 'jane', 'as-groups': ['a', 'b']}),
    expected: {
      authorization: 'Bearer t',
      impersonate: [
        ['impersonate-user', 'jane'],
        ['impersonate-group', 'a'],
        ['impersonate-group', 'b'],
      ],
    },
  },
  {
    field: 'as-user-extra',
    user: () => ({token: 't', as: 'jane', 'as-user-extra': {'reason/why': ['on call', 'x']}}),
    expected: {
      authorization: 'Bearer t',
      impersonate: [
        ['impersonate-user', 'jane'],
        ['impersonate-extra-reason%2fwhy', 'on call'],
        ['impersonate-extra-reason%2fwhy', 'x'],
      ],
    },
  },
  {
    field: 'exec',
    user: () => {
      const plugin = join(dir, 'plugin')
      writeFileSync(plugin, `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin"}}'\n`)
      chmodSync(plugin, 0o755)
      return {exec: {apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never'}}
    },
    expected: {authorization: 'Bearer from-plugin', impersonate: []},
  },
  {
    field: 'auth-provider',
    user: () => ({'auth-provider': {name: 'oidc', config: {'idp-issuer-url': 'https://issuer.invalid', 'client-id': 'k', 'id-token': ID_TOKEN}}}),
    expected: {authorization: `Bearer ${ID_TOKEN}`, impersonate: []},
  },
  // Extensions are for tools that write the file: nothing is sent for them.
  {field: 'extensions', user: () => ({token: 't', extensions: [{name: 'x', extension: {a: 1}}]}), expected: {authorization: 'Bearer t', impersonate: []}},
]

function kubectl(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), 'get', '--raw', '/version'], {
      env: {PATH: process.env.PATH ?? '', HOME: dir},
      stdio: 'ignore',
    })
    child.on('error', reject)
    child.on('close', (code) => resolve(code ?? -1))
  })
}

/** Impersonate-* in a fixed order (names sorted, values in the order sent): Go writes headers sorted by name. */
const ordered = (s: Seen): Seen => ({
  ...(s.authorization === undefined ? {} : {authorization: s.authorization}),
  impersonate: [...s.impersonate].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  ...(s.cert === undefined ? {} : {cert: s.cert}),
})

describe('kubeconfig user fields: what is sent for each', () => {
  test('every AuthInfo field has a case', () => {
    assert.deepEqual([...new Set(cases.map((c) => c.field))].sort(), [...AUTH_INFO_FIELDS].sort())
  })

  for (const c of cases) {
    test(`${c.field}: the live source sends it`, async () => {
      const file = kubeconfig(c.user())
      seen = []
      const source = await LiveSource.open({kubeconfig: file, requestTimeout: 10_000, interactive: false}, {HOME: dir, PATH: process.env.PATH})
      await source.serverVersion()
      assert.equal(seen.length, 1)
      assert.deepEqual(ordered(seen[0]), ordered(c.expected))
    })

    test(`${c.field}: kubectl sends the same`, {skip: NO_KUBECTL}, async () => {
      const file = kubeconfig(c.user())
      seen = []
      assert.equal(await kubectl(file), 0)
      assert.ok(seen.length >= 1)
      assert.deepEqual(ordered(seen[0]), ordered(c.expected))
    })
  }
})

test('the fingerprint the server sees is the certificate file (sanity of the probe)', () => {
  const der = new X509Certificate(CERT).raw
  const hex = createHash('sha256').update(der).digest('hex').toUpperCase()
  assert.equal(CERT_FINGERPRINT.replaceAll(':', ''), hex)
})
