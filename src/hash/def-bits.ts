// Sets of struct definitions as bitsets over their global key ids — so "does layout V write this text exactly as
// layout S did?" asks only about the definitions the text went through: the same shared struct object in both
// layouts (most of them), or, where they differ, structs that write the same bytes (compared once per pair).
import {type CompiledLayout, sameOutput} from './compile.js'

/** Whether layout `to` renders the same bytes as layout `from` did for a text over these definitions. */
export function sameUnder(from: CompiledLayout, to: CompiledLayout, bits: Uint32Array): boolean {
  if (from === to) return true
  const a = from.structByKey
  const b = to.structByKey
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]
    while (word !== 0) {
      const low = word & -word
      word ^= low
      const k = (w << 5) + 31 - Math.clz32(low)
      const x = a[k]
      const y = b[k]
      if (x !== y && (x === undefined || y === undefined || !sameOutput(x, y))) return false
    }
  }
  return true
}
