// The collector's view of the API: the RESTMapper (exact group/version/kind → resource and scope) and
// the monitored set (GetDeletableResources minus the ignored resources).
import {splitApiVersion} from '../../cluster/builtin-kinds.js'
import type {ResourceType} from '../../cluster/source.js'

/** DefaultIgnoredResources (cmd/kube-controller-manager/app/options/options.go:208-213): group/resource. */
export const DEFAULT_IGNORED_RESOURCES: readonly string[] = ['/events', 'events.k8s.io/events']

const DELETABLE_VERBS = ['delete', 'list', 'watch']

export interface Mapping {
  group: string
  version: string
  kind: string
  resource: string
  namespaced: boolean
}

export type MonitorStatus = {monitored: true; type: ResourceType} | {monitored: false; why: 'ignored' | 'verbs' | 'notServed'; type?: ResourceType}

export class GcDiscovery {
  private readonly byGvk = new Map<string, ResourceType>()
  /** group/resource → the type in the group's first-listed (preferred) version that serves it. */
  private readonly preferred = new Map<string, ResourceType>()
  private readonly ignored: Set<string>
  private readonly served: ReadonlySet<string>

  /**
   * `servedVersions`: group/versions the data shows served beyond discovery (objects present at that version, from
   * the source's evidence): a dump's discovery is inferred from its objects and the builtin kinds, so a version it
   * omits may still be served, and objects stored at it prove it is.
   */
  constructor(
    readonly types: readonly ResourceType[],
    ignoredResources: readonly string[] = DEFAULT_IGNORED_RESOURCES,
    servedVersions: readonly string[] = [],
  ) {
    this.ignored = new Set(ignoredResources)
    this.served = new Set(servedVersions)
    for (const t of types) {
      if (t.resource.includes('/')) continue
      const gvk = `${t.group}/${t.version}/${t.kind}`
      if (!this.byGvk.has(gvk)) this.byGvk.set(gvk, t)
      const gr = `${t.group}/${t.resource}`
      if (!this.preferred.has(gr)) this.preferred.set(gr, t)
    }
  }

  /**
   * RESTMapping(GroupKind{group of apiVersion, kind}, version of apiVersion) (operations.go:43-50): the exact
   * version named must be served; a served group with another version does not do.
   */
  restMapping(apiVersion: string, kind: string): Mapping | undefined {
    if (!apiVersion || !kind) return undefined
    const {group, version} = splitApiVersion(apiVersion)
    if (!version) return undefined
    const t = this.byGvk.get(`${group}/${version}/${kind}`)
    if (t) return {group: t.group, version: t.version, kind: t.kind, resource: t.resource, namespaced: t.namespaced}
    // A version the data shows served maps like its group's other versions of the kind: the RESTMapper of that server
    // maps it (upstream TestConflictingData, "good child -> existing owner with non-preferred accessible API version":
    // the collector GETs the owner at that version).
    if (!this.served.has(group === '' ? version : `${group}/${version}`)) return undefined
    const other = this.types.find((x) => x.group === group && x.kind === kind && !x.resource.includes('/'))
    return other && {group, version, kind, resource: other.resource, namespaced: other.namespaced}
  }

  /**
   * Whether the collector's graph watches this kind: the preferred version of its resource supports delete, list
   * and watch (GetDeletableResources, garbagecollector.go:831-860) and it is not ignored (graph_builder.go:203-205).
   */
  monitorStatus(apiVersion: string, kind: string): MonitorStatus {
    const m = this.restMapping(apiVersion, kind) ?? this.anyVersion(apiVersion, kind)
    if (!m) return {monitored: false, why: 'notServed'}
    const gr = `${m.group}/${m.resource}`
    const type = this.preferred.get(gr)
    if (!type) return {monitored: false, why: 'notServed'}
    if (this.ignored.has(gr)) return {monitored: false, why: 'ignored', type}
    if (!DELETABLE_VERBS.every((v) => type.verbs.includes(v))) return {monitored: false, why: 'verbs', type}
    return {monitored: true, type}
  }

  /** Every type the collector's graph watches: one per group/resource, in its preferred version. */
  monitoredTypes(): ResourceType[] {
    const out: ResourceType[] = []
    for (const [gr, type] of this.preferred) {
      if (this.ignored.has(gr)) continue
      if (DELETABLE_VERBS.every((v) => type.verbs.includes(v))) out.push(type)
    }
    return out
  }

  private anyVersion(apiVersion: string, kind: string): Mapping | undefined {
    const {group} = splitApiVersion(apiVersion)
    const t = this.types.find((x) => x.group === group && x.kind === kind && !x.resource.includes('/'))
    return t && {group: t.group, version: t.version, kind: t.kind, resource: t.resource, namespaced: t.namespaced}
  }
}
