// GET requests to the API server, with the retries upstream clients make: a 429 waits for Retry-After
// (bounded), a 5xx is retried with backoff, a reset connection is retried, a 401 to an exec plugin's credential
// runs the plugin again and retries once. It has no other verb: kubectl-why is read-only by construction.
// The timeout is client-go's request timeout (rest.Config.Timeout, --request-timeout): one deadline for the whole
// request, its retries and their waits included; connections come from connect.ts (dial and TLS handshake timeouts,
// proxies), HTTP from transport.ts (node:http) and credentials from credentials.ts.
import {ReadError, type ReadFailure} from '../../errors.js'
import {MAX_TIMER_MS} from '../../util/parse.js'
import {ConnectError, connector, requestTarget, type TlsSettings} from './connect.js'
import type {Credential} from './credential.js'
import type {Credentials} from './credentials.js'
import {ConnectionPool} from './transport.js'
import {JsonBody, MapItemError} from './json-body.js'
import {RequestLog} from './request-log.js'

export interface ApiClientOptions {
  /** Milliseconds per request, retries included; 0 = none. */
  timeout: number
  /**
   * Whether `timeout` also bounds the reading of a 2xx body that keeps arriving. Default true: --request-timeout is
   * client-go's rest.Config.Timeout, an http.Client.Timeout, which covers the body, so kubectl given the flag cuts a
   * long list off too. false for the deadline no flag asked for (source.ts DEFAULT_UNATTENDED_TIMEOUT_MS: a run must
   * not hang, and kubectl itself has none): it bounds the wait for an answer to start, and a body that keeps flowing is
   * read to its end, the read-idle deadline taking a stalled one for lost. A watch-cache list (resourceVersion=0) comes
   * in one piece whatever limit says — 150,000 pods at 5,000 nodes — and on a loaded machine took longer than the
   * 5 minutes: the pod list was lost and the audit partial (issue 29.2).
   */
  timeoutCoversBody?: boolean
  /** Upper bound on concurrent requests (sockets). */
  maxSockets?: number
  debug?: (line: string) => void
  /** Test hook: how to wait between retries. */
  sleep?: (ms: number) => Promise<void>
  /** The proxy every request goes through (proxy.ts chose it). */
  proxy?: URL
  /** Test hook: the TLS handshake timeout (default 10 s). */
  handshakeTimeoutMs?: number
  /**
   * Milliseconds a sent request may go without a byte of its answer before its connection is taken for lost (0:
   * never); default READ_IDLE_MS. At a terminal too, where --request-timeout is none by default.
   */
  readIdleMs?: number
  /** Headers every request carries whatever its credential (impersonation: credentials.ts impersonationHeaders). */
  headers?: Record<string, string | string[]>
  /** -v N: kubectl's request log from 6 up (request-log.ts), written to `log`. */
  verbosity?: number
  log?: (line: string) => void
}

export interface StatusBody {
  kind?: string
  status?: string
  message?: string
  reason?: string
  code?: number
  details?: {name?: string; group?: string; kind?: string}
  metadata?: {continue?: string}
}

/**
 * How long a request may go without a byte of its answer: client-go's HTTP/2 health check, which is what ends a
 * kubectl request to a server that completed TLS and then says nothing (measured: kubectl v1.32 gives up at 45 s with
 * "http2: client connection lost"; over HTTP/1.1 it waits for ever, client-go setting no ResponseHeaderTimeout in
 * transport/cache.go). apimachinery pkg/util/net/http.go configureHTTP2Transport: ReadIdleTimeout
 * readIdleTimeoutSeconds() = 30 s without a frame, then a ping, and PingTimeout pingTimeoutSeconds() = 15 s for its
 * answer. This client speaks HTTP/1.1, which has no ping: 30 s + 15 s of silence stands for the unanswered ping.
 * HTTP2_READ_IDLE_TIMEOUT_SECONDS and HTTP2_PING_TIMEOUT_SECONDS change it as they change kubectl's (readIdleFromEnv).
 */
