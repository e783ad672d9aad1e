// Turns the documents of one input into Kubernetes objects, as the stream readers hand them over: kubectl-why's own
// snapshot (a List with a `kubectlWhy` header), what `kubectl get -o json|yaml` prints (a List, one object, several
// documents), Lists of Lists, bare arrays, typed lists whose items lack kind (client-go dumps, cluster-info dump),
// and the server-version records of support bundles. What is not a usable object is a problem naming where it is.
import {UserError} from '../../errors.js'
import type {Problem} from '../../explanation.js'
import {apiVersionOf, BUILTIN_KINDS} from '../builtin-kinds.js'
import type {KubeObject, ServerVersion} from '../source.js'
import type {JsonStreamSink} from './json-stream.js'
import {MAX_DEPTH, tooDeep} from '../../util/json.js'
import {headerProblem, type SnapshotHeader} from './header.js'

export type {SnapshotHeader} from './header.js'

/** A list document as it appeared (typed lists are list responses: cluster-info dump prints one per kind). */
export interface ListSeen {
  kind?: string
  apiVersion?: string
  items: number
  namespaces: Set<string>
}

export interface DocumentsOut {
  object(o: KubeObject, where: string): void
  problem(p: Problem & {fatal?: boolean; leftOut?: boolean}): void
  header(h: SnapshotHeader): void
  trailer(t: Pick<SnapshotHeader, 'problems' | 'gaps'>): void
  serverVersion(v: ServerVersion, where: string): void
  list?(l: ListSeen, where: string): void
}

function isServerVersion(v: Record<string, unknown>): v is ServerVersion & Record<string, unknown> {
  return typeof v.gitVersion === 'string' && typeof v.major === 'string' && typeof v.minor === 'string' && v.kind === undefined
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v)

/** Kinds are case-sensitive: `pod` is no Pod (the API server answers "no kind "pod" is registered"). */
const KIND_BY_LOWER = new Map(BUILTIN_KINDS.map((k) => [k.kind.toLowerCase(), k.kind]))

/**
 * Older dumps (sonobuoy 0.x, early support bundles) hold bare arrays of objects without kind. The
 * object's own selfLink names its resource; failing that, the path does (deployments/ns.json, Pods.json).
 */
function inferType(item: Record<string, unknown>, path: string): {apiVersion: string; kind: string} | undefined {
  const selfLink = (item.metadata as {selfLink?: unknown} | undefined)?.selfLink
  const m = typeof selfLink === 'string' ? /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(?:namespaces\/[^/]+\/)?([a-z0-9]+)\/[^/]+$/.exec(selfLink) : null
  if (m) {
    const group = m[2] ?? ''
    const version = m[1] ?? m[3]
    const t = BUILTIN_KINDS.find((k) => k.resource === m[4] && (k.group === group || (group === 'extensions' && k.group === 'apps')))
    if (t) return {apiVersion: group === '' ? version : `${group}/${version}`, kind: t.kind}
  }
  for (const segment of path.split(/[\\/]/).reverse()) {
    const word = segment.replace(/\.(json|ya?ml)(\.gz)?$/i, '').toLowerCase()
    const t = BUILTIN_KINDS.find((k) => k.resource === word)
    if (t) return {apiVersion: apiVersionOf(t), kind: t.kind}
  }
  return undefined
}

/** Receives one input's documents from a stream reader (JSON or YAML) and hands out its objects. */
export class DocumentCollector implements JsonStreamSink {
  /** Documents that were lists (an empty List is a valid answer: no objects). */
  lists = 0
  documents = 0
  objects = 0
  readonly inferredKinds = new Set<string>()
  private itemKind: string | undefined
  private itemApiVersion: string | undefined
  private pending: {item: Record<string, unknown>; where: string}[] = []
  private seen: ListSeen | undefined

  constructor(
    private readonly out: DocumentsOut,
    private readonly path: string,
    private readonly strict: boolean,
  ) {}

  private fatal(what: string, reason: string): void {
    if (this.strict) throw new UserError(`${what}: ${reason}`, 'every item of a snapshot must be a Kubernetes object with apiVersion, kind and metadata')
    this.out.problem({what, reason, fatal: true, leftOut: true})
  }

