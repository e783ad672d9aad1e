// The input of `hash --template FILE|-`: a file or stdin, gzip by its magic bytes (1f 8b), whatever the name, as -f
// takes dumps; strict UTF-8, so that a binary or a truncated stream is refused in one line instead of being read as a
// garbled template; then JSON (int64 kept exact) or YAML documents. An input up to MAX_TEMPLATE_BYTES is parsed
// whole; a larger one (a dump's List) is read by the dump reader a List item at a time (readTemplates), so memory
// stays bounded by one item and the records made of those before it.
import {createReadStream, readFileSync, statSync} from 'node:fs'
import {Readable} from 'node:stream'
import {gunzipSync} from 'node:zlib'
import {UserError} from '../errors.js'
import {parseJson, parseYamlDocuments} from '../util/json.js'
import {readInput} from './snapshot/read-input.js'

const UTF8 = new TextDecoder('utf-8', {fatal: true})

/**
 * The most --template parses whole (its text, after gunzip): a whole parse takes about 20 times the input in memory
 * (a 150 MiB YAML List took 3.2 GiB and 117 s). Beyond it, the input is read as a stream, a List item at a time.
 */
export const MAX_TEMPLATE_BYTES = 8 * 1024 * 1024

/** Passing the bound while reading whole: read on as a stream instead. */
class TooLarge extends Error {}

export function templateText(bytes: Uint8Array, where: string): string {
  let raw = bytes
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      raw = gunzipSync(bytes, {maxOutputLength: MAX_TEMPLATE_BYTES})
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge()
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

/** stdin as a stream (a synchronous read of fd 0 fails with EAGAIN when the pipe is non-blocking), whole up to the bound. */
async function readStdin(): Promise<{whole: Buffer} | {stream: Readable}> {
  const chunks: Buffer[] = []
  let size = 0
  const input = process.stdin[Symbol.asyncIterator]()
  for (;;) {
    const {value, done} = await input.next()
    if (done) return {whole: Buffer.concat(chunks)}
    chunks.push(value as Buffer)
    size += (value as Buffer).length
    if (size > MAX_TEMPLATE_BYTES) {
      // What was read, then the rest of stdin, as one stream.
      const rest = async function* () {
        yield* chunks
        for (;;) {
          const next = await input.next()
          if (next.done) return
          yield next.value as Buffer
        }
      }
      return {stream: Readable.from(rest(), {objectMode: false})}
    }
  }
}

/** The documents of a text parsed whole: JSON (int64 exact) alone, else YAML documents. */
function parseWhole(bytes: Uint8Array, where: string): unknown[] {
  const text = templateText(bytes, where)
  const trimmed = text.trimStart()
  // JSON keeps int64 exact through the JSON parser; several JSON documents separated by --- are YAML.
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && !/^---/m.test(text)) return [parseJson(text, where)]
  return parseYamlDocuments(text, where)
}

type Opened = {docs: unknown[]} | {stream: Readable}

async function openTemplate(file: string, where: string): Promise<Opened> {
  let bytes: Uint8Array
  try {
    if (file !== '-' && statSync(file).size > MAX_TEMPLATE_BYTES) return {stream: createReadStream(file)}
    if (file === '-') {
      const read = await readStdin()
      if ('stream' in read) return read
      bytes = read.whole
    } else bytes = readFileSync(file)
  } catch (err) {
    if (err instanceof UserError) throw err
    throw new UserError(`cannot read ${where}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'give a readable file, or - for stdin')
  }
  try {
    return {docs: parseWhole(bytes, where)}
  } catch (err) {
    // gzip that expands past the bound: read again as a stream (the dump reader gunzips as it goes).
    if (err instanceof TooLarge) return {stream: Readable.from([Buffer.from(bytes)])}
    throw err
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Every document of FILE (or -) handed to `each` with the name findTemplates gives it (where, or where#N when there
 * are several), and the results gathered. Over the bound, the dump reader streams it: each item of a List is handed
 * alone, named as findTemplates names a List item (where items[i], where [i] for a bare array), an item of a typed
 * List (DeploymentList...) without a kind given the List's item kind as findTemplates gives it; the whole input is
 * never held. A document's number is known only once a second one starts, so the first document's results are named
 * where#1 at the end when there were several (the `source` of each result).
 */
export async function readTemplates<R extends {source: string}>(file: string, where: string, each: (value: unknown, source: string) => R[]): Promise<R[]> {
  const input = await openTemplate(file, where)
  const out: R[] = []
  if ('docs' in input) {
    for (const [i, d] of input.docs.entries()) out.push(...each(d, input.docs.length > 1 ? `${where}#${i + 1}` : where))
    return out
  }
  let doc = 1
  let firstDocResults = 0
  let itemKind: string | undefined
  let listOpen = false
  const name = () => (doc > 1 ? `${where}#${doc}` : where)
  const take = (results: R[]) => {
    if (doc === 1) firstDocResults += results.length
    for (const r of results) out.push(r)
  }
  await readInput(input.stream, where, {
    listStart(envelope) {
      const kind = typeof envelope.kind === 'string' ? envelope.kind : undefined
      itemKind = kind?.endsWith('List') && kind !== 'List' ? kind.slice(0, -'List'.length) : undefined
      listOpen = true
    },
    item(value, _where, index) {
      // findTemplates: a typed List's items take its kind when they have none.
      const typed = itemKind && isObject(value) && (typeof value.kind !== 'string' || value.kind === '') ? {...value, kind: itemKind} : value
      take(each(typed, `${name()} ${listOpen ? `items[${index}]` : `[${index}]`}`))
    },
    documentEnd(envelope, hadItems) {
      if (!hadItems && envelope !== undefined) take(each(envelope, name()))
      doc++
      itemKind = undefined
      listOpen = false
    },
  })
  if (doc > 2 && firstDocResults > 0) for (let i = 0; i < firstDocResults; i++) out[i].source = `${where}#1${out[i].source.slice(where.length)}`
  return out
}
