// Sets of struct definitions as bitsets over their global key ids — so "does layout V write this text exactly as
// layout S did?" asks only about the definitions the text went through: whether both layouts' structs of each are of
// one output class (the same object, or structs that write the same bytes: classes are made with compiled.json).
import type {CompiledLayout} from './compile.js'

/** Whether layout `to` renders the same bytes as layout `from` did for a text over these definitions. */
export function sameUnder(from: CompiledLayout, to: CompiledLayout, bits: Uint32Array): boolean {
  if (from === to) return true
  const a = from.classByKey
  const b = to.classByKey
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]
    while (word !== 0) {
      const low = word & -word
      word ^= low
      const k = (w << 5) + 31 - Math.clz32(low)
      if (a[k] !== b[k]) return false
    }
  }
  return true
}
