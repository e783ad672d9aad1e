#!/usr/bin/env -S node --import tsx --no-warnings
// Development entry point: runs the TypeScript sources in src/ directly (tsx compiles them on the fly), never dist/.
// The root plugin is made here, pointed at src/commands and src/hooks and told to ignore oclif.manifest.json (whose
// paths name the bundle in dist/), so a command runs from its source even when dist/ is stale or absent.
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {execute, Plugin, settings} from '@oclif/core'

const root = fileURLToPath(new URL('..', import.meta.url))
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const toSource = (path) => path.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts')
pjson.oclif = {
  ...pjson.oclif,
  commands: toSource(pjson.oclif.commands),
  hooks: Object.fromEntries(Object.entries(pjson.oclif.hooks ?? {}).map(([event, path]) => [event, toSource(path)])),
}
// oclif's own dist → src mapping reads tsconfig.json's rootDir/outDir; the paths above are sources already.
settings.enableAutoTranspile = false
const plugin = new Plugin({root, pjson, isRoot: true, ignoreManifest: true})
await plugin.load()
await execute({development: true, loadOptions: {root, plugins: new Map([[plugin.name, plugin]])}})
