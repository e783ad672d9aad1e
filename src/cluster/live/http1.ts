// GET requests over HTTP/1.1 on the connections connect.ts opens, without node:http and node:https. What the API
// server needs of HTTP is small — a GET with headers; an answer framed by Content-Length, chunked, or the end of
// the connection; keep-alive — and loading Node's HTTP stack and running one request through it was ~2 ms of CPU of
// every live run (15 M of its ~820 M instructions). Behaviour kept from Node's client as the API client relied on it:
// a connection that ends before its answer fails with ECONNRESET "socket hang up" (retried, as client-go retries
// GETs on a reset); idle keep-alive connections do not hold the process open; at most maxSockets at once, the rest
// wait in turn.
import type {Socket} from 'node:net'
import type {Duplex} from 'node:stream'

export interface HttpResponse {
  status: number
  /** Lower-case names; repeated headers joined with ", " (as Node joins them). */
  headers: Record<string, string>
  /** The body, joined when first asked for (empty when a BodySink took it). */
  readonly body: Buffer
  /** The body as it came, in pieces (none when a BodySink took it). */
  pieces: Buffer[]
}

/** Takes a response's body a piece at a time as it arrives, instead of the response keeping it. */
export interface BodySink {
  push(piece: Buffer): void
}

/** Given the final status and headers, the sink for that response's body, or undefined to keep it in the response. */
export type BodySinkFor = (status: number, headers: Record<string, string>) => BodySink | undefined

/** A connection as connect.ts hands it over: the stream to talk on (TLS done) and the TCP socket under it. */
export interface Connection {
  stream: Duplex
  tcp: Socket
}

export interface Exchange {
  response: Promise<HttpResponse>
  /** Whether a connection was up when the request was sent (reused, or opened and, for https, through TLS). */
  connected(): boolean
  /** Gives the request up: its connection, if any, is closed. */
  cancel(): void
}

const HEAD_END = Buffer.from('\r\n\r\n')
const CRLF = Buffer.from('\r\n')
const MAX_HEAD = 1 << 20

function codeError(code: string, message: string): Error {
  return Object.assign(new Error(message), {code})
}
const hangUp = () => codeError('ECONNRESET', 'socket hang up')
const parseError = (what: string) => codeError('HPE_INVALID', `Parse Error: ${what}`)

