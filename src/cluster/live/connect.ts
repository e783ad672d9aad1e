// Connections to the API server the way client-go's transport makes them (k8s.io/apimachinery/pkg/util/net
// SetTransportDefaults, client-go transport/cache.go): a 30 s dial timeout, a 10 s TLS handshake timeout
// (TLSHandshakeTimeout), keep-alive, and the proxy rest.Config chose — an http or https proxy through CONNECT for
// https servers (absolute-form requests for http servers, as Go's Transport sends them), or SOCKS5.
import net, {isIP} from 'node:net'
import type {Duplex} from 'node:stream'
import tls from 'node:tls'
import type {Connection} from './transport.js'

export const DIAL_TIMEOUT_MS = 30_000
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000

export interface TlsSettings {
  ca?: Buffer
  cert?: Buffer
  key?: Buffer
  /** tls-server-name, else the host when it is a name (SNI is never an IP address). */
  servername?: string
  rejectUnauthorized: boolean
}

export interface ConnectOptions {
  server: URL
  tls: TlsSettings
  proxy?: URL
  handshakeTimeoutMs?: number
  dialTimeoutMs?: number
}

/** An error a connection attempt ends with, with a code the client maps to one line. */
export class ConnectError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const hostOf = (u: URL) => u.hostname.replace(/^\[|\]$/g, '')
const portOf = (u: URL) => Number(u.port || (u.protocol === 'https:' || u.protocol === 'https-proxy:' ? 443 : u.protocol === 'socks5:' ? 1080 : 80))

function withTimeout<T extends net.Socket>(socket: T, ms: number, until: string, error: () => Error): T {
  const timer = setTimeout(() => socket.destroy(error()), ms)
  const clear = () => clearTimeout(timer)
  socket.once(until, clear)
  socket.once('close', clear)
  return socket
}

function tcp(host: string, port: number, dialMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = withTimeout(net.connect({host, port}), dialMs, 'connect', () => new ConnectError('ETIMEDOUT', `dial tcp ${host}:${port}: i/o timeout`))
    s.once('connect', () => {
      s.removeListener('error', reject)
      resolve(s)
    })
    s.once('error', reject)
  })
}

/** TLS over `socket`, given up after the handshake timeout (net/http: TLS handshake timeout). */
function tlsOver(socket: Duplex, host: string, t: TlsSettings, handshakeMs: number, servername = t.servername): tls.TLSSocket {
  const s = tls.connect({socket, host, servername, ca: t.ca, cert: t.cert, key: t.key, rejectUnauthorized: t.rejectUnauthorized, ALPNProtocols: ['http/1.1']})
  return withTimeout(s, handshakeMs, 'secureConnect', () => new ConnectError('ETLSHANDSHAKETIMEOUT', 'TLS handshake timeout'))
}

async function proxySocket(proxy: URL, t: TlsSettings, dialMs: number, handshakeMs: number): Promise<Connection> {
  const raw = await tcp(hostOf(proxy), portOf(proxy), dialMs)
  if (proxy.protocol !== 'https:') return {stream: raw, tcp: raw}
  // Go verifies an https proxy with the transport's TLS config (the kubeconfig's CA), its name as ServerName.
  const name = hostOf(proxy)
  return {stream: await secured(tlsOver(raw, name, {...t, cert: undefined, key: undefined}, handshakeMs, isIP(name) ? undefined : name)), tcp: raw}
}

/** The TLS socket once its handshake is done (or its error: a certificate refused, the handshake timeout). */
function secured(s: tls.TLSSocket): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    s.once('secureConnect', () => {
      s.removeListener('error', reject)
      resolve(s)
    })
    s.once('error', reject)
  })
}

