// bin/compile-cache.js: V8's compiled code for dist/ kept between runs. A run with it answers exactly as a run
// without it; a corrupt, unreadable or unwritable cache changes nothing but speed. Needs dist/ (npm run build).
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, test} from 'node:test'
import {runCli} from '../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'))
after(() => rmSync(dir, {recursive: true, force: true}))
const ROOT = new URL('../..', import.meta.url).pathname
const INCIDENT = new URL('../../examples/incident.yaml', import.meta.url).pathname
const audit = ['audit', '-A', '-f', INCIDENT, '-o', 'json']
// Node 22.1+ keeps its own cache (module.enableCompileCache) in the same place, under node/; before, the files are
// this project's (vm.Script cachedData, one per file of dist/).
const v8Cache = !('enableCompileCache' in (await import('node:module')).default)
const cacheFiles = (root: string) =>
  readdirSync(join(root, 'kubectl-why'), {recursive: true, withFileTypes: true})
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name))

test('the first run writes the cache, the next runs from it, and both answer as a run without it', async () => {
  const xdg = join(dir, 'a')
  const without = await runCli(audit, {env: {KUBECTL_WHY_NO_COMPILE_CACHE: '1', XDG_CACHE_HOME: xdg}})
  assert.throws(() => readdirSync(join(xdg, 'kubectl-why')), 'KUBECTL_WHY_NO_COMPILE_CACHE=1 still wrote a cache')
  const first = await runCli(audit, {env: {XDG_CACHE_HOME: xdg}})
  const files = cacheFiles(xdg)
  if (v8Cache) assert.ok(files.some((f) => f.endsWith('entry__oclif.js.v8')) && files.some((f) => /commands__audit\.js\.v8$/.test(f)), files.join('\n'))
  assert.ok(files.length > 0)
  const second = await runCli(audit, {env: {XDG_CACHE_HOME: xdg}})
  for (const r of [first, second]) {
    assert.equal(r.code, without.code, r.stderr)
    assert.equal(r.stdout, without.stdout)
  }
  assert.equal(files.filter((f) => f.endsWith('.tmp')).length, 0, 'a temporary file was left behind')
})

test('a corrupt cache is ignored and rewritten', {skip: !v8Cache && 'this Node keeps its own cache (module.enableCompileCache)'}, async () => {
  const xdg = join(dir, 'b')
  const clean = await runCli(audit, {env: {XDG_CACHE_HOME: xdg}})
  for (const f of cacheFiles(xdg)) writeFileSync(f, 'not V8 code cache data')
  const r = await runCli(audit, {env: {XDG_CACHE_HOME: xdg}})
  assert.equal(r.code, clean.code, r.stderr)
  assert.equal(r.stdout, clean.stdout)
  for (const f of cacheFiles(xdg)) assert.notEqual(readFileSync(f, 'utf8'), 'not V8 code cache data', `${f} was not rewritten`)
})

test('a cache directory that cannot be made (a file stands where it should be) changes nothing', async () => {
  const clean = await runCli(audit, {env: {KUBECTL_WHY_NO_COMPILE_CACHE: '1'}})
  // A file, not a directory: mkdir fails whoever runs the test (a read-only directory would not stop root).
  const file = join(dir, 'not-a-dir')
  writeFileSync(file, '')
  const r = await runCli(audit, {env: {XDG_CACHE_HOME: file}})
  assert.equal(r.code, clean.code, r.stderr)
  assert.equal(r.stdout, clean.stdout)
  assert.equal(r.stderr, clean.stderr)
})

test('a file is cached whole, whichever run cached it first: `--help` first leaves the audit nothing to compile', {
  skip: !v8Cache && 'this Node keeps its own cache (module.enableCompileCache)',
}, async () => {
  // --help loads oclif's chunks and calls only its help path; the audit calls its parser and runner too. Cached as
  // the first run left them, the two caches of one chunk would differ; compiled whole, they are the same size.
  const byHelp = join(dir, 'help-first')
  const byAudit = join(dir, 'audit-first')
  await runCli(['--help'], {env: {XDG_CACHE_HOME: byHelp}})
  await runCli(audit, {env: {XDG_CACHE_HOME: byAudit}})
  const sizes = (root: string) => new Map(cacheFiles(root).map((f) => [f.slice(f.lastIndexOf('/') + 1), readFileSync(f).length]))
  const help = sizes(byHelp)
  const full = sizes(byAudit)
  const shared = [...help.keys()].filter((f) => full.has(f))
  assert.ok(shared.some((f) => f === 'entry__oclif.js.v8') && shared.length >= 3, `chunks both runs load: ${shared.join(', ')}`)
  for (const f of shared) assert.equal(help.get(f), full.get(f), `${f}: cached by --help ${help.get(f)} bytes, by the audit ${full.get(f)}`)
  // And the audit, run on the cache --help began, rewrites none of it.
  const before = new Map(cacheFiles(byHelp).map((f) => [f, readFileSync(f)]))
  await runCli(audit, {env: {XDG_CACHE_HOME: byHelp}})
  for (const [f, bytes] of before) assert.ok(readFileSync(f).equals(bytes), `${f} was rewritten`)
})

test('a file of dist/ required by another is loaded once, under the name Node would give it', {
  skip: !v8Cache && 'this Node keeps its own cache (module.enableCompileCache) and its own loader',
}, () => {
  // bin/compile-cache.js resolves dist/'s ./NAME.js and ../DIR/NAME.js requires by string. Were its names not Node's,
  // a later require() through Node would load a second copy of a chunk (oclif's settings and Command class twice).
  const script = `
    require(${JSON.stringify(join(ROOT, 'bin/compile-cache.js'))})
    require(${JSON.stringify(join(ROOT, 'dist/commands/gc.js'))})
    const loaded = Object.values(require.cache).filter((m) => m.filename.includes('/dist/'))
    const wrong = loaded.filter((m) => require.resolve(m.filename) !== m.filename || !m.loaded || !Array.isArray(m.paths))
    const before = new Set(Object.keys(require.cache))
    for (const m of loaded) require(m.filename)
    const added = Object.keys(require.cache).filter((k) => !before.has(k))
    console.log(JSON.stringify({loaded: loaded.length, wrong: wrong.map((m) => m.filename), added}))
  `
  const r = spawnSync(process.execPath, ['-e', script], {encoding: 'utf8', env: {...process.env, XDG_CACHE_HOME: join(dir, 'loader')}})
  assert.equal(r.status, 0, r.stderr)
  const out = JSON.parse(r.stdout) as {loaded: number; wrong: string[]; added: string[]}
  // gc.js shares chunks with the other commands: it requires several besides itself.
  assert.ok(out.loaded >= 4, `${out.loaded} files of dist/ loaded`)
  assert.deepEqual(out.wrong, [])
  assert.deepEqual(out.added, [], 'requiring a loaded file again through Node loaded another copy')
})
