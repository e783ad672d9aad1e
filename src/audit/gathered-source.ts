// A ClusterSource that answers from what the audit has gathered, so that a replay written against a source (the hash
// check reuses `kubectl why hash --all`'s own reading code, src/commands-support/hash-workload.ts) runs over the one
// read of each kind, sending no request of its own. Lists are answered from the gathered list that covers them (its
// view, whatever the request asks: the audit reads by quorum); a kind the audit did not read, or could not, fails the
// way the read failed. Single-object reads go to the real source.
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import {resolveKind} from '../cluster/resolve.js'
import {parseFieldSelector, parseLabelSelector} from '../cluster/selectors.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult, ResourceType, ServerVersion} from '../cluster/source.js'
import {ReadError} from '../errors.js'
import type {Problem, SourceDescription} from '../explanation.js'
import type {CheckContext} from './context.js'
import {typeKey} from './plan.js'

export class GatheredSource implements ClusterSource {
  constructor(private readonly ctx: CheckContext, private readonly real: Pick<ClusterSource, 'serverVersion' | 'describe' | 'defaultNamespace'>) {}

  describe(): SourceDescription {
    return this.real.describe()
  }

  serverVersion(): Promise<ServerVersion | undefined> {
    return this.real.serverVersion()
  }

  async discovery(): Promise<ResourceType[]> {
    return [...this.ctx.types]
  }

  get(request: GetRequest): Promise<KubeObject | undefined> {
    return this.ctx.get(request)
  }

  async list(request: ListRequest): Promise<ListResult> {
    const t = resolveKind(this.ctx.types, request)
    if (!t) throw new ReadError('NotServed', `the API server does not serve ${request.apiVersion ?? ''} ${request.kind}`.replace('  ', ' '), {status: 404})
    const namespace = t.namespaced ? request.namespace : undefined
    const outcome = [...this.ctx.gathered.outcomes.values()].find((o) => typeKey(o.list.type) === typeKey(t) && o.list.labelSelector === undefined
      && (o.list.namespace === undefined || o.list.namespace === namespace))
    if (!outcome) throw new ReadError('NotServed', `the audit did not read ${apiVersionOf(t)} ${t.kind}${namespace ? ` in ${namespace}` : ''}`)
    if (outcome.error) throw outcome.error
    const labels = request.labelSelector ? parseLabelSelector(request.labelSelector) : undefined
    const fields = request.fieldSelector ? parseFieldSelector(request.fieldSelector) : undefined
    let items = outcome.items
    if ((namespace !== undefined && outcome.list.namespace === undefined) || labels || fields) {
      items = items.filter((o) => (namespace === undefined || o.metadata?.namespace === namespace) && (!labels || labels(o.metadata?.labels)) && (!fields || fields(o)))
    }
    if (request.metadataOnly) items = items.map((o) => ({apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata}))
    return {items, resourceVersion: outcome.resourceVersion}
  }

  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    yield (await this.list(request)).items
  }

  defaultNamespace(): string {
    return this.real.defaultNamespace()
  }

  now(): Date {
    return this.ctx.now
  }

  problems(): Problem[] {
    return []
  }
}
