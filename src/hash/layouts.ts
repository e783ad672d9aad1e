// Compiled layouts by Kubernetes minor version, built on first use.
import {type CompiledLayout, compileLayout} from './compile.js'
import {layoutVersions} from './layout-data.js'
import {checkSpecialLayout} from './special.js'
import {renderGoBytes, specialZeroGoValue} from './spew.js'

const compiled = new Map<string, CompiledLayout>()

export function getLayout(version: string): CompiledLayout {
  let layout = compiled.get(version)
  if (!layout) {
    if (!layoutVersions().includes(version)) throw new Error(`no layout for Kubernetes ${version}`)
    layout = compileLayout(version, (node) => renderGoBytes(node, specialZeroGoValue(node)))
    checkSpecialLayout(version, layout.structs)
    compiled.set(version, layout)
  }
  return layout
}
