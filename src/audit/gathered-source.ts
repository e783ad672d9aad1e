// A ClusterSource that answers from what the audit has gathered, so that a replay written against a source (the hash
// check reuses `kubectl why hash --all`'s own reading code, src/engine/workloads/drive.ts) runs over the one
// read of each kind, sending no request of its own. Lists are answered from the gathered list that covers them (its
// view, whatever the request asks: the audit reads by quorum); a kind the audit did not read, or could not, fails the
// way the read failed. Single-object reads go to the real source.
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import type {Evidence, Problem, SourceDescription} from '../explanation.js'
import {inPages} from '../cluster/read.js'
import {resolveKind} from '../cluster/resolve.js'
import {parseFieldSelector, parseLabelSelector} from '../cluster/selectors.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult, ResourceType, ServerVersion} from '../cluster/source.js'
import {ReadError} from '../errors.js'
import type {CheckContext} from './context.js'
import type {ListOutcome} from './gather.js'
import {typeKey} from './plan.js'

const metadataOf = (o: KubeObject): KubeObject => ({apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata})

export class GatheredSource implements ClusterSource {
  /** The audit's evidence when it has some (a dump); absent, like a live source's. */
  readonly evidence?: () => Promise<Evidence>

  constructor(
    private readonly ctx: CheckContext,
    private readonly real: Pick<ClusterSource, 'serverVersion' | 'describe' | 'defaultNamespace'>,
  ) {
    const evidence = (ctx as {evidence?: Evidence}).evidence
    if (evidence) this.evidence = async () => evidence
  }

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
    const selected = this.select(request)
    const {outcomes, keep, metadataOnly} = selected
    let items = outcomes.length === 1 ? outcomes[0].items : outcomes.flatMap((o) => o.items)
    if (keep) items = items.filter(keep)
    if (metadataOnly) items = items.map(metadataOf)
    // Every namespace's lists together have no one resourceVersion.
    return 'resourceVersion' in selected ? {items, resourceVersion: selected.resourceVersion} : {items}
  }

  /**
   * The gathered lists that answer a request (one, or every namespace's of a kind: CheckContext.wholeGathered), and
   * which of their objects it asks for; throws as the read of them failed.
   */
  private select(request: ListRequest): {outcomes: ListOutcome[]; keep?: (o: KubeObject) => boolean; metadataOnly: boolean; resourceVersion?: string} {
    const t = resolveKind(this.ctx.types, request)
    if (!t) throw new ReadError('NotServed', `the API server does not serve ${request.apiVersion ?? ''} ${request.kind}`.replace('  ', ' '), {status: 404})
    const namespace = t.namespaced ? request.namespace : undefined
    const labels = request.labelSelector ? parseLabelSelector(request.labelSelector) : undefined
    const fields = request.fieldSelector ? parseFieldSelector(request.fieldSelector) : undefined
    const metadataOnly = request.metadataOnly === true
    const key = typeKey(t)
    if (namespace === undefined && t.namespaced && this.ctx.wholeGathered) {
      // Every namespace's list of a kind the audit read; not when one list has them all.
      const lists = [...this.ctx.gathered.outcomes.values()].filter((o) => typeKey(o.list.type) === key && o.list.labelSelector === undefined)
      if (lists.length > 0 && !lists.some((o) => o.list.namespace === undefined)) {
        const failed = lists.find((o) => o.error)
        if (failed) throw failed.error
        return {outcomes: lists, keep: labels || fields ? (o) => (!labels || labels(o.metadata?.labels)) && (!fields || fields(o)) : undefined, metadataOnly}
      }
    }
    // A list read with a label selector answers a request with that same selector (the controller-manager's pods).
    // The list read for exactly this request first: a wider one (every pod) would serve it too, but is the larger
    // to take back when the audit keeps it compressed (gather.ts forCheck).
    const outcomes = [...this.ctx.gathered.outcomes.values()].filter((o) => typeKey(o.list.type) === key)
    const outcome =
      outcomes.find((o) => o.list.labelSelector === request.labelSelector && o.list.namespace === namespace && request.labelSelector !== undefined) ??
      outcomes.find(
        (o) =>
          (o.list.labelSelector === undefined || o.list.labelSelector === request.labelSelector) &&
          (o.list.namespace === undefined || o.list.namespace === namespace),
      )
    if (!outcome) throw new ReadError('NotServed', `the audit did not read ${apiVersionOf(t)} ${t.kind}${namespace ? ` in ${namespace}` : ''}`)
    if (outcome.error) throw outcome.error
    const keep =
      (namespace !== undefined && outcome.list.namespace === undefined) || labels || fields
        ? (o: KubeObject) =>
            (namespace === undefined || o.metadata?.namespace === namespace) && (!labels || labels(o.metadata?.labels)) && (!fields || fields(o))
        : undefined
    return {outcomes: [outcome], keep, metadataOnly, resourceVersion: outcome.resourceVersion}
  }

  async *pages(request: ListRequest): AsyncIterable<KubeObject[]> {
    // In pages of the size asked, as a server would: readers spread a page into arrays (150,000 at once overflow the
    // stack). A compressed list is taken back a chunk at a time (gather.ts ListOutcome.chunks): the reader holds what
    // it makes of the objects, not the list whole as well.
    const {outcomes, keep, metadataOnly} = this.select(request)
    const chunks = function* () {
      for (const o of outcomes) yield* o.chunks ? o.chunks() : [o.items]
    }
    yield* inPages(chunks(), request.pageSize ?? 500, keep, metadataOnly ? metadataOf : undefined)
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
