// The unattended default timeout through the CLI: --request-timeout absent, no terminal on stdin or stdout (as in a
// CronJob or CI, and as runCli spawns it) gives 5 minutes per request; given, it is used as it is, 0 included. The
// --debug line says which. Run `npm run build` first (runCli runs dist/).
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {runCli} from '../../support/cli.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'

let server: FakeApiServer
let kubeconfig: string
before(async () => {
  server = await FakeApiServer.start({objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}]})
  kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'cli-timeout-')))
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
