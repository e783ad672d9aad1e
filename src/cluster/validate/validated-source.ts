// The boundary: every source is wrapped in this one when it is opened (cluster/open.ts), so whatever a live cluster,
// a dump or the audit's gathering hands the engines has the shape the checks read (kinds.ts). An object that does not
// is left out, reported once as a Problem naming it and the field (which makes every answer partial), and never
// reaches an engine; a single read of one answers "unreadable", not "not found": the garbage collector must not take
// a malformed owner for a deleted one.
import {ReadError, UserError} from '../../errors.js'
import type {Evidence, Problem, SourceDescription} from '../../explanation.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult, ResourceType, ServerVersion} from '../source.js'
import {any, boolean, list, mismatchText, name, object, required, string} from './shape.js'
import {fitsFirst, mismatchOf, nameOf} from './validate-object.js'
import {stringifyJson} from '../../util/json.js'

const LEFT_OUT = 'left out of the replay'

const resourceType = object({
  group: required(string),
  version: required(name),
  kind: required(name),
  resource: required(name),
  namespaced: required(boolean),
  verbs: required(list(string)),
  shortNames: list(string),
  singularName: string,
})
const serverVersion = object({major: required(string), minor: required(string), gitVersion: required(string), platform: any})

export class ValidatedSource implements ClusterSource {
  /**
   * Objects found not to fit, with their problem: reported once however often they are listed. Objects that fit are
   * not remembered: checking one again costs a few microseconds, an entry for each of 300,000 objects costs memory.
   */
  private readonly refused = new WeakMap<object, Problem>()
  private readonly invalid: Problem[] = []
  /** The problems of `invalid` that are objects left out (the others: the version, discovery, the namespace). */
  private readonly objects = new WeakSet<Problem>()
  private version: {value: ServerVersion | undefined} | undefined
  private types: {from: ResourceType[]; kept: ResourceType[]} | undefined
  private namespace: string | undefined
  readonly evidence?: () => Promise<Evidence>
  readonly close?: () => Promise<void>
  /** The kubelet's endpoints through the node proxy, passed through (no object to validate: the caller parses it). */
  readonly nodeProxyGet?: (node: string, path: 'configz') => Promise<unknown>
  /** The server-side Table, passed through: its rows are cells and metadata, which the caller reads as such. */
  readonly listTable?: ClusterSource['listTable']

  private constructor(private readonly inner: ClusterSource) {
    if (inner.nodeProxyGet) this.nodeProxyGet = (node, path) => inner.nodeProxyGet!(node, path)
    if (inner.listTable) this.listTable = (request) => inner.listTable!(request)
    if (inner.evidence) this.evidence = () => inner.evidence!()
    if (inner.close) this.close = () => inner.close!()
  }

  /** The source, checked; a clock that is not an instant (a snapshot's capture time that does not parse) is refused. */
  static wrap(inner: ClusterSource): ValidatedSource {
    if (Number.isNaN(inner.now().getTime())) {
      throw new UserError(
        "the snapshot's capture time (kubectlWhy.capturedAt) is not an RFC 3339 time",
        'fix it in the file, or pass --now 2026-11-29T03:00:00Z',
      )
    }
    return new ValidatedSource(inner)
  }

  /**
   * The object when it fits its shape; otherwise undefined, and the problem recorded once. `at` says where it was (an
   * index in the list, or -1 for a single read) and is turned into words only for a misfit.
   */
  private check(o: KubeObject, kind: string, at: number): KubeObject | undefined {
    if (this.refused.has(o)) return undefined
    const m = mismatchOf(o)
    if (m === undefined) return o
    const problem = {what: nameOf(o, at < 0 ? `the ${kind} read` : `item ${at} of the ${kind} list`), reason: `${mismatchText(m)}; ${LEFT_OUT}`}
    this.refused.set(o, problem)
    this.invalid.push(problem)
    this.objects.add(problem)
    return undefined
  }

  private keep(items: KubeObject[], request: ListRequest, offset = 0): KubeObject[] {
    let kept: KubeObject[] | undefined
    for (let i = 0; i < items.length; i++) {
      const o = this.check(items[i], request.kind, offset + i)
      if (o === undefined) kept ??= items.slice(0, i)
      else kept?.push(o)
    }
    return kept ?? items
  }

  /** What the source itself left out, and the objects this boundary did. */
  leftOut(): Problem[] {
    return [...(this.inner.leftOut?.() ?? []), ...this.invalid.filter((p) => this.objects.has(p))]
  }

  describe(): SourceDescription {
    return {...this.inner.describe(), partial: this.problems()}
  }

  async serverVersion(): Promise<ServerVersion | undefined> {
    if (!this.version) {
      const v = await this.inner.serverVersion()
      const m = v === undefined ? undefined : serverVersion(v)
      if (m) this.invalid.push({what: 'the server version', reason: `${mismatchText(m)}; the version is taken as unknown`, hint: 'pass --k8s-version X.Y'})
      this.version = {value: m ? undefined : v}
    }
    return this.version.value
  }

  async discovery(): Promise<ResourceType[]> {
    const from = await this.inner.discovery()
    if (this.types?.from !== from) {
      const kept: ResourceType[] = []
      from.forEach((t, i) => {
        const m = resourceType(t)
        if (m) this.invalid.push({what: `resource type ${i} of the discovery`, reason: `${mismatchText(m)}; its objects cannot be read`})
        else kept.push(t)
      })
      this.types = {from, kept: kept.length === from.length ? from : kept}
    }
    return this.types.kept
  }

  async get(request: GetRequest): Promise<KubeObject | undefined> {
    const o = await this.inner.get(request)
    if (o === undefined || this.check(o, request.kind, -1)) return o
    const why = this.refused.get(o)!
    throw new ReadError('BadResponse', `${why.what} cannot be read: ${why.reason.replace(`; ${LEFT_OUT}`, '')}`, {
      hint: 'its shape is not what the API server serves; it is left out of the replay',
    })
  }

  async list(request: ListRequest): Promise<ListResult> {
    const r = await this.inner.list(projectedIfFits(request))
    const items = this.keep(r.items, request)
    return items === r.items ? r : {...r, items}
  }

  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    let offset = 0
    for await (const page of this.inner.pages(projectedIfFits(request))) {
      yield this.keep(page, request, offset)
      offset += page.length
    }
  }

  defaultNamespace(): string {
    if (this.namespace === undefined) {
      const ns: unknown = this.inner.defaultNamespace()
      if (typeof ns === 'string' && ns !== '') this.namespace = ns
      else {
        this.namespace = 'default'
        this.invalid.push({
          what: 'the recorded namespace',
          reason: `it is ${stringifyJson(ns)}, not a namespace name; "default" is used`,
          hint: 'pass -n NAMESPACE',
        })
      }
    }
    return this.namespace
  }

  now(): Date {
    return this.inner.now()
  }

  problems(): Problem[] {
    return [...this.inner.problems(), ...this.invalid]
  }
}

/** The request with its projection applied only to objects that fit: a misfit reaches keep() whole, to be named. */
function projectedIfFits(request: ListRequest): ListRequest {
  return request.project ? {...request, project: fitsFirst(request.project)} : request
}
