// One LIST per kind (per namespace when the checks' scopes differ): every check's needs for a kind are served by
// the same read, in full when any check needs the whole object, metadata-only when metadata is all they read, in
// the watch-cache view only when a check needs that view itself (the node lifecycle controller's lease informer).
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import {resolveKind} from '../cluster/resolve.js'
import {parseLabelSelector} from '../cluster/selectors.js'
import type {KubeObject, ReadView, ResourceType} from '../cluster/source.js'
import type {GetNeed, ListNeed} from './needs.js'

export interface ResolvedNeed extends ListNeed {
  /** undefined when the source does not serve the kind. */
  type?: ResourceType
  /** The namespace this need reads; undefined: every namespace (or a cluster-scoped kind). */
  namespace?: string
  list?: PlannedList
}

export interface PlannedList {
  id: number
  type: ResourceType
  namespace?: string
  view: ReadView
  metadataOnly: boolean
  labelSelector?: string
  needs: ResolvedNeed[]
}

export interface ResolvedGet extends GetNeed {
  type?: ResourceType
}

export interface ReadPlan {
  lists: PlannedList[]
  needs: ResolvedNeed[]
  gets: ResolvedGet[]
}

export const typeKey = (t: {group: string; resource: string}): string => `${t.group}/${t.resource}`

export function describeList(l: {type: ResourceType; namespace?: string; labelSelector?: string}): string {
  return `${apiVersionOf(l.type)} ${l.type.kind}${l.namespace !== undefined ? ` in ${l.namespace}` : l.type.namespaced ? ' in all namespaces' : ''}${l.labelSelector ? ` (${l.labelSelector})` : ''}`
}

/** The biggest lists first: the whole run waits for the longest one, so it should start first. */
const FIRST = ['/pods', '/events', 'apps/replicasets', 'discovery.k8s.io/endpointslices', '/configmaps', 'batch/jobs']

/** Whether a list is of one of the kinds that are most of a cluster's objects (FIRST). */
export const largest = (l: {type: {group: string; resource: string}}): boolean => FIRST.includes(typeKey(l.type))

function namespaceOf(need: ListNeed, type: ResourceType, auditNamespace: string | undefined): string | undefined {
  if (!type.namespaced) return undefined
  if (need.scope === 'cluster') return undefined
  if (need.scope === 'audit') return auditNamespace
  return need.scope.namespace
}

export function planReads(needs: readonly ListNeed[], gets: readonly GetNeed[], types: readonly ResourceType[], auditNamespace: string | undefined): ReadPlan {
  const resolved: ResolvedNeed[] = needs.map((n) => {
    const type = resolveKind(types, n.ref)
    return type ? {...n, type, namespace: namespaceOf(n, type, auditNamespace)} : {...n}
  })
  const byType = new Map<string, ResolvedNeed[]>()
  for (const n of resolved) {
    if (!n.type) continue
    const k = typeKey(n.type)
    const group = byType.get(k)
    if (group) group.push(n)
    else byType.set(k, [n])
  }
  const lists: PlannedList[] = []
  const add = (type: ResourceType, namespace: string | undefined, labelSelector: string | undefined, covered: ResolvedNeed[]): void => {
    const list: PlannedList = {
      id: lists.length,
      type,
      namespace,
      labelSelector,
      needs: covered,
      view: covered.some((n) => n.view === 'cached') ? 'cached' : 'fresh',
      metadataOnly: covered.every((n) => n.detail === 'metadata'),
    }
    for (const n of covered) n.list = list
    lists.push(list)
  }
  for (const group of byType.values()) {
    const type = group[0].type!
    // A need over every namespace without a selector reads everything the others want: one list serves all.
    if (group.some((n) => n.namespace === undefined && n.labelSelector === undefined)) {
      add(type, undefined, undefined, group)
      continue
    }
    const byNamespace = new Map<string, ResolvedNeed[]>()
    for (const n of group) {
      const k = n.namespace ?? '\u0000all'
      byNamespace.set(k, [...(byNamespace.get(k) ?? []), n])
    }
    for (const sameNs of byNamespace.values()) {
      const ns = sameNs[0].namespace
      const selectors = new Set(sameNs.map((n) => n.labelSelector))
      if (selectors.has(undefined) || selectors.size === 1) add(type, ns, selectors.has(undefined) ? undefined : sameNs[0].labelSelector, sameNs)
      else
        for (const s of selectors)
          add(
            type,
            ns,
            s,
            sameNs.filter((n) => n.labelSelector === s),
          )
    }
  }
  const rank = (l: PlannedList) => {
    const i = FIRST.indexOf(typeKey(l.type))
    return i === -1 ? FIRST.length : i
  }
  lists.sort((a, b) => rank(a) - rank(b) || a.id - b.id)
  return {
    lists,
    needs: resolved,
    gets: gets.map((g) => {
      const type = resolveKind(types, g.ref)
      // A subresource GET needs get on "<resource>/<subresource>" (RBAC's spelling), not on the resource.
      return {...g, type: type && g.subresource ? {...type, resource: `${type.resource}/${g.subresource}`} : type}
    }),
  }
}

/** The items of a (possibly wider) list that a need asked for: its namespace and label selector. */
export function itemsFor(need: ResolvedNeed, items: readonly KubeObject[]): KubeObject[] {
  const list = need.list
  if (!list) return []
  const nsFilter = need.namespace !== undefined && list.namespace === undefined
  const selFilter = need.labelSelector !== undefined && list.labelSelector !== need.labelSelector
  if (!nsFilter && !selFilter) return items as KubeObject[]
  const matches = selFilter ? parseLabelSelector(need.labelSelector!) : undefined
  return items.filter((o) => (!nsFilter || o.metadata?.namespace === need.namespace) && (!matches || matches(o.metadata?.labels)))
}

/** The ref a need or get was declared with, as apiVersion and kind of the served type. */
export function refOf(t: ResourceType): {apiVersion: string; kind: string} {
  return {apiVersion: apiVersionOf(t), kind: t.kind}
}
