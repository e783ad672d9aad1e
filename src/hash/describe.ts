// How a JSON value and a field path read in an error message.

export function describeJson(v: unknown): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'object') return 'an object'
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`
  return `${typeof v === 'bigint' ? 'number' : typeof v} ${String(v)}`
}

export function formatPath(segments: (string | number)[]): string {
  let out = ''
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(s)) out += out === '' ? s : `.${s}`
    else out += `[${JSON.stringify(s)}]`
  }
  return out
}
