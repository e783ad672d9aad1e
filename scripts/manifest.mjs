// Writes oclif.manifest.json (what `oclif manifest` writes) with @oclif/core alone,
// so the build needs no oclif CLI and its packaging dependencies.
import {writeFileSync} from 'node:fs'
import {Plugin} from '@oclif/core'

const root = new URL('..', import.meta.url).pathname
const plugin = new Plugin({root, type: 'core', isRoot: true, ignoreManifest: true, respectNoCacheDefault: true})
await plugin.load()
writeFileSync(new URL('../oclif.manifest.json', import.meta.url), JSON.stringify(plugin.manifest, null, 2) + '\n')
console.log(`oclif.manifest.json: ${Object.keys(plugin.manifest.commands).length} commands`)