function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined
  return `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
}

/** An HTTP CONNECT tunnel to host:port through the proxy (what Go's Transport sends for https through a proxy). */
async function connectTunnel(proxy: URL, host: string, port: number, t: TlsSettings, dialMs: number, handshakeMs: number): Promise<Connection> {
  const {stream: socket, tcp: under} = await proxySocket(proxy, t, dialMs, handshakeMs)
  const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`
  const auth = proxyAuthorization(proxy)
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`)
  return new Promise<Connection>((resolve, reject) => {
    let head = Buffer.alloc(0)
    const timer = setTimeout(() => fail(new ConnectError('ETIMEDOUT', `proxy ${proxy.host} did not answer CONNECT`)), dialMs)
    const fail = (e: Error) => {
      clearTimeout(timer)
      socket.destroy()
      reject(e)
    }
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) return
      clearTimeout(timer)
      socket.removeListener('data', onData)
      socket.removeListener('error', fail)
      const status = /^HTTP\/1\.[01] (\d{3})(.*)/.exec(head.subarray(0, end).toString('latin1'))
      if (status?.[1] !== '200')
        return fail(new ConnectError('EPROXY', `proxy ${proxy.host} refused the tunnel: ${status ? `${status[1]}${status[2]}` : 'not an HTTP answer'}`))
      if (head.length > end + 4) socket.unshift(head.subarray(end + 4))
      resolve({stream: socket, tcp: under})
    }
    socket.on('data', onData)
    socket.once('error', fail)
    socket.once('close', () => fail(new ConnectError('EPROXY', `proxy ${proxy.host} closed the connection during CONNECT`)))
  })
}

async function socksTunnel(proxy: URL, host: string, port: number, dialMs: number): Promise<Connection> {
  // socks is CommonJS: its named export is on the module, or on `default` when a bundler wrapped it.
  const mod = (await import('socks')) as typeof import('socks') & {default?: typeof import('socks')}
  const SocksClient = mod.SocksClient ?? mod.default!.SocksClient
  const {socket} = await SocksClient.createConnection({
    proxy: {
      host: hostOf(proxy),
      port: portOf(proxy),
      type: 5,
      userId: proxy.username ? decodeURIComponent(proxy.username) : undefined,
      password: proxy.password ? decodeURIComponent(proxy.password) : undefined,
    },
    command: 'connect',
    destination: {host, port},
    timeout: dialMs,
  })
  return {stream: socket, tcp: socket}
}

/** A byte stream to the API server (TLS not yet added). */
async function tunnel(o: ConnectOptions, dialMs: number, handshakeMs: number): Promise<Connection> {
  const host = hostOf(o.server)
  const port = portOf(o.server)
  if (!o.proxy) {
    const raw = await tcp(host, port, dialMs)
    return {stream: raw, tcp: raw}
  }
  if (o.proxy.protocol === 'socks5:') return socksTunnel(o.proxy, host, port, dialMs)
  return connectTunnel(o.proxy, host, port, o.tls, dialMs, handshakeMs)
}

/**
 * How every request's connection is opened (transport.ts keeps them): one per client certificate (an exec plugin may
 * rotate it). Resolves once the connection can carry a request: for https, once TLS is through.
 */
export function connector(o: ConnectOptions): () => Promise<Connection> {
  const dialMs = o.dialTimeoutMs ?? DIAL_TIMEOUT_MS
  const handshakeMs = o.handshakeTimeoutMs ?? TLS_HANDSHAKE_TIMEOUT_MS
  if (o.server.protocol === 'https:')
    return async () => {
      const raw = await tunnel(o, dialMs, handshakeMs)
      return {stream: await secured(tlsOver(raw.stream, hostOf(o.server), o.tls, handshakeMs)), tcp: raw.tcp}
    }
  // An http server: through an http(s) proxy the request itself goes to the proxy (absolute-form); else a stream.
  if (o.proxy && o.proxy.protocol !== 'socks5:') return () => proxySocket(o.proxy!, o.tls, dialMs, handshakeMs)
  return () => tunnel(o, dialMs, handshakeMs)
}

/** The request target: absolute-form when an http server is reached through an http(s) proxy. */
export function requestTarget(o: Pick<ConnectOptions, 'server' | 'proxy'>, path: string): {path: string; headers: Record<string, string>} {
  if (o.server.protocol === 'http:' && o.proxy && o.proxy.protocol !== 'socks5:') {
    const auth = proxyAuthorization(o.proxy)
    return {path: `${o.server.origin}${path}`, headers: auth ? {'Proxy-Authorization': auth} : {}}
  }
  return {path, headers: {}}
}
