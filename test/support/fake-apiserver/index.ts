// A fake kube-apiserver for tests: HTTPS with a test CA, bearer-token authentication, discovery,
// GET and LIST of any kind it holds with selectors, pagination, the watch-cache view, metadata-only
// responses and real Status errors; plus controls a test uses to make it misbehave the way a real
// cluster does (lagging cache, compaction, throttling, RBAC denials, slowness). Read-only: any
// other verb is refused and every request is logged, so a test can prove only GETs were sent.
//
//   const server = await FakeApiServer.start({objects})
//   const kubeconfig = server.writeKubeconfig(dir)
//   ... run the code under test ...
//   assert.ok(server.requests.every((r) => r.method === 'GET'))
//   await server.close()
import {createHash, randomUUID} from 'node:crypto'
import {readFileSync} from 'node:fs'
import type {IncomingHttpHeaders, IncomingMessage, ServerResponse} from 'node:http'
import {createServer as createHttpServer} from 'node:http'
import {createServer, type Server} from 'node:https'
import type {AddressInfo} from 'node:net'
import type {TLSSocket} from 'node:tls'
import {fileURLToPath} from 'node:url'
import type {KubeObject, ResourceType} from '../../../src/cluster/source.js'
import {Faults, type Fault, type ForbidOptions, type InjectOptions} from './faults.js'
import {handle, type Context} from './handler.js'
import {writeKubeconfig, type KubeconfigOptions} from './kubeconfig.js'
import {ResourceRegistry} from './resources.js'
import {Store, type ObjectRef} from './store.js'

export type {Fault, ForbidOptions, InjectOptions, KubeconfigOptions, ObjectRef}

export interface StartOptions {
  objects?: Iterable<KubeObject>
  /** "v1.31.2", or /version fields (the missing ones filled in). Default v1.32.4 (the kubectl this machine has). */
  version?: string | Record<string, string>
  /** Resource types beyond the built-in ones (CRDs), each served at its group/version. */
  extraResources?: readonly ResourceType[]
  /** The bearer token requests must carry (default "fake-apiserver-token"). */
  token?: string
  /** Who the token authenticates as, for RBAC messages (default "system:serviceaccount:kube-system:kubectl-why"). */
  user?: string
  /** Delay every response this long (ms). */
  delayMs?: number
  /** Serve apidiscovery.k8s.io aggregated discovery on /api and /apis when asked (default true, as 1.30+ does). */
  aggregatedDiscovery?: boolean
  /** Create the Namespace objects a real cluster would have (default true). */
  autoNamespaces?: boolean
  /** Serve plain http without authentication, as `kubectl proxy` does (http://127.0.0.1:8001; it adds credentials upstream). */
  plainHttp?: boolean
  /** Each node's kubelet /configz answer (served at /api/v1/nodes/NAME/proxy/configz). */
  configz?: Record<string, unknown>
  /** Ask every TLS client for a certificate (any is taken, none is fine) and record its fingerprint in each request. */
  clientCertificates?: boolean
  /**
   * Serve the server-side Table (as=Table;g=meta.k8s.io) for Nodes, whose printer table.ts models (default true). The
   * real server serves it for every built-in kind; here other kinds are answered as a server without it answers (406,
   * or the JSON fallback the Accept header lists). false: no Table at all, as an old or aggregated server refuses it.
   */
  tables?: boolean
}

export interface RequestRecord {
  method: string
  /** The path, without the query string. */
  path: string
  query: Record<string, string>
  accept: string | undefined
  headers: IncomingHttpHeaders
  /** The headers as they came, [name, value, name, value, …]: repeated ones apart, names as sent. */
  rawHeaders: string[]
  /** When it arrived: milliseconds on the Unix epoch, sub-millisecond (performance.timeOrigin + performance.now()). */
  at: number
  /** The SHA-256 fingerprint of the client certificate the connection presented (clientCertificates only). */
  clientCert?: string
}

const CERTS = new URL('./certs/', import.meta.url)

/** What kube-apiserver's /version answers (version.Info, field order kept). */
export function versionInfo(gitVersion: string): Record<string, string> {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion)
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '32',
    gitVersion,
    gitCommit: createHash('sha1').update(gitVersion).digest('hex'),
    gitTreeState: 'clean',
    buildDate: '2025-04-22T15:59:32Z',
    goVersion: 'go1.23.8',
    compiler: 'gc',
    platform: 'linux/amd64',
  }
}

