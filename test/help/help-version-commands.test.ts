// `help` and `version` as kubectl has them. help prints what --help prints (the expected text is the built CLI's own
// --help); version's text and JSON are kubectl's shape (`Client Version: …`, {clientVersion, serverVersion}), the
// server's version being the one each example records (examples/*.md name them) and schemas/version.json holding the
// JSON. Needs `npm run build`.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {readFileSync, writeFileSync, mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {clientVersion, goPlatform} from '../../src/commands/version.js'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const ex = (f: string) => fileURLToPath(new URL(`../../examples/${f}`, import.meta.url))
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string}
const dir = mkdtempSync(join(tmpdir(), 'version-'))

test('help: the root help, the same as --help', async () => {
  const help = await runCli(['help'])
  const flag = await runCli(['--help'])
  assert.equal(help.code, 0, help.stderr)
  assert.equal(help.stdout, flag.stdout)
  assert.match(help.stdout, /\n {2}help {8}Help about any command\.\n/)
  assert.match(help.stdout, /\n {2}version {5}Print the client and server version information/)
})

test('help COMMAND: the same text as COMMAND --help, for every command', async () => {
  for (const command of ['audit', 'completion', 'evicted', 'gc', 'hash', 'node', 'replicas', 'snapshot', 'version']) {
    const help = await runCli(['help', command])
    const flag = await runCli([command, '--help'])
    assert.equal(help.code, 0, help.stderr)
    assert.equal(help.stdout, flag.stdout, command)
    assert.match(help.stdout, new RegExp(`\\$ kubectl why ${command}`))
  }
})

test("help help: the help command's own help (oclif answers `help --help` with the root help)", async () => {
  const r = await runCli(['help', 'help'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /^Help about any command\.\n/)
  assert.match(r.stdout, /\$ kubectl why help gc\n/)
})

test("help --help, help -h and help gc --help: the help command's own help, as cobra gives the flag to the command it follows", async () => {
  const own = await runCli(['help', 'help'])
  for (const argv of [
    ['help', '--help'],
    ['help', '-h'],
    ['help', 'gc', '--help'],
  ]) {
    const r = await runCli(argv)
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, own.stdout, argv.join(' '))
  }
  // Not the root help, which lists the commands; and a command's own --help is untouched.
  assert.doesNotMatch(own.stdout, /\nCOMMANDS\n/)
  assert.match((await runCli(['gc', '--help'])).stdout, /^Replay the garbage collector for one object/)
})

test('help with a word that names no command: one line, exit 2, cobra\'s suggestions (Levenshtein ≤ 2: "evicetd" → evicted)', async () => {
  const r = await runCli(['help', 'evicetd'])
  assert.equal(r.code, 2)
  assert.equal(r.stdout, '')
  assert.equal(r.stderr, 'error: unknown help topic "evicetd" for "kubectl why"; did you mean evicted?\n')
  const none = await runCli(['help', 'zzzzzz'])
  assert.equal(none.code, 2)
  assert.match(
    none.stderr,
    /^error: unknown help topic "zzzzzz" for "kubectl why"; the commands: audit, completion, evicted, gc, hash, help, node, replicas, snapshot, version\n$/,
  )
})

test('goPlatform: Go spellings of node platforms (runtime.GOOS/GOARCH)', () => {
  assert.equal(goPlatform('linux', 'x64'), 'linux/amd64')
  assert.equal(goPlatform('darwin', 'arm64'), 'darwin/arm64')
  assert.equal(goPlatform('win32', 'ia32'), 'windows/386')
  assert.deepEqual(clientVersion('0.1.0', 'v20.1.0', 'linux/amd64'), {
    major: '0',
    minor: '1',
    gitVersion: 'v0.1.0',
    nodeVersion: 'v20.1.0',
    platform: 'linux/amd64',
  })
})

test('version --client: the client alone, as kubectl words it, nothing read', async () => {
  const r = await runCli(['version', '--client'])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, `Client Version: v${PACKAGE.version}\n`)
  const json = await runCli(['version', '--client', '-o', 'json'])
  const info = JSON.parse(json.stdout)
  assert.deepEqual(Object.keys(info), ['clientVersion'])
  assert.equal(info.clientVersion.gitVersion, `v${PACKAGE.version}`)
  assert.equal(info.clientVersion.nodeVersion, process.version)
  assert.ok(validatorFor('version')(info))
})