  /** The header (or trailer), once its members are of the types kubectl-why writes; else a problem (in a directory) or one line. */
  private header(h: Record<string, unknown>, where: string, name: 'kubectlWhy' | 'kubectlWhyTrailer' = 'kubectlWhy'): void {
    const bad = headerProblem(h, name)
    if (bad === undefined) {
      if (name === 'kubectlWhy') this.out.header(h as unknown as SnapshotHeader)
      else this.out.trailer(h as Pick<SnapshotHeader, 'problems' | 'gaps'>)
      return
    }
    if (this.strict) throw new UserError(`${where}: ${bad}`, `capture the snapshot again, or remove its ${name} member to read the objects alone`)
    this.out.problem({what: where, reason: `${bad}: the ${name === 'kubectlWhy' ? 'header' : 'trailer'} is not read`})
  }

  listStart(envelope: Record<string, unknown>, where = this.path): void {
    if (isObject(envelope.kubectlWhy)) this.header(envelope.kubectlWhy, where)
    this.typing(envelope)
    this.seen = {
      kind: typeof envelope.kind === 'string' ? envelope.kind : undefined,
      apiVersion: typeof envelope.apiVersion === 'string' ? envelope.apiVersion : undefined,
      items: 0,
      namespaces: new Set(),
    }
  }

  /** A typed list (PodList) written by client-go leaves kind and apiVersion off its items. */
  private typing(envelope: Record<string, unknown>): void {
    const kind = envelope.kind
    this.itemKind = typeof kind === 'string' && kind.endsWith('List') && kind !== 'List' ? kind.slice(0, -'List'.length) : undefined
    this.itemApiVersion = this.itemKind === undefined || typeof envelope.apiVersion !== 'string' ? undefined : envelope.apiVersion
  }

  item(value: unknown, where: string): void {
    if (this.seen) this.seen.items++
    if (isObject(value) && value.kind === undefined) {
      if (this.itemKind === undefined) {
        // The list's kind may follow its items (kubectl sorts keys: apiVersion, items, kind): wait for it.
        this.pending.push({item: value, where})
        return
      }
      value.kind = this.itemKind
      if (value.apiVersion === undefined && this.itemApiVersion !== undefined) value.apiVersion = this.itemApiVersion
    }
    this.collectItem(value, where)
  }

  documentEnd(doc: unknown, hadItems: boolean, where: string): void {
    this.documents++
    if (hadItems && isObject(doc)) {
      this.lists++
      if (this.itemKind === undefined) this.typing(doc)
      for (const p of this.pending) {
        if (this.itemKind !== undefined) {
          p.item.kind = this.itemKind
          if (p.item.apiVersion === undefined && this.itemApiVersion !== undefined) p.item.apiVersion = this.itemApiVersion
        }
        this.collectItem(p.item, p.where)
      }
      this.pending = []
      if (isObject(doc.kubectlWhy)) this.header(doc.kubectlWhy, where)
      if (isObject(doc.kubectlWhyTrailer)) this.header(doc.kubectlWhyTrailer, where, 'kubectlWhyTrailer')
      if (this.seen) {
        this.seen.kind ??= typeof doc.kind === 'string' ? doc.kind : undefined
        this.seen.apiVersion ??= typeof doc.apiVersion === 'string' ? doc.apiVersion : undefined
        this.out.list?.(this.seen, where)
      }
      if (typeof doc.kind === 'string' && !doc.kind.endsWith('List')) {
        this.out.problem({what: where, reason: `a ${doc.kind} with an "items" member was read as a list`})
      }
    } else {
      this.collect(doc, where)
    }
    this.seen = undefined
    this.itemKind = undefined
    this.itemApiVersion = undefined
  }

