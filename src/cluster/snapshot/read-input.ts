// Finds the inputs of a snapshot argument and reads each as a stream: a file, a directory read recursively,
// `-` for stdin, and anything else that can be read once from start to end (a pipe, /dev/stdin, process
// substitution `-f <(zcat x.gz)`, a FIFO) — never seeked. Gzip is recognised by its magic bytes anywhere. In a
// directory, what cannot be read (dangling links, permissions, FIFOs, sockets, devices) is skipped and named.
import {createReadStream, type Dirent, readdirSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'
import type {Readable} from 'node:stream'
import {UserError} from '../../errors.js'
import type {Problem} from '../../explanation.js'
import type {JsonStreamSink} from './json-stream.js'
import {JsonStreamReader} from './json-stream.js'
import {YamlStreamReader} from './yaml-stream.js'

const DATA_FILE = /\.(json|ya?ml)(\.gz)?$/i
/** What `kubectl cluster-info dump --output-directory` writes beside the objects: each pod's container logs. */
const LOG_FILE = /(^|[\\/])logs\.txt$/

const STDIN_NAMES = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'])
/** Bytes per read of a file: 1 MiB, not the stream default of 64 KiB (a 750 MiB dump is read in a third of the CPU time). */
const READ_CHUNK = 1 << 20

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
}

export interface Input {
  /** The name in messages: the path as given, or <stdin>. */
  name: string
  /** The path relative to the directory argument ("" for a single input). */
  relative: string
  open(): Readable
}

export interface Inputs {
  inputs: Input[]
  directory: boolean
  /** What was not read, by name (not data, not readable, special files). */
  skipped: Problem[]
  /** Files left out on purpose (container logs of a cluster-info dump). */
  logs: number
}

function why(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'no such file or directory'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'ELOOP') return 'too many levels of symbolic links'
  return (err as Error).message
}

function special(e: {isFIFO(): boolean; isSocket(): boolean; isBlockDevice(): boolean; isCharacterDevice(): boolean}): string | undefined {
  if (e.isFIFO()) return 'a FIFO'
  if (e.isSocket()) return 'a socket'
  if (e.isBlockDevice() || e.isCharacterDevice()) return 'a device'
  return undefined
}

export function inputsOf(path: string, stdin: () => Readable = () => process.stdin): Inputs {
  if (path === '-') return {inputs: [{name: '<stdin>', relative: '', open: stdin}], directory: false, skipped: [], logs: 0}
  // The process's own stdin by name: read from the descriptor, as a socket (what Node gives a child's stdin) cannot be opened again.
  if (STDIN_NAMES.has(path)) return {inputs: [{name: path, relative: '', open: stdin}], directory: false, skipped: [], logs: 0}
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(path)
  } catch (err) {
    throw new UserError(`cannot read snapshot ${path}: ${why(err)}`, 'pass a file or directory written by `kubectl why snapshot` or `kubectl get -o json|yaml`')
  }
  // A FIFO, /dev/stdin or a pipe given directly is read once as a stream, as a file is.
  if (!st.isDirectory())
    return {inputs: [{name: path, relative: '', open: () => createReadStream(path, {highWaterMark: READ_CHUNK})}], directory: false, skipped: [], logs: 0}
  const out: Inputs = {inputs: [], directory: true, skipped: [], logs: 0}
  const skip = (p: string, reason: string) => out.skipped.push({what: relative(path, p) || p, reason, file: p})
  const walk = (d: string): void => {
    let entries: Dirent[]
    try {
      entries = readdirSync(d, {withFileTypes: true})
    } catch (err) {
      skip(d, `directory not read: ${why(err)}`)
      return
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name)
      let kind: {isDirectory(): boolean; isFile(): boolean; isFIFO(): boolean; isSocket(): boolean; isBlockDevice(): boolean; isCharacterDevice(): boolean} = e
      if (e.isSymbolicLink()) {
        try {
          kind = statSync(p)
        } catch (err) {
          skip(p, `not read: a symbolic link whose target cannot be read (${why(err)})`)
          continue
        }
      }
      const odd = special(kind)
      if (kind.isDirectory()) walk(p)
      else if (odd) skip(p, `not read: ${odd}, not a file`)
      else if (LOG_FILE.test(p)) out.logs++
      else if (DATA_FILE.test(e.name)) out.inputs.push({name: p, relative: relative(path, p), open: () => createReadStream(p, {highWaterMark: READ_CHUNK})})
      else skip(p, 'not a .json or .yaml file: not read')
    }
  }
  walk(path)
  return out
}