export const READ_IDLE_MS = (30 + 15) * 1000

/** The read-idle deadline the environment asks for, as client-go reads it (0 read-idle seconds: no health check). */
export function readIdleFromEnv(env: NodeJS.ProcessEnv): number {
  const seconds = (name: string, fallback: number) => {
    const v = env[name]
    if (v === undefined || v === '') return fallback
    const n = Number(v)
    // strconv.Atoi: an integer, else the default (client-go warns and uses it).
    return /^[+-]?\d+$/.test(v.trim()) && Number.isSafeInteger(n) ? n : fallback
  }
  const idle = seconds('HTTP2_READ_IDLE_TIMEOUT_SECONDS', 30)
  if (idle <= 0) return 0
  return Math.min((idle + Math.max(0, seconds('HTTP2_PING_TIMEOUT_SECONDS', 15))) * 1000, MAX_TIMER_MS)
}

const MAX_429_RETRIES = 5
const MAX_RETRY_AFTER_S = 30
const MAX_5XX_RETRIES = 3
const BACKOFF_MS = 250
const MAX_RESET_RETRIES = 2
const RESET = new Set(['ECONNRESET', 'EPIPE'])

const REASON_BY_STATUS: Record<number, ReadFailure> = {401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 410: 'Gone', 429: 'TooManyRequests'}

export class ApiClient {
  private readonly pools = new Map<string, ConnectionPool>()
  private readonly sleep: (ms: number) => Promise<void>
  /**
   * Set when a request could not even connect (refused, no such host, TLS never completed, timed out before the
   * connection was made): later requests of this run fail at once with it rather than each waiting out its own
   * timeout — a command that carries on past an optional read would otherwise take one timeout per read.
   */
  private unreachable: ReadError | undefined
  readonly server: URL
  requestCount = 0

