// Writes oclif.manifest.json (what `oclif manifest` writes) with @oclif/core alone,
// so the build needs no oclif CLI and its packaging dependencies.
import {readdirSync, writeFileSync} from 'node:fs'
import {Plugin} from '@oclif/core'

const root = new URL('..', import.meta.url).pathname
const plugin = new Plugin({root, type: 'core', isRoot: true, ignoreManifest: true, respectNoCacheDefault: true})
await plugin.load()
// A command that failed to load is left out of the manifest with only a warning: refuse to write a short one.
const sources = readdirSync(new URL('../src/commands', import.meta.url)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
const found = Object.keys(plugin.manifest.commands).length
if (found !== sources.length) {
  console.error(`oclif.manifest.json not written: ${found} commands loaded from dist/commands, ${sources.length} in src/commands (run npm run build)`)
  process.exit(1)
}
writeFileSync(new URL('../oclif.manifest.json', import.meta.url), `${JSON.stringify(plugin.manifest, null, 2)}\n`)
console.log(`oclif.manifest.json: ${Object.keys(plugin.manifest.commands).length} commands`)
