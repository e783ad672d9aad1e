// scripts/release.mjs: a reproducible archive, a krew manifest naming its sha256, and an archive that runs the way
// krew installs it (the shim reached through a symlink on PATH). Needs dist/ (npm run build); writes to a temp dir.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string
let dir = ''

interface KrewPlugin {
  apiVersion: string
  kind: string
  metadata: {name: string}
  spec: {
    version: string
    shortDescription: string
    description: string
    caveats: string
    platforms: {selector: {matchLabels: Record<string, string>}; uri: string; sha256: string; bin: string; files: {from: string; to: string}[]}[]
  }
}

function release(out: string): {archive: Buffer; manifest: KrewPlugin} {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts/release.mjs'), '--no-build', '--out', out, '--manifest', join(out, 'why.yaml'), '--url-base', 'https://example.com/dl'],
    {encoding: 'utf8'},
  )
  assert.equal(r.status, 0, r.stderr)
  return {archive: readFileSync(join(out, `kubectl-why-${VERSION}.tar.gz`)), manifest: parse(readFileSync(join(out, 'why.yaml'), 'utf8')) as KrewPlugin}
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'krew-'))
})
after(() => rmSync(dir, {recursive: true, force: true}))

test('the krew manifest names the archive by its sha256, on linux and darwin, and says Node ≥ 20 is needed', () => {
  const {archive, manifest} = release(join(dir, 'a'))
  const sha = createHash('sha256').update(archive).digest('hex')
  assert.equal(manifest.apiVersion, 'krew.googlecontainertools.github.com/v1alpha2')
  assert.equal(manifest.kind, 'Plugin')
  assert.equal(manifest.metadata.name, 'why')
  assert.equal(manifest.spec.version, `v${VERSION}`)
  assert.match(manifest.spec.caveats, /Node\.js 20 or newer/)
  assert.match(manifest.spec.description, /Node\.js 20 or newer/)
  const platforms = manifest.spec.platforms.map((p) => `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`).sort()
  assert.deepEqual(platforms, ['darwin/amd64', 'darwin/arm64', 'linux/amd64', 'linux/arm64'])
  for (const p of manifest.spec.platforms) {
    assert.equal(p.sha256, sha)
    assert.equal(p.uri, `https://example.com/dl/kubectl-why-${VERSION}.tar.gz`)
    assert.equal(p.bin, 'kubectl-why')
  }
})

test('the same sources give the same archive, byte for byte', () => {
  const a = release(join(dir, 'b1')).archive
  const b = release(join(dir, 'b2')).archive
  assert.ok(a.equals(b), 'two release runs made different archives')
})

test('unpacked as krew does, the shim runs through a symlink on PATH: --version and the incident audit', () => {
  const out = join(dir, 'c')
  release(out)
  const store = join(dir, 'store')
  mkdirSync(store)
  assert.equal(spawnSync('tar', ['-xzf', join(out, `kubectl-why-${VERSION}.tar.gz`), '-C', store]).status, 0)
  const binDir = join(dir, 'krew-bin')
  mkdirSync(binDir)
  symlinkSync(join(store, `kubectl-why-${VERSION}`, 'kubectl-why'), join(binDir, 'kubectl-why'))
  const env = {...process.env, PATH: `${binDir}:${process.env.PATH}`, NO_COLOR: '1', KUBECONFIG: '/nonexistent/kubeconfig', XDG_CACHE_HOME: join(dir, 'cache')}
  const v = spawnSync('kubectl-why', ['--version'], {env, encoding: 'utf8'})
  assert.equal(v.status, 0, v.stderr)
  assert.match(v.stdout, new RegExp(`^kubectl-why/${VERSION.replaceAll('.', '\\.')} `))
  const a = spawnSync('kubectl-why', ['audit', '-A', '-f', join(ROOT, 'examples/incident.yaml')], {env, encoding: 'utf8'})
  assert.equal(a.status, 1, a.stderr)
  assert.match(a.stdout, /replicas/)
})

