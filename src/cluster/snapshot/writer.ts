// Writes a snapshot in kubectl-why's layout (docs/snapshot-format.md): a valid JSON List whose header
// is on the first line and each item on a line of its own, so the reader never needs the whole file as
// one string. Gzip when the path ends in .gz. Written to a temporary file and renamed: no half files.
import {createWriteStream, renameSync, rmSync, type WriteStream} from 'node:fs'
import type {Writable} from 'node:stream'
import {createGzip} from 'node:zlib'
import {stringifyJson} from '../../util/json.js'
import type {KubeObject} from '../source.js'
import type {SnapshotHeader} from './header.js'

export const SNAPSHOT_FORMAT = 1

export class SnapshotWriter {
  private first = true
  private count = 0
  private readonly done: Promise<void>

  private constructor(
    private readonly out: Writable,
    done: Promise<void>,
    private readonly commitFile?: () => void,
    private readonly abortFile?: () => void,
  ) {
    this.done = done
  }

  /** `path` undefined or "-": stdout. */
  static create(path: string | undefined): SnapshotWriter {
    if (path === undefined || path === '-') return new SnapshotWriter(process.stdout, Promise.resolve())
    const tmp = `${path}.partial-${process.pid}`
    const file: WriteStream = createWriteStream(tmp)
    const out = path.endsWith('.gz') ? createGzip() : file
    if (out !== file) out.pipe(file)
    const done = new Promise<void>((resolve, reject) => {
      file.on('close', resolve)
      file.on('error', reject)
      out.on('error', reject)
    })
    return new SnapshotWriter(
      out,
      done,
      () => renameSync(tmp, path),
      () => rmSync(tmp, {force: true}),
    )
  }

  private async put(text: string): Promise<void> {
    if (!this.out.write(text)) await new Promise<void>((r) => this.out.once('drain', () => r()))
  }

  async begin(header: Omit<SnapshotHeader, 'format'>): Promise<void> {
    const list = {apiVersion: 'v1', kind: 'List', metadata: {resourceVersion: ''}}
    await this.put(`${JSON.stringify(list).slice(0, -1)},"kubectlWhy":${stringifyJson({format: SNAPSHOT_FORMAT, ...header})},"items":[\n`)
  }

  async item(o: KubeObject): Promise<void> {
    await this.put(`${this.first ? '' : ',\n'}${stringifyJson(o)}`)
    this.first = false
    this.count++
  }

  /** Closes the list; problems met while items were streamed go into a trailer after them. */
  async end(trailer?: Pick<SnapshotHeader, 'problems' | 'gaps'>): Promise<number> {
    const tail = trailer?.problems?.length || trailer?.gaps?.length ? `,"kubectlWhyTrailer":${stringifyJson(trailer)}` : ''
    await this.put(`${this.first ? '' : '\n'}]${tail}}\n`)
    if (this.out !== process.stdout) this.out.end()
    await this.done
    this.commitFile?.()
    return this.count
  }

  abort(): void {
    if (this.out !== process.stdout) this.out.destroy()
    this.abortFile?.()
  }
}
