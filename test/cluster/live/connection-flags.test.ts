// kubectl's connection flags (--user, --cluster, -s/--server, --token, --certificate-authority,
// --insecure-skip-tls-verify, --tls-server-name, --client-certificate, --client-key, --username, --password) over the
// kubeconfig, as client-go v0.32.4 tools/clientcmd/client_config.go merges ConfigOverrides into DirectClientConfig.
// The expected entries are worked out by hand from getCluster:542-587 and getAuthInfo:520-539; where kubectl is on
// PATH, kubectl and kubectl-why are run with the same flags against one fake API server (which asks for a client
// certificate) and must send the same credentials (compared, never printed) or both refuse before any request.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {createHash, X509Certificate} from 'node:crypto'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {applyConnectionOverrides, type ClusterEntry, inClusterOverrides, type ResolvedConfig, resolveKubeconfig} from '../../../src/cluster/live/kubeconfig.js'
import {UserError} from '../../../src/errors.js'
import {FakeApiServer, type RequestRecord} from '../../support/fake-apiserver/index.js'

const probe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const NO_KUBECTL = probe.status === 0 ? false : 'no kubectl on PATH: the side-by-side check needs the real client'
const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))
const CERTS = new URL('../../support/fake-apiserver/certs/', import.meta.url)
const CA_FILE = fileURLToPath(new URL('ca.crt', CERTS))
const CA_DATA = readFileSync(CA_FILE).toString('base64')
// The serving certificate doubles as a client certificate: the fake server takes any.
const CERT_FILE = fileURLToPath(new URL('server.crt', CERTS))
const KEY_FILE = fileURLToPath(new URL('server.key', CERTS))
const CERT_FINGERPRINT = new X509Certificate(readFileSync(CERT_FILE)).fingerprint256

const dir = mkdtempSync(join(tmpdir(), 'connection-flags-'))
const NO_FILES = {HOME: dir, KUBECONFIG: join(dir, 'none')}

function kubeconfigFile(name: string, doc: unknown): string {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(doc)) // JSON is YAML
  return file
}