test('without node on PATH the shim says what it needs, in one line, exit 2', () => {
  const out = join(dir, 'd')
  release(out)
  const store = join(dir, 'store-d')
  mkdirSync(store)
  assert.equal(spawnSync('tar', ['-xzf', join(out, `kubectl-why-${VERSION}.tar.gz`), '-C', store]).status, 0)
  const r = spawnSync('/bin/sh', [join(store, `kubectl-why-${VERSION}`, 'kubectl-why'), '--version'], {env: {PATH: '/nonexistent'}, encoding: 'utf8'})
  assert.equal(r.status, 2)
  assert.match(r.stderr, /^kubectl-why: needs Node\.js 20 or newer on PATH/)
  assert.equal(r.stderr.trim().split('\n').length, 1)
})

test('plugins/why.yaml in the repository is, byte for byte, what npm run release writes from these sources', () => {
  // The release's default --url-base (package.json's repository), as `npm run release` runs it.
  const out = join(dir, 'e')
  const manifest = join(out, 'why.yaml')
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/release.mjs'), '--no-build', '--out', out, '--manifest', manifest], {encoding: 'utf8'})
  assert.equal(r.status, 0, r.stderr)
  assert.equal(
    readFileSync(join(ROOT, 'plugins/why.yaml'), 'utf8'),
    readFileSync(manifest, 'utf8'),
    'plugins/why.yaml is stale: run npm run release (after npm run build) and commit plugins/why.yaml',
  )
})

test('the manifest fits 80 columns but for its URLs, and its description and caveats are plain lines', () => {
  const text = readFileSync(join(ROOT, 'plugins/why.yaml'), 'utf8')
  const long = text.split('\n').filter((l) => l.length > 80 && !/^\s+uri: https:\/\/\S+$/.test(l))
  assert.deepEqual(long, [])
  const {spec} = parse(text) as KrewPlugin
  for (const block of [spec.description, spec.caveats]) for (const line of block.split('\n')) assert.ok(line.length <= 76, line)
})

test("krew's layout with the caveats' one line: kubectl_complete-why on PATH answers cobra's __complete", () => {
  const out = join(dir, 'f')
  const {manifest} = release(out)
  // krew unpacks into $KREW_ROOT/store/why/VERSION and links $KREW_ROOT/bin/kubectl-why to the manifest's bin there.
  const krewRoot = join(dir, 'krew-root')
  const store = join(krewRoot, 'store', 'why', `v${VERSION}`)
  mkdirSync(store, {recursive: true})
  assert.equal(spawnSync('tar', ['-xzf', join(out, `kubectl-why-${VERSION}.tar.gz`), '-C', store, '--strip-components=1']).status, 0)
  mkdirSync(join(krewRoot, 'bin'))
  symlinkSync(join(store, 'kubectl-why'), join(krewRoot, 'bin', 'kubectl-why'))
  const setup = /^\s*(ln -sf .*kubectl_complete-why.*)$/m.exec(manifest.spec.caveats)?.[1]
  assert.ok(setup, 'the caveats give the completion setup line')
  const env = {
    ...process.env,
    KREW_ROOT: krewRoot,
    PATH: `${join(krewRoot, 'bin')}:${process.env.PATH}`,
    KUBECONFIG: '/nonexistent/kubeconfig',
    XDG_CACHE_HOME: join(dir, 'cache'),
  }
  assert.equal(spawnSync('/bin/sh', ['-c', setup], {env}).status, 0)
  // kubectl 1.26+ runs kubectl_complete-why ARGS... CURRENT: the commands for an empty word, then cobra's directive
  // line (:4, ShellCompDirectiveNoFileComp).
  const c = spawnSync('kubectl_complete-why', [''], {env, encoding: 'utf8'})
  assert.equal(c.status, 0, c.stderr)
  const lines = c.stdout.trim().split('\n')
  assert.equal(lines.at(-1), ':4')
  for (const command of ['audit', 'gc', 'node'])
    assert.ok(
      lines.some((l) => l.split('\t')[0] === command),
      `${command} in ${c.stdout}`,
    )
  // And the same link still runs the CLI by its own name.
  const v = spawnSync('kubectl-why', ['--version'], {env, encoding: 'utf8'})
  assert.equal(v.status, 0, v.stderr)
})
