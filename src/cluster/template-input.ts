// The input of `hash --template FILE|-`: a file or stdin, gzip by its magic bytes (1f 8b), whatever the name, as -f
// takes dumps; strict UTF-8, so that a binary or a truncated stream is refused in one line instead of being read as a
// garbled template; then JSON (int64 kept exact) or YAML documents.
import {readFileSync, statSync} from 'node:fs'
import {gunzipSync} from 'node:zlib'
import {UserError} from '../errors.js'
import {parseJson, parseYamlDocuments} from '../util/json.js'

const UTF8 = new TextDecoder('utf-8', {fatal: true})

/**
 * The most --template reads (its text, after gunzip): it parses the whole input at once, about 20 times its size in
 * memory (a 150 MiB YAML List took 3.2 GiB and 117 s before it was refused). Beyond it, one line at once, before
 * reading on: a file by its size, stdin and gzip as they pass the bound. Workloads in a large dump are hashed by
 * the streaming reader instead (hash --all -f FILE).
 */
export const MAX_TEMPLATE_BYTES = 64 * 1024 * 1024

function tooLarge(where: string, size?: number): UserError {
  return new UserError(
    `${where}: ${size === undefined ? 'more than' : `${(size / 1024 / 1024).toFixed(0)} MiB, over`} the ${MAX_TEMPLATE_BYTES / 1024 / 1024} MiB hash --template reads`,
    'hash the workloads of a large dump with: kubectl why hash --all -A -f FILE',
  )
}

export function templateText(bytes: Uint8Array, where: string): string {
  let raw = bytes
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      raw = gunzipSync(bytes, {maxOutputLength: MAX_TEMPLATE_BYTES})
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(where)
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
  let size = 0
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length
    if (size > MAX_TEMPLATE_BYTES) throw tooLarge('stdin')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The documents of FILE (or - for stdin); where: how messages name it. */
export async function readTemplateDocuments(file: string, where: string): Promise<unknown[]> {
  let bytes: Uint8Array
  try {
    if (file !== '-') {
      const size = statSync(file).size
      if (size > MAX_TEMPLATE_BYTES) throw tooLarge(where, size)
    }
    bytes = file === '-' ? await readStdin() : readFileSync(file)
  } catch (err) {
    if (err instanceof UserError) throw err
    throw new UserError(`cannot read ${where}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'give a readable file, or - for stdin')
  }
  const text = templateText(bytes, where)
  const trimmed = text.trimStart()
  // JSON keeps int64 exact through the JSON parser; several JSON documents separated by --- are YAML.
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && !/^---/m.test(text)) return [parseJson(text, where)]
  return parseYamlDocuments(text, where)
}
