// Retries the client makes by itself, as client-go does for GETs: a connection reset by the server
// (a keep-alive socket closed under it) is retried; a refused connection is not.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {createServer} from 'node:https'
import type {AddressInfo} from 'node:net'
import {test} from 'node:test'
import {ApiClient} from '../../../src/cluster/live/api-client.js'
import {ReadError} from '../../../src/errors.js'

const certs = new URL('../../support/fake-apiserver/certs/', import.meta.url)

async function serverResetting(resets: number): Promise<{url: string; hits: () => number; close: () => void}> {
  let hits = 0
  const server = createServer({cert: readFileSync(new URL('server.crt', certs)), key: readFileSync(new URL('server.key', certs))}, (req, res) => {
    hits++
    if (hits <= resets) {
      req.socket.destroy()
      return
    }
    res.writeHead(200, {'Content-Type': 'application/json'})
    res.end('{"major":"1","minor":"31","gitVersion":"v1.31.2"}')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits, close: () => server.close()}
}

const token = {current: async () => ({headers: {Authorization: 'Bearer t'}, generation: 0}), refresh: async () => false, describe: 'a token'}

function client(url: string): ApiClient {
  return new ApiClient(url, {ca: readFileSync(new URL('ca.crt', certs)), rejectUnauthorized: true}, token, {timeout: 5000})
}

test('a reset connection is retried (twice at most), then the answer is used', async () => {
  const s = await serverResetting(2)
  const c = client(s.url)
  assert.equal(((await c.get('/version')) as {gitVersion: string}).gitVersion, 'v1.31.2')
  assert.equal(s.hits(), 3)
  c.close()
  s.close()
})

test('three resets in a row fail the read as Unreachable', async () => {
  const s = await serverResetting(3)
  const c = client(s.url)
  await assert.rejects(c.get('/version'), (e: Error) => e instanceof ReadError && e.reason === 'Unreachable' && /reset|hang up/.test(e.message))
  assert.equal(s.hits(), 3)
  c.close()
  s.close()
})
