// The live source's network settings through the built CLI (the bundle, as users run it; `npm run build` first):
// the unattended default timeout (--request-timeout absent and no terminal on stdin or stdout, as in a CronJob or CI
// and as runCli spawns it: 5 minutes per request; given, used as it is, 0 included; the --debug line says which),
// and proxy-url through real proxies (the SOCKS5 client is loaded lazily, which a bundle must keep working).
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {runCli} from '../../support/cli.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'
import {startHttpProxy, startSocks5Proxy} from '../../support/proxy-server.js'

let server: FakeApiServer
let kubeconfig: string
let dir: string
before(async () => {
  server = await FakeApiServer.start({objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}]})
  dir = mkdtempSync(join(tmpdir(), 'cli-network-'))
  kubeconfig = server.writeKubeconfig(dir)
})
after(async () => server.close())

const timeoutLine = (stderr: string) => /\[debug\] request timeout .*/.exec(stderr)?.[0]

test('no --request-timeout and no terminal: 5 minutes per request', async () => {
  const r = await runCli(['node', 'n1', '--kubeconfig', kubeconfig, '--debug', '--fail-on', 'none'])
  assert.equal(timeoutLine(r.stderr), '[debug] request timeout 300s (default when unattended)', r.stderr)
})

test('--request-timeout given: its value, 0 meaning none', async () => {
  let r = await runCli(['node', 'n1', '--kubeconfig', kubeconfig, '--debug', '--fail-on', 'none', '--request-timeout', '2s'])
  assert.equal(timeoutLine(r.stderr), '[debug] request timeout 2s', r.stderr)
  r = await runCli(['node', 'n1', '--kubeconfig', kubeconfig, '--debug', '--fail-on', 'none', '--request-timeout', '0'])
  assert.equal(timeoutLine(r.stderr), '[debug] request timeout none', r.stderr)
})

test('proxy-url socks5 and http: the CLI goes through each', async () => {
  for (const proxy of [await startSocks5Proxy(), await startHttpProxy()]) {
    const file = server.writeKubeconfig(dir, {fileName: `kubeconfig-${proxy.url.split(':')[0]}`, clusterFields: {'proxy-url': proxy.url}})
    const r = await runCli(['node', 'n1', '--kubeconfig', file, '--fail-on', 'none'])
    assert.equal(r.code, 0, r.stderr)
    assert.ok(proxy.log.length >= 1, `${proxy.url}: went through the proxy`)
    await proxy.close()
  }
})
