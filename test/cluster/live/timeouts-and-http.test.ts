// Timeouts as client-go has them, and plain http servers as kubectl accepts them. No assertion on elapsed time: a
// timeout is shown by the error it ends with and by how many requests were sent before it.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import net, {type AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {ApiClient} from '../../../src/cluster/live/api-client.js'
import {TLS_HANDSHAKE_TIMEOUT_MS} from '../../../src/cluster/live/connect.js'
import {effectiveTimeout, LiveSource} from '../../../src/cluster/live/live-source.js'
import {DEFAULT_UNATTENDED_TIMEOUT_MS} from '../../../src/cluster/source.js'
import {ReadError} from '../../../src/errors.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'
import {startHttpProxy, startSocks5Proxy, type TestProxy} from '../../support/proxy-server.js'

const KUBECTL = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'}).status === 0
const dir = mkdtempSync(join(tmpdir(), 'timeouts-'))
const noAuth = {current: async () => ({headers: {}, generation: 0}), refresh: async () => false, describe: 'nothing'}

/** Accepts TCP connections and never says a word: a TLS handshake that never completes. */
async function silentServer(): Promise<{url: string; close: () => void}> {
  const sockets: net.Socket[] = []
  const s = net.createServer((c) => sockets.push(c))
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return {
    url: `https://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () => {
      for (const c of sockets) c.destroy()
      s.close()
    },
  }
}

describe('timeouts', () => {
  test("the TLS handshake timeout is client-go's TLSHandshakeTimeout (10 s)", () => {
    assert.equal(TLS_HANDSHAKE_TIMEOUT_MS, 10_000)
  })

  test('a server that never completes TLS: the handshake timeout ends the request, without --request-timeout', async () => {
    const s = await silentServer()
    const c = new ApiClient(s.url, {rejectUnauthorized: true}, noAuth, {timeout: 0, handshakeTimeoutMs: 200})
    await assert.rejects(c.get('/version'), (e: Error) => e instanceof ReadError && e.reason === 'Unreachable' && /TLS handshake timeout/.test(e.message))
    c.close()
    s.close()
  })

  test('--request-timeout shorter than the handshake timeout wins (one deadline for the whole request)', async () => {
    const s = await silentServer()
    const c = new ApiClient(s.url, {rejectUnauthorized: true}, noAuth, {timeout: 300})
    await assert.rejects(c.get('/version'), (e: Error) => e instanceof ReadError && e.reason === 'Timeout' && /within 0.3s/.test(e.message))
    c.close()
    s.close()
  })

  test('once the server could not be reached, the next requests of the run fail at once with the same error', async () => {
    let connections = 0
    const sockets: net.Socket[] = []
    const silent = net.createServer((c) => {
      connections++
      sockets.push(c)
    })
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
    const c = new ApiClient(`https://127.0.0.1:${(silent.address() as AddressInfo).port}`, {rejectUnauthorized: true}, noAuth, {timeout: 300})
    const first = await c.get('/version').catch((e: Error) => e)
    assert.ok(first instanceof ReadError && first.reason === 'Timeout')
    const second = await c.get('/api/v1/nodes').catch((e: Error) => e)
    assert.equal(second, first)
    assert.equal(connections, 1, 'no second connection attempt')
    c.close()
    for (const s of sockets) s.destroy()
    silent.close()
  })

  describe('against the fake API server', () => {
    let server: FakeApiServer
    let kubeconfig: string
    before(async () => {
      server = await FakeApiServer.start({objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}]})
      kubeconfig = server.writeKubeconfig(dir)
    })
    after(async () => server.close())

    test('a server that stalls after TLS: --request-timeout ends it', async () => {
      const s = await LiveSource.open({kubeconfig, requestTimeout: 300})
      server.inject({path: '/api/v1/nodes', delayMs: 3000})
      await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && e.reason === 'Timeout')
      await s.close()
    })

    test('a server that answers slowly once (connected) is not taken for unreachable: the next request is sent', async () => {
      const s = await LiveSource.open({kubeconfig, requestTimeout: 300})
      await s.serverVersion() // connected
      server.inject({path: '/api/v1/nodes', delayMs: 3000})
      await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && e.reason === 'Timeout')
      assert.equal((await s.list({kind: 'Node'})).items.length, 1)
      await s.close()
    })

    test('a Retry-After longer than what is left of --request-timeout is not waited for: one request, then Timeout', async () => {
      const s = await LiveSource.open({kubeconfig, requestTimeout: 500})
      server.clearRequests()
      const fault = server.inject({path: '/api/v1/nodes', status: 429, retryAfterSeconds: 2, times: 5})
      await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && e.reason === 'Timeout')
      assert.equal(server.requests.filter((r) => r.path === '/api/v1/nodes').length, 1)
      fault.lift()
      await s.close()
    })
  })

  test('the default: none at a terminal, DEFAULT_UNATTENDED_TIMEOUT_MS (5 minutes) without one; a given value (0 too) always wins', () => {
    assert.equal(DEFAULT_UNATTENDED_TIMEOUT_MS, 300_000)
    assert.equal(effectiveTimeout(undefined, true), 0)
    assert.equal(effectiveTimeout(undefined, false), 300_000)
    assert.equal(effectiveTimeout(2000, false), 2000)
    assert.equal(effectiveTimeout(0, false), 0)
  })
})

