// The yaml package, evaluated on first use. Evaluating it costs ~8 ms of CPU, and most runs never call it: YAML
// snapshots are read by js-yaml, and yaml serves only long integers, error wording, -o yaml and --ignore files.
import {createRequire} from 'node:module'
import type * as Yaml from 'yaml'

let yaml: typeof Yaml | undefined

export function yamlLib(): typeof Yaml {
  // A direct require() call: the bundle (scripts/build.mjs, CommonJS) runs its own copy of yaml here; from the
  // sources (ES modules, no require) Node's copy is loaded instead.
  yaml ??= (typeof require === 'function' ? require('yaml') : createRequire(import.meta.url)('yaml')) as typeof Yaml
  return yaml
}