/** The stream's bytes, gunzipped when they start with gzip's magic; read errors as one-line UserErrors. */
async function* plainChunks(stream: Readable, where: string): AsyncGenerator<Buffer> {
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const next = async (): Promise<IteratorResult<Buffer>> => {
    try {
      return await it.next()
    } catch (err) {
      throw new UserError(`cannot read ${where}: ${why(err)}`, 'check the path and its permissions')
    }
  }
  let first = await next()
  while (!first.done && first.value.length < 2) {
    const more = await next()
    if (more.done) break
    first = {done: false, value: Buffer.concat([first.value, more.value])}
  }
  if (first.done) return
  if (!isGzip(first.value)) {
    yield first.value
    for (let n = await next(); !n.done; n = await next()) yield n.value
    return
  }
  // node:zlib only for gzip: most inputs are plain, and loading it costs every run.
  const {createGunzip} = await import('node:zlib')
  const gunzip = createGunzip()
  // The feeder waits for room (drain) or for the end of the gunzip stream (close): once the reader below has
  // stopped — it threw at the first object — no drain ever comes, and a wait for drain alone left nothing
  // scheduled, so Node exited 0 with no output (the silent end of a gzipped dump above 2 MB).
  const room = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        gunzip.off('drain', done)
        gunzip.off('close', done)
        resolve()
      }
      gunzip.on('drain', done)
      gunzip.on('close', done)
    })
  const feed = (async () => {
    try {
      gunzip.write(first.value)
      for (let n = await next(); !n.done && !gunzip.destroyed; n = await next()) {
        if (!gunzip.write(n.value) && !gunzip.destroyed) await room()
      }
      if (!gunzip.destroyed) gunzip.end()
    } catch (err) {
      gunzip.destroy(err as Error)
    }
  })()
  try {
    for await (const c of gunzip) yield c as Buffer
  } catch (err) {
    if (err instanceof UserError) throw err
    throw new UserError(`${where}: corrupt gzip data (${(err as Error).message})`, 'the file may be truncated; capture it again')
  } finally {
    // The reader is done, by the end or by an error: stop both streams, so the feeder's pending read or wait ends.
    gunzip.destroy()
    stream.destroy()
    await feed
  }
}

const NOT_TEXT = new UserError('', '')

/** Reads one input into the sink, as JSON or YAML from its name and its first character. */
export async function readInput(stream: Readable, where: string, sink: JsonStreamSink): Promise<void> {
  let reader: JsonStreamReader | YamlStreamReader | undefined
  let start: Buffer = Buffer.alloc(0)
  let bytes = 0
  try {
    for await (const chunk of plainChunks(stream, where)) {
      if (chunk.includes(0)) throw NOT_TEXT
      bytes += chunk.length
      if (reader === undefined) {
        start = start.length === 0 ? chunk : Buffer.concat([start, chunk])
        const text = start
          .subarray(0, 64)
          .toString('utf8')
          .replace(/^\uFEFF/, '')
        const first = text.trimStart()[0]
        if (first === undefined) continue
        const json =
          /\.json(\.gz)?$/i.test(where) ||
          ((first === '{' || first === '[' || text.trimStart().startsWith('==== START logs')) && !/\.ya?ml(\.gz)?$/i.test(where))
        reader = json ? new JsonStreamReader(sink, where) : new YamlStreamReader(sink, where)
        reader.push(json && start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf ? start.subarray(3) : start)
        continue
      }
      reader.push(chunk)
    }
  } catch (err) {
    if (err === NOT_TEXT) throw new UserError(`${where}: not a text file (it contains NUL bytes)`, 'pass JSON or YAML, optionally gzipped')
    throw err
  } finally {
    stream.destroy()
  }
  if (reader === undefined)
    throw new UserError(
      `${where}: the file is empty`,
      bytes === 0 ? 'a snapshot holds at least one Kubernetes object' : 'a snapshot holds at least one Kubernetes object (this one holds only blanks)',
    )
  reader.end()
}
