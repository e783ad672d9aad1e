// Sets of struct definitions as bitsets over their global key ids, and the definitions two layouts
// disagree on — so "does layout V write this text exactly as layout S did?" is a few word ANDs:
// the text's definitions must not meet the ones that differ between S and V.
import type {CompiledLayout} from './compile.js'

/** differing[a.index][b.index]: key ids whose struct definition differs between a and b (or exists in one). */
const differing: (Uint32Array | undefined)[][] = []

function differ(a: CompiledLayout, b: CompiledLayout): Uint32Array {
  differing[a.index] ??= []
  const row = differing[a.index]
  let bits = row[b.index]
  if (bits === undefined) {
    const n = Math.max(a.sigByKey.length, b.sigByKey.length)
    bits = new Uint32Array((n >>> 5) + 1)
    for (let k = 0; k < n; k++) if (a.sigByKey[k] !== b.sigByKey[k]) bits[k >>> 5] |= 1 << (k & 31)
    row[b.index] = bits
  }
  return bits
}

/** Whether layout `to` renders the same bytes as layout `from` did for a text over these definitions. */
export function sameUnder(from: CompiledLayout, to: CompiledLayout, bits: Uint32Array): boolean {
  if (from === to) return true
  const d = differ(from, to)
  const n = Math.min(bits.length, d.length)
  for (let w = 0; w < n; w++) if ((bits[w] & d[w]) !== 0) return false
  return true
}
