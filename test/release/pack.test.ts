// `npm pack` output is what users install: it must run with no dev dependency — indeed with no node_modules at all,
// since dist/ is a bundle (scripts/build.mjs) — and install globally with --omit=dev. Needs dist/ (npm run build).
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const INCIDENT = join(ROOT, 'examples/incident.yaml')
const VERSION = /^kubectl-why\/\d+\.\d+\.\d+ \S+ node-v\d+/
let dir = ''
let tgz = ''

function run(cmd: string, args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}) {
  const env = {...process.env, NO_COLOR: '1', KUBECONFIG: '/nonexistent/kubeconfig', XDG_CACHE_HOME: join(dir, 'cache'), ...options.env}
  return spawnSync(cmd, args, {cwd: options.cwd ?? dir, env, encoding: 'utf8', timeout: 180_000})
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'pack-'))
  // --ignore-scripts: `prepare` would rebuild dist/ in the checkout; the test packs what npm run build made.
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {cwd: ROOT, encoding: 'utf8'})
  assert.equal(r.status, 0, r.stderr)
  tgz = join(dir, JSON.parse(r.stdout)[0].filename)
})
after(() => rmSync(dir, {recursive: true, force: true}))

test('the package holds the bundle, the data it reads, LICENSE and the man page, and no sources', () => {
  const list = spawnSync('tar', ['-tzf', tgz], {encoding: 'utf8'}).stdout.split('\n')
  for (const f of [
    'package/LICENSE',
    'package/bin/run.js',
    'package/dist/entry/oclif.js',
    'package/dist/commands/audit.js',
    // What the hash reads at run time (src/hash/layout-data.ts); layouts.json is only its source.
    'package/data/layouts/compiled.json',
    'package/man/kubectl-why.1',
    'package/oclif.manifest.json',
  ]) {
    assert.ok(list.includes(f), `${f} missing from the package`)
  }
  assert.deepEqual(
    list.filter((f) => /^package\/(src|test|bench)\//.test(f)),
    [],
  )
})

test('unpacked with no node_modules at all, it prints its version and runs the incident audit', () => {
  const x = join(dir, 'unpacked')
  assert.equal(spawnSync('mkdir', ['-p', x]).status, 0)
  assert.equal(spawnSync('tar', ['-xzf', tgz, '-C', x]).status, 0)
  const bin = join(x, 'package/bin/run.js')
  assert.ok(!existsSync(join(x, 'package/node_modules')))
  const v = run(process.execPath, [bin, '--version'], {cwd: x})
  assert.equal(v.status, 0, v.stderr)
  assert.match(v.stdout, VERSION)
  // incident.md: the audit finds a critical (the quota-stuck ReplicaSet) and exits 1 under --fail-on warning.
  const a = run(process.execPath, [bin, 'audit', '-A', '-f', INCIDENT, '-o', 'json'], {cwd: x})
  assert.equal(a.status, 1, a.stderr)
  const report = JSON.parse(a.stdout) as {findings?: {severity: string}[]}
  assert.ok(
    (report.findings ?? []).some((f) => f.severity === 'critical'),
    'no critical finding in the incident audit',
  )
})

test('npm install -g --omit=dev of the tarball into a fresh prefix: kubectl-why on PATH, and its man page', (t) => {
  const prefix = join(dir, 'prefix')
  // From npm's cache where it can (npm ci filled it), else the registry; with neither, the test skips, saying so.
  const i = run('npm', ['install', '-g', '--prefix', prefix, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tgz])
  if (i.status !== 0) {
    t.skip(`npm install -g failed (no registry and not in npm's cache?): ${(i.stderr || '').trim().split('\n').pop()}`)
    return
  }
  const bin = join(prefix, 'bin/kubectl-why')
  const v = run(bin, ['--version'])
  assert.equal(v.status, 0, v.stderr)
  assert.match(v.stdout, VERSION)
  const a = run(bin, ['audit', '-A', '-f', INCIDENT])
  assert.equal(a.status, 1, a.stderr)
  assert.ok(existsSync(join(prefix, 'share/man/man1/kubectl-why.1')), 'npm did not install the man page')
  const dev = run('npm', ['ls', '-g', '--prefix', prefix, '--all', '--parseable', 'typescript', 'esbuild', 'tsx'])
  assert.equal(
    dev.stdout
      .trim()
      .split('\n')
      .filter((l) => /node_modules\/(typescript|esbuild|tsx)$/.test(l)).length,
    0,
    `dev dependencies installed: ${dev.stdout}`,
  )
})
