#!/usr/bin/env -S node --import tsx --no-warnings
// Development entry point: runs the TypeScript sources in src/ directly (tsx compiles them on the fly), never dist/.
// The root plugin is made here, pointed at src/commands and src/hooks and told to ignore oclif.manifest.json (whose
// paths name the bundle in dist/), so a command runs from its source even when dist/ is stale or absent.
'use strict'
const {readFileSync} = require('node:fs')
const {join} = require('node:path')
const {execute, Plugin, settings} = require('@oclif/core')

const root = join(__dirname, '..')
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const toSource = (path) => path.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts')
pjson.oclif = {
  ...pjson.oclif,
  commands: toSource(pjson.oclif.commands),
  hooks: Object.fromEntries(Object.entries(pjson.oclif.hooks ?? {}).map(([event, path]) => [event, toSource(path)])),
}
// oclif's own dist → src mapping reads tsconfig.json's rootDir/outDir; the paths above are sources already.
settings.enableAutoTranspile = false
const plugin = new Plugin({root, pjson, isRoot: true, ignoreManifest: true})
plugin.load().then(() => execute({development: true, loadOptions: {root, plugins: new Map([[plugin.name, plugin]])}}))
