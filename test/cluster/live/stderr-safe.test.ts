// Lines on stderr carry text from the cluster and the kubeconfig as the answer does (a context's name in the
// "names no user" warning, a server's Status message in snapshot's "not captured" warnings): they reach the terminal
// through the one sanitiser (src/render/terminal-safe.ts), ESC shown as ^[ and CR as \r as kubectl's terminalEscaper
// shows them. Runs the built CLI against the fake API server (npm run build first).
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {runCli} from '../../support/cli.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'

const PAYLOAD = '\u001b]0;pwned\u0007\u001b[2J\u009b2K\r'
/** The payload as the sanitiser shows it: worked by hand from kubectl's "^[" and "\r", \xNN for BEL and C1 CSI. */
const SHOWN = '^[]0;pwned\\x07^[[2J\\x9b2K\\r'
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/

let server: FakeApiServer
let dir: string
before(async () => {
  server = await FakeApiServer.start({objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}]})
  dir = mkdtempSync(join(tmpdir(), 'stderr-safe-'))
})
after(async () => server.close())

test('the live warning naming a hostile context (it names no user) shows its controls', async () => {
  const kubeconfig = server.writeKubeconfig(dir, {fileName: 'no-user', context: `prod${PAYLOAD}`, userFields: null})
  const r = await runCli(['node', 'n1', '--kubeconfig', kubeconfig, '--request-timeout', '10s'])
  const warning = r.stderr.split('\n').find((l) => l.startsWith('warning: context'))
  assert.ok(warning, r.stderr)
  assert.ok(warning.includes(`prod${SHOWN}`), warning)
  assert.doesNotMatch(r.stderr, RAW)
})

test("snapshot's not-captured warnings carry the server's message with its controls shown", async () => {
  const kubeconfig = server.writeKubeconfig(dir, {fileName: 'snap'})
  const fault = server.inject({path: /\/leases$/, status: 500, times: Number.POSITIVE_INFINITY, message: `etcd down${PAYLOAD}`})
  const r = await runCli(['snapshot', '--kubeconfig', kubeconfig, '--request-timeout', '20s', '-A', '--out', join(dir, 'out.json')])
  fault.lift()
  assert.ok(r.stderr.includes(`etcd down${SHOWN}`), r.stderr)
  assert.doesNotMatch(r.stderr, RAW)
})

test('--debug request lines go through it too', async () => {
  const kubeconfig = server.writeKubeconfig(dir, {fileName: 'debug'})
  const r = await runCli(['node', `n1${PAYLOAD}`, '--kubeconfig', kubeconfig, '--request-timeout', '10s', '--debug'])
  assert.match(r.stderr, /\[debug\]/)
  assert.doesNotMatch(r.stderr, RAW)
})
