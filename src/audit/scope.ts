// What each check covers. Namespaced checks follow the audit's scope (-n, -A, the context's namespace); the node
// check's subjects are cluster-scoped and always the whole cluster's; the collector's graph holds the namespace's
// objects, every cluster-scoped object and the Nodes' own Leases (kube-node-lease), since a node going or a
// cluster-scoped owner going is what deletes them, whatever namespace the audit was asked about.
import type {CheckName} from './checks.js'
import type {CheckNeeds} from './needs.js'
import {NODE_LEASE_NAMESPACE} from '../engine/nodelifecycle/descriptor.js'
import {entryOf} from './registry.js'

export {NODE_LEASE_NAMESPACE}

/** What the report says a check covered. */
export interface Coverage {
  /** Every namespace (-A). */
  allNamespaces: boolean
  /** The namespaces whose objects it covered (empty with allNamespaces, or when it covers cluster-scoped objects only). */
  namespaces: string[]
  /** Whether cluster-scoped objects were covered (always over the whole cluster). */
  clusterScoped: boolean
  text: string
}

/** The namespace a check is run with: undefined (no filter) where its subjects are cluster-scoped or mixed. */
export function checkNamespace(check: CheckName, namespace: string | undefined): string | undefined {
  return entryOf(check).scope === 'namespaced' ? namespace : undefined
}

/** A check's declared reads, with what its scope adds under -n: for the collector, the node Leases. */
export function scopeNeeds(check: CheckName, needs: CheckNeeds, namespace: string | undefined): CheckNeeds {
  if (entryOf(check).scope !== 'mixed' || namespace === undefined || namespace === NODE_LEASE_NAMESPACE) return needs
  const leases = needs.lists.find((n) => n.ref.kind === 'Lease' && n.scope === 'audit')
  if (!leases) return needs
  return {
    ...needs,
    lists: [
      ...needs.lists,
      {
        ...leases,
        key: `${leases.key} ${NODE_LEASE_NAMESPACE}`,
        scope: {namespace: NODE_LEASE_NAMESPACE},
        why: "the Nodes' Leases: the collector deletes them when their Node goes, whatever -n says",
      },
    ],
  }
}

export function coverage(check: CheckName, namespace: string | undefined): Coverage {
  const scope = entryOf(check).scope
  if (scope === 'cluster') return {allNamespaces: false, namespaces: [], clusterScoped: true, text: 'whole cluster'}
  if (scope === 'namespaced') {
    return namespace === undefined
      ? {allNamespaces: true, namespaces: [], clusterScoped: false, text: 'all namespaces'}
      : {allNamespaces: false, namespaces: [namespace], clusterScoped: false, text: `namespace ${namespace}`}
  }
  if (namespace === undefined) return {allNamespaces: true, namespaces: [], clusterScoped: true, text: 'all namespaces, cluster-scoped objects'}
  const namespaces = namespace === NODE_LEASE_NAMESPACE ? [namespace] : [namespace, NODE_LEASE_NAMESPACE]
  return {
    allNamespaces: false,
    namespaces,
    clusterScoped: true,
    text: `namespace ${namespace}${namespace === NODE_LEASE_NAMESPACE ? '' : `, node Leases (${NODE_LEASE_NAMESPACE})`}, cluster-scoped objects (whole cluster)`,
  }
}
