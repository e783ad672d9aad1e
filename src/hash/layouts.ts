// Layouts by Kubernetes minor version, made on first use (src/hash/compile.ts).
import {type CompiledLayout, compileLayout} from './compile.js'
import {layoutVersions} from './layout-data.js'

const compiled = new Map<string, CompiledLayout>()

export function getLayout(version: string): CompiledLayout {
  let layout = compiled.get(version)
  if (!layout) {
    if (!layoutVersions().includes(version)) throw new Error(`no layout for Kubernetes ${version}`)
    layout = compileLayout(version)
    compiled.set(version, layout)
  }
  return layout
}
