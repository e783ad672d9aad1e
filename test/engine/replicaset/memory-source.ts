// A ClusterSource over objects in memory, for the driver's tests: one view (no cache lag), GETs and lists filtered
// by namespace and label selector as the API server does; every request is recorded.
import {parseFieldSelector, parseLabelSelector} from '../../../src/cluster/selectors.js'
import type {ClusterSource, GetRequest, KubeObject, ListRequest, ListResult} from '../../../src/cluster/source.js'

export class MemorySource implements ClusterSource {
  readonly requests: string[] = []
  constructor(
    private readonly objects: KubeObject[],
    private readonly clock: Date,
  ) {}
  describe() {
    return {mode: 'snapshot' as const, file: 'memory'}
  }
  async serverVersion() {
    return undefined
  }
  async discovery() {
    return []
  }
  async get(r: GetRequest): Promise<KubeObject | undefined> {
    this.requests.push(`get ${r.kind} ${r.namespace ?? ''}/${r.name} ${r.view ?? ''}`)
    return this.objects.find((o) => o.kind === r.kind && o.metadata?.name === r.name && (r.namespace === undefined || o.metadata?.namespace === r.namespace))
  }
  async list(r: ListRequest): Promise<ListResult> {
    this.requests.push(`list ${r.kind} ${r.namespace ?? '*'} ${r.view ?? ''}${r.labelSelector ? ` ${r.labelSelector}` : ''}`)
    const labels = r.labelSelector ? parseLabelSelector(r.labelSelector) : undefined
    const fields = r.fieldSelector ? parseFieldSelector(r.fieldSelector) : undefined
    const items = this.objects.filter(
      (o) =>
        o.kind === r.kind &&
        (r.namespace === undefined || o.metadata?.namespace === r.namespace) &&
        (!labels || labels(o.metadata?.labels)) &&
        (!fields || fields(o)),
    )
    return {items: r.metadataOnly ? items.map((o) => ({apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata})) : items}
  }
  async *pages(r: ListRequest): AsyncIterable<KubeObject[]> {
    yield (await this.list(r)).items
  }
  defaultNamespace() {
    return 'default'
  }
  now() {
    return this.clock
  }
  problems() {
    return []
  }
}
