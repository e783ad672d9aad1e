// GET requests over Node's HTTP/1.1 client (node:http), on the connections connect.ts opens: an Agent whose
// createConnection hands over connect.ts's stream (proxy tunnel, SOCKS and TLS already done), so that framing,
// keep-alive and interim answers are Node's, and what is ours is only how a connection is made (client-go's dial
// and handshake timeouts, its proxies). node:http is also what a plain `https.request` would use underneath; going
// through node:https would make Node do TLS itself, and the proxy and handshake-timeout logic would have to move into
// its options. Kept from before, as the API client relies on it: a connection that ends before its answer fails with
// ECONNRESET (retried, as client-go retries GETs on a reset); idle keep-alive connections do not hold the process
// open; at most maxSockets at once, the rest wait in turn; a body can go to a sink as it arrives (json-body.ts).
import http from 'node:http'
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

/** One GET: the Host header's value, the request target, and the headers (an array is sent as repeated lines). */
export interface GetRequest {
  host: string
  path: string
  headers: Record<string, string | string[]>
}

export interface Exchange {
  response: Promise<HttpResponse>
  /** Whether a connection was up when the request was sent (reused, or opened and, for https, through TLS). */
  connected(): boolean
  /** Gives the request up: its connection, if any, is closed. */
  cancel(): void
}

export interface PoolOptions {
  maxSockets: number
  /**
   * Milliseconds a sent request may go without a byte of its answer before its connection is taken for lost (0:
   * never): the error then has code ECONNLOST. See api-client.ts READ_IDLE_MS for where the figure comes from.
   */
  readIdleMs?: number
}

function codeError(code: string, message: string): Error {
  return Object.assign(new Error(message), {code})
}

/** The TCP socket under each stream the agent was handed (a TLS stream's own ref/unref may not reach it). */
const tcpOf = new WeakMap<object, Socket>()

/** Node's keep-alive Agent, whose connections are connect.ts's. */
class ConnectAgent extends http.Agent {
  constructor(
    private readonly connect: () => Promise<Connection>,
    maxSockets: number,
  ) {
    // lifo: the connection used last is the one most likely still open at the server.
    super({keepAlive: true, maxSockets, scheduling: 'lifo'})
  }

  // The callback form (Node's _http_agent.js createSocket): the connection is ready once connect.ts says so.
  override createConnection(_options: unknown, callback: (err: Error | null, stream?: Duplex) => void): undefined {
    this.connect().then(
      (c) => {
        tcpOf.set(c.stream, c.tcp)
        // An error between requests (while idle, no request listening) must not go unhandled; the agent drops the
        // connection on its own 'close'.
        c.stream.on('error', () => {})
        callback(null, c.stream)
      },
      (e: Error) => callback(e),
    )
    return undefined
  }

  // Idle: not keeping the process alive (Node unrefs the stream; the TCP socket under a tunnel or TLS too).
  override keepSocketAlive(socket: Socket): boolean {
    // Node's returns whether the connection is kept (its types say void).
    const keep = (super.keepSocketAlive(socket) as unknown as boolean | undefined) !== false
    if (keep) tcpOf.get(socket)?.unref()
    return keep
  }

  override reuseSocket(socket: Socket, request: http.ClientRequest): void {
    tcpOf.get(socket)?.ref()
    super.reuseSocket(socket, request)
  }
}

/** Connections to one server with one set of TLS credentials. */
export class ConnectionPool {
  private readonly agent: ConnectAgent
  private readonly readIdleMs: number
  private readonly maxSockets: number
  /** Requests sent and not yet over; at most maxSockets (Node's Agent counts a connection only once it is made). */
  private inFlight = 0
  private readonly waiting: (() => void)[] = []

  constructor(connect: () => Promise<Connection>, options: PoolOptions) {
    this.agent = new ConnectAgent(connect, options.maxSockets)
    this.readIdleMs = options.readIdleMs ?? 0
    this.maxSockets = options.maxSockets
  }

  /** Sends a GET on a free connection, or a new one, or the next to come free; `sinkFor` may take the body as it arrives. */
  get(request: GetRequest, sinkFor?: BodySinkFor): Exchange {
    let socketUp = false
    let cancelled = false
    let req: http.ClientRequest | undefined
    let fail: (e: Error) => void = () => {}
    let slot: (() => void) | undefined
    const response = new Promise<HttpResponse>((resolve, reject) => {
      fail = reject
      slot = () => {
        if (cancelled) return this.release()
        req = this.send(request, sinkFor, resolve, reject, () => {
          socketUp = true
        })
      }
      this.acquire(slot)
    })
    return {
      response,
      connected: () => socketUp,
      cancel: () => {
        cancelled = true
        const i = slot ? this.waiting.indexOf(slot) : -1
        if (i !== -1) this.waiting.splice(i, 1)
        req?.destroy()
        fail(codeError('ECONNRESET', 'socket hang up'))
      },
    }
  }

  private acquire(slot: () => void): void {
    if (this.inFlight < this.maxSockets) {
      this.inFlight++
      slot()
    } else this.waiting.push(slot)
  }

  /** A request is over and its connection back with the agent: the next request waiting goes out. */
  private release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.inFlight--
  }

  private send(
    request: GetRequest,
    sinkFor: BodySinkFor | undefined,
    resolve: (r: HttpResponse) => void,
    reject: (e: Error) => void,
    onSocket: () => void,
  ): http.ClientRequest | undefined {
    let req: http.ClientRequest
    try {
      // Host as given: the server's authority as the URL spells it (no port when it is the scheme's own), which is
      // what Go sends; Node would add :80 or :443 where the agent's default port differs.
      req = http.request({agent: this.agent, method: 'GET', path: request.path, headers: {Host: request.host, ...request.headers}})
    } catch (e) {
      // A header value with CR, LF or NUL (it would split the request), or an unsendable path.
      this.release()
      reject(e as Error)
      return undefined
    }
    // 'close' comes once the connection is back in the agent's free list (or closed): only then may the next request
    // go, or the agent, seeing none free, would open one more than maxSockets.
    req.on('close', () => this.release())
    req.on('socket', onSocket)
    if (this.readIdleMs > 0) {
      const ms = this.readIdleMs
      req.setTimeout(ms, () => req.destroy(codeError('ECONNLOST', `connection lost: no answer for ${ms / 1000}s`)))
    }
    req.on('error', reject)
    req.on('response', (res) => {
      const status = res.statusCode ?? 0
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
      const sink = sinkFor?.(status, headers)
      const pieces: Buffer[] = []
      res.on('data', (piece: Buffer) => (sink ? sink.push(piece) : pieces.push(piece)))
      // The connection ended before the body did (Node flags the response aborted, or closes it incomplete).
      const hungUp = () => reject(codeError('ECONNRESET', 'socket hang up'))
      res.on('aborted', hungUp)
      res.on('error', reject)
      res.on('close', () => {
        if (!res.complete) hungUp()
      })
      res.on('end', () => {
        if (!res.complete) return hungUp()
        let body: Buffer | undefined
        resolve({
          status,
          headers,
          pieces,
          get body() {
            body ??= Buffer.concat(pieces)
            return body
          },
        })
      })
    })
    req.end()
    return req
  }

  /** Closes every connection (a request in flight fails). */
  close(): void {
    this.agent.destroy()
  }
}
