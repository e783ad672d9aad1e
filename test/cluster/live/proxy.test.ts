// The proxy choice against Go's own vectors: golang.org/x/net/http/httpproxy proxy_test.go (UseProxyTests with its
// noProxy string, each host at port 80; the ProxyForURL cases for parsing and precedence), plus client-go's rule
// that a kubeconfig proxy-url is used for every request.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {chooseProxy, parseEnvProxy, parseProxyUrl, useProxy} from '../../../src/cluster/live/proxy.js'
import {UserError} from '../../../src/errors.js'

const NO_PROXY =
  'foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, 2002:db8:a::45/64'

// [host, proxied]
const USE_PROXY: [string, boolean][] = [
  // never proxy localhost
  ['localhost', false],
  ['127.0.0.1', false],
  ['127.0.0.2', false],
  ['[::1]', false],
  ['[::2]', true],
  ['192.168.1.1', false], // exact IPv4
  ['192.168.1.2', true], // ports do not match
  ['192.168.1.3', false], // exact IPv4:port
  ['192.168.1.4', true],
  ['10.0.0.2', false], // IPv4/CIDR
  ['[2001:db8::52:0:1]', false], // exact IPv6
  ['[2001:db8::52:0:2]', true], // port does not match
  ['[2001:db8::52:0:3]', false], // exact [IPv6]:port
  ['[2002:db8:a::123]', false], // IPv6/CIDR
  ['[fe80::424b:c8be:1643:a1b6]', true],
  ['barbaz.net', true], // .barbaz.net matches subdomains only
  ['www.barbaz.net', false],
  ['foobar.com', false],
  ['www.foobar.com', false], // foobar.com matches its subdomains too
  ['foofoobar.com', true],
  ['baz.com', true],
  ['localhost.net', true],
  ['local.localhost', true],
  ['barbarbaz.net', true],
  ['wildcard.io', true], // *.wildcard.io: subdomains only
  ['nested.wildcard.io', false],
  ['awildcard.io', true],
]

test('useProxy: httpproxy UseProxyTests', () => {
  for (const [host, proxied] of USE_PROXY) assert.equal(useProxy(new URL(`http://${host}:80`), NO_PROXY), proxied, host)
})

test('NO_PROXY=* exempts everything; an empty one nothing but loopback', () => {
  assert.equal(useProxy(new URL('https://api.example:6443'), '*'), false)
  assert.equal(useProxy(new URL('https://api.example:6443'), ''), true)
  assert.equal(useProxy(new URL('https://localhost:6443'), ''), false)
})

test('parseEnvProxy: a value without a scheme is http://value; socks5 and https kept', () => {
  assert.equal(parseEnvProxy('cache.corp.example.com:1234')?.href, 'http://cache.corp.example.com:1234/')
  assert.equal(parseEnvProxy('cache.corp.example.com')?.href, 'http://cache.corp.example.com/')
  assert.equal(parseEnvProxy('https://cache.corp.example.com')?.href, 'https://cache.corp.example.com/')
  assert.equal(parseEnvProxy('socks5://127.0.0.1')?.href, 'socks5://127.0.0.1')
  assert.equal(parseEnvProxy(''), undefined)
})

const server = new URL('https://api.example:6443')
const proxy = (env: NodeJS.ProcessEnv, target = server, proxyUrl?: URL) => chooseProxy(target, proxyUrl, env)?.url.href

test('ProxyFromEnvironment: HTTPS_PROXY for https, HTTP_PROXY for http, upper case first', () => {
  assert.equal(proxy({HTTPS_PROXY: 'secure.proxy.tld'}), 'http://secure.proxy.tld/')
  assert.equal(proxy({https_proxy: 'http://lower:1'}), 'http://lower:1/')
  assert.equal(proxy({HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:1'}), 'http://upper:1/')
  assert.equal(proxy({HTTP_PROXY: 'http://plain:1'}), undefined, 'HTTP_PROXY is not for https servers')
  assert.equal(proxy({HTTP_PROXY: 'http://plain:1'}, new URL('http://api.example:8080')), 'http://plain:1/')
  assert.equal(proxy({HTTPS_PROXY: 'http://secure:1'}, new URL('http://api.example:8080')), undefined, 'HTTPS_PROXY is not for http servers')
})

test('NO_PROXY from the environment (upper case first), as ProxyForURL tests have it', () => {
  const p = 'http://cache.corp.example.com'
  assert.equal(proxy({HTTPS_PROXY: p, NO_PROXY: 'example.com'}, new URL('https://example.com/')), undefined)
  assert.equal(proxy({HTTPS_PROXY: p, NO_PROXY: '.example.com'}, new URL('https://example.com/')), `${p}/`)
  assert.equal(proxy({HTTPS_PROXY: p, NO_PROXY: 'ample.com'}, new URL('https://example.com/')), `${p}/`)
  assert.equal(proxy({HTTPS_PROXY: p, NO_PROXY: 'example.com'}, new URL('https://foo.example.com/')), undefined)
  assert.equal(proxy({HTTPS_PROXY: p, NO_PROXY: '.foo.com'}, new URL('https://example.com/')), `${p}/`)
  assert.equal(proxy({HTTPS_PROXY: p, no_proxy: 'example.com'}, new URL('https://example.com/')), undefined)
  assert.equal(proxy({HTTPS_PROXY: p, NO_PROXY: '10.0.0.0/8'}, new URL('https://10.96.0.1:443/')), undefined, 'a CIDR (NewProxierWithNoProxyCIDR)')
})

test('a CGI environment (REQUEST_METHOD) refuses HTTP_PROXY for http servers', () => {
  assert.throws(
    () => proxy({HTTP_PROXY: 'http://plain:1', REQUEST_METHOD: 'GET'}, new URL('http://api.example/')),
    (e: Error) => e instanceof UserError && /CGI/.test(e.message),
  )
})

test('proxy-url wins over the environment, and is used for loopback and NO_PROXY hosts too (http.ProxyURL)', () => {
  const u = parseProxyUrl('socks5://10.0.0.1:1080', 'test')
  assert.equal(proxy({HTTPS_PROXY: 'http://env:1'}, server, u), 'socks5://10.0.0.1:1080')
  assert.equal(proxy({NO_PROXY: '*'}, new URL('https://127.0.0.1:6443'), u), 'socks5://10.0.0.1:1080')
})

test('proxy-url with another scheme, or not a URL, is one line', () => {
  assert.throws(
    () => parseProxyUrl('ftp://proxy:21', 'the cluster of context "c"'),
    (e: Error) => e instanceof UserError && /only http, https and socks5/.test(e.message),
  )
  assert.throws(
    () => parseProxyUrl('not a url', 'the cluster of context "c"'),
    (e: Error) => e instanceof UserError && /is not a URL/.test(e.message),
  )
})
