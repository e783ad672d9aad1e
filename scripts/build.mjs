// npm run build: bundles the CLI into dist/ with esbuild, then writes oclif.manifest.json (scripts/manifest.mjs).
// TypeScript is only typechecked (npm run typecheck); this build does not run tsc.
//
// What a run loads is what it uses: one entry point per command (src/commands/*.ts → dist/commands/NAME.js, found
// by listing the folder, so a new command needs no edit here) and per hook (src/hooks/*.ts), plus dist/entry/oclif.js
// for bin/run.js. Code splitting puts code shared by entry points into dist/chunks/, and a dynamic import() in the
// sources (the live source, the snapshot reader) becomes a chunk of its own, loaded only when the run gets there.
// oclif reads the manifest, so `--help` loads no command at all, and a command loads its own entry point.
//
// Two passes: esbuild splits code only for ES modules, so the split output is then turned file by file into
// CommonJS (dist/package.json says so). CommonJS because Node 20 can keep V8's compiled code only for scripts
// (vm.Script cachedData; bin/compile-cache.js), not for ES modules, and because it skips the ES module loader
// (~8 ms of every run). A dynamic import() of a chunk becomes a require() run when the import() would have been.
//
// Every output file sits two levels below the package root (dist/commands/, dist/hooks/, dist/entry/, dist/chunks/),
// as the compiled sources did (src/hash/ → dist/hash/), so `new URL('../../data/…', import.meta.url)` in the sources
// still finds data/ from the bundle; the build checks every such URL resolves to a file.
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import * as esbuild from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = join(root, 'dist')
// Built beside dist/ and swapped in with two renames: a CLI test running while someone rebuilds (several people
// share a checkout) sees the old tree or the new one, never a half-written or half-deleted one.
const staging = join(root, `dist.tmp-${process.pid}`)