  constructor(
    server: string,
    private readonly tls: TlsSettings,
    private readonly credentials: Credentials,
    private readonly options: ApiClientOptions,
  ) {
    this.server = new URL(server)
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)))
  }

  /**
   * GET a path; returns the decoded JSON body. Non-2xx responses throw ReadError carrying the Status. `mapItem`, for
   * a list, makes each element of its `items` as it is read (json-body.ts), so a large list is never held whole.
   */
  async get(path: string, query: Record<string, string | undefined> = {}, accept = 'application/json', mapItem?: (item: unknown) => unknown): Promise<unknown> {
    const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString()
    const fullPath = `${this.server.pathname.replace(/\/$/, '')}${path}${qs ? `?${qs}` : ''}`
    if (this.unreachable) throw this.unreachable
    const deadline = this.options.timeout > 0 ? Date.now() + this.options.timeout : Number.POSITIVE_INFINITY
    let refreshed = false
    for (let attempt = 0; ; attempt++) {
      const credential = await this.credentials.current()
      try {
        return await this.once(fullPath, accept, credential, deadline, mapItem)
      } catch (err) {
        if (err instanceof ApiHttpError && err.status === 401 && !refreshed) {
          refreshed = true
          // client-go's exec authenticator runs the plugin again on a 401 (exec.go maybeRefreshCreds); the same
          // request is then sent once more with the fresh credential.
          if (await this.credentials.refresh(credential).catch(() => false)) {
            this.options.debug?.(`GET ${fullPath}: 401, retrying with a fresh credential`)
            continue
          }
        }
        if (err instanceof ApiHttpError && err.status === 401 && err.hint) err.hint = `${err.hint} (sent ${this.credentials.describe})`
        const wait = this.retryDelay(err, attempt)
        if (wait === undefined) throw err
        if (Date.now() + wait >= deadline) throw this.timeoutError(fullPath)
        this.options.debug?.(`retrying GET ${fullPath} in ${wait} ms after ${(err as Error).message}`)
        await this.sleep(wait)
      }
    }
  }

  private retryDelay(err: unknown, attempt: number): number | undefined {
    // A keep-alive connection the server has just closed: client-go retries GETs on a reset (IsConnectionReset).
    if (err instanceof ReadError && err.reason === 'Unreachable' && RESET.has(((err.cause ?? {}) as {code?: string}).code ?? '')) {
      return attempt < MAX_RESET_RETRIES ? 0 : undefined
    }
    if (!(err instanceof ApiHttpError)) return undefined
    if (err.status === 429) return attempt < MAX_429_RETRIES ? Math.min(err.retryAfter ?? 1, MAX_RETRY_AFTER_S) * 1000 : undefined
    if (err.status !== undefined && err.status >= 500) {
      if (attempt >= MAX_5XX_RETRIES) return undefined
      return err.retryAfter !== undefined ? Math.min(err.retryAfter, MAX_RETRY_AFTER_S) * 1000 : BACKOFF_MS * 2 ** attempt
    }
    return undefined
  }

  private timeoutError(path: string): ReadError {
    return new ReadError('Timeout', `GET ${path}: no answer from ${this.server.host} within ${this.options.timeout / 1000}s`, {
      path,
      hint: 'raise --request-timeout or check the connection',
    })
  }

  /** One pool of connections per client certificate: an exec plugin may hand out a new one, and TLS sessions carry it. */
  private poolFor(credential: Credential): ConnectionPool {
    const key = credential.cert ? `cert-${credential.generation}` : 'none'
    let pool = this.pools.get(key)
    if (!pool) {
      const connect = connector({
        server: this.server,
        tls: {...this.tls, cert: credential.cert, key: credential.key},
        proxy: this.options.proxy,
        handshakeTimeoutMs: this.options.handshakeTimeoutMs,
      })
      pool = new ConnectionPool(connect, {maxSockets: this.options.maxSockets ?? 16, readIdleMs: this.options.readIdleMs ?? READ_IDLE_MS})
      this.pools.set(key, pool)
    }
    return pool
  }

  private async once(path: string, accept: string, credential: Credential, deadline: number, mapItem?: (item: unknown) => unknown): Promise<unknown> {
    const target = requestTarget({server: this.server, proxy: this.options.proxy}, path)
    const host = this.server.host // as Node's client sends it: the port only when not the scheme's own
    const request = {
      host,
      path: target.path,
      headers: {...credential.headers, ...this.options.headers, ...target.headers, Accept: accept, 'User-Agent': 'kubectl-why'},
    }
    this.requestCount++
    this.options.debug?.(`GET ${path}`)
    // A 2xx body is parsed as it arrives (a 150,000-pod List is never held whole); any other is kept for its Status.
    const json = new JsonBody(`response of GET ${path}`, mapItem)
    const log = RequestLog.for(this.options.verbosity ?? 0, this.options.log, `${this.server.origin}${path}`, request.headers)
    const sink = log
      ? {
          push: (piece: Buffer) => {
            log.piece(piece)
            json.push(piece)
          },
        }
      : json
    let timer: NodeJS.Timeout | undefined
    // Without a read-idle deadline nothing else would end a body that stops: the deadline then covers it whatever.
    const bodyUnbounded = this.options.timeoutCoversBody === false && (this.options.readIdleMs ?? READ_IDLE_MS) > 0
    const exchange = this.poolFor(credential).get(request, (status, headers) => {
      log?.responded(status, headers)
      const ok = status >= 200 && status < 300
      if (ok && bodyUnbounded && timer) {
        clearTimeout(timer)
        timer = undefined
      }
      return ok ? sink : undefined
    })
    return new Promise((resolve, reject) => {
      let settled = false
      const settle = (f: () => void) => {
        if (settled) return
        settled = true
        if (timer) clearTimeout(timer)
        f()
      }
      // Not connected: refused, no such host, TLS never completed, or timed out before the connection was made. Or
      // connected and then silent past the read-idle deadline: kubectl's run ends there, and so do the next requests.
      const notConnected = (e: ReadError) => {
        const code = ((e.cause ?? {}) as {code?: string}).code ?? ''
        if ((!exchange.connected() && !RESET.has(code)) || code === 'ECONNLOST') this.unreachable ??= e
        return e
      }
      exchange.response.then(
        (res) =>
          settle(() => {
            const status = res.status
            log?.done(status >= 200 && status < 300 ? undefined : res.body)
            if (status >= 200 && status < 300) {
              try {
                resolve(json.result())
              } catch (e) {
                if (e instanceof MapItemError) reject(e.error)
                else reject(new ReadError('BadResponse', `GET ${path}: the server answered with something that is not JSON`, {status, path, cause: e}))
              }
              return
            }
            const body = res.body.toString('utf8')
            const retryAfter = Number(res.headers['retry-after'])
            reject(new ApiHttpError(status, path, body, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined))
          }),
        (e: Error) =>
          settle(() => {
            log?.done()
            reject(notConnected(networkError(e, this.server, path, this.options.readIdleMs ?? READ_IDLE_MS)))
          }),
      )
      if (Number.isFinite(deadline)) {
        timer = setTimeout(
          () =>
            settle(() => {
              log?.done()
              reject(notConnected(this.timeoutError(path)))
              exchange.cancel()
            }),
          Math.max(0, deadline - Date.now()),
        )
      }
    })
  }

  debug(line: string): void {
    this.options.debug?.(line)
  }

  close(): void {
    for (const p of this.pools.values()) p.close()
  }
}

