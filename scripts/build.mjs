// npm run build: bundles the CLI into dist/ with esbuild, then writes oclif.manifest.json (scripts/manifest.mjs).
// TypeScript is only typechecked (npm run typecheck); this build does not run tsc.
//
// What a run loads is what it uses: one entry point per command (src/commands/*.ts → dist/commands/NAME.js, found
// by listing the folder, so a new command needs no edit here) and per hook (src/hooks/*.ts), plus dist/entry/oclif.js
// for bin/run.js. ESM code splitting puts code shared by entry points into dist/chunks/, and a dynamic import()
// in the sources (the live source, the snapshot reader) becomes a chunk of its own, loaded only when the run gets
// there. oclif reads the manifest, so `--help` loads no command at all, and a command loads its own entry point.
//
// Every output file sits two levels below the package root (dist/commands/, dist/hooks/, dist/entry/, dist/chunks/),
// as the compiled sources did (src/hash/ → dist/hash/), so `new URL('../../data/…', import.meta.url)` in the sources
// still finds data/ from the bundle; the build checks every such URL resolves to a file.
import {existsSync, readdirSync, readFileSync, renameSync, rmSync} from 'node:fs'
import {join, relative} from 'node:path'
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

// CommonJS packages in the bundle (oclif, cli-table3) call require() for Node's built-ins and read __dirname; an
// ES module has neither, so each output file defines them for itself.
const banner = [
  "import {createRequire as __kwCreateRequire} from 'node:module'",
  "import {fileURLToPath as __kwFileURLToPath} from 'node:url'",
  "import {dirname as __kwDirname} from 'node:path'",
  'const require = __kwCreateRequire(import.meta.url)',
  'const __filename = __kwFileURLToPath(import.meta.url)',
  'const __dirname = __kwDirname(__filename)',
].join(';')

rmSync(staging, {recursive: true, force: true})
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [
    ...entries('commands'),
    ...entries('hooks'),
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
  banner: {js: banner},
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
})

// Each new URL('<relative path>', import.meta.url) left in the output must name a file that exists from there.
// Checked in the staging tree, which sits at the same depth as dist/.
const missing = []
for (const file of Object.keys(result.metafile.outputs)) {
  const abs = join(root, file)
  for (const m of readFileSync(abs, 'utf8').matchAll(/new URL\("(\.\.?\/[^"]+)",\s*import\.meta\.url\)/g)) {
    const target = fileURLToPath(new URL(m[1], pathToFileURL(abs)))
    if (!existsSync(target)) missing.push(`${relative(root, abs)}: ${m[1]} → ${relative(root, target)}`)
  }
}
if (missing.length > 0) {
  rmSync(staging, {recursive: true, force: true})
  console.error(`build: files the bundle refers to by relative URL are not there:\n  ${missing.join('\n  ')}`)
  process.exit(1)
}
const old = `${staging}-old`
if (existsSync(dist)) renameSync(dist, old)
renameSync(staging, dist)
rmSync(old, {recursive: true, force: true})

const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js')).map(([f, o]) => [relative(staging, join(root, f)), o])
const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0)
console.log(`dist/: ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB (${entries('commands').length} commands, ${entries('hooks').length} hooks, ${outputs.filter(([f]) => f.startsWith('chunks/')).length} shared chunks)`)
