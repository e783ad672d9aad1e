// -v N as kubectl logs requests (client-go v0.32.4 transport/round_trippers.go DebugWrappers, debuggingRoundTripper;
// rest/request.go truncateBody). maskValue's cases are client-go's own (round_trippers_test.go TestMaskValue); the
// truncation is worked by hand; and, where kubectl is on PATH, kubectl's -v=6 and -v=7 lines are read next to ours
// from one fake API server: the same line shapes and fields (timings differ), the same masked Authorization, and no
// token anywhere in either log at any level.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {klogHeader, maskValue, RequestLog} from '../../../src/cluster/live/request-log.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'

const probe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const NO_KUBECTL = probe.status === 0 ? false : 'no kubectl on PATH: the side-by-side check needs the real client'
const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))
/** klog's text header, as kubectl writes it: I1203 12:03:26.833809   21296 round_trippers.go:560] */
const KLOG = /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\] ]+\] /

describe('the pieces (round_trippers.go, request.go)', () => {
  test('maskValue: TestMaskValue', () => {
    const cases: [string, string, string][] = [
      ['Authorization', 'Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'Basic <masked>'],
      ['Authorization', 'basic', 'basic'],
      ['Authorization', 'Basic', 'Basic'],
      ['Authorization', 'Bearer cn389ncoiwuencr', 'Bearer <masked>'],
      ['Authorization', 'Bearer', 'Bearer'],
      ['Authorization', 'bearer', 'bearer'],
      ['Authorization', 'bearer ', 'bearer'],
      ['Authorization', 'Negotiate cn389ncoiwuencr', 'Negotiate <masked>'],
      ['ABC', 'Negotiate cn389ncoiwuencr', 'Negotiate cn389ncoiwuencr'],
      ['Authorization', 'Negotiate', 'Negotiate'],
      ['Authorization', 'Negotiate ', 'Negotiate'],
      ['Authorization', 'negotiate', 'negotiate'],
      ['Authorization', 'abc cn389ncoiwuencr', '<masked>'],
      ['Authorization', '', ''],
    ]
    for (const [key, value, expected] of cases) assert.equal(maskValue(key, value), expected, `${key}: ${value}`)
  })

  test('klog header: month, day, time to the microsecond, pid in 7 columns', () => {
    // 2026-12-03 12:03:26.833809 local time, built from its parts so the test holds in any time zone.
    const at = new Date(2026, 11, 3, 12, 3, 26, 833).getTime() + 0.809
    assert.equal(klogHeader(at, 21296, 'request-log.ts'), 'I1203 12:03:26.833809   21296 request-log.ts] ')
  })

  /** The lines one request logs at a level, without their headers. */
  function lines(verbosity: number, body: Buffer[], status = 200): string[] {
    const out: string[] = []
    const log = RequestLog.for(verbosity, (l) => out.push(l.replace(KLOG, '')), 'https://h:6443/api/v1/nodes', {
      Authorization: 'Bearer sekret',
      'Proxy-Authorization': 'Basic cHJveHk6cHc=',
      'Impersonate-User': 'zo\u00c3\u00ab',
      Accept: 'application/json',
    })
    log?.responded(status, {'content-type': 'application/json', 'audit-id': 'x'})
    for (const p of body) log?.piece(p)
    log?.done()
    return out
  }

  test('nothing below 6; at 6 one line; at 7 the request headers (masked, UTF-8 shown, no proxy credentials)', () => {
    assert.deepEqual(lines(5, []), [])
    assert.equal(lines(6, []).length, 1)
    assert.match(lines(6, [])[0], /^GET https:\/\/h:6443\/api\/v1\/nodes 200 OK in \d+ milliseconds$/)
    const seven = lines(7, [])
    assert.deepEqual(seven.slice(0, -1), [
      'GET https://h:6443/api/v1/nodes',
      'Request Headers:',
      '    Authorization: Bearer <masked>',
      '    Impersonate-User: zoë',
      '    Accept: application/json',
    ])
    assert.match(seven.at(-1) ?? '', /^Response Status: 200 OK in \d+ milliseconds$/)
  })

  test('bodies: 1,024 bytes at 8, 10,240 at 9, whole at 10, with how many were cut (truncateBody)', () => {
    // 3,000 bytes in pieces of 700: at 8, the first 1,024 and "[truncated 1976 chars]" (3000 - 1024, by hand).
    const pieces = Array.from({length: 5}, (_, i) => Buffer.alloc(i < 4 ? 700 : 200, 'a'))
    const at8 = lines(8, pieces).find((l) => l.startsWith('"Response Body"'))
    assert.equal(at8, `"Response Body" body=${JSON.stringify(`${'a'.repeat(1024)} [truncated 1976 chars]`)}`)
    const at9 = lines(9, pieces).find((l) => l.startsWith('"Response Body"'))
    assert.equal(at9, `"Response Body" body=${JSON.stringify('a'.repeat(3000))}`)
    const big = [Buffer.alloc(12_000, 'b')]
    assert.ok(
      lines(9, big).some((l) => l.endsWith(' [truncated 1760 chars]"')),
      '12000 - 10240 = 1760',
    )
    assert.ok(lines(10, big).some((l) => l === `"Response Body" body=${JSON.stringify('b'.repeat(12_000))}`))
  })

  test('at 9 the curl line instead of the request headers, then the level-6 line and the response headers', () => {
    const nine = lines(9, [Buffer.from('{}')])
    assert.equal(nine[0], '"Request Body" body=""')
    assert.equal(
      nine[1],
      `curl -v -XGET  -H "Authorization: Bearer <masked>" -H "Impersonate-User: zoë" -H "Accept: application/json" 'https://h:6443/api/v1/nodes'`,
    )
    assert.match(nine[2], /^GET https:\/\/h:6443\/api\/v1\/nodes 200 OK in \d+ milliseconds$/)
    assert.deepEqual(nine.slice(3, 6), ['Response Headers:', '    Content-Type: application/json', '    Audit-Id: x'])
  })

  test('no answer at all: the status is empty, as kubectl prints a failed round trip', () => {
    const out: string[] = []
    RequestLog.for(6, (l) => out.push(l.replace(KLOG, '')), 'https://h/x', {})?.done()
    assert.match(out[0], /^GET https:\/\/h\/x {2}in \d+ milliseconds$/)
  })
})

describe('-v next to kubectl on the fake API server', () => {
  let server: FakeApiServer
  let file: string
  let dir: string
  before(async () => {
    server = await FakeApiServer.start({
      objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'worker-1'}, status: {conditions: [{type: 'Ready', status: 'True'}]}}],
    })
    dir = mkdtempSync(join(tmpdir(), 'request-log-'))
    file = server.writeKubeconfig(dir, {userFields: {token: server.token, as: 'jane'}})
  })
  after(async () => server.close())

  function run(cmd: string, args: string[]): Promise<{code: number; stderr: string}> {
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, {env: {PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1'}})
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString()
      })
      child.stdout.resume()
      child.on('error', reject)
      child.on('close', (code) => resolve({code: code ?? -1, stderr}))
    })
  }
  const kubectl = (v: string) => run('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, 'cache'), 'get', 'node', 'worker-1', '-o', 'json', v])
  const why = (...v: string[]) => run(process.execPath, [BIN, 'node', 'worker-1', '--kubeconfig', file, '-o', 'json', ...v])

  /** The request lines of a log: klog header gone, only what round_trippers.go writes. */
  const requestLines = (stderr: string) =>
    stderr
      .split('\n')
      .filter((l) => KLOG.test(l))
      .map((l) => l.replace(KLOG, ''))
      .filter((l) => /^(GET |Request Headers:|Response Status:| {4}\S)/.test(l))

  test('-v=6: every line "GET URL STATUS in N milliseconds", with klog\'s header, for both', {skip: NO_KUBECTL}, async () => {
    const shape = /^GET (https:\/\/127\.0\.0\.1:\d+\/\S+) (\d{3} [A-Za-z ]+) in \d+ milliseconds$/
    const k = requestLines((await kubectl('-v=6')).stderr)
    const w = requestLines((await why('-v=6')).stderr)
    assert.ok(k.length > 0 && w.length > 0)
    for (const l of [...k, ...w]) assert.match(l, shape)
    // The object both read: the same URL (kubectl adds no query to it) and status.
    const node = (ls: string[]) => ls.map((l) => shape.exec(l)!).find((m) => m[1].endsWith('/api/v1/nodes/worker-1') || m[1].includes('/api/v1/nodes?'))
    assert.equal(node(k)?.[2], '200 OK')
    assert.equal(node(w)?.[2], '200 OK')
  })

  test('-v=7: GET URL, Request Headers:, each header, Response Status:; Authorization masked alike', {skip: NO_KUBECTL}, async () => {
    for (const lines of [requestLines((await kubectl('-v=7')).stderr), requestLines((await why('-v', '7')).stderr)]) {
      assert.ok(lines.length > 0)
      // Each request: GET URL, Request Headers:, headers (written together as it is sent), and later its Response
      // Status: S in N milliseconds — after its own headers, though requests in flight together interleave (both
      // clients send independent reads at once), so each status answers one request still open.
      let i = 0
      let open = 0
      while (i < lines.length) {
        if (lines[i].startsWith('Response Status:')) {
          assert.match(lines[i++], /^Response Status: \d{3} [A-Za-z ]+ in \d+ milliseconds$/)
          assert.ok(open-- > 0, 'a status answers a request sent before it')
          continue
        }
        assert.match(lines[i++], /^GET https:\/\/\S+$/)
        open++
        assert.equal(lines[i++], 'Request Headers:')
        const headers: string[] = []
        while (i < lines.length && lines[i].startsWith('    ')) headers.push(lines[i++].trim())
        assert.ok(headers.includes('Authorization: Bearer <masked>'), headers.join('; '))
        assert.ok(headers.includes('Impersonate-User: jane'), headers.join('; '))
        assert.ok(headers.includes('Accept: application/json') || headers.some((h) => h.startsWith('Accept: ')), headers.join('; '))
      }
      assert.equal(open, 0, 'every request has its status')
    }
  })

  test('no level prints the token', {skip: NO_KUBECTL}, async () => {
    for (const v of ['6', '7', '8', '9', '10']) {
      const w = await why(`--v=${v}`)
      assert.ok(!w.stderr.includes(server.token), `-v=${v}`)
      assert.ok(w.stderr.includes('Bearer <masked>') || v === '6', `-v=${v}`)
    }
  })

  test('a refused request at -v=6: the status as kubectl shows it (401 Unauthorized)', {skip: NO_KUBECTL}, async () => {
    const bad = server.writeKubeconfig(dir, {fileName: 'bad', token: 'wrong'})
    const shape = /^GET \S+ 401 Unauthorized in \d+ milliseconds$/
    const k = await run('kubectl', ['--kubeconfig', bad, '--cache-dir', join(dir, 'cache2'), 'get', 'node', 'worker-1', '-v=6'])
    const w = await run(process.execPath, [BIN, 'node', 'worker-1', '--kubeconfig', bad, '-v=6'])
    assert.ok(
      requestLines(k.stderr).some((l) => shape.test(l)),
      k.stderr,
    )
    assert.ok(
      requestLines(w.stderr).some((l) => shape.test(l)),
      w.stderr,
    )
    assert.equal(w.code, 2)
  })
})