test("version -f DUMP: the server's version the dump records (incident.md: prod-eu, v1.32.4)", async () => {
  const r = await runCli(['version', '-f', ex('incident.yaml')])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, `Client Version: v${PACKAGE.version}\nServer Version: v1.32.4 (recorded in ${ex('incident.yaml')})\n`)
  for (const format of ['json', 'yaml']) {
    const o = await runCli(['version', '-f', ex('node-zone-outage.json'), '-o', format])
    assert.equal(o.code, 0, o.stderr)
    // node-zone-outage.md: v1.33.4
    const info = format === 'json' ? JSON.parse(o.stdout) : (await import('yaml')).parse(o.stdout)
    assert.deepEqual(info.serverVersion, {major: '1', minor: '33', gitVersion: 'v1.33.4'})
    assert.ok(validatorFor('version')(info), JSON.stringify(validatorFor('version').errors))
  }
})

test('version -f DUMP without a recorded version: the one its kubelets imply, said to be inferred; none, said so', async () => {
  const nodes = join(dir, 'nodes.json')
  writeFileSync(
    nodes,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}, status: {nodeInfo: {kubeletVersion: 'v1.30.5'}}}],
    }),
  )
  const r = await runCli(['version', '-f', nodes])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /\nServer Version: v1\.30\.5 \(inferred from .*node n1 runs v1\.30\.5/)
  const json = JSON.parse((await runCli(['version', '-f', nodes, '-o', 'json'])).stdout)
  assert.equal(json.serverVersion.lowerBound, true)
  assert.ok(validatorFor('version')(json))

  const empty = join(dir, 'configmap.json')
  writeFileSync(empty, JSON.stringify({apiVersion: 'v1', kind: 'List', items: [{apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'c', namespace: 'd'}}]}))
  const none = await runCli(['version', '-f', empty])
  assert.equal(none.code, 0)
  assert.equal(none.stdout, `Client Version: v${PACKAGE.version}\n`)
  assert.match(none.stderr, /^warning: .*configmap\.json records no server version, and nothing in it implies one\n$/)
})

test("version with no cluster to reach: the client's version, then the error in one line, exit 2", async () => {
  const r = await runCli(['version'])
  assert.equal(r.code, 2)
  assert.equal(r.stdout, `Client Version: v${PACKAGE.version}\n`)
  assert.match(r.stderr, /^error: no kubeconfig found/)
  assert.equal(r.stderr.split('\n').length, 2)
})

const probe = spawnSync('kubectl', ['version', '--client', '-o', 'json'], {encoding: 'utf8'})
test("version -o json has kubectl's field names for what both have", {skip: probe.status === 0 ? false : 'no kubectl on PATH'}, async () => {
  const theirs = JSON.parse(probe.stdout).clientVersion as Record<string, string>
  const ours = JSON.parse((await runCli(['version', '--client', '-o', 'json'])).stdout).clientVersion as Record<string, string>
  for (const field of ['major', 'minor', 'gitVersion', 'platform']) {
    assert.equal(typeof theirs[field], 'string', field)
    assert.equal(typeof ours[field], 'string', field)
  }
  // the same spelling of the platform (GOOS/GOARCH) on this machine
  assert.equal(ours.platform, theirs.platform)
})

test('version against a live server: its /version, the serverVersion kubectl prints for the same server', async (t) => {
  const {FakeApiServer} = await import('../support/fake-apiserver/index.js')
  const server = await FakeApiServer.start({version: 'v1.31.2'})
  t.after(() => server.close())
  const home = mkdtempSync(join(tmpdir(), 'version-live-'))
  const kubeconfig = server.writeKubeconfig(home)
  const r = await runCli(['version', '--kubeconfig', kubeconfig])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, `Client Version: v${PACKAGE.version}\nServer Version: v1.31.2\n`)
  const ours = JSON.parse((await runCli(['version', '--kubeconfig', kubeconfig, '-o', 'json'])).stdout)
  assert.ok(validatorFor('version')(ours), JSON.stringify(validatorFor('version').errors))
  assert.equal(ours.serverVersion.gitVersion, 'v1.31.2')
  assert.ok(server.requests.every((q) => q.method === 'GET'))
  if (probe.status !== 0) return t.diagnostic('no kubectl on PATH: not compared with kubectl')
  // spawned, not spawnSync: the fake server answers from this process's event loop
  const kubectl = await new Promise<{status: number | null; stdout: string; stderr: string}>((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(home, 'cache'), 'version', '-o', 'json'], {
      env: {PATH: process.env.PATH ?? '', HOME: home},
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d
    })
    child.on('error', reject)
    child.on('close', (status) => resolve({status, stdout, stderr}))
  })
  assert.equal(kubectl.status, 0, kubectl.stderr)
  assert.deepEqual(ours.serverVersion, JSON.parse(kubectl.stdout).serverVersion)
})
