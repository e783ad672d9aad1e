// A template's content as a cache key: a run hashes one template many times over (its label check, the name it
// would create, a DaemonSet's revision, the labels of its ReplicaSets and pods), each a rendering of its own.
// Only templates whose JSON text says all there is to them have one (no bigint, undefined, NaN or Infinity, no
// object other than plain ones and arrays): two of those with one text render alike.

export function contentKey(template: unknown): string | undefined {
  let exact = true
  const text = JSON.stringify(template, function (this: Record<string, unknown>, k, v: unknown) {
    const original = this[k]
    const type = typeof original
    if (type === 'bigint' || type === 'undefined' || type === 'function' || type === 'symbol' || (type === 'number' && !Number.isFinite(original)))
      exact = false
    else if (typeof original === 'object' && original !== null && !Array.isArray(original)) {
      const proto = Object.getPrototypeOf(original)
      if (proto !== Object.prototype && proto !== null) exact = false
    }
    return typeof v === 'bigint' ? String(v) : v
  })
  return exact && text !== undefined ? text : undefined
}