/** A non-2xx answer: a ReadError whose message is the server's own Status message. */
export class ApiHttpError extends ReadError {
  declare hint: string | undefined
  readonly statusBody: StatusBody | undefined
  readonly retryAfter: number | undefined
  constructor(status: number, path: string, body: string, retryAfter: number | undefined) {
    let parsed: StatusBody | undefined
    try {
      const v = JSON.parse(body) as StatusBody
      if (v && v.kind === 'Status') parsed = v
    } catch {
      // Not a Status: a proxy or a load balancer answered.
    }
    const reason: ReadFailure = REASON_BY_STATUS[status] ?? (status >= 500 ? 'ServerError' : 'BadResponse')
    const message = parsed?.message ?? (body.trim().split('\n')[0].slice(0, 200) || `HTTP ${status}`)
    super(reason, message, {status, path, hint: HINTS[reason]})
    this.statusBody = parsed
    this.retryAfter = retryAfter
  }
}

const HINTS: Partial<Record<ReadFailure, string>> = {
  Unauthorized: 'your credentials were refused: log in again or check the kubeconfig user',
  Forbidden: 'ask for get/list on this resource, or use -f with a snapshot taken by someone who has it',
  ServerError: 'the API server failed; retry later',
  TooManyRequests: 'the API server is throttling; retry later',
}

function networkError(err: Error & {code?: string}, server: URL, path: string, readIdle: number): ReadError {
  const what: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EHOSTUNREACH: 'host unreachable',
    ETIMEDOUT: 'connection timed out',
    ECONNRESET: 'connection reset',
    ETLSHANDSHAKETIMEOUT: 'TLS handshake timeout (10s)',
    ECONNLOST: `connection lost: no answer for ${Math.round(readIdle / 1000)}s (kubectl gives up there too: http2: client connection lost)`,
    DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate not trusted',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate not trusted',
    SELF_SIGNED_CERT_IN_CHAIN: 'certificate not trusted',
    ERR_TLS_CERT_ALTNAME_INVALID: 'certificate does not match the host',
  }
  if (err instanceof ConnectError && err.code === 'EPROXY')
    return new ReadError('Unreachable', err.message, {path, cause: err, hint: 'check the proxy (proxy-url in the kubeconfig, or HTTPS_PROXY / NO_PROXY)'})
  const text = what[err.code ?? ''] ?? err.message
  return new ReadError('Unreachable', `cannot reach the API server at ${server.origin}: ${text}`, {
    path,
    cause: err,
    hint: 'check the context, the VPN or the cluster; or read a snapshot with -f',
  })
}
