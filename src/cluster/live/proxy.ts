// Which proxy a request to the API server goes through, as kubectl chooses it. client-go
// (rest/transport.go, via clientcmd): a cluster's `proxy-url` is used for every request, loopback included
// (http.ProxyURL); without it, the environment as Go reads it (golang.org/x/net/http/httpproxy, through
// apimachinery's NewProxierWithNoProxyCIDR): HTTPS_PROXY for https servers, HTTP_PROXY for http ones (upper case
// first), NO_PROXY exempting hosts, domains, IPs and CIDRs, and localhost and loopback IPs never proxied.
import {isIP} from 'node:net'
import {UserError} from '../../errors.js'

export type ProxySource = 'proxy-url' | 'environment'
export interface ProxyChoice {
  url: URL
  source: ProxySource
}

const SCHEMES = new Set(['http:', 'https:', 'socks5:'])

/** kubeconfig `proxy-url`: clientcmd accepts http, https and socks5 (validation.go validateClusterInfo). */
export function parseProxyUrl(value: string, where: string): URL {
  let u: URL
  try {
    u = new URL(value)
  } catch {
    throw new UserError(`proxy-url "${value}" of ${where} is not a URL`, 'write it as http://HOST:PORT, https://HOST:PORT or socks5://HOST:PORT')
  }
  if (!SCHEMES.has(u.protocol)) {
    throw new UserError(
      `proxy-url "${value}" of ${where} has scheme ${u.protocol.replace(':', '')}; only http, https and socks5 are allowed`,
      'fix proxy-url in the kubeconfig',
    )
  }
  return u
}

/**
 * httpproxy parseProxy: a value whose scheme is not http, https or socks5 (or that does not parse) is tried again
 * as http://value ("proxy.corp:3128" parses as scheme "proxy.corp"); a value unusable either way means no proxy.
 */
export function parseEnvProxy(value: string | undefined): URL | undefined {
  if (!value) return undefined
  const parse = (v: string): URL | undefined => {
    try {
      return new URL(v)
    } catch {
      return undefined
    }
  }
  const u = parse(value)
  if (u && SCHEMES.has(u.protocol)) return u
  const again = parse(`http://${value}`)
  return again && again.host !== '' ? again : undefined
}

type Matcher = (host: string, port: string, ip: number[] | undefined) => boolean

/** httpproxy config.init: the NO_PROXY entries, each an IP/CIDR matcher or a domain matcher. */
export function noProxyMatchers(noProxy: string): {ip: Matcher[]; domain: Matcher[]} {
  const ip: Matcher[] = []
  const domain: Matcher[] = []
  for (const raw of noProxy.split(',')) {
    const p = raw.trim().toLowerCase()
    if (p === '') continue
    if (p === '*') return {ip: [() => true], domain: [() => true]}
    const cidr = parseCidr(p)
    if (cidr) {
      ip.push((_h, _p, addr) => addr !== undefined && inCidr(addr, cidr))
      continue
    }
    let [phost, pport] = splitHostPort(p) ?? [p, '']
    if (phost === '') continue
    if (phost.startsWith('[') && phost.endsWith(']')) phost = phost.slice(1, -1)
    const pip = parseIp(phost)
    if (pip) {
      ip.push((_h, port, addr) => addr !== undefined && sameIp(addr, pip) && (pport === '' || pport === port))
      continue
    }
    // foo.com matches foo.com and bar.foo.com; .foo.com and *.foo.com only the subdomains.
    if (phost.startsWith('*.')) phost = phost.slice(1)
    const matchHost = !phost.startsWith('.')
    const suffix = matchHost ? `.${phost}` : phost
    domain.push((host, port) => (host.endsWith(suffix) || (matchHost && host === suffix.slice(1))) && (pport === '' || pport === port))
  }
  return {ip, domain}
}

function env(e: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const n of names) if (e[n]) return e[n]
  return undefined
}