export class FakeApiServer {
  /** https://127.0.0.1:PORT (http:// with plainHttp) */
  readonly url: string
  /** The test CA's certificate file (committed under certs/). */
  readonly caFile: string
  readonly caPem: string
  readonly token: string
  readonly user: string
  private constructor(
    /** Every request received, in order. */
    readonly requests: RequestRecord[],
    private readonly server: Server,
    private readonly store: Store,
    private readonly faults: Faults,
    private readonly ctx: Context,
    scheme: 'http' | 'https' = 'https',
  ) {
    const {port} = server.address() as AddressInfo
    this.url = `${scheme}://127.0.0.1:${port}`
    this.caFile = fileURLToPath(new URL('ca.crt', CERTS))
    this.caPem = readFileSync(this.caFile, 'utf8')
    this.token = ctx.token
    this.user = ctx.user
  }

  static async start(options: StartOptions = {}): Promise<FakeApiServer> {
    const extra = options.extraResources ?? []
    const registry = new ResourceRegistry(extra)
    const store = new Store(registry, options.autoNamespaces ?? true)
    store.load(options.objects ?? [])
    const faults = new Faults()
    const version =
      typeof options.version === 'object'
        ? {...versionInfo(options.version.gitVersion ?? `v${options.version.major ?? '1'}.${options.version.minor ?? '32'}.0`), ...options.version}
        : versionInfo(options.version ?? 'v1.32.4')
    const ctx: Context = {
      store,
      faults,
      token: options.token ?? 'fake-apiserver-token',
      user: options.user ?? 'system:serviceaccount:kube-system:kubectl-why',
      version,
      delayMs: options.delayMs ?? 0,
      aggregatedDiscovery: options.aggregatedDiscovery ?? true,
      serverAddress: '127.0.0.1:0',
      anonymous: options.plainHttp === true,
      configz: new Map(Object.entries(options.configz ?? {})),
      tables: options.tables ?? true,
    }
    const requests: RequestRecord[] = []
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'https://fake-apiserver')
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        accept: req.headers.accept,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        at: performance.timeOrigin + performance.now(),
        ...(options.clientCertificates ? {clientCert: (req.socket as TLSSocket).getPeerCertificate?.()?.fingerprint256 || undefined} : {}),
      })
      // headers every kube-apiserver response carries
      res.setHeader('Audit-Id', randomUUID())
      res.setHeader('Cache-Control', 'no-cache, private')
      handle(ctx, req, res).catch((e) => {
        if (!res.headersSent) res.writeHead(500)
        res.end(String(e))
      })
    }
    const server: Server = options.plainHttp
      ? (createHttpServer(listener) as unknown as Server)
      : createServer(
          {
            cert: readFileSync(new URL('server.crt', CERTS)),
            key: readFileSync(new URL('server.key', CERTS)),
            ...(options.clientCertificates ? {requestCert: true, rejectUnauthorized: false} : {}),
          },
          listener,
        )
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    const fake = new FakeApiServer(requests, server, store, faults, ctx, options.plainHttp ? 'http' : 'https')
    ctx.serverAddress = new URL(fake.url).host
    return fake
  }

  /** A kubeconfig for this server in dir; returns its path. */
  writeKubeconfig(dir: string, options: KubeconfigOptions = {}): string {
    return writeKubeconfig(dir, this.url, this.caFile, this.token, options)
  }

  /** The latest resourceVersion (etcd revision). */
  get resourceVersion(): string {
    return String(this.store.rev)
  }

  /** Every response waits this long first (ms). */
  get delayMs(): number {
    return this.ctx.delayMs
  }

  set delayMs(ms: number) {
    this.ctx.delayMs = ms
  }

  /** Creates or replaces an object (a write: it gets the next resourceVersion). Returns it as stored. */
  put(obj: KubeObject): KubeObject {
    return this.store.put(obj)
  }

  /** The object as the server holds it now (resourceVersion and uid filled in); undefined when absent. */
  stored(ref: ObjectRef): KubeObject | undefined {
    return this.store.get(ref)
  }

  /** Deletes an object; false when there was none. */
  remove(ref: ObjectRef): boolean {
    return this.store.remove(ref)
  }

  /** Freezes the watch cache (resourceVersion=0 reads) at the current state. */
  lagCache(): void {
    this.store.lagCache()
  }

  /** Lets the watch cache catch up with every write. */
  syncCache(): void {
    this.store.syncCache()
  }

  /** Compacts history: every continue token handed out so far now gets 410 Expired. */
  expireContinueTokens(): void {
    this.store.compact()
  }

  /** The next `times` (default 1) requests matching get this answer (or delay). */
  inject(options: InjectOptions): Fault {
    return this.faults.inject(options)
  }

  /** 403 Forbidden on GET and LIST of a resource until lifted. */
  forbid(options: ForbidOptions): Fault {
    return this.faults.forbid(options)
  }

  /** Lifts every injected fault and forbid. */
  clearFaults(): void {
    this.faults.clear()
  }

  clearRequests(): void {
    this.requests.length = 0
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