const entries = (dir) =>
  readdirSync(join(root, 'src', dir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => [`${dir}/${f.slice(0, -3)}`, join(root, 'src', dir, f)])

// Packages loaded on first use. Each is bundled apart, as dist/vendor/NAME.js, and required from there when a run
// first needs it: code in a chunk costs its load even when nothing calls it (about 30 µs of CPU per KiB, measured
// on the 180 KiB that yaml was).
//   oclif's, which it requires from CommonJS, so a proxy stands in (a property asked for loads the package):
//     tinyglobby (with picomatch and fdir), only to find commands when there is no oclif.manifest.json;
//     minimatch, only for plugin name patterns (the CLI has no plugins); cli-spinners, only for ux.action, which the
//     CLI does not use; ejs, only for help templates other than <%= config.bin %> (src/help/help.ts).
//   behind the shims below: debug (only when DEBUG is set), string-width (only for text that is not ASCII).
//   the project's: yaml and js-yaml, through src/util/yaml-lib.ts (a require() at first use).
const VENDOR = ['tinyglobby', 'minimatch', 'cli-spinners', 'ejs', 'debug', 'string-width', 'yaml', 'js-yaml']
const PROXIED = ['tinyglobby', 'minimatch', 'cli-spinners', 'ejs']
// Node's own modules that oclif requires when it loads and uses on some runs only: child_process (to ask PowerShell
// for the parent process, on Windows), readline (to read flags from stdin), perf_hooks (its --debug timings). Only
// for requires from node_modules: those are CommonJS that reads a property at the call (`(0, m.execSync)(…)`); the
// project's own ES imports of them bind names when they load, which a proxy cannot defer.
const LAZY_BUILTINS = ['node:child_process', 'node:readline', 'node:perf_hooks']
// string-width: an ASCII fast path in front of it (scripts/shims/string-width.cjs). wsl-utils: only isWsl at load.
const SHIMS = {
  debug: join(root, 'scripts/shims/debug.cjs'),
  'string-width': join(root, 'scripts/shims/string-width.cjs'),
  'wsl-utils': join(root, 'scripts/shims/wsl-utils.mjs'),
}
// Every output file sits two levels below the package root, so this path names dist/vendor/ from any of them.
const vendorPath = (name) => `../vendor/${name}.js`
const lazyLoading = {
  name: 'lazy-loading',
  setup(build) {
    build.onResolve({filter: new RegExp(`^(${VENDOR.join('|')})$`)}, (args) => {
      if (SHIMS[args.path] && args.importer !== SHIMS[args.path]) return {path: SHIMS[args.path]}
      if (PROXIED.includes(args.path)) return {path: args.path, namespace: 'lazy', pluginData: {module: vendorPath(args.path)}}
      return {path: vendorPath(args.path), external: true}
    })
    // A shim bundled in the package's place (not vendored): the package it imports is the real one.
    build.onResolve({filter: /^wsl-utils$/}, (args) => (args.importer === SHIMS[args.path] ? undefined : {path: SHIMS[args.path]}))
    build.onResolve({filter: new RegExp(`^(${LAZY_BUILTINS.join('|')})$`)}, (args) =>
      args.namespace !== 'lazy' && args.importer.includes('/node_modules/') ? {path: args.path, namespace: 'lazy', pluginData: {module: args.path}} : undefined,
    )
    build.onResolve({filter: /^\.\.\/vendor\//, namespace: 'lazy'}, (args) => ({path: args.path, external: true}))
    // A property of the module, asked for, loads it: `const m = require('minimatch')` alone costs nothing.
    build.onLoad({filter: /.*/, namespace: 'lazy'}, (args) => ({
      contents: `let m; module.exports = new Proxy({}, {get: (_, k) => k === '__esModule' ? undefined : (m ??= require(${JSON.stringify(args.pluginData.module)}))[k]})`,
      loader: 'js',
    }))
  },
}

// oclif sorts its commands with localeCompare, whose first call builds ICU's collator: ~70 M instructions, ~10 ms of
// every run. The command ids are lowercase ASCII, which code-unit order sorts as the collator does; the build fails
// if oclif's line is no longer there to replace.
const OCLIF_SORT = '.sort((a, b) => a.id.localeCompare(b.id))'
const oclifWithoutCollator = {
  name: 'oclif-without-collator',
  setup(build) {
    build.onLoad({filter: /@oclif[/\\]core[/\\]lib[/\\]config[/\\]plugin\.js$/}, (args) => {
      const text = readFileSync(args.path, 'utf8')
      if (!text.includes(OCLIF_SORT)) return {errors: [{text: `${args.path}: no \`${OCLIF_SORT}\` to replace (scripts/build.mjs)`}]}
      return {contents: text.replace(OCLIF_SORT, '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))'), loader: 'js'}
    })
  },
}

const split = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [
    ...entries('commands'),
    ...entries('hooks'),
    // The help class oclif loads for --help (package.json oclif.helpClass).
    ...entries('help'),
    // What bin/run.js needs from oclif, from the same copy of oclif the commands are bundled with.
    ['entry/oclif', join(root, 'scripts/entry-oclif.mjs')],
  ].map(([out, input]) => ({out, in: input})),
  outdir: staging,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // oclif requires these only to run TypeScript sources in development (bin/dev.js); bin/run.js turns that off.
  external: ['typescript', 'ts-node'],
  plugins: [lazyLoading, oclifWithoutCollator],
  minifySyntax: true,
  legalComments: 'eof',
  metafile: true,
  write: false,
  logLevel: 'warning',
})

rmSync(staging, {recursive: true, force: true})
// What went into which file (esbuild's metafile, for its analyser or to see what a run loads): KUBECTL_WHY_METAFILE=out.json.
if (process.env.KUBECTL_WHY_METAFILE) writeFileSync(process.env.KUBECTL_WHY_METAFILE, JSON.stringify(split.metafile))
const missing = []
const hash = createHash('sha256')
let bytes = 0
for (const out of split.outputFiles) {
  const file = relative(staging, out.path)
  // import.meta.url has no CommonJS form of its own: each file that uses it computes it from __filename.
  const usesMeta = out.text.includes('import.meta')
  const cjs = await esbuild.transform(out.text, {
    format: 'cjs',
    loader: 'js',
    platform: 'node',
    target: 'node20',
    // import() of a chunk → Promise.resolve().then(() => require(chunk)): loaded at the same moment, as a script.
    // Every import() becomes a require(), oclif's import() of an ES module plugin too: the CLI has no plugins, and
    // its own commands and hooks are CommonJS here (dist/package.json), which oclif require()s.
    supported: {'dynamic-import': false},
    define: usesMeta ? {'import.meta.url': '__kwImportMetaUrl'} : {},
    banner: usesMeta ? 'var __kwImportMetaUrl=require("node:url").pathToFileURL(__filename).href;' : '',
    minifyWhitespace: true,
    legalComments: 'eof',
    sourcefile: file,
  })
  // Each new URL('<relative path>', import.meta.url) must name a file that exists from where this file will be.
  for (const m of cjs.code.matchAll(/new URL\("(\.\.?\/[^"]+)",\s*__kwImportMetaUrl\)/g)) {
    const target = fileURLToPath(new URL(m[1], pathToFileURL(join(dist, file))))
    if (!existsSync(target)) missing.push(`dist/${file}: ${m[1]} → ${relative(root, target)}`)
  }
  mkdirSync(dirname(out.path), {recursive: true})
  writeFileSync(out.path, cjs.code)
  hash.update(file).update(cjs.code)
  bytes += cjs.code.length
}
// The vendored packages, each one CommonJS file of its own (see VENDOR).
const vendorInputs = []
for (const name of VENDOR) {
  const out = await esbuild.build({
    absWorkingDir: root,
    stdin: {contents: `module.exports = require(${JSON.stringify(name)})`, resolveDir: root, loader: 'js'},
    outfile: join(staging, 'vendor', `${name}.js`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'eof',
    metafile: true,
    write: false,
    logLevel: 'warning',
  })
  for (const o of out.outputFiles) {
    mkdirSync(dirname(o.path), {recursive: true})
    writeFileSync(o.path, o.text)
    hash.update(relative(staging, o.path)).update(o.text)
    bytes += o.text.length
  }
  vendorInputs.push(...Object.keys(out.metafile.inputs))
}
if (missing.length > 0) {
  rmSync(staging, {recursive: true, force: true})
  console.error(`build: files the bundle refers to by relative URL are not there:\n  ${missing.join('\n  ')}`)
  process.exit(1)
}
writeFileSync(join(staging, 'THIRD-PARTY-NOTICES.txt'), notices([...Object.keys(split.metafile.inputs), ...vendorInputs]))
// The build id keys the compile cache (bin/compile-cache.js): V8 checks a cached file only by its length.
const buildId = hash.digest('hex').slice(0, 16)
writeFileSync(join(staging, 'package.json'), `${JSON.stringify({type: 'commonjs', buildId}, null, 2)}\n`)

/** The licence of every package whose code is in the bundle: the bundle ships without their node_modules copies. */
function notices(inputs) {
  const packages = new Map()
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (m && !packages.has(m[1])) packages.set(m[1], join(root, m[1]))
  }
  const parts = []
  for (const dir of [...packages.values()].sort()) {
    const pjson = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f))
    const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `(no licence file in the package; package.json says ${pjson.license ?? 'nothing'})`
    parts.push(`${pjson.name}@${pjson.version} (${pjson.license ?? 'unknown'})\n\n${text}\n`)
  }
  return `kubectl-why's bundle (dist/) contains code from these packages, under their licences:\n\n${parts.join(`\n${'-'.repeat(78)}\n\n`)}`
}

const old = `${staging}-old`
if (existsSync(dist)) renameSync(dist, old)
renameSync(staging, dist)
rmSync(old, {recursive: true, force: true})

const files = split.outputFiles.map((o) => relative(staging, o.path))
console.log(
  `dist/: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB (${entries('commands').length} commands, ${entries('hooks').length} hooks, ` +
    `${files.filter((f) => f.startsWith('chunks/')).length} shared chunks), build ${buildId}`,
)