describe('http:// servers (kubectl proxy)', () => {
  let server: FakeApiServer
  let proxy: TestProxy
  before(async () => {
    server = await FakeApiServer.start({plainHttp: true, objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}]})
    proxy = await startHttpProxy({hosts: {'apiserver.example': '127.0.0.1'}})
  })
  after(async () => Promise.all([server.close(), proxy.close()]))

  const kubectl = (file: string, env: NodeJS.ProcessEnv = {}) =>
    new Promise<number>((resolve) => {
      const child = spawn('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), 'get', '--raw', '/api/v1/nodes/n1'], {
        env: {PATH: process.env.PATH ?? '', HOME: dir, ...env},
        stdio: 'ignore',
      })
      child.on('close', (code) => resolve(code ?? -1))
    })

  test('a loopback http server is read without a warning, as through kubectl proxy, and no credentials are sent (kubectl sends none)', async () => {
    const file = server.writeKubeconfig(dir, {fileName: 'http-loopback', noCa: true, token: 'would-leak'})
    const warnings: string[] = []
    server.clearRequests()
    const s = await LiveSource.open({kubeconfig: file, requestTimeout: 10_000, warn: (l) => warnings.push(l)})
    assert.equal((await s.get({kind: 'Node', name: 'n1'}))?.metadata?.name, 'n1')
    await s.close()
    assert.deepEqual(warnings, [])
    assert.equal(server.requests[0].headers.authorization, undefined)
    if (KUBECTL) {
      server.clearRequests()
      assert.equal(await kubectl(file), 0)
      assert.ok(server.requests.length > 0 && server.requests.every((r) => r.headers.authorization === undefined), 'kubectl sent no token either')
    }
  })

  test('no user over http: no warning (anonymous is what http means)', async () => {
    const warnings: string[] = []
    const s = await LiveSource.open({
      kubeconfig: server.writeKubeconfig(dir, {fileName: 'http-no-user', noCa: true, userFields: null}),
      requestTimeout: 10_000,
      warn: (l) => warnings.push(l),
    })
    await s.close()
    assert.deepEqual(warnings, [])
  })

  test('a non-loopback http server: one warning that answers travel unencrypted; HTTP_PROXY forwards it (kubectl too)', async () => {
    const file = server.writeKubeconfig(dir, {fileName: 'http-remote', noCa: true, server: `http://apiserver.example:${new URL(server.url).port}`})
    const warnings: string[] = []
    const env = {HTTP_PROXY: proxy.url, HTTPS_PROXY: 'http://127.0.0.1:1'}
    const s = await LiveSource.open({kubeconfig: file, requestTimeout: 10_000, warn: (l) => warnings.push(l)}, env)
    assert.deepEqual(warnings, [
      `the API server http://apiserver.example:${new URL(server.url).port} is plain http: what it answers travels unencrypted (no credentials are sent over http, as kubectl sends none)`,
    ])
    assert.equal((await s.get({kind: 'Node', name: 'n1'}))?.metadata?.name, 'n1')
    await s.close()
    assert.deepEqual(
      proxy.log.map((l) => `${l.kind} ${l.target}`),
      [`forward http://apiserver.example:${new URL(server.url).port}/api/v1/nodes/n1`],
    )
    if (KUBECTL) {
      proxy.log.length = 0
      assert.equal(await kubectl(file, env), 0)
      assert.ok(
        proxy.log.some((l) => l.kind === 'forward' && l.target.endsWith('/api/v1/nodes/n1')),
        'kubectl forwarded through HTTP_PROXY too',
      )
    }
  })

  test('an http server through a SOCKS5 proxy-url (kubectl too)', async () => {
    const socks = await startSocks5Proxy()
    const file = server.writeKubeconfig(dir, {fileName: 'http-socks', noCa: true, clusterFields: {'proxy-url': socks.url}})
    const s = await LiveSource.open({kubeconfig: file, requestTimeout: 10_000, warn: () => {}})
    assert.equal((await s.get({kind: 'Node', name: 'n1'}))?.metadata?.name, 'n1')
    await s.close()
    assert.deepEqual(
      socks.log.map((l) => l.target),
      [`127.0.0.1:${new URL(server.url).port}`],
    )
    if (KUBECTL) {
      socks.log.length = 0
      assert.equal(await kubectl(file), 0)
      assert.ok(socks.log.length >= 1, 'kubectl went through the SOCKS5 proxy too')
    }
    await socks.close()
  })
})
