// Network deadlines as client-go's: a request whose server completed TLS and then says nothing ends as kubectl's does
// (its HTTP/2 health check: 30 s without a frame, then 15 s for a ping's answer — apimachinery pkg/util/net/http.go),
// at a terminal too, where --request-timeout is none by default; and --request-timeout bounded to what a timer can
// hold. No assertion on elapsed time: a deadline is shown by the error it ends with and by the requests sent.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {READ_IDLE_MS, readIdleFromEnv} from '../../../src/cluster/live/api-client.js'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import {ReadError, UserError} from '../../../src/errors.js'
import {MAX_TIMER_MS, parseDuration} from '../../../src/util/parse.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'

const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))

describe('the read-idle deadline (client-go HTTP/2 health check)', () => {
  test('45 s by default: ReadIdleTimeout 30 s + PingTimeout 15 s; the environment variables kubectl reads change it', () => {
    assert.equal(READ_IDLE_MS, 45_000)
    assert.equal(readIdleFromEnv({}), 45_000)
    assert.equal(readIdleFromEnv({HTTP2_READ_IDLE_TIMEOUT_SECONDS: '10'}), 25_000)
    assert.equal(readIdleFromEnv({HTTP2_READ_IDLE_TIMEOUT_SECONDS: '10', HTTP2_PING_TIMEOUT_SECONDS: '2'}), 12_000)
    // 0 turns the health check off (readIdleTimeoutSeconds: "User can set the readIdleTimeout to 0 to disable").
    assert.equal(readIdleFromEnv({HTTP2_READ_IDLE_TIMEOUT_SECONDS: '0'}), 0)
    // Not an integer: client-go warns and keeps the default.
    assert.equal(readIdleFromEnv({HTTP2_READ_IDLE_TIMEOUT_SECONDS: 'soon', HTTP2_PING_TIMEOUT_SECONDS: '1.5'}), 45_000)
  })

  describe('against the fake API server', () => {
    let server: FakeApiServer
    let kubeconfig: string
    const dir = mkdtempSync(join(tmpdir(), 'deadlines-'))
    before(async () => {
      server = await FakeApiServer.start({objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}]})
      kubeconfig = server.writeKubeconfig(dir)
    })
    after(async () => server.close())

    // A 1 s read-idle deadline (read-idle 1 s, ping 0 s) and a server that holds its answer 5 s.
    const env = {HOME: dir, HTTP2_READ_IDLE_TIMEOUT_SECONDS: '1', HTTP2_PING_TIMEOUT_SECONDS: '0'}

    test('at a terminal (no --request-timeout): a server silent after TLS ends the request as connection lost', async () => {
      const s = await LiveSource.open({kubeconfig, interactive: true}, env)
      await s.serverVersion() // connected: TLS is through
      server.clearRequests()
      const fault = server.inject({path: '/api/v1/nodes', delayMs: 5000})
      await assert.rejects(
        s.list({kind: 'Node'}),
        (e: Error) => e instanceof ReadError && e.reason === 'Unreachable' && /connection lost: no answer for 1s/.test(e.message),
      )
      // The run's next read is not another wait: the server was given up on.
      await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && /connection lost/.test(e.message))
      assert.equal(server.requests.filter((r) => r.path === '/api/v1/nodes').length, 1)
      fault.lift()
      await s.close()
    })

    test('a server that answers within the deadline is read as before', async () => {
      const s = await LiveSource.open({kubeconfig, interactive: true}, env)
      const fault = server.inject({path: '/api/v1/nodes', delayMs: 200})
      assert.equal((await s.list({kind: 'Node'})).items.length, 1)
      fault.lift()
      await s.close()
    })

    test('HTTP2_READ_IDLE_TIMEOUT_SECONDS=0: no read-idle deadline, --request-timeout alone ends it', async () => {
      const s = await LiveSource.open({kubeconfig, interactive: true, requestTimeout: 1500}, {HOME: dir, HTTP2_READ_IDLE_TIMEOUT_SECONDS: '0'})
      const fault = server.inject({path: '/api/v1/nodes', delayMs: 5000})
      await assert.rejects(s.list({kind: 'Node'}), (e: Error) => e instanceof ReadError && e.reason === 'Timeout')
      fault.lift()
      await s.close()
    })
  })
})

describe('--request-timeout bounded to what a timer can hold', () => {
  test('2^31 - 1 ms at most, in either form; one line beyond it', () => {
    assert.equal(MAX_TIMER_MS, 2_147_483_647)
    assert.equal(parseDuration('2147483', 'request-timeout'), 2_147_483_000)
    assert.equal(parseDuration('596h31m23.647s', 'request-timeout'), MAX_TIMER_MS)
    for (const value of ['2147484', '596h31m23.648s', '1000h'])
      assert.throws(
        () => parseDuration(value, 'request-timeout'),
        (e: Error) =>
          e instanceof UserError &&
          e.message === `--request-timeout: "${value}" is longer than the longest wait there can be (596h31m23.647s, about 24.8 days)`,
      )
  })

  test('the CLI: exit 2, that one line, no Node warning', () => {
    const r = spawnSync(process.execPath, [BIN, 'node', '--request-timeout', '2147484', '--kubeconfig', '/nonexistent/kubeconfig'], {
      encoding: 'utf8',
      env: {...process.env, NO_COLOR: '1'},
    })
    assert.equal(r.status, 2)
    assert.match(r.stderr, /^error: --request-timeout: "2147484" is longer than the longest wait there can be/)
    assert.doesNotMatch(r.stderr, /Warning|TimeoutOverflow|within 2147484s/)
  })
})