/** The proxy for requests to `server`, or undefined for a direct connection. */
export function chooseProxy(server: URL, proxyUrl: URL | undefined, e: NodeJS.ProcessEnv = process.env): ProxyChoice | undefined {
  if (proxyUrl) return {url: proxyUrl, source: 'proxy-url'}
  const https = server.protocol === 'https:'
  const proxy = parseEnvProxy(https ? env(e, 'HTTPS_PROXY', 'https_proxy') : env(e, 'HTTP_PROXY', 'http_proxy'))
  if (!proxy) return undefined
  // httpproxy: REQUEST_METHOD set means a CGI environment, where HTTP_PROXY may come from a request header.
  if (!https && e.REQUEST_METHOD)
    throw new UserError('refusing to use HTTP_PROXY value in CGI environment; see golang.org/s/cgihttpproxy', 'unset REQUEST_METHOD or HTTP_PROXY')
  return useProxy(server, env(e, 'NO_PROXY', 'no_proxy') ?? '') ? {url: proxy, source: 'environment'} : undefined
}

/** httpproxy useProxy, on the canonical address (default port 443/80). */
export function useProxy(server: URL, noProxy: string): boolean {
  const host = server.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = server.port || (server.protocol === 'https:' ? '443' : '80')
  if (host === 'localhost') return false
  const ip = parseIp(host)
  if (ip && isLoopback(ip)) return false
  const m = noProxyMatchers(noProxy)
  if (ip && m.ip.some((f) => f(host, port, ip))) return false
  return !m.domain.some((f) => f(host, port, ip))
}

function splitHostPort(p: string): [string, string] | undefined {
  const m = /^\[([^\]]*)\]:(\d*)$/.exec(p) ?? /^([^:]*):(\d*)$/.exec(p)
  return m ? [m[1], m[2]] : undefined
}

/** An address as 16 bytes (IPv4 mapped into IPv6, as Go's net.IP holds it). */
function parseIp(s: string): number[] | undefined {
  const v = isIP(s)
  if (v === 4) return [...Array(10).fill(0), 0xff, 0xff, ...s.split('.').map(Number)]
  if (v !== 6) return undefined
  let text = s
  let tail: number[] = []
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4) {
    tail = v4[1].split('.').map(Number)
    text = `${text.slice(0, -v4[1].length)}0:0`
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined]
  const groups = (x: string) => (x === '' ? [] : x.split(':').map((g) => Number.parseInt(g, 16)))
  const h = groups(head)
  const r = rest === undefined ? [] : groups(rest)
  const all = [...h, ...Array(8 - h.length - r.length).fill(0), ...r]
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff])
  if (tail.length) bytes.splice(12, 4, ...tail)
  return bytes
}

function isLoopback(ip: number[]): boolean {
  const v4 = ip.slice(0, 12).every((b, i) => b === (i >= 10 ? 0xff : 0))
  return v4 ? ip[12] === 127 : ip.every((b, i) => b === (i === 15 ? 1 : 0))
}

const sameIp = (a: number[], b: number[]) => a.every((x, i) => x === b[i])

function parseCidr(p: string): {ip: number[]; bits: number} | undefined {
  const m = /^(.+)\/(\d{1,3})$/.exec(p)
  if (!m) return undefined
  const ip = parseIp(m[1])
  if (!ip) return undefined
  const bits = Number(m[2]) + (isIP(m[1]) === 4 ? 96 : 0)
  if (bits > 128 || (isIP(m[1]) === 4 && Number(m[2]) > 32)) return undefined
  return {ip, bits}
}

function inCidr(ip: number[], c: {ip: number[]; bits: number}): boolean {
  for (let i = 0; i < c.bits; i++) {
    const byte = i >> 3
    const mask = 0x80 >> (i & 7)
    if ((ip[byte] & mask) !== (c.ip[byte] & mask)) return false
  }
  return true
}
