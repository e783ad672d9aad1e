// kubectl-why's own snapshot layout (docs/snapshot-format.md): a header line, one item per line, a
// closing line. Read a line at a time — from a stream for files, so that a snapshot of a large
// cluster never sits in memory as raw bytes or as one string beside its parsed objects.
import {createReadStream, closeSync, openSync, readSync} from 'node:fs'
import {createInterface} from 'node:readline'
import {constants, createGunzip, gunzipSync} from 'node:zlib'
import {UserError} from '../../errors.js'
import {parseJson} from '../../util/json.js'
import type {KubeObject} from '../source.js'
import type {FileContents, SnapshotHeader} from './documents.js'
import {isGzip} from './read-input.js'

const OWN_START = /^\{"apiVersion":"v1","kind":"List","metadata":\{[^}]*\},"kubectlWhy":/
const OWN_FIRST_LINE = /^\{"apiVersion":"v1","kind":"List","metadata":\{[^\n]*\},"kubectlWhy":(\{.*\}),"items":\[$/
const CLOSING_LINE = /^\](?:,"kubectlWhyTrailer":(\{.*\}))?\}\r?$/

export class OwnLayoutReader {
  private readonly objects: KubeObject[] = []
  private lineNo = 1
  closed = false

  private constructor(private readonly header: SnapshotHeader, private readonly where: string) {}

  /** A reader when the first line is kubectl-why's header; undefined for any other content. */
  static begin(firstLine: string, where: string): OwnLayoutReader | undefined {
    const m = OWN_FIRST_LINE.exec(firstLine)
    return m ? new OwnLayoutReader(parseJson(m[1], `${where}:1`) as SnapshotHeader, where) : undefined
  }

  line(text: string): void {
    if (this.closed) return
    this.lineNo++
    const close = CLOSING_LINE.exec(text)
    if (close) {
      if (close[1]) {
        const trailer = parseJson(close[1], `${this.where}:${this.lineNo}`) as SnapshotHeader
        this.header.problems = [...(this.header.problems ?? []), ...(trailer.problems ?? [])]
      }
      this.closed = true
      return
    }
    const item = text.endsWith(',') ? text.slice(0, -1) : text
    if (item !== '') this.objects.push(parseJson(item, `${this.where}:${this.lineNo}`) as KubeObject)
  }

  finish(): FileContents {
    if (!this.closed) throw new UserError(`${this.where}:${this.lineNo}: the snapshot ends before its closing "]}" (truncated?)`, 'capture it again with `kubectl why snapshot`')
    return {objects: this.objects, header: this.header, problems: [], path: this.where, inferredKinds: new Set()}
  }
}

/** The first bytes of a file, gunzipped as far as they go: enough to recognise the layout. */
function head(path: string): {text: string; gzipped: boolean} {
  const fd = openSync(path, 'r')
  try {
    const buf = Buffer.alloc(4096)
    const n = readSync(fd, buf, 0, buf.length, 0)
    const raw = buf.subarray(0, n)
    if (!isGzip(raw)) return {text: raw.toString('utf8'), gzipped: false}
    try {
      return {text: gunzipSync(raw, {finishFlush: constants.Z_SYNC_FLUSH}).toString('utf8'), gzipped: true}
    } catch {
      return {text: '', gzipped: true}
    }
  } finally {
    closeSync(fd)
  }
}

/** Reads a file in kubectl-why's layout as a stream; undefined when the file is in any other form. */
export async function readOwnLayoutFile(path: string): Promise<FileContents | undefined> {
  const {text, gzipped} = head(path)
  if (!OWN_START.test(text)) return undefined
  const file = createReadStream(path)
  const input = gzipped ? file.pipe(createGunzip()) : file
  const failed = new Promise<never>((_, reject) => {
    const fail = (err: Error) => reject(new UserError(`${path}: ${gzipped ? 'corrupt gzip data' : 'unreadable'} (${err.message})`, 'the file may be truncated; capture it again'))
    file.on('error', fail)
    input.on('error', fail)
  })
  const read = (async () => {
    let reader: OwnLayoutReader | undefined
    for await (const line of createInterface({input, crlfDelay: Infinity})) {
      if (reader === undefined) {
        reader = OwnLayoutReader.begin(line, path)
        if (!reader) throw new UserError(`${path}:1: a kubectl-why snapshot header that does not parse`, 'capture it again with `kubectl why snapshot`')
      } else {
        reader.line(line)
        if (reader.closed) break
      }
    }
    if (!reader) throw new UserError(`${path}: the file is empty`, 'a snapshot holds at least one Kubernetes object')
    return reader.finish()
  })()
  return Promise.race([read, failed])
}
