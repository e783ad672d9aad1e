// The YAML parsers, loaded on first use: the bundle keeps them apart (dist/vendor/, scripts/build.mjs), since a
// run that reads and writes no YAML should not pay for loading them (~30 µs of CPU per KiB: 160 KiB for yaml, 40
// for js-yaml). js-yaml reads YAML snapshots; yaml serves long integers, error wording, -o yaml and --ignore files.
import {createRequire} from 'node:module'
import type * as JsYaml from 'js-yaml'
import type * as Yaml from 'yaml'

let yaml: typeof Yaml | undefined
let jsYaml: typeof JsYaml | undefined

export function yamlLib(): typeof Yaml {
  // A direct require() call: the bundle (scripts/build.mjs, CommonJS) runs its own copy of yaml here; from the
  // sources (ES modules, no require) Node's copy is loaded instead.
  yaml ??= (typeof require === 'function' ? require('yaml') : createRequire(import.meta.url)('yaml')) as typeof Yaml
  return yaml
}

export function jsYamlLib(): typeof JsYaml {
  jsYaml ??= (typeof require === 'function' ? require('js-yaml') : createRequire(import.meta.url)('js-yaml')) as typeof JsYaml
  return jsYaml
}