describe('the flags over the kubeconfig entries (client_config.go getCluster, getAuthInfo)', () => {
  const cluster: ClusterEntry = {server: 'https://a.example:6443', 'certificate-authority-data': 'Q0E=', 'tls-server-name': 'a-name'}

  test('a flag replaces its field; fields the flags do not name stay', () => {
    const {cluster: c, user: u} = applyConnectionOverrides(cluster, {token: 'old', tokenFile: '/var/t', as: 'jane'}, {token: 'new'})
    assert.deepEqual(c, cluster)
    // mergo.WithOverride: TokenFile "" in the overrides leaves the kubeconfig's, which bearerAuthRoundTripper prefers.
    assert.deepEqual(u, {token: 'new', tokenFile: '/var/t', as: 'jane'})
  })

  test('--insecure-skip-tls-verify clears the CA file and data (getCluster:571-575)', () => {
    const {cluster: c} = applyConnectionOverrides({...cluster, 'certificate-authority': '/ca'}, undefined, {'insecure-skip-tls-verify': true})
    assert.deepEqual(c, {server: 'https://a.example:6443', 'tls-server-name': 'a-name', 'insecure-skip-tls-verify': true})
  })

  test('--certificate-authority beats certificate-authority-data and a kubeconfig insecure-skip-tls-verify', () => {
    const {cluster: c} = applyConnectionOverrides({...cluster, 'insecure-skip-tls-verify': true}, undefined, {'certificate-authority': '/etc/ca.crt'})
    assert.deepEqual(c, {
      server: 'https://a.example:6443',
      'tls-server-name': 'a-name',
      'insecure-skip-tls-verify': false,
      'certificate-authority': '/etc/ca.crt',
    })
  })

  test('--server alone clears tls-server-name; --tls-server-name sets it (getCluster:581-583)', () => {
    assert.equal(applyConnectionOverrides(cluster, undefined, {server: 'https://b:1'}).cluster['tls-server-name'], undefined)
    assert.equal(applyConnectionOverrides(cluster, undefined, {server: 'https://b:1', 'tls-server-name': 'b-name'}).cluster['tls-server-name'], 'b-name')
    assert.equal(applyConnectionOverrides(cluster, undefined, {'tls-server-name': 'c'}).cluster['tls-server-name'], 'c')
  })

  const doc = {
    clusters: [
      {name: 'c1', cluster: {server: 'https://one:6443'}},
      {name: 'c2', cluster: {server: 'https://two:6443'}},
    ],
    users: [
      {name: 'u1', user: {token: 't1'}},
      {name: 'u2', user: {token: 't2'}},
    ],
    contexts: [
      {name: 'ctx', context: {cluster: 'c1', user: 'u1', namespace: 'shop'}},
      {name: 'nouser', context: {cluster: 'c1'}},
    ],
    'current-context': 'ctx',
  }

  test('--user and --cluster pick other entries than the context names; the context keeps its namespace', () => {
    const file = kubeconfigFile('two', doc)
    const r = resolveKubeconfig({kubeconfig: file, overrides: {user: 'u2', cluster: 'c2'}}, NO_FILES)!
    assert.equal(r.server, 'https://two:6443')
    assert.deepEqual(r.user, {token: 't2'})
    assert.equal(r.userName, 'u2')
    assert.equal(r.namespace, 'shop')
  })

  test("a --user or --cluster the kubeconfig lacks is refused in clientcmd's words", () => {
    const file = kubeconfigFile('two', doc)
    assert.throws(
      () => resolveKubeconfig({kubeconfig: file, overrides: {user: 'nobody'}}, NO_FILES),
      (e: Error) => e instanceof UserError && e.message.startsWith('auth info "nobody" does not exist'),
    )
    assert.throws(
      () => resolveKubeconfig({kubeconfig: file, overrides: {cluster: 'nowhere'}}, NO_FILES),
      (e: Error) => e instanceof UserError && e.message.startsWith('no server found for cluster "nowhere"'),
    )
    assert.throws(
      () => resolveKubeconfig({kubeconfig: file, overrides: {cluster: 'nowhere', server: 'https://x:1'}}, NO_FILES),
      (e: Error) => e instanceof UserError && e.message.startsWith('cluster "nowhere" does not exist'),
    )
  })

  test('--token on a context without a user: the flags make the user (getAuthInfo merges into an empty AuthInfo)', () => {
    const file = kubeconfigFile('two', doc)
    assert.deepEqual(resolveKubeconfig({kubeconfig: file, context: 'nouser', overrides: {token: 'x'}}, NO_FILES)!.user, {token: 'x'})
    assert.equal(resolveKubeconfig({kubeconfig: file, context: 'nouser'}, NO_FILES)!.user, undefined)
  })

  test('--server needs no kubeconfig file; without it there is none to resolve', () => {
    const r = resolveKubeconfig({overrides: {server: 'https://10.0.0.1:6443', token: 'x'}}, NO_FILES)!
    assert.equal(r.server, 'https://10.0.0.1:6443')
    assert.deepEqual(r.user, {token: 'x'})
    assert.equal(r.namespace, 'default')
    assert.equal(resolveKubeconfig({overrides: {token: 'x'}}, NO_FILES), undefined)
  })

  test('in a pod only --server, --token and --certificate-authority count (inClusterClientConfig.ClientConfig:613-626)', () => {
    const base = {
      server: 'https://10.96.0.1:443',
      cluster: {server: 'https://10.96.0.1:443', 'certificate-authority': '/sa/ca.crt'},
      user: {tokenFile: '/sa/token'},
    } as unknown as ResolvedConfig
    const r = inClusterOverrides(base, {token: 'x', user: 'ignored', 'tls-server-name': 'ignored'})
    assert.deepEqual(r.user, {token: 'x'})
    assert.deepEqual(r.cluster, base.cluster)
  })
})

