// Finds the files of a snapshot argument (a file, a directory read recursively, or - for stdin) and
// turns each into text: gunzipped when it starts with gzip's magic bytes, refused when it is not text.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {gunzipSync} from 'node:zlib'
import type {Readable} from 'node:stream'
import {UserError} from '../../errors.js'

const DATA_FILE = /\.(json|ya?ml)(\.gz)?$/i

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
}

/** Every JSON/YAML file below a directory, sorted, and the other files (reported as not used). */
export function listFiles(dir: string): {data: string[]; other: string[]} {
  const data: string[] = []
  const other: string[] = []
  const walk = (d: string): void => {
    for (const e of readdirSync(d, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (DATA_FILE.test(e.name)) data.push(p)
      else other.push(p)
    }
  }
  walk(dir)
  return {data, other}
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch (err) {
    throw new UserError(`cannot read snapshot ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`,
      'pass a file or directory written by `kubectl why snapshot` or `kubectl get -o json|yaml`')
  }
}

/** The file's bytes, gunzipped when they start with gzip's magic; binary input (NUL bytes) refused. */
export function plainBytes(bytes: Uint8Array, where: string): Buffer {
  const raw = Buffer.from(isGzip(bytes) ? gunzipChecked(bytes, where) : bytes)
  if (raw.includes(0)) throw new UserError(`${where}: not a text file (it contains NUL bytes)`, 'pass JSON or YAML, optionally gzipped')
  return raw
}

const UTF8 = new TextDecoder('utf-8', {fatal: true})

/** Decodes UTF-8 strictly: a binary file is refused rather than read as garbage. */
export function decodeText(raw: Uint8Array, where: string): string {
  let text: string
  try {
    text = UTF8.decode(raw)
  } catch (err) {
    if ((err as Error).message.includes('Invalid string length') || raw.length > 0x1fffffe8) {
      throw new UserError(`${where}: too large to read as one document (${raw.length} bytes)`, 'write it with `kubectl why snapshot`, whose one-object-per-line layout is read in pieces')
    }
    throw new UserError(`${where}: not UTF-8 text`, 'pass JSON or YAML, optionally gzipped')
  }
  text = text.replace(/^\uFEFF/, '')
  if (text.trim() === '') throw new UserError(`${where}: the file is empty`, 'a snapshot holds at least one Kubernetes object')
  return text
}

function gunzipChecked(bytes: Uint8Array, where: string): Uint8Array {
  try {
    return gunzipSync(bytes)
  } catch (err) {
    throw new UserError(`${where}: corrupt gzip data (${(err as Error).message})`, 'the file may be truncated; capture it again')
  }
}

export function readFileBytes(path: string): Uint8Array {
  return readFileSync(path)
}

export async function readStdin(stdin: Readable = process.stdin): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const c of stdin) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

