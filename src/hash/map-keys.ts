// Map keys in the order spew prints them with SortKeys: Go string order (UTF-8 bytes).
import {compareGoStrings, wellFormed} from './utf8.js'

/**
 * Map keys as Go holds them (lone surrogates → U+FFFD; keys that become equal keep the later value,
 * as Go's decoder does) in Go's sort order. Returns [goKey, jsonKey, goKey, jsonKey, …].
 */
export function sortedEntries(keys: string[]): string[] {
  let plain = true
  for (const k of keys) {
    for (let i = 0; i < k.length; i++) {
      if (k.charCodeAt(i) >= 0xd800) {
        plain = false
        break
      }
    }
    if (!plain) break
  }
  const out: string[] = []
  if (plain) {
    if (keys.length > 1) keys.sort()
    for (const k of keys) out.push(k, k)
    return out
  }
  const byGoKey = new Map<string, string>()
  for (const k of keys) byGoKey.set(wellFormed(k), k)
  const goKeys = [...byGoKey.keys()].sort(compareGoStrings)
  for (const g of goKeys) out.push(g, byGoKey.get(g)!)
  return out
}