describe('connection flags next to kubectl on the fake API server', () => {
  let server: FakeApiServer
  let file: string
  before(async () => {
    server = await FakeApiServer.start({
      clientCertificates: true,
      objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'worker-1'}, status: {conditions: [{type: 'Ready', status: 'True'}]}}],
    })
    const localhost = server.url.replace('127.0.0.1', 'localhost')
    file = kubeconfigFile('side-by-side', {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {name: 'main', cluster: {server: server.url, 'certificate-authority-data': CA_DATA}},
        // The certificate holds DNS:kubernetes; reached at 127.0.0.1 it verifies only with that name asked for.
        {name: 'named', cluster: {server: server.url, 'certificate-authority': CA_FILE, 'tls-server-name': 'kubernetes'}},
        {name: 'no-ca', cluster: {server: localhost}},
      ],
      users: [
        {name: 'main', user: {token: server.token}},
        {name: 'other', user: {token: 'other-token'}},
        {name: 'empty', user: {}},
      ],
      contexts: [{name: 'main', context: {cluster: 'main', user: 'main'}}],
      'current-context': 'main',
    })
  })
  after(async () => server.close())

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

  /** Who each request says it is: a digest of Authorization (never the credential itself) and the certificate. */
  const identity = (r: RequestRecord) => ({
    authorization: r.headers.authorization === undefined ? undefined : createHash('sha256').update(r.headers.authorization).digest('hex').slice(0, 16),
    scheme: r.headers.authorization?.split(' ')[0],
    cert: r.clientCert,
  })
  function sent(requests: RequestRecord[]) {
    const each = requests.map(identity)
    for (const x of each) assert.deepEqual(x, each[0], 'every request sends the same credentials')
    return each[0]
  }
  const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16)

  const cases: {flags: string[]; expected: ReturnType<typeof identity> | 'refused'; kubectlSays?: string}[] = [
    {flags: [], expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: undefined}},
    {flags: ['--user', 'other'], expected: {authorization: digest('Bearer other-token'), scheme: 'Bearer', cert: undefined}},
    {
      flags: ['--user', 'other', '--token', 'fake-apiserver-token'],
      expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: undefined},
    },
    {
      flags: ['--user', 'empty', '--username', 'ann', '--password', 'pw'],
      expected: {authorization: digest(`Basic ${Buffer.from('ann:pw').toString('base64')}`), scheme: 'Basic', cert: undefined},
    },
    {
      flags: ['--client-certificate', CERT_FILE, '--client-key', KEY_FILE],
      expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: CERT_FINGERPRINT},
    },
    {flags: ['--cluster', 'named'], expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: undefined}},
    // Through localhost without a CA: verified by --certificate-authority, or not at all.
    {
      flags: ['--cluster', 'no-ca', '--certificate-authority', CA_FILE],
      expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: undefined},
    },
    // The kubeconfig's CA data is cleared by the flag: no "specifying a root certificates file with the insecure flag".
    {flags: ['--insecure-skip-tls-verify'], expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: undefined}},
    {flags: ['--server', 'placeholder-localhost'], expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: undefined}},
    {flags: ['--tls-server-name', 'kubernetes.default'], expected: {authorization: digest('Bearer fake-apiserver-token'), scheme: 'Bearer', cert: undefined}},
    // A name the certificate does not hold: TLS fails for both, no request arrives.
    {flags: ['--tls-server-name', 'not-in-the-cert.example'], expected: 'refused'},
    {flags: ['--user', 'nobody'], expected: 'refused', kubectlSays: 'auth info "nobody" does not exist'},
    {flags: ['--cluster', 'nowhere'], expected: 'refused', kubectlSays: 'no server found for cluster "nowhere"'},
    // Basic and a token for one user: clientcmd validation refuses it, and so do we.
    {flags: ['--username', 'ann', '--password', 'pw'], expected: 'refused'},
  ]

  for (const c of cases) {
    test(`${c.flags.filter((f) => !f.startsWith('/')).join(' ') || '(no flag)'}: the same credentials as kubectl`, {skip: NO_KUBECTL}, async () => {
      const flags = c.flags.map((f) => (f === 'placeholder-localhost' ? server.url.replace('127.0.0.1', 'localhost') : f))
      server.clearRequests()
      const k = await run('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), ...flags, 'get', 'node', 'worker-1', '-o', 'json'])
      // This machine's kubectl may be a version dispatcher, whose own /version request is not kubectl's.
      const kubectl = server.requests.filter((r) => String(r.headers['user-agent']).startsWith('kubectl/'))
      server.clearRequests()
      const w = await run(process.execPath, [BIN, 'node', 'worker-1', '--kubeconfig', file, ...flags, '-o', 'json', '--request-timeout', '20s'])
      const why = [...server.requests]
      if (c.expected === 'refused') {
        assert.notEqual(k.code, 0, k.stderr)
        assert.equal(w.code, 2, w.stderr)
        assert.equal(kubectl.length, 0, 'kubectl sent nothing')
        assert.equal(why.length, 0, 'kubectl-why sent nothing')
        assert.equal(w.stderr.trim().split('\n').length <= 2, true, w.stderr)
        if (c.kubectlSays) {
          assert.ok(k.stderr.includes(c.kubectlSays), k.stderr)
          assert.ok(w.stderr.includes(c.kubectlSays), w.stderr)
        }
        return
      }
      assert.ok(kubectl.length > 0 && why.length > 0, `${k.stderr}\n${w.stderr}`)
      assert.deepEqual(sent(kubectl), c.expected, 'kubectl sends what was worked out')
      assert.deepEqual(sent(why), c.expected, w.stderr)
      if (c.expected.authorization === digest('Bearer fake-apiserver-token')) {
        assert.equal(k.code, 0, k.stderr)
        assert.ok(w.code === 0 || w.code === 1, w.stderr)
      }
    })
  }
})
