// The deadline no flag asked for bounds the wait for an answer, not a long list's body (api-client.ts
// timeoutCoversBody, issue 29.2): a watch-cache list comes in one piece, and 150,000 pods on a loaded machine took
// longer than the unattended 5 minutes. --request-timeout keeps kubectl's meaning (client-go's rest.Config.Timeout, an
// http.Client.Timeout: the body included). A server here writes a list's items one every 100 ms, so its body takes at
// least 900 ms (timers never fire early) against a 300 ms deadline; no assertion on elapsed time.
import assert from 'node:assert/strict'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {after, before, describe, test} from 'node:test'
import {ApiClient} from '../../../src/cluster/live/api-client.js'
import {ReadError} from '../../../src/errors.js'

const noAuth = {current: async () => ({headers: {}, generation: 0}), refresh: async () => false, describe: 'nothing'}
const ITEMS = 10

describe('the request deadline and a body that keeps flowing', () => {
  let server: Server
  let url: string
  before(async () => {
    server = createServer((req, res) => {
      const headersAfter = req.url?.startsWith('/slow-headers') ? 1000 : 0
      setTimeout(() => {
        res.writeHead(200, {'Content-Type': 'application/json'})
        res.write('{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[')
        let i = 0
        const next = () => {
          res.write(`${i > 0 ? ',' : ''}{"metadata":{"name":"p${i}"}}`)
          if (++i < ITEMS) setTimeout(next, 100)
          else res.end(']}')
        }
        setTimeout(next, 100)
      }, headersAfter)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => server.close())

  test('the default deadline (timeoutCoversBody false): a body flowing past it is read to its end', async () => {
    const c = new ApiClient(url, {rejectUnauthorized: true}, noAuth, {timeout: 300, timeoutCoversBody: false, readIdleMs: 5000})
    const list = (await c.get('/api/v1/pods')) as {items: {metadata: {name: string}}[]}
    assert.deepEqual(
      list.items.map((p) => p.metadata.name),
      Array.from({length: ITEMS}, (_, i) => `p${i}`),
    )
    c.close()
  })

  test('--request-timeout (the default, timeoutCoversBody true): the same body is cut off at the deadline, as kubectl cuts it', async () => {
    const c = new ApiClient(url, {rejectUnauthorized: true}, noAuth, {timeout: 300, readIdleMs: 5000})
    await assert.rejects(c.get('/api/v1/pods'), (e: Error) => e instanceof ReadError && e.reason === 'Timeout' && /within 0.3s/.test(e.message))
    c.close()
  })

  test('the default deadline still bounds the wait for the answer to start', async () => {
    const c = new ApiClient(url, {rejectUnauthorized: true}, noAuth, {timeout: 300, timeoutCoversBody: false, readIdleMs: 5000})
    await assert.rejects(c.get('/slow-headers'), (e: Error) => e instanceof ReadError && e.reason === 'Timeout' && /within 0.3s/.test(e.message))
    c.close()
  })

  test('with the read-idle check off (HTTP2_READ_IDLE_TIMEOUT_SECONDS=0) nothing else would end a stalled body: the deadline covers it', async () => {
    const c = new ApiClient(url, {rejectUnauthorized: true}, noAuth, {timeout: 300, timeoutCoversBody: false, readIdleMs: 0})
    await assert.rejects(c.get('/api/v1/pods'), (e: Error) => e instanceof ReadError && e.reason === 'Timeout')
    c.close()
  })
})
