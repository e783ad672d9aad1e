// A ClusterSource over objects in memory, for driving the gc driver without the CLI: it answers as an API server does
// (an owner of any served version of its resource, by group/resource/namespace/name), pages lists, and injects the
// faults the driver must survive: 410 Gone on a continue page, 403 on a list or a GET, a reset connection on a GET.
import {apiVersionOf, BUILTIN_KINDS, splitApiVersion} from '../../../src/cluster/builtin-kinds.js'
import type {Evidence} from '../../../src/explanation.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult, ResourceType} from '../../../src/cluster/source.js'
import {ReadError} from '../../../src/errors.js'

export interface MemoryFaults {
  /** kind → how many times a list of it fails with 410 on its second page. */
  goneOnList?: Record<string, number>
  /** kind → status its lists fail with (403 Forbidden). */
  forbidList?: Record<string, number>
  /** "Kind/name" → how many GETs of it fail with a reset connection first. */
  resetOnGet?: Record<string, number>
}

export class MemorySource implements ClusterSource {
  readonly gets: GetRequest[] = []
  readonly lists: ListRequest[] = []
  evidence?: () => Promise<Evidence>

  constructor(
    private readonly objects: readonly KubeObject[],
    private readonly opts: {types?: ResourceType[]; faults?: MemoryFaults; evidence?: Evidence; now?: string; mode?: 'live' | 'snapshot'} = {},
  ) {
    if (opts.evidence) this.evidence = async () => opts.evidence!
  }

  describe() {
    return {mode: this.opts.mode ?? 'snapshot', file: 'memory'}
  }

  async serverVersion() {
    return undefined
  }

  async discovery(): Promise<ResourceType[]> {
    return this.opts.types ?? [...BUILTIN_KINDS]
  }

  private resourceOf(apiVersion: string | undefined, kind: string): string | undefined {
    const {group} = splitApiVersion(apiVersion ?? 'v1')
    return (this.opts.types ?? BUILTIN_KINDS).find((t) => t.group === group && t.kind === kind)?.resource
  }

  private matches(o: KubeObject, apiVersion: string | undefined, kind: string): boolean {
    return o.kind === kind && splitApiVersion(o.apiVersion ?? '').group === splitApiVersion(apiVersion ?? 'v1').group
  }

  async get(request: GetRequest): Promise<KubeObject | undefined> {
    this.gets.push(request)
    const key = `${request.kind}/${request.name}`
    const resets = this.opts.faults?.resetOnGet
    if (resets?.[key]) {
      resets[key]--
      throw new ReadError('Unreachable', 'socket hang up (ECONNRESET)')
    }
    if (!this.resourceOf(request.apiVersion, request.kind))
      throw new ReadError('NotServed', `${request.apiVersion} ${request.kind} is not served`, {status: 404})
    const o = this.objects.find(
      (x) =>
        this.matches(x, request.apiVersion, request.kind) &&
        x.metadata?.name === request.name &&
        (x.metadata?.namespace ?? undefined) === (request.namespace ?? undefined),
    )
    if (!o) return undefined
    // The API server answers at the version asked for (it converts between served versions).
    return {...structuredClone(o), ...(request.apiVersion ? {apiVersion: request.apiVersion} : {})}
  }

  async list(request: ListRequest): Promise<ListResult> {
    const items: KubeObject[] = []
    for await (const page of this.pages(request)) items.push(...page)
    return {items}
  }

  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    this.lists.push(request)
    const forbidden = this.opts.faults?.forbidList?.[request.kind]
    if (forbidden) throw new ReadError('Forbidden', `${request.kind} is forbidden`, {status: forbidden})
    const all = this.objects
      .filter((o) => this.matches(o, request.apiVersion, request.kind) && (request.namespace === undefined || o.metadata?.namespace === request.namespace))
      .map((o) => ({...structuredClone(o), apiVersion: request.apiVersion ?? o.apiVersion}))
    const size = request.pageSize ?? 500
    for (let i = 0; i < Math.max(all.length, 1); i += size) {
      const gone = this.opts.faults?.goneOnList
      if (i > 0 && gone?.[request.kind]) {
        gone[request.kind]--
        throw new ReadError('Gone', 'The provided continue parameter is too old to display a consistent list result.', {status: 410})
      }
      yield all.slice(i, i + size)
    }
  }

  defaultNamespace(): string {
    return 'default'
  }

  now(): Date {
    return new Date(this.opts.now ?? '2026-11-29T10:00:00Z')
  }

  problems() {
    return []
  }
}

/** A foreign dump's evidence: it proves presence only; kinds it holds no object of are "not in the data". */
export function foreignDumpEvidence(objects: readonly KubeObject[], opts: {servedVersions?: string[]} = {}): Evidence {
  const held = new Map<string, number>()
  const versions = new Set<string>()
  for (const o of objects) {
    const {group} = splitApiVersion(o.apiVersion ?? '')
    held.set(`${group}/${o.kind}`, (held.get(`${group}/${o.kind}`) ?? 0) + 1)
    if (o.apiVersion) versions.add(o.apiVersion)
  }
  return {
    kinds: [...held].map(([k, count]) => ({
      group: k.slice(0, k.lastIndexOf('/')),
      kind: k.slice(k.lastIndexOf('/') + 1),
      coverage: 'all',
      absenceIsProof: false,
      from: 'objects in the dump',
      count,
    })),
    coverage(group, kind) {
      const n = held.get(`${group}/${kind}`) ?? 0
      return {held: n > 0, absenceIsProof: false, why: n > 0 ? `the data is not known to hold every ${kind}` : `the data holds no ${kind}`}
    },
    servedVersions: opts.servedVersions ?? [...versions],
    nodeLeases: 'absent',
    nodeSet: 'partial',
    clock: {at: '2026-11-29T10:00:00Z', from: 'test', trust: 'estimated'},
    missing: [],
  }
}

export {apiVersionOf}
