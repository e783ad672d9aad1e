// GET requests to the API server, with the retries upstream clients make: a 429 waits for Retry-After
// (bounded), a 5xx is retried with backoff, a reset connection is retried. It has no other verb:
// kubectl-why is read-only by construction. Authentication comes from the client library's KubeConfig.
import https from 'node:https'
import type {KubeConfig} from '@kubernetes/client-node/dist/config.js'
import {ReadError, type ReadFailure} from '../../errors.js'
import {parseJson} from '../../util/json.js'

export interface ApiClientOptions {
  /** Milliseconds per request; 0 = none. */
  timeout: number
  /** Upper bound on concurrent requests (sockets). */
  maxSockets?: number
  debug?: (line: string) => void
  /** Test hook: how to wait between retries. */
  sleep?: (ms: number) => Promise<void>
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

const MAX_429_RETRIES = 5
const MAX_RETRY_AFTER_S = 30
const MAX_5XX_RETRIES = 3
const BACKOFF_MS = 250
const MAX_RESET_RETRIES = 2
const RESET = new Set(['ECONNRESET', 'EPIPE'])

const REASON_BY_STATUS: Record<number, ReadFailure> = {401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 410: 'Gone', 429: 'TooManyRequests'}

export class ApiClient {
  private agent: https.Agent | undefined
  private readonly sleep: (ms: number) => Promise<void>
  readonly server: URL
  requestCount = 0

  constructor(private readonly kc: KubeConfig, server: string, private readonly options: ApiClientOptions) {
    this.server = new URL(server)
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)))
  }

  /** GET a path; returns the decoded JSON body. Non-2xx responses throw ReadError carrying the Status. */
  async get(path: string, query: Record<string, string | undefined> = {}, accept = 'application/json'): Promise<unknown> {
    const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString()
    const fullPath = `${this.server.pathname.replace(/\/$/, '')}${path}${qs ? `?${qs}` : ''}`
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(fullPath, accept)
      } catch (err) {
        const wait = this.retryDelay(err, attempt)
        if (wait === undefined) throw err
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

  private async requestOptions(path: string, accept: string): Promise<https.RequestOptions> {
    const opts: https.RequestOptions = {}
    await this.kc.applyToHTTPSOptions(opts)
    // One keep-alive agent with the library's TLS material: connections are reused across pages.
    this.agent ??= new https.Agent({
      keepAlive: true, maxSockets: this.options.maxSockets ?? 16,
      ca: opts.ca, cert: opts.cert, key: opts.key, pfx: opts.pfx, passphrase: opts.passphrase,
      rejectUnauthorized: opts.rejectUnauthorized, servername: opts.servername,
    })
    return {
      protocol: this.server.protocol, hostname: this.server.hostname.replace(/^\[|\]$/g, ''), port: this.server.port || 443,
      method: 'GET', path, agent: this.agent, auth: opts.auth,
      headers: {...(opts.headers as Record<string, string>), Accept: accept, 'User-Agent': 'kubectl-why'},
    }
  }

  private async once(path: string, accept: string): Promise<unknown> {
    if (this.server.protocol !== 'https:') {
      throw new ReadError('Unreachable', `the API server address ${this.server.href} is not https`, {hint: 'kubectl-why talks to API servers over TLS only'})
    }
    const opts = await this.requestOptions(path, accept)
    this.requestCount++
    this.options.debug?.(`GET ${path}`)
    return new Promise((resolve, reject) => {
      const req = https.request(opts, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', (e) => reject(networkError(e, this.server, path)))
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8')
          const status = res.statusCode ?? 0
          if (status >= 200 && status < 300) {
            try {
              resolve(parseJson(body, `response of GET ${path}`))
            } catch (e) {
              reject(new ReadError('BadResponse', `GET ${path}: the server answered with something that is not JSON`, {status, path, cause: e}))
            }
            return
          }
          const retryAfter = Number(res.headers['retry-after'])
          reject(new ApiHttpError(status, path, body, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined))
        })
      })
      req.on('error', (e) => reject(networkError(e, this.server, path)))
      if (this.options.timeout > 0) {
        req.setTimeout(this.options.timeout, () => {
          req.destroy()
          reject(new ReadError('Timeout', `GET ${path}: no answer from ${this.server.host} within ${this.options.timeout / 1000}s`, {path, hint: 'raise --request-timeout or check the connection'}))
        })
      }
      req.end()
    })
  }

  close(): void {
    this.agent?.destroy()
  }
}

/** A non-2xx answer: a ReadError whose message is the server's own Status message. */
export class ApiHttpError extends ReadError {
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

function networkError(err: Error & {code?: string}, server: URL, path: string): ReadError {
  const what: Record<string, string> = {
    ECONNREFUSED: 'connection refused', ENOTFOUND: 'host not found', EHOSTUNREACH: 'host unreachable',
    ETIMEDOUT: 'connection timed out', ECONNRESET: 'connection reset', DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate not trusted',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate not trusted', SELF_SIGNED_CERT_IN_CHAIN: 'certificate not trusted', ERR_TLS_CERT_ALTNAME_INVALID: 'certificate does not match the host',
  }
  const text = what[err.code ?? ''] ?? err.message
  return new ReadError('Unreachable', `cannot reach the API server at ${server.origin}: ${text}`, {path, cause: err, hint: 'check the context, the VPN or the cluster; or read a snapshot with -f'})
}
