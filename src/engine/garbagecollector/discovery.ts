// The collector's view of the API: the RESTMapper (exact group/version/kind → resource and scope) and
// the monitored set (GetDeletableResources minus the ignored resources).
import {removedIn, servedAtRelease} from '../../cluster/api-lifecycle.js'
import {splitApiVersion} from '../../cluster/builtin-kinds.js'
import {typeOfGroupKind} from '../../cluster/resolve.js'
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

/**
 * Discovery the data did not record (a dump's kinds are the built-in ones plus what its objects show): a version it
 * omits may still be served. `minor` is the cluster's 1.x release when known.
 */
export interface InferredDiscovery {
  minor?: number
  /** API groups the data's CustomResourceDefinitions define: their served versions are in the data. */
  customGroups: readonly string[]
}

/** The oldest release this tool models (the hash layouts, ../shared/k8s-hash: 1.20 on). */
const OLDEST_MODELLED_MINOR = 20

/** Whether a group/version/kind the REST mapping does not find is proven unserved, and why. */
export interface Unmapped {
  proven: boolean
  why: string
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
    private readonly inferred?: InferredDiscovery,
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
    if (!this.served.has(group === '' ? version : `${group}/${version}`) && !this.servedAtRelease(apiVersion, kind)) return undefined
    const other = typeOfGroupKind(this.types, group, kind)
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

  /**
   * A built-in kind at a non-preferred version, with discovery inferred: served when the deprecation guide lists it
   * served in every release, or removed after the cluster's (known) release.
   */
  private servedAtRelease(apiVersion: string, kind: string): boolean {
    return this.inferred !== undefined && servedAtRelease(apiVersion, kind, this.inferred.minor)
  }

  /**
   * Why restMapping found nothing, and whether that is proven: discovery read live or recorded lists every served
   * version; inferred discovery proves a version unserved only by the deprecation guide's removal before the
   * cluster's release (or before every release modelled), or by a CustomResourceDefinition in the data that does not
   * serve it. Anything else is not in the data: the collector may map it.
   */
  unmapped(apiVersion: string, kind: string): Unmapped {
    const gvk = `${apiVersion}/${kind}`
    if (!this.inferred) return {proven: true, why: `the API's discovery does not list ${gvk}`}
    const removed = removedIn(apiVersion, kind)
    const minor = this.inferred.minor
    if (removed !== undefined && minor !== undefined && minor >= removed)
      return {proven: true, why: `${gvk} was removed in Kubernetes 1.${removed} (Deprecated API Migration Guide) and this cluster runs 1.${minor}`}
    if (removed !== undefined && removed <= OLDEST_MODELLED_MINOR)
      return {
        proven: true,
        why: `${gvk} was removed in Kubernetes 1.${removed} (Deprecated API Migration Guide), before every release this tool models (1.${OLDEST_MODELLED_MINOR} on)`,
      }
    if (this.inferred.customGroups.includes(splitApiVersion(apiVersion).group))
      return {proven: true, why: `the CustomResourceDefinition in the data does not serve ${gvk}`}
    const release = minor === undefined ? "the cluster's version is not in the data either" : `its release (1.${minor}) does not settle it`
    return {
      proven: false,
      why: `the data records no API discovery, so whether ${gvk} is served is not in it (${release}); a ${removed !== undefined ? `version removed in 1.${removed}` : 'version the built-in kinds do not list'} may still be served`,
    }
  }

  private anyVersion(apiVersion: string, kind: string): Mapping | undefined {
    const {group} = splitApiVersion(apiVersion)
    const t = typeOfGroupKind(this.types, group, kind)
    return t && {group: t.group, version: t.version, kind: t.kind, resource: t.resource, namespaced: t.namespaced}
  }
}
