// The input of `hash --template FILE|-`: a file or stdin, gzip by its magic bytes (1f 8b), whatever the name, as -f
// takes dumps; strict UTF-8, so that a binary or a truncated stream is refused in one line instead of being read as a
// garbled template; then JSON (int64 kept exact) or YAML documents.
import {readFileSync} from 'node:fs'
import {gunzipSync} from 'node:zlib'
import {UserError} from '../errors.js'
import {parseJson, parseYamlDocuments} from '../util/json.js'

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

/** stdin as a stream: a synchronous read of fd 0 fails with EAGAIN when the pipe is non-blocking. */
async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The documents of FILE (or - for stdin); where: how messages name it. */
export async function readTemplateDocuments(file: string, where: string): Promise<unknown[]> {
  let bytes: Uint8Array
  try {
    bytes = file === '-' ? await readStdin() : readFileSync(file)
  } catch (err) {
    throw new UserError(`cannot read ${where}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'give a readable file, or - for stdin')
  }
  const text = templateText(bytes, where)
  const trimmed = text.trimStart()
  // JSON keeps int64 exact through the JSON parser; several JSON documents separated by --- are YAML.
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && !/^---/m.test(text)) return [parseJson(text, where)]
  return parseYamlDocuments(text, where)
}
