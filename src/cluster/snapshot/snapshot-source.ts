// The snapshot source: answers the ClusterSource operations from saved files, exactly as the live
// source answers them from a cluster (one contract test suite runs against both).
import {relative} from 'node:path'
import {ReadError, UserError} from '../../errors.js'
import type {Problem, SourceDescription} from '../../explanation.js'
import {groupKindKey, ObjectStore} from '../object-store.js'
import {resolveKind} from '../resolve.js'
import type {SourceOptions} from '../open.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult, ResourceType, ServerVersion, TypeRef} from '../source.js'
import {newestTimestamp, versionFromControlPlanePods} from './clock.js'
import {snapshotDiscovery} from './discovery.js'
import {type FileContents, readContents, type SnapshotHeader} from './documents.js'
import {readOwnLayoutFile} from './own-layout.js'
import {isDirectory, listFiles, plainBytes, readFileBytes, readStdin} from './read-input.js'

const DEFAULT_PAGE = 500

function metadataOnly(o: KubeObject): KubeObject {
  return {apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata}
}

export class SnapshotSource implements ClusterSource {
  private readonly fresh = new ObjectStore()
  private readonly cached = new ObjectStore()
  private readonly loadProblems: Problem[] = []
  private header: SnapshotHeader | undefined
  private version: ServerVersion | undefined
  private types: ResourceType[] = []
  private clock!: Date
  private clockFrom = ''
  private metadataOnlyKinds = new Set<string>()

  private constructor(private readonly path: string) {}

  static async open(path: string, options: Pick<SourceOptions, 'now'> = {}): Promise<SnapshotSource> {
    const source = new SnapshotSource(path)
    const files: {name: string; contents: () => Promise<Uint8Array>; own?: () => Promise<FileContents | undefined>}[] = path === '-' ? [{name: '<stdin>', contents: () => readStdin()}] : source.files(path)
    const strict = path === '-' || !isDirectory(path)
    for (const f of files) {
      let contents: FileContents
      try {
        contents = (await f.own?.()) ?? readContents(plainBytes(await f.contents(), f.name), f.name)
      } catch (err) {
        if (strict || !(err instanceof UserError)) throw err
        source.loadProblems.push({what: f.name, reason: err.message.replace(`${f.name}: `, '').replace(`${f.name}:`, 'line '), file: f.name})
        continue
      }
      const fatal = contents.problems.find((p) => p.fatal) ?? (contents.objects.length === 0 ? contents.problems[0] : undefined)
      if (strict && fatal) {
        throw new UserError(`${fatal.what}: ${fatal.reason}`, 'every item of a snapshot must be a Kubernetes object with apiVersion, kind and metadata')
      }
      source.absorb(contents, f.name)
    }
    if (source.fresh.count() === 0) {
      throw new UserError(`no Kubernetes objects found in ${path === '-' ? 'stdin' : path}`, 'pass what `kubectl get -o json|yaml` or `kubectl why snapshot` wrote')
    }
    source.finish(options.now)
    return source
  }

  private files(path: string): {name: string; contents: () => Promise<Uint8Array>; own: () => Promise<FileContents | undefined>}[] {
    if (!isDirectory(path)) return [{name: path, contents: async () => readFileBytes(path), own: () => readOwnLayoutFile(path)}]
    const {data, other} = listFiles(path)
    for (const o of other) this.loadProblems.push({what: relative(path, o) || o, reason: 'not a .json or .yaml file: not read', file: o})
    return data.map((name) => ({name, contents: async () => readFileBytes(name), own: () => readOwnLayoutFile(name)}))
  }

  private absorb(contents: FileContents, file: string): void {
    for (const o of contents.objects) this.fresh.add(o)
    for (const {fatal: _, ...p} of contents.problems) this.loadProblems.push({...p, file})
    if (contents.header) {
      this.header = contents.header
      for (const o of contents.header.cached ?? []) this.cached.add(o)
      for (const k of contents.header.metadataOnly ?? []) this.metadataOnlyKinds.add(k)
    }
    if (contents.serverVersion) this.version = contents.serverVersion
  }

  private finish(now: Date | undefined): void {
    this.version = this.header?.serverVersion ?? this.version ?? versionFromControlPlanePods(this.fresh.all('/Pod'))
    const {types, guessed} = snapshotDiscovery(this.header?.resources as ResourceType[] | undefined, this.fresh)
    this.types = types
    for (const g of guessed) this.loadProblems.push({what: `kind ${g}`, reason: 'not described by the snapshot: its resource name and scope are guessed from its objects'})
    if (now) {
      this.clock = now
      this.clockFrom = '--now'
    } else if (this.header?.capturedAt) {
      this.clock = new Date(this.header.capturedAt)
      this.clockFrom = 'capture time'
    } else {
      const newest = newestTimestamp(this.allObjects())
      this.clock = newest ? new Date(newest) : new Date()
      this.clockFrom = newest ? 'newest timestamp in the dump (no capture time recorded)' : 'current time (the dump has no timestamps)'
    }
  }

  private *allObjects(): Iterable<KubeObject> {
    for (const k of this.fresh.kinds()) yield* this.fresh.all(k)
  }

  describe(): SourceDescription {
    return {
      mode: 'snapshot',
      file: this.path,
      context: this.header?.context,
      serverVersion: this.version?.gitVersion,
      capturedAt: this.header?.capturedAt ?? (this.clockFrom === '--now' ? undefined : this.clock.toISOString()),
      settings: {clock: {value: this.clock.toISOString(), from: this.clockFrom}},
      partial: this.problems(),
    }
  }

  async serverVersion(): Promise<ServerVersion | undefined> {
    return this.version
  }

  async discovery(): Promise<ResourceType[]> {
    return this.types
  }

  private typeOf(ref: TypeRef): ResourceType {
    const t = resolveKind(this.types, ref)
    if (!t) throw new ReadError('NotServed', `the snapshot's API does not serve ${ref.apiVersion ?? ''}${ref.apiVersion ? ' ' : ''}${ref.kind}`, {status: 404})
    return t
  }

  /** The watch-cache view where the snapshot recorded one for this kind; otherwise both views are the same. */
  private view(view: GetRequest['view'], key: string): ObjectStore {
    return view === 'cached' && this.cached.kinds().includes(key) ? this.cached : this.fresh
  }

  async get(request: GetRequest): Promise<KubeObject | undefined> {
    const t = this.typeOf(request)
    const key = groupKindKey(t.group === '' ? t.version : `${t.group}/${t.version}`, t.kind)
    const ns = t.namespaced ? request.namespace : undefined
    const found = this.view(request.view, key).get(key, ns, request.name)
    return found && request.metadataOnly ? metadataOnly(found) : found
  }

  async list(request: ListRequest): Promise<ListResult> {
    const t = this.typeOf(request)
    const key = groupKindKey(t.group === '' ? t.version : `${t.group}/${t.version}`, t.kind)
    const namespace = t.namespaced ? request.namespace : undefined
    let items = this.view(request.view, key).list(key, {...request, namespace})
    if (request.metadataOnly) items = items.map(metadataOnly)
    return {items, resourceVersion: this.header ? '' : undefined}
  }

  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    const {items} = await this.list(request)
    const size = request.pageSize ?? DEFAULT_PAGE
    for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size)
  }

  now(): Date {
    return this.clock
  }

  defaultNamespace(): string {
    return this.header?.namespace ?? 'default'
  }

  problems(): Problem[] {
    return [...(this.header?.problems ?? []), ...this.loadProblems]
  }
}
