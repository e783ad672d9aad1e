// Network settings as kubectl honours them, checked on the same setup against the real kubectl when it is installed:
// proxy-url (http, socks5) and HTTPS_PROXY through real proxy processes (test/support/proxy-server.ts), proxy-url
// winning over the environment, loopback never proxied from the environment, NO_PROXY, tls-server-name and
// insecure-skip-tls-verify. Expected values are what client-go does (rest/transport.go, x/net/http/httpproxy), and
// each case asserts kubectl does the same, so a wrong expectation here would show as a kubectl disagreement.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import {FakeApiServer, type KubeconfigOptions} from '../../support/fake-apiserver/index.js'
import {startHttpProxy, startSocks5Proxy, type TestProxy} from '../../support/proxy-server.js'

const probe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const KUBECTL = probe.status === 0
if (!KUBECTL) console.log('# kubectl not on PATH: each case runs kubectl-why only, without the kubectl comparison')

let server: FakeApiServer
let httpProxy: TestProxy
let socksProxy: TestProxy
let tlsProxy: TestProxy
let dir: string
let n = 0
// The fake's certificate names kubernetes.default.svc; the proxies dial 127.0.0.1 for it. Not loopback by name, so
// clients do proxy it from the environment.
const NAME = 'kubernetes.default.svc'
const hosts = {[NAME]: '127.0.0.1'}

before(async () => {
  server = await FakeApiServer.start({objects: []})
  httpProxy = await startHttpProxy({hosts})
  socksProxy = await startSocks5Proxy({hosts})
  // An https proxy with the fake's own certificate: Go verifies the proxy with the kubeconfig's CA, so both clients trust it.
  const certs = new URL('../../support/fake-apiserver/certs/', import.meta.url)
  tlsProxy = await startHttpProxy({hosts, tls: {cert: readFileSync(new URL('server.crt', certs)), key: readFileSync(new URL('server.key', certs))}})
  dir = mkdtempSync(join(tmpdir(), 'network-'))
})
after(async () => {
  await Promise.all([server.close(), httpProxy.close(), socksProxy.close(), tlsProxy.close()])
})

const port = () => new URL(server.url).port
const kubeconfig = (o: KubeconfigOptions) => server.writeKubeconfig(dir, {fileName: `kubeconfig-${++n}`, ...o})
const clearLogs = () => {
  httpProxy.log.length = 0
  socksProxy.log.length = 0
  tlsProxy.log.length = 0
}

interface Outcome {
  ok: boolean
  error: string
}

async function ours(file: string, env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  try {
    const s = await LiveSource.open({kubeconfig: file, requestTimeout: 10_000, interactive: true, warn: () => {}}, {HOME: dir, ...env})
    try {
      await s.serverVersion()
      return {ok: true, error: ''}
    } finally {
      await s.close()
    }
  } catch (err) {
    return {ok: false, error: (err as Error).message}
  }
}

function kubectl(file: string, env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), '--request-timeout', '10s', 'get', '--raw', '/version'], {
      env: {PATH: process.env.PATH ?? '', HOME: dir, ...env},
    })
    const err: Buffer[] = []
    child.stderr.on('data', (d: Buffer) => err.push(d))
    child.stdout.resume()
    child.on('close', (code) => resolve({ok: code === 0, error: Buffer.concat(err).toString('utf8')}))
  })
}

/** Both clients on the same kubeconfig and environment; returns what each proxy saw for each. */
async function both(file: string, env: NodeJS.ProcessEnv = {}) {
  clearLogs()
  const a = await ours(file, env)
  const oursLog = {http: [...httpProxy.log], socks: [...socksProxy.log], tls: [...tlsProxy.log]}
  clearLogs()
  const k = KUBECTL ? await kubectl(file, env) : undefined
  const kubectlLog = {http: [...httpProxy.log], socks: [...socksProxy.log], tls: [...tlsProxy.log]}
  return {ours: a, oursLog, kubectl: k, kubectlLog}
}

