// Exec credential plugins, run the way client-go runs them (plugin/pkg/client/auth/exec/exec.go) and checked next to
// the real kubectl on the same plugin when it is installed: what the plugin receives (KUBERNETES_EXEC_INFO, env, args),
// once per process however many requests, again when the credential expires or the server answers 401, and the
// configuration errors clientcmd names.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import type {ExecConfig} from '../../../src/cluster/live/kubeconfig.js'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import {UserError} from '../../../src/errors.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'

const KUBECTL = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'}).status === 0
if (!KUBECTL) console.log('# kubectl not on PATH: the comparisons with kubectl are skipped')

let server: FakeApiServer
let dir: string
let plugin: string
let n = 0
before(async () => {
  server = await FakeApiServer.start({
    objects: Array.from({length: 30}, (_, i) => ({apiVersion: 'v1', kind: 'Pod', metadata: {name: `p${i}`, namespace: 'shop'}})),
  })
  dir = mkdtempSync(join(tmpdir(), 'exec-'))
  // Logs each run's KUBERNETES_EXEC_INFO and arguments; the token is wrong on the first run when BAD_FIRST is set.
  plugin = join(dir, 'plugin.sh')
  writeFileSync(
    plugin,
    `#!/bin/sh
echo "$KUBERNETES_EXEC_INFO" >> "$LOG"
echo "$*" >> "$LOG.args"
runs=$(wc -l < "$LOG")
tok="$TOKEN"
if [ -n "$BAD_FIRST" ] && [ "$runs" -eq 1 ]; then tok=wrong; fi
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"%s"%s}}\\n' "$API" "$tok" "$EXTRA"
`,
  )
  chmodSync(plugin, 0o755)
})
after(async () => server.close())

interface Setup {
  file: string
  log: string
  runs: () => number
  infos: () => unknown[]
}

function setup(o: {api?: string; extra?: string; badFirst?: boolean; exec?: Partial<ExecConfig>} = {}): Setup {
  const log = join(dir, `log-${++n}`)
  const api = o.api ?? 'client.authentication.k8s.io/v1'
  const env = [
    {name: 'LOG', value: log},
    {name: 'TOKEN', value: server.token},
    {name: 'API', value: api},
    {name: 'EXTRA', value: o.extra ?? ''},
    ...(o.badFirst ? [{name: 'BAD_FIRST', value: '1'}] : []),
  ]
  const exec: ExecConfig = {apiVersion: api, command: plugin, args: ['get-token', '--cluster', 'c1'], env, interactiveMode: 'Never', ...o.exec}
  const file = server.writeKubeconfig(dir, {fileName: `kubeconfig-${n}`, userFields: {exec}})
  const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [])
  return {file, log, runs: () => lines().length, infos: () => lines().map((l) => JSON.parse(l))}
}

const open = (file: string) =>
  LiveSource.open({kubeconfig: file, requestTimeout: 10_000, interactive: false, warn: () => {}}, {HOME: dir, PATH: process.env.PATH})

function kubectl(file: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('kubectl', ['--kubeconfig', file, '--cache-dir', join(dir, `cache-${++n}`), ...args], {
      env: {PATH: process.env.PATH ?? '', HOME: dir},
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    child.stdin.end()
    child.on('close', (code) => resolve(code ?? -1))
  })
}

test('the plugin runs once for a whole run of many requests, concurrent ones included (kubectl: once too)', async () => {
  const s = setup()
  const src = await open(s.file)
  await src.serverVersion()
  await Promise.all(Array.from({length: 8}, () => src.list({kind: 'Pod', namespace: 'shop', pageSize: 5})))
  await src.get({kind: 'Pod', namespace: 'shop', name: 'p1'})
  await src.close()
  assert.equal(s.runs(), 1)
  assert.deepEqual(readFileSync(`${s.log}.args`, 'utf8').trim(), 'get-token --cluster c1')
  if (KUBECTL) {
    const k = setup()
    assert.equal(await kubectl(k.file, ['get', 'pods', '-n', 'shop', '--chunk-size', '5']), 0)
    assert.equal(k.runs(), 1, 'kubectl ran its plugin once')
  }
})

test('KUBERNETES_EXEC_INFO is what kubectl hands the plugin (v1, v1beta1, with and without provideClusterInfo)', {
  skip: KUBECTL ? false : 'needs kubectl',
}, async () => {
  for (const variant of [{}, {api: 'client.authentication.k8s.io/v1beta1', exec: {interactiveMode: undefined}}, {exec: {provideClusterInfo: true}}] as const) {
    const a = setup(variant)
    const src = await open(a.file)
    await src.serverVersion()
    await src.close()
    const k = setup(variant)
    assert.equal(await kubectl(k.file, ['get', '--raw', '/version']), 0)
    assert.deepEqual(a.infos()[0], k.infos()[0], JSON.stringify(variant))
  }
})