/** The request's head; header values are checked as Node checks them (a CR or LF would split the request). */
export function requestHead(host: string, path: string, headers: Record<string, string>): string {
  let head = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n`
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n\0]/.test(value)) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), {code: 'ERR_INVALID_CHAR'})
    head += `${name}: ${value}\r\n`
  }
  return `${head}Connection: keep-alive\r\n\r\n`
}

type BodyFraming = {kind: 'length'; left: number} | {kind: 'chunked'} | {kind: 'close'} | {kind: 'none'}

/** Reads one response from the bytes of a connection, as they come. */
class ResponseReader {
  private pending: Buffer = Buffer.alloc(0)
  private status = 0
  private version = ''
  private headers: Record<string, string> = {}
  private framing: BodyFraming | undefined
  private readonly body: Buffer[] = []
  private sink: BodySink | undefined
  // chunked: 'size' reads a size line, 'data' `left` bytes of a chunk, 'crlf' the CRLF after it, 'trailer' the trailer lines.
  private chunkState: 'size' | 'data' | 'crlf' | 'trailer' = 'size'
  private chunkLeft = 0
  done = false

  constructor(private readonly sinkFor?: BodySinkFor) {}

  /** Feeds bytes; returns true once the response is complete. Throws on a malformed response. */
  push(chunk: Buffer): boolean {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk
    this.pending = Buffer.alloc(0)
    while (!this.done && data.length > 0) {
      if (!this.framing) {
        const end = data.indexOf(HEAD_END)
        if (end === -1) {
          if (data.length > MAX_HEAD) throw parseError('response head too large')
          this.pending = data
          return false
        }
        this.readHead(data.subarray(0, end).toString('latin1'))
        data = data.subarray(end + 4)
        continue
      }
      data = this.readBody(data)
    }
    if (!this.done && this.framing?.kind === 'none') this.done = true
    return this.done
  }

  /** The connection ended: the response is complete only when the end of the connection is its framing. */
  end(): boolean {
    if (this.framing?.kind === 'close') this.done = true
    return this.done
  }

  result(): HttpResponse {
    const pieces = this.body
    let body: Buffer | undefined
    return {
      status: this.status,
      headers: this.headers,
      pieces,
      get body() {
        body ??= Buffer.concat(pieces)
        return body
      },
    }
  }

  /** Whether the connection can carry another request after this response. */
  reusable(): boolean {
    const connection = (this.headers.connection ?? '').toLowerCase()
    const keep = this.version === '1.1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection)
    return keep && this.framing?.kind !== 'close'
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n')
    const m = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0])
    if (!m) throw parseError('not an HTTP/1.x status line')
    const status = Number(m[2])
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      if (colon <= 0) throw parseError('malformed header line')
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    // An interim answer (100 Continue and the like): the real one follows.
    if (status >= 100 && status < 200 && status !== 101) return
    this.status = status
    this.version = `1.${m[1]}`
    this.headers = headers
    this.sink = this.sinkFor?.(status, headers)
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) this.framing = {kind: 'none'}
    else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) this.framing = {kind: 'chunked'}
    else if (headers['content-length'] !== undefined) {
      if (!/^\d+$/.test(headers['content-length'])) throw parseError('invalid Content-Length')
      this.framing = {kind: 'length', left: Number(headers['content-length'])}
    } else this.framing = {kind: 'close'}
    if (this.framing.kind === 'length' && this.framing.left === 0) this.done = true
  }

  /** Consumes body bytes; returns what is left over (bytes it cannot use yet are kept in pending). */
  private readBody(data: Buffer): Buffer {
    const f = this.framing!
    if (f.kind === 'close') {
      this.take(data)
      return Buffer.alloc(0)
    }
    if (f.kind === 'length') {
      const take = Math.min(f.left, data.length)
      this.take(data.subarray(0, take))
      f.left -= take
      if (f.left === 0) this.done = true
      return data.subarray(take)
    }
    if (f.kind === 'none') {
      this.done = true
      return data
    }
    return this.readChunked(data)
  }

  private take(piece: Buffer): void {
    if (this.sink) this.sink.push(piece)
    else this.body.push(piece)
  }

  private readChunked(data: Buffer): Buffer {
    if (this.chunkState === 'data') {
      const take = Math.min(this.chunkLeft, data.length)
      this.take(data.subarray(0, take))
      this.chunkLeft -= take
      if (this.chunkLeft === 0) this.chunkState = 'crlf'
      return data.subarray(take)
    }
    const eol = data.indexOf(CRLF)
    if (eol === -1) {
      if (data.length > MAX_HEAD) throw parseError('chunk line too long')
      this.pending = data
      return Buffer.alloc(0)
    }
    const line = data.subarray(0, eol).toString('latin1')
    const rest = data.subarray(eol + 2)
    if (this.chunkState === 'crlf') {
      if (line !== '') throw parseError('no CRLF after a chunk')
      this.chunkState = 'size'
    } else if (this.chunkState === 'size') {
      const size = /^([0-9a-fA-F]+)[ \t]*(?:;.*)?$/.exec(line)
      if (!size) throw parseError('invalid chunk size')
      this.chunkLeft = Number.parseInt(size[1], 16)
      this.chunkState = this.chunkLeft === 0 ? 'trailer' : 'data'
    } else if (line === '') this.done = true // the empty line that ends the trailers
    return rest
  }
}

interface Waiter {
  take: (c: Connection) => void
  fail: (e: Error) => void
}

/** Connections to one server with one set of TLS credentials. */
export class ConnectionPool {
  private readonly idle: Connection[] = []
  /** The listeners that drop an idle connection when the server closes it. */
  private readonly drops = new Map<Connection, () => void>()
  private readonly busy = new Set<Connection>()
  private opening = 0
  private readonly waiting: Waiter[] = []

  constructor(
    private readonly connect: () => Promise<Connection>,
    private readonly maxSockets: number,
  ) {}

  /**
   * Sends a GET whose head is `head` (requestHead) on a free connection, or a new one, or the next to come free.
   * `sinkFor` may take the body as it arrives (BodySinkFor).
   */
  get(head: string, sinkFor?: BodySinkFor): Exchange {
    let connection: Connection | undefined
    let cancelled = false
    let fail: (e: Error) => void = () => {}
    let waiter: Waiter | undefined
    const response = new Promise<HttpResponse>((resolve, reject) => {
      fail = reject
      const use = (c: Connection) => {
        if (cancelled) return this.release(c, false)
        connection = c
        this.send(c, head, sinkFor).then(
          ({response: r, reusable}) => {
            this.release(c, reusable)
            resolve(r)
          },
          (e: Error) => {
            this.release(c, false)
            reject(e)
          },
        )
      }
      waiter = {take: use, fail: reject}
      this.acquire(waiter)
    })
    return {
      response,
      connected: () => connection !== undefined,
      cancel: () => {
        cancelled = true
        const i = waiter ? this.waiting.indexOf(waiter) : -1
        if (i !== -1) this.waiting.splice(i, 1)
        if (connection) connection.stream.destroy()
        fail(hangUp())
      },
    }
  }

  /** Closes every connection (a request in flight fails). */
  close(): void {
    for (const c of [...this.idle, ...this.busy]) c.stream.destroy()
    this.idle.length = 0
    this.drops.clear()
  }

  private acquire(w: Waiter): void {
    const c = this.idle.pop()
    if (c) {
      const drop = this.drops.get(c)!
      this.drops.delete(c)
      c.stream.removeListener('error', drop).removeListener('close', drop).removeListener('end', drop)
      c.tcp.ref()
      this.busy.add(c)
      w.take(c)
      return
    }
    if (this.busy.size + this.opening >= this.maxSockets) {
      this.waiting.push(w)
      return
    }
    this.opening++
    this.connect().then(
      (c) => {
        this.opening--
        // An error between requests (none of send's listeners on) must not go unhandled: send and the idle
        // listeners below see it too, this one only keeps it from being thrown.
        c.stream.on('error', () => {})
        this.busy.add(c)
        w.take(c)
      },
      (e: Error) => {
        this.opening--
        w.fail(e)
        this.next()
      },
    )
  }

  /** A connection is done with its request: kept for the next one when it can carry it, else closed. */
  private release(c: Connection, reusable: boolean): void {
    this.busy.delete(c)
    if (!reusable || c.stream.destroyed) c.stream.destroy()
    else {
      const w = this.waiting.shift()
      if (w) {
        this.busy.add(c)
        w.take(c)
        return
      }
      // Idle: closed by the server at any time (dropped from the pool then), and not keeping the process alive.
      const drop = () => {
        const i = this.idle.indexOf(c)
        if (i !== -1) this.idle.splice(i, 1)
        this.drops.delete(c)
        c.stream.destroy()
      }
      this.drops.set(c, drop)
      c.stream.on('error', drop).on('close', drop).on('end', drop)
      c.tcp.unref()
      this.idle.push(c)
      return
    }
    this.next()
  }

  /** A connection closed: the first request waiting gets a new one. */
  private next(): void {
    const w = this.waiting.shift()
    if (w) this.acquire(w)
  }

  private send(c: Connection, head: string, sinkFor?: BodySinkFor): Promise<{response: HttpResponse; reusable: boolean}> {
    return new Promise((resolve, reject) => {
      const reader = new ResponseReader(sinkFor)
      const s = c.stream
      const finish = (e?: Error) => {
        s.removeListener('data', onData).removeListener('error', onError).removeListener('end', onEnd).removeListener('close', onEnd)
        if (e) reject(e)
        else resolve({response: reader.result(), reusable: reader.reusable()})
      }
      const onData = (chunk: Buffer) => {
        let complete: boolean
        try {
          complete = reader.push(chunk)
        } catch (e) {
          s.destroy()
          return finish(e as Error)
        }
        if (complete) finish()
      }
      const onError = (e: Error) => finish(e)
      const onEnd = () => (reader.end() ? finish() : finish(hangUp()))
      s.on('data', onData).on('error', onError).on('end', onEnd).on('close', onEnd)
      s.write(head)
    })
  }
}
