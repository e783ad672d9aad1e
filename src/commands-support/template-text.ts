// The text of `hash --template FILE|-`: gzip by its magic bytes (1f 8b), whatever the name, as -f takes dumps; strict
// UTF-8, so that a binary or a truncated stream is refused in one line instead of being read as a garbled template.
import {gunzipSync} from 'node:zlib'
import {UserError} from '../errors.js'

const UTF8 = new TextDecoder('utf-8', {fatal: true})

export function templateText(bytes: Uint8Array, where: string): string {
  let raw = bytes
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      raw = gunzipSync(bytes)
    } catch (err) {
      throw new UserError(
        `${where}: not a readable gzip stream (${(err as Error).message})`,
        'the file is gzip but truncated or damaged; give it whole, or the uncompressed YAML or JSON',
      )
    }
  }
  if (raw.includes(0)) throw new UserError(`${where}: not a text file (it contains NUL bytes)`, 'pass JSON or YAML, optionally gzipped')
  try {
    return UTF8.decode(raw).replace(/^\uFEFF/, '')
  } catch {
    throw new UserError(`${where}: not UTF-8 text`, 'pass JSON or YAML, optionally gzipped')
  }
}