test('a credential past its expirationTimestamp is asked for again; one still valid is kept', async () => {
  const expired = setup({extra: ',"expirationTimestamp":"2020-01-01T00:00:00Z"'})
  let src = await open(expired.file)
  await src.serverVersion()
  await src.get({kind: 'Pod', namespace: 'shop', name: 'p1'})
  await src.get({kind: 'Pod', namespace: 'shop', name: 'p2'})
  await src.close()
  assert.equal(expired.runs(), 3)
  const valid = setup({extra: `,"expirationTimestamp":"${new Date(Date.now() + 3600_000).toISOString()}"`})
  src = await open(valid.file)
  await src.serverVersion()
  await src.get({kind: 'Pod', namespace: 'shop', name: 'p1'})
  await src.close()
  assert.equal(valid.runs(), 1)
})

test("a 401 to the plugin's credential runs it again, once, and the request is sent again with the new one", async () => {
  const s = setup({badFirst: true})
  const src = await open(s.file)
  assert.equal((await src.serverVersion())?.gitVersion, 'v1.32.4')
  await src.get({kind: 'Pod', namespace: 'shop', name: 'p1'})
  await src.close()
  assert.equal(s.runs(), 2)
})

test('configuration errors are one line before any request', async () => {
  const cases: [Partial<ExecConfig>, RegExp][] = [
    [{interactiveMode: undefined}, /^interactiveMode must be specified for user "fake-apiserver-user" to use exec authentication plugin$/],
    [{apiVersion: 'client.authentication.k8s.io/v1alpha1'}, /invalid apiVersion "client.authentication.k8s.io\/v1alpha1"/],
    [{command: join(dir, 'no-such-plugin'), installHint: 'install it with: brew install acme-login'}, /^exec: executable .*no-such-plugin not found/],
    [{interactiveMode: 'Always'}, /interactiveMode is Always but standard input is not a terminal/],
    [{command: 'false'}, /^exec: executable false failed with exit code 1$/],
  ]
  for (const [exec, message] of cases) {
    const s = setup({exec})
    server.clearRequests()
    await assert.rejects(
      async () => {
        const src = await open(s.file)
        await src.serverVersion()
      },
      (e: Error) => e instanceof UserError && message.test(e.message) && !e.message.includes('\n'),
    )
    assert.equal(server.requests.length, 0, `${JSON.stringify(exec)}: no request`)
  }
  const hinted = setup({exec: {command: join(dir, 'no-such-plugin'), installHint: 'install it with: brew install acme-login'}})
  await assert.rejects(
    async () => (await open(hinted.file)).serverVersion(),
    (e: Error) => (e as UserError).hint === 'install it with: brew install acme-login',
  )
})

test("an answer without a token or with the wrong apiVersion is refused with client-go's words", async () => {
  const wrong = setup({api: 'client.authentication.k8s.io/v1beta1', exec: {apiVersion: 'client.authentication.k8s.io/v1'}})
  await assert.rejects(
    async () => (await open(wrong.file)).serverVersion(),
    (e: Error) =>
      e.message ===
      'exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1',
  )
})

test('a plugin that prints a bare token (not an ExecCredential) is refused without a character of it in the error', async () => {
  const secret = 'sk-live-0123456789abcdefSECRET'
  const bare = join(dir, 'bare.sh')
  writeFileSync(bare, `#!/bin/sh\necho ${secret}\n`)
  chmodSync(bare, 0o755)
  const quoted = join(dir, 'quoted.sh')
  writeFileSync(quoted, `#!/bin/sh\necho '"${secret}"'\n`)
  chmodSync(quoted, 0o755)
  const kind = join(dir, 'kind.sh')
  writeFileSync(kind, `#!/bin/sh\necho '{"kind":"${secret}-${'x'.repeat(80)}"}'\n`)
  chmodSync(kind, 0o755)
  for (const command of [bare, quoted, kind]) {
    const s = setup({exec: {command}})
    await assert.rejects(
      async () => (await open(s.file)).serverVersion(),
      (e: Error) => {
        assert.ok(e instanceof UserError, e.name)
        assert.match(e.message, /decoding stdout/)
        // Not even the first characters (the parser's message quoted the first 10).
        for (const part of [secret.slice(0, 4), 'SECRET', '0123'])
          assert.ok(!`${e.message} ${(e as UserError).hint}`.includes(part), `${command}: "${part}" echoed in: ${e.message}`)
        return true
      },
    )
  }
})