  /** A whole document (not streamed as a list): a single object, a List with inline items, an array, a version record. */
  private collect(doc: unknown, where: string): void {
    if (Array.isArray(doc)) {
      this.lists++
      for (let i = 0; i < doc.length; i++) this.collectItem(doc[i], `${where}[${i}]`)
      return
    }
    if (!isObject(doc)) {
      this.fatal(where, `not a Kubernetes object or list (a ${typeName(doc)})`)
      return
    }
    if (isServerVersion(doc)) {
      this.out.serverVersion(doc, where)
      return
    }
    // troubleshoot's cluster-info/cluster_version.json: {"info": {major, minor, gitVersion...}, "string": "v1.23.5"}
    if (isObject(doc.info) && isServerVersion(doc.info)) {
      this.out.serverVersion(doc.info, where)
      return
    }
    // Go writes an empty typed list as "items": null.
    if (typeof doc.kind === 'string' && doc.kind.endsWith('List') && (doc.items === null || doc.items === undefined)) {
      this.lists++
      this.out.list?.({kind: doc.kind, apiVersion: typeof doc.apiVersion === 'string' ? doc.apiVersion : undefined, items: 0, namespaces: new Set()}, where)
      return
    }
    if (Array.isArray(doc.items) && (doc.kind === undefined || String(doc.kind).endsWith('List'))) {
      this.listStart(doc)
      for (let i = 0; i < doc.items.length; i++) this.item(doc.items[i], `${where} items[${i}]`)
      this.documentEnd({...doc, items: undefined, kubectlWhy: undefined}, true, where)
      this.documents--
      return
    }
    this.collectItem(doc, where)
  }

  private collectItem(item: unknown, where: string): void {
    if (!isObject(item)) {
      this.fatal(where, `not an object (a ${typeName(item)})`)
      return
    }
    // Read by JSON.parse at any depth; what serialises and hashes it later recurses (src/util/json.ts, MAX_DEPTH).
    if (tooDeep(item)) {
      this.fatal(where, `nested deeper than ${MAX_DEPTH} levels (no Kubernetes object nests that deep)`)
      return
    }
    // A List inside a List (kubectl get -o json of several lists, joined by a script): its items count.
    const nested =
      Array.isArray(item.items) && (typeof item.kind === 'string' ? item.kind.endsWith('List') : !isObject(item.metadata) || item.metadata.name === undefined)
    if (nested) {
      const saved = {kind: this.itemKind, apiVersion: this.itemApiVersion, seen: this.seen, pending: this.pending}
      this.pending = []
      this.collect(item, where)
      this.documents--
      this.itemKind = saved.kind
      this.itemApiVersion = saved.apiVersion
      this.seen = saved.seen
      this.pending = saved.pending
      return
    }
    if (item.kind === undefined && isObject(item.metadata)) {
      const inferred = inferType(item, this.path)
      if (inferred) {
        item.kind = inferred.kind
        item.apiVersion ??= inferred.apiVersion
        this.inferredKinds.add(inferred.kind)
      }
    }
    if (typeof item.kind !== 'string' || item.kind === '') {
      this.out.problem({
        what: where,
        reason: item.kind === undefined || item.kind === '' ? 'an object without "kind"' : `"kind" is a ${typeName(item.kind)}, want a string`,
        leftOut: true,
      })
      return
    }
    const proper = KIND_BY_LOWER.get(item.kind.toLowerCase())
    if (proper !== undefined && proper !== item.kind) {
      this.out.problem({what: where, reason: `kind "${item.kind}" is not a Kubernetes kind: kinds are case-sensitive (${proper})`, leftOut: true})
      return
    }
    if (!isObject(item.metadata)) {
      this.out.problem({
        what: where,
        reason:
          item.metadata === undefined ? `a ${item.kind} without "metadata"` : `a ${item.kind} whose "metadata" is a ${typeName(item.metadata)}, want an object`,
        leftOut: true,
      })
      return
    }
    if (typeof item.apiVersion !== 'string') {
      this.out.problem({
        what: where,
        reason:
          item.apiVersion === undefined
            ? `a ${item.kind} without "apiVersion"`
            : `a ${item.kind} whose "apiVersion" is a ${typeName(item.apiVersion)}, want a string`,
        leftOut: true,
      })
      return
    }
    if (this.seen && typeof item.metadata.namespace === 'string') this.seen.namespaces.add(item.metadata.namespace)
    this.objects++
    this.out.object(item as KubeObject, where)
  }

  /** Once the input is read: what was inferred is said. */
  finish(where: string): void {
    if (this.inferredKinds.size > 0)
      this.out.problem({what: where, reason: `items without kind: taken as ${[...this.inferredKinds].join(', ')} from their selfLink or the file's path`})
  }
}
