// The HTTP/1.1 client under the API client (Node's, over connect.ts's connections), against a server that writes its
// answers byte by byte as HTTP/1.1 (RFC 9112) frames them: Content-Length, chunked (with extensions and trailers), or
// the end of the connection; interim 1xx answers; keep-alive unless the answer says close. Expected values are what
// the server wrote.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import net from 'node:net'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {type Connection, ConnectionPool, type GetRequest} from '../../../src/cluster/live/transport.js'

/** A server whose every request gets the next answer of `answers`, each a list of writes (a delay in ms between them). */
async function rawServer(answers: (string | number)[][]): Promise<{port: number; connections: () => number; maxOpen: () => number; close: () => void}> {
  let connections = 0
  let open = 0
  let maxOpen = 0
  let next = 0
  const server = net.createServer((socket) => {
    connections++
    open++
    maxOpen = Math.max(maxOpen, open)
    socket.on('close', () => open--)
    let buffered = ''
    socket.on('data', async (d) => {
      buffered += d.toString('latin1')
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4)
        const answer = answers[next++] ?? ['HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n']
        for (const part of answer) {
          if (part === -1) socket.end()
          else if (part === -2) socket.destroy()
          else if (typeof part === 'number') await new Promise((r) => setTimeout(r, part))
          else socket.write(part)
        }
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    maxOpen: () => maxOpen,
    close: () => server.close(),
  }
}

const connectTo = (port: number) => () =>
  new Promise<Connection>((resolve, reject) => {
    const s = net.connect({host: '127.0.0.1', port})
    s.once('connect', () => resolve({stream: s, tcp: s}))
    s.once('error', reject)
  })

const head: GetRequest = {host: '127.0.0.1', path: '/version', headers: {Accept: 'application/json'}}
const END = -1
const RESET = -2

describe('HTTP/1.1 client', () => {
  it('reads a Content-Length body written in pieces, and keeps the connection for the next request', async () => {
    const ok = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n'
    const s = await rawServer([
      [ok.slice(0, 20), 5, ok.slice(20), '{"a":', 5, '"bcd"}'],
      [ok, '{"a":"efg"}'],
      [ok, '{"a":"hij"}'],
    ])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 4})
    const bodies: string[] = []
    for (let i = 0; i < 3; i++) {
      const r = await pool.get(head).response
      assert.equal(r.status, 200)
      assert.equal(r.headers['content-type'], 'application/json')
      bodies.push(r.body.toString())
    }
    assert.deepEqual(bodies, ['{"a":"bcd"}', '{"a":"efg"}', '{"a":"hij"}'])
    assert.equal(s.connections(), 1)
    pool.close()
    s.close()
  })

  it('reads a chunked body: sizes in hex, extensions, a size line split across writes, trailers', async () => {
    const s = await rawServer([
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', '5\r\nhello\r\n', '1', 5, '1;ext=1\r\n', ', world and more!\r\n', '0\r\nX-Trailer: t\r\n\r\n'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'],
    ])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 4})
    assert.equal((await pool.get(head).response).body.toString(), 'hello, world and more!')
    // The connection was left at the end of the chunked body: the next answer is read from its start.
    assert.equal((await pool.get(head).response).body.toString(), 'ok')
    assert.equal(s.connections(), 1)
    pool.close()
    s.close()
  })

  it('hands a body to the sink its status asks for, in order, as it arrives, and keeps none of it itself', async () => {
    const s = await rawServer([
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', '5\r\nhello\r\n', 5, '11\r\n, world and more!\r\n', '0\r\n\r\n'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n', 'by ', 5, 'length'],
      ['HTTP/1.1 404 Not Found\r\nContent-Length: 6\r\n\r\n', 'Status'],
    ])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 4})
    const sinkFor = (pieces: string[], asked: number[]) => (status: number) => {
      asked.push(status)
      return status === 200 ? {push: (p: Buffer) => void pieces.push(p.toString())} : undefined
    }
    for (const expected of ['hello, world and more!', 'by length']) {
      const pieces: string[] = []
      const asked: number[] = []
      const r = await pool.get(head, sinkFor(pieces, asked)).response
      assert.deepEqual(asked, [200])
      assert.equal(pieces.join(''), expected)
      // Each chunk of a chunked body is a piece of its own, whatever the socket's reads were.
      if (expected.startsWith('hello')) assert.deepEqual(pieces, ['hello', ', world and more!'])
      assert.equal(r.pieces.length, 0)
      assert.equal(r.body.length, 0)
    }
    // A status the sink does not want: the response keeps its body, as without a sink.
    const asked: number[] = []
    const r = await pool.get(head, sinkFor([], asked)).response
    assert.deepEqual(asked, [404])
    assert.equal(r.body.toString(), 'Status')
    assert.equal(s.connections(), 1)
    pool.close()
    s.close()
  })

  it('reads a body that ends with the connection, and opens a new connection for the next request', async () => {
    const s = await rawServer([['HTTP/1.1 200 OK\r\n\r\n', 'until ', 5, 'the end', END], ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 4})
    assert.equal((await pool.get(head).response).body.toString(), 'until the end')
    assert.equal((await pool.get(head).response).body.toString(), 'ok')
    assert.equal(s.connections(), 2)
    pool.close()
    s.close()
  })

  it('skips an interim 100 Continue; "Connection: close" is not kept; 204 has no body', async () => {
    const s = await rawServer([
      ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\nConnection: close\r\n\r\nnope'],
      ['HTTP/1.1 204 No Content\r\n\r\n'],
      ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'],
    ])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 4})
    const r = await pool.get(head).response
    assert.deepEqual([r.status, r.body.toString()], [404, 'nope'])
    const noContent = await pool.get(head).response
    assert.deepEqual([noContent.status, noContent.body.length], [204, 0])
    const empty = await pool.get(head).response
    assert.deepEqual([empty.status, empty.body.length], [200, 0])
    assert.equal(s.connections(), 2) // the close answer's connection, then one for the other two
    pool.close()
    s.close()
  })

  it('a connection that ends before its answer is complete (in its body, or before its head) fails with ECONNRESET', async () => {
    const s = await rawServer([['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort', END], [RESET]])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 4})
    for (let i = 0; i < 2; i++) await assert.rejects(pool.get(head).response, (e: Error & {code?: string}) => e.code === 'ECONNRESET')
    pool.close()
    s.close()
  })

  it('at most maxSockets connections at once; the other requests wait for one', async () => {
    const slow = ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n', 30, 'x']
    const s = await rawServer([slow, slow, slow, slow, slow])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 2})
    const all = await Promise.all(Array.from({length: 5}, () => pool.get(head).response))
    assert.deepEqual(
      all.map((r) => r.body.toString()),
      ['x', 'x', 'x', 'x', 'x'],
    )
    assert.equal(s.maxOpen(), 2)
    assert.equal(s.connections(), 2)
    pool.close()
    s.close()
  })

  it('a malformed answer is a parse error, not a hang', async () => {
    const s = await rawServer([['SSH-2.0-OpenSSH\r\n\r\n']])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 2})
    await assert.rejects(pool.get(head).response, (e: Error & {code?: string}) => /^HPE_/.test(e.code ?? ''))
    pool.close()
    s.close()
  })

  it('refuses a header value that would split the request (as Node does), sending nothing', async () => {
    const s = await rawServer([])
    const pool = new ConnectionPool(connectTo(s.port), {maxSockets: 2})
    await assert.rejects(pool.get({...head, headers: {Authorization: 'Bearer a\r\nX-Evil: 1'}}).response, {code: 'ERR_INVALID_CHAR'})
    assert.equal(s.connections(), 0)
    pool.close()
    s.close()
  })

  it('an idle keep-alive connection does not keep the process alive', () => {
    const src = fileURLToPath(new URL('../../../src/cluster/live/transport.ts', import.meta.url))
    // A child that answers itself over one keep-alive connection and never closes the pool: it must still exit (its
    // server's side of the connection is unref'd, so only the client's side could hold it).
    const script = `
      import net from 'node:net'
      import {ConnectionPool} from ${JSON.stringify(src)}
      const server = net.createServer((s) => s.unref().on('data', () => s.write('HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok')))
      server.listen(0, '127.0.0.1', async () => {
        server.unref()
        const port = server.address().port
        const pool = new ConnectionPool(() => new Promise((resolve) => { const s = net.connect({host: '127.0.0.1', port}, () => resolve({stream: s, tcp: s})) }), {maxSockets: 2})
        const r = await pool.get({host: 'h', path: '/', headers: {}}).response
        console.log(r.body.toString())
      })`
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {encoding: 'utf8', timeout: 15_000})
    assert.equal(r.signal, null, 'the child did not exit on its own')
    assert.equal(r.stdout.trim(), 'ok', r.stderr)
  })
})