describe('proxies', () => {
  test('proxy-url http: an https server is reached through CONNECT, loopback included', async () => {
    const r = await both(kubeconfig({clusterFields: {'proxy-url': httpProxy.url}}))
    assert.ok(r.ours.ok, r.ours.error)
    assert.deepEqual(
      r.oursLog.http.map((l) => `${l.kind} ${l.target}`),
      [`CONNECT 127.0.0.1:${port()}`],
    )
    if (r.kubectl) {
      assert.ok(r.kubectl.ok, r.kubectl.error)
      assert.ok(r.kubectlLog.http.length >= 1 && r.kubectlLog.http.every((l) => l.target === `127.0.0.1:${port()}`), 'kubectl went through the proxy too')
    }
  })

  test('proxy-url socks5: through the SOCKS5 proxy', async () => {
    const r = await both(kubeconfig({clusterFields: {'proxy-url': socksProxy.url}}))
    assert.ok(r.ours.ok, r.ours.error)
    assert.deepEqual(
      r.oursLog.socks.map((l) => l.target),
      [`127.0.0.1:${port()}`],
    )
    if (r.kubectl) {
      assert.ok(r.kubectl.ok, r.kubectl.error)
      assert.ok(r.kubectlLog.socks.length >= 1, 'kubectl went through the SOCKS5 proxy too')
    }
  })

  test('proxy-url https: TLS to the proxy (trusted through the kubeconfig CA), then CONNECT', async () => {
    const r = await both(kubeconfig({clusterFields: {'proxy-url': tlsProxy.url}}))
    assert.ok(r.ours.ok, r.ours.error)
    assert.deepEqual(
      r.oursLog.tls.map((l) => `${l.kind} ${l.target}`),
      [`CONNECT 127.0.0.1:${port()}`],
    )
    if (r.kubectl) {
      assert.ok(r.kubectl.ok, r.kubectl.error)
      assert.ok(r.kubectlLog.tls.length >= 1, 'kubectl went through the https proxy too')
    }
  })

  test('HTTPS_PROXY from the environment: a server named by a non-loopback name goes through it', async () => {
    const file = kubeconfig({server: `https://${NAME}:${port()}`})
    for (const variable of ['HTTPS_PROXY', 'https_proxy']) {
      const r = await both(file, {[variable]: httpProxy.url})
      assert.ok(r.ours.ok, `${variable}: ${r.ours.error}`)
      assert.deepEqual(
        r.oursLog.http.map((l) => `${l.kind} ${l.target}`),
        [`CONNECT ${NAME}:${port()}`],
        variable,
      )
      if (r.kubectl) {
        assert.ok(r.kubectl.ok, r.kubectl.error)
        assert.ok(r.kubectlLog.http.length >= 1 && r.kubectlLog.http.every((l) => l.target === `${NAME}:${port()}`), `kubectl used ${variable} too`)
      }
    }
  })

  test('HTTPS_PROXY is not used for a loopback server (httpproxy useProxy)', async () => {
    const r = await both(kubeconfig({}), {HTTPS_PROXY: httpProxy.url})
    assert.ok(r.ours.ok, r.ours.error)
    assert.deepEqual(r.oursLog.http, [])
    if (r.kubectl) {
      assert.ok(r.kubectl.ok, r.kubectl.error)
      assert.deepEqual(r.kubectlLog.http, [])
    }
  })

  test('NO_PROXY (a domain suffix) exempts the server: a direct connection, here to a name that does not resolve', async () => {
    const file = kubeconfig({server: `https://${NAME}:${port()}`})
    for (const noProxy of ['.svc', 'kubernetes.default.svc', `other.example, ${NAME}:${port()}`]) {
      const r = await both(file, {HTTPS_PROXY: httpProxy.url, NO_PROXY: noProxy})
      assert.equal(r.ours.ok, false, noProxy)
      assert.deepEqual(r.oursLog.http, [], `NO_PROXY=${noProxy}: not proxied`)
      if (r.kubectl) {
        assert.equal(r.kubectl.ok, false)
        assert.deepEqual(r.kubectlLog.http, [], `kubectl with NO_PROXY=${noProxy}: not proxied`)
      }
    }
  })

  test('proxy-url wins over HTTPS_PROXY', async () => {
    const r = await both(kubeconfig({server: `https://${NAME}:${port()}`, clusterFields: {'proxy-url': socksProxy.url}}), {HTTPS_PROXY: httpProxy.url})
    assert.ok(r.ours.ok, r.ours.error)
    assert.deepEqual(r.oursLog.http, [])
    assert.deepEqual(
      r.oursLog.socks.map((l) => l.target),
      [`${NAME}:${port()}`],
    )
    if (r.kubectl) {
      assert.ok(r.kubectl.ok, r.kubectl.error)
      assert.deepEqual(r.kubectlLog.http, [])
      assert.ok(r.kubectlLog.socks.length >= 1)
    }
  })
})

describe('TLS settings', () => {
  test('tls-server-name: the name checked against the certificate instead of the address', async () => {
    const good = await both(kubeconfig({clusterFields: {'tls-server-name': 'kubernetes'}}))
    assert.ok(good.ours.ok, good.ours.error)
    if (good.kubectl) assert.ok(good.kubectl.ok, good.kubectl.error)
    const bad = await both(kubeconfig({clusterFields: {'tls-server-name': 'wrong.example'}}))
    assert.equal(bad.ours.ok, false)
    assert.match(bad.ours.error, /certificate does not match the host|wrong\.example/)
    if (bad.kubectl) {
      assert.equal(bad.kubectl.ok, false)
      assert.match(bad.kubectl.error, /wrong\.example/)
    }
  })

  test('insecure-skip-tls-verify without a CA: the unknown certificate is accepted', async () => {
    const r = await both(kubeconfig({noCa: true, clusterFields: {'insecure-skip-tls-verify': true}}))
    assert.ok(r.ours.ok, r.ours.error)
    if (r.kubectl) assert.ok(r.kubectl.ok, r.kubectl.error)
  })

  test('without a CA and without insecure-skip-tls-verify, the certificate is not trusted', async () => {
    const r = await both(kubeconfig({noCa: true}))
    assert.equal(r.ours.ok, false)
    assert.match(r.ours.error, /not trusted/)
    if (r.kubectl) assert.equal(r.kubectl.ok, false)
  })

  test("insecure-skip-tls-verify with a CA is refused, with kubectl's words", async () => {
    const r = await both(kubeconfig({clusterFields: {'insecure-skip-tls-verify': true}}))
    assert.equal(r.ours.ok, false)
    assert.equal(r.ours.error, 'specifying a root certificates file with the insecure flag is not allowed')
    if (r.kubectl) {
      assert.equal(r.kubectl.ok, false)
      assert.match(r.kubectl.error, /specifying a root certificates file with the insecure flag is not allowed/)
    }
  })
})
