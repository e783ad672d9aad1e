// Real proxies for tests, each a server in this process that clients (kubectl-why, kubectl) reach over TCP:
// an HTTP proxy that tunnels CONNECT (RFC 9110 §9.3.6) and forwards absolute-form requests (what clients send
// for http:// targets), and a SOCKS5 proxy (RFC 1928, no authentication, CONNECT only). Each logs what it was asked
// to reach, so a test can prove a request went through it. `hosts` maps names to the address actually dialled, so a
// test can use a name that is not loopback (clients never proxy loopback addresses from the environment).
import http from 'node:http'
import https from 'node:https'
import net, {type AddressInfo} from 'node:net'

export interface ProxyLog {
  /** CONNECT host:port, GET http://…, or SOCKS5 host:port. */
  kind: 'CONNECT' | 'forward' | 'SOCKS5'
  target: string
  proxyAuthorization?: string
}

export interface TestProxy {
  url: string
  log: ProxyLog[]
  close(): Promise<void>
}

function dial(hosts: Record<string, string>, host: string, port: number): net.Socket {
  return net.connect({host: hosts[host] ?? host, port})
}

/** With `tls`, the proxy itself is reached over TLS (an https:// proxy URL), with that certificate. */
export async function startHttpProxy(options: {hosts?: Record<string, string>; tls?: {cert: Buffer; key: Buffer}} = {}): Promise<TestProxy> {
  const hosts = options.hosts ?? {}
  const log: ProxyLog[] = []
  const sockets = new Set<net.Socket>()
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    // absolute-form: GET http://host:port/path
    const target = new URL(req.url ?? '/')
    log.push({kind: 'forward', target: target.href, proxyAuthorization: req.headers['proxy-authorization']})
    const headers = {...req.headers}
    delete headers['proxy-authorization']
    const up = http.request(
      {host: hosts[target.hostname] ?? target.hostname, port: target.port || 80, path: `${target.pathname}${target.search}`, method: req.method, headers},
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers)
        r.pipe(res)
      },
    )
    up.on('error', () => res.writeHead(502).end())
    req.pipe(up)
  }
  const server: http.Server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler)
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client)
    log.push({kind: 'CONNECT', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization']})
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '')
    if (!m) return client.end('HTTP/1.1 400 Bad Request\r\n\r\n')
    const up = dial(hosts, m[1], Number(m[2]))
    sockets.add(up)
    up.on('connect', () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n')
      if (head.length) up.write(head)
      up.pipe(client)
      client.pipe(up)
    })
    up.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'))
    client.on('error', () => up.destroy())
  })
  server.on('connection', (s: net.Socket) => sockets.add(s))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise((r) => server.close(() => r()))
    },
  }
}

export async function startSocks5Proxy(options: {hosts?: Record<string, string>} = {}): Promise<TestProxy> {
  const hosts = options.hosts ?? {}
  const log: ProxyLog[] = []
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    sockets.add(client)
    client.on('error', () => {})
    let buf = Buffer.alloc(0)
    let stage: 'greeting' | 'request' = 'greeting'
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]) return
        if (buf[0] !== 5) return client.destroy()
        client.write(Buffer.from([5, 0])) // no authentication
        buf = buf.subarray(2 + buf[1])
        stage = 'request'
      }
      if (buf.length < 5) return
      const atyp = buf[3]
      const len = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + buf[4]
      if (buf.length < 4 + len + 2) return
      const addr =
        atyp === 1
          ? [...buf.subarray(4, 8)].join('.')
          : atyp === 4
            ? buf
                .subarray(4, 20)
                .toString('hex')
                .replace(/(.{4})(?!$)/g, '$1:')
            : buf.subarray(5, 5 + buf[4]).toString('latin1')
      const port = buf.readUInt16BE(4 + len)
      client.removeListener('data', onData)
      log.push({kind: 'SOCKS5', target: `${addr}:${port}`})
      const up = dial(hosts, addr, port)
      sockets.add(up)
      up.on('connect', () => {
        client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]))
        const rest = buf.subarray(4 + len + 2)
        if (rest.length) up.write(rest)
        up.pipe(client)
        client.pipe(up)
      })
      up.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])))
    }
    client.on('data', onData)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise((r) => server.close(() => r()))
    },
  }
}
