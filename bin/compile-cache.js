// Keeps V8's compiled code for the bundle between runs, so a run does not parse and compile dist/ again.
// Node 22.1+: module.enableCompileCache() does it for every module. Node 20: the files of dist/ (CommonJS, see
// scripts/build.mjs) are compiled through vm.Script with cachedData instead of Node's own compile step.
// The cache lives in $XDG_CACHE_HOME/kubectl-why (else the OS cache directory), one directory per build of dist/,
// Node and architecture; a file is written atomically (temporary name, then rename) once, at exit, holding every
// function of the file compiled (not only those the first run happened to call: a cache made by `--help` would
// leave every later command to compile oclif's parser and runner again, ~100 M instructions a run); a cache that is
// stale, rejected by V8, unreadable or unwritable is ignored.
// KUBECTL_WHY_NO_COMPILE_CACHE=1 turns it off.
'use strict'
const Module = require('node:module')
const {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} = require('node:fs')
const {homedir} = require('node:os')
const {dirname, join, sep} = require('node:path')
const v8 = require('node:v8')
const vm = require('node:vm')

function cacheRoot() {
  if (process.env.XDG_CACHE_HOME) return join(process.env.XDG_CACHE_HOME, 'kubectl-why')
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'kubectl-why')
  if (process.platform === 'win32' && process.env.LOCALAPPDATA) return join(process.env.LOCALAPPDATA, 'kubectl-why', 'Cache')
  return join(homedir(), '.cache', 'kubectl-why')
}

/** FNV-1a of node's flags, in hex: a name for them. */
function flagsKey() {
  let h = 0x811c9dc5
  for (const c of `${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0
  return h.toString(16)
}

function enable() {
  if (process.env.KUBECTL_WHY_NO_COMPILE_CACHE) return
  const dist = join(__dirname, '..', 'dist')
  let buildId
  try {
    buildId = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8')).buildId
  } catch {
    return
  }
  if (!buildId) return
  const parent = cacheRoot()
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(join(parent, 'node'))
    return
  }
  // V8 accepts cached data by the source's length, not its content: the build id in the name keeps a rebuilt dist/
  // from running code compiled for the previous one. V8 rejects data made under other flags: runs with other
  // NODE_OPTIONS or node flags keep a cache of their own rather than rewrite one another's.
  const dir = join(parent, `${buildId}-v8-${process.versions.v8}-${process.arch}-${flagsKey()}`)
  const prefix = dist + sep
  const pending = []
  const compile = Module.prototype._compile
  Module.prototype._compile = function (content, filename) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename)
    const file = `${dir}${sep}${filename.slice(prefix.length).replaceAll(sep, '__')}.v8`
    let cachedData
    try {
      cachedData = readFileSync(file)
    } catch {}
    const source = Module.wrap(content)
    const script = new vm.Script(source, {filename, cachedData, importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER})
    if (cachedData === undefined || script.cachedDataRejected) pending.push({source, filename, file})
    const here = dirname(filename)
    const req = (id) => (id.charCodeAt(0) === 46 ? requireFromDist(this, here, id) : this.require(id))
    req.resolve = (request, options) => Module._resolveFilename(request, this, false, options)
    req.cache = Module._cache
    req.main = require.main
    return script.runInThisContext({displayErrors: true}).call(this.exports, this.exports, req, this, filename, dirname(filename))
  }
  // A file of dist/ requires another only as ./NAME.js or ../DIR/NAME.js (scripts/build.mjs): resolved here by
  // string, without Node's lookup (stat, realpath, package scope, node_modules paths), ~30 times a run.
  const simpleId = /^(\.\.\/[\w-]+|\.)\/[\w.-]+\.js$/
  function requireFromDist(parent, here, id) {
    if (!simpleId.test(id)) return parent.require(id)
    const rest = sep === '/' ? id : id.replaceAll('/', sep)
    const file = id.charCodeAt(1) === 46 ? dirname(here) + rest.slice(2) : here + rest.slice(1)
    const cached = Module._cache[file]
    if (cached !== undefined) return cached.exports
    let content
    try {
      content = readFileSync(file, 'utf8')
    } catch {
      return parent.require(id)
    }
    const m = new Module(file, parent)
    m.filename = file
    m.paths = parent.paths
    Module._cache[file] = m
    try {
      m._compile(content, file)
    } catch (err) {
      delete Module._cache[file]
      throw err
    }
    m.loaded = true
    return m.exports
  }
  process.once('exit', () => {
    if (pending.length === 0) return
    try {
      if (!existsSync(dir)) {
        mkdirSync(dir, {recursive: true})
        // Caches of other builds: removed when unused for 30 days (two installs side by side keep theirs).
        const old = Date.now() - 30 * 86_400_000
        for (const other of readdirSync(parent)) if (statSync(join(parent, other)).mtimeMs < old) rmSync(join(parent, other), {recursive: true, force: true})
      }
      // Compiled again, eagerly: --no-compilation-cache, or V8 would hand back the lazily compiled script it has.
      // The flags are back to their defaults before the data is made: V8 stamps it with the flags' hash.
      const eager = []
      v8.setFlagsFromString('--no-lazy')
      v8.setFlagsFromString('--no-compilation-cache')
      try {
        for (const {source, filename, file} of pending) eager.push({script: new vm.Script(source, {filename}), file})
      } finally {
        v8.setFlagsFromString('--lazy')
        v8.setFlagsFromString('--compilation-cache')
      }
      for (const {script, file} of eager) {
        const tmp = `${file}.${process.pid}.tmp`
        writeFileSync(tmp, script.createCachedData())
        renameSync(tmp, file)
      }
    } catch {}
  })
}

try {
  enable()
} catch {}
