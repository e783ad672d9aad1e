// What a snapshot can prove. kubectl-why's own snapshot records every list it made, so absence there is proof
// (except where a list failed: a gap). A foreign dump proves only presence, unless its format is known to be
// complete for a kind: `kubectl cluster-info dump` always lists every Node, and, in each namespace it dumps,
// every Event, ReplicationController, Service, DaemonSet, Deployment, ReplicaSet and Pod — never Jobs or Leases
// (staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo_dump.go, Run).
import type {Evidence, KindCoverage, Problem} from '../../explanation.js'
import {canonicalGroup, makeEvidence} from '../evidence.js'
import {splitApiVersion} from '../builtin-kinds.js'
import type {ObjectStore} from '../object-store.js'
import type {ResourceType} from '../source.js'
import type {ListSeen} from './documents.js'
import type {Gap, ListMade, SnapshotHeader} from './header.js'

/** The lists cluster-info dump prints for each namespace, in its order, and the file each goes to with --output-directory. */
const DUMP_PER_NAMESPACE: readonly [string, string, string][] = [
  ['', 'Event', 'events'],
  ['', 'ReplicationController', 'replication-controllers'],
  ['', 'Service', 'services'],
  ['apps', 'DaemonSet', 'daemonsets'],
  ['apps', 'Deployment', 'deployments'],
  ['apps', 'ReplicaSet', 'replicasets'],
  ['', 'Pod', 'pods'],
]
const NODE_LEASE_NAMESPACE = 'kube-node-lease'

/**
 * The namespaces a `kubectl cluster-info dump` covered, when the input is one: printed to one stream (a NodeList,
 * then per namespace the seven lists above, typed) or written as a tree (nodes.json, <ns>/pods.json...). Undefined
 * for any other dump. A namespace whose seven lists were all empty cannot be named from a stream, and is not counted.
 */
export function clusterInfoDumpNamespaces(lists: readonly (ListSeen & {file: string})[], files: readonly string[]): string[] | undefined {
  const tree = files.some((f) => /^nodes\.(json|ya?ml)$/.test(f))
  if (tree) {
    const namespaces = new Set<string>()
    for (const f of files) {
      const m = /^([^/\\]+)[/\\]pods\.(json|ya?ml)$/.exec(f)
      if (m) namespaces.add(m[1])
    }
    return namespaces.size > 0 ? [...namespaces].sort() : undefined
  }
  for (const file of new Set(lists.map((l) => l.file))) {
    const seq = lists.filter((l) => l.file === file)
    if (seq[0]?.kind !== 'NodeList' || seq[1]?.kind !== 'EventList' || seq[2]?.kind !== 'ReplicationControllerList') continue
    const namespaces = new Set<string>()
    for (let i = 1; i + DUMP_PER_NAMESPACE.length <= seq.length; i += DUMP_PER_NAMESPACE.length) {
      const group = seq.slice(i, i + DUMP_PER_NAMESPACE.length)
      if (!group.every((l, j) => l.kind === `${DUMP_PER_NAMESPACE[j][1]}List`)) return undefined
      const named = new Set(group.flatMap((l) => [...l.namespaces]))
      if (named.size === 1) namespaces.add([...named][0])
    }
    return [...namespaces].sort()
  }
  return undefined
}

export interface SnapshotFacts {
  store: ObjectStore
  header?: SnapshotHeader
  gaps: readonly Gap[]
  clusterInfoDump?: string[]
  types: readonly ResourceType[]
  recordedDiscovery: boolean
  clock: Evidence['clock']
  version?: Evidence['version']
  /** Container-log blocks or files skipped (cluster-info dump). */
  logs: number
}

/**
 * The kinds snapshots read in full before their header recorded `lists`: a fact about those files, so it stays as it
 * was when they were written whatever the replays read now.
 */
const LISTED_IN_FULL_BEFORE_LISTS: readonly {apiVersion: string; kind: string}[] = [
  {apiVersion: 'v1', kind: 'Pod'},
  {apiVersion: 'apps/v1', kind: 'ReplicaSet'},
  {apiVersion: 'apps/v1', kind: 'Deployment'},
  {apiVersion: 'apps/v1', kind: 'DaemonSet'},
  {apiVersion: 'apps/v1', kind: 'StatefulSet'},
  {apiVersion: 'apps/v1', kind: 'ControllerRevision'},
  {apiVersion: 'v1', kind: 'Event'},
]

/** What a kubectl-why snapshot listed; files written before `lists` was recorded listed these, in all namespaces. */
function listsMade(header: SnapshotHeader): ListMade[] {
  if (header.lists) return header.lists
  return [
    {apiVersion: 'v1', kind: 'Node'},
    {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NODE_LEASE_NAMESPACE},
    ...LISTED_IN_FULL_BEFORE_LISTS,
    ...(header.metadataOnly ?? []).map((k) => {
      const slash = k.lastIndexOf('/')
      return {apiVersion: k.slice(0, slash), kind: k.slice(slash + 1), metadataOnly: true}
    }),
  ]
}

const keyOf = (group: string, kind: string) => `${canonicalGroup(group, kind)}/${kind}`

/** The API groups the data's CustomResourceDefinitions define. */
function customGroups(store: ObjectStore): string[] {
  const groups = new Set<string>()
  for (const crd of store.all('apiextensions.k8s.io/CustomResourceDefinition')) {
    const group = (crd.spec as {group?: unknown} | undefined)?.group
    if (typeof group === 'string') groups.add(group)
  }
  return [...groups].sort()
}

export function snapshotEvidence(f: SnapshotFacts): Evidence {
  const kinds = new Map<string, KindCoverage>()
  const missing: Problem[] = []
  // Presence: every kind the data holds, in the namespaces it holds it.
  for (const key of f.store.kinds()) {
    const slash = key.indexOf('/')
    const group = key.slice(0, slash)
    const kind = key.slice(slash + 1)
    const {count, namespaces} = f.store.spread(key)
    kinds.set(keyOf(group, kind), {
      group,
      kind,
      coverage: namespaces.size === 0 ? 'all' : 'namespaces',
      ...(namespaces.size > 0 ? {namespaces: [...namespaces].sort()} : {}),
      absenceIsProof: false,
      from: 'objects in the dump',
      count,
    })
  }
  const proven = (group: string, kind: string, namespaces: string[] | undefined, from: string) => {
    const count = f.store.spread(`${group}/${kind}`).count
    kinds.set(keyOf(group, kind), {
      group,
      kind,
      coverage: namespaces ? 'namespaces' : 'all',
      ...(namespaces ? {namespaces} : {}),
      absenceIsProof: true,
      from,
      count,
    })
  }
  if (f.header) {
    // Per kind: the namespaces its successful lists covered (undefined: all), and the gaps that failed.
    const scope = new Map<string, {group: string; kind: string; all: boolean; namespaces: string[]; gaps: Gap[]}>()
    const entry = (apiVersion: string, kind: string) => {
      const {group} = splitApiVersion(apiVersion)
      const key = keyOf(group, kind)
      const e = scope.get(key) ?? {group, kind, all: false, namespaces: [], gaps: []}
      scope.set(key, e)
      return e
    }
    for (const g of f.gaps) entry(g.apiVersion, g.kind).gaps.push(g)
    for (const l of listsMade(f.header)) {
      const e = entry(l.apiVersion, l.kind)
      if (e.gaps.some((g) => g.namespace === l.namespace)) continue
      if (l.namespace === undefined) e.all = true
      else e.namespaces.push(l.namespace)
    }
    for (const e of scope.values()) {
      if (e.all || e.namespaces.length > 0) proven(e.group, e.kind, e.all ? undefined : e.namespaces, 'listed by kubectl why snapshot')
      else
        kinds.set(keyOf(e.group, e.kind), {
          group: e.group,
          kind: e.kind,
          coverage: 'none',
          absenceIsProof: false,
          from: `the snapshot could not list it: ${e.gaps[0]?.reason ?? 'not listed'}${e.gaps[0]?.status ? ` (${e.gaps[0].status})` : ''}`,
          count: f.store.spread(`${e.group}/${e.kind}`).count,
        })
    }
    for (const g of f.gaps) {
      missing.push({
        what: `list ${g.apiVersion} ${g.kind}${g.namespace ? ` in ${g.namespace}` : ''}`,
        reason: `not captured: ${g.reason}${g.status ? ` (${g.status})` : ''}: ${g.message}`,
        ...(g.hint ? {hint: g.hint} : {}),
      })
    }
  } else if (f.clusterInfoDump) {
    proven('', 'Node', undefined, 'kubectl cluster-info dump (it lists every Node)')
    for (const [group, kind] of DUMP_PER_NAMESPACE)
      proven(group, kind, f.clusterInfoDump, `kubectl cluster-info dump of namespaces ${f.clusterInfoDump.join(', ')}`)
  }

  const nodes = f.store.all('/Node').map((n) => n.metadata?.name)
  const leaseNames = new Set(f.store.list('coordination.k8s.io/Lease', {namespace: NODE_LEASE_NAMESPACE}).map((l) => l.metadata?.name))
  const withLease = nodes.filter((n) => leaseNames.has(n)).length
  const nodeLeases: Evidence['nodeLeases'] = leaseNames.size === 0 ? 'absent' : withLease === nodes.length ? 'present' : 'partial'
  const nodeCoverage = kinds.get('/Node')
  const nodeSet: Evidence['nodeSet'] = nodes.length === 0 ? 'none' : nodeCoverage?.absenceIsProof ? 'complete' : 'partial'
  const leaseCoverage = kinds.get('coordination.k8s.io/Lease')
  const leasesListed = leaseCoverage?.absenceIsProof && (leaseCoverage.coverage === 'all' || leaseCoverage.namespaces?.includes(NODE_LEASE_NAMESPACE))
  if (nodeLeases !== 'present' && nodes.length > 0 && !leasesListed) {
    missing.push({
      what: 'node Leases (kube-node-lease)',
      reason:
        nodeLeases === 'absent'
          ? "the data holds none: a kubelet's renewals cannot be seen, only its status heartbeats (posted every 5 min when it renews a Lease)"
          : `the data holds Leases for ${withLease} of ${nodes.length} nodes`,
    })
  }
  if (nodeSet === 'partial')
    missing.push({what: 'Nodes', reason: `the data may not hold every Node: cluster-wide states are judged from the ${nodes.length} in it`})
  if (nodeSet === 'none') missing.push({what: 'Nodes', reason: 'the data holds no Node'})
  if (f.clock.trust === 'estimated') missing.push({what: 'capture time', reason: `not recorded: the clock is ${f.clock.from}`})
  if (!f.version)
    missing.push({what: 'Kubernetes version', reason: 'not recorded and not inferable from the data (no control-plane pod image, no kubelet version)'})

  const served = new Set<string>()
  if (f.recordedDiscovery) for (const t of f.types) served.add(t.group === '' ? t.version : `${t.group}/${t.version}`)
  for (const key of f.store.kinds()) for (const o of f.store.all(key)) if (typeof o.apiVersion === 'string') served.add(o.apiVersion)

  return makeEvidence({
    kinds: [...kinds.values()].sort((a, b) => (a.group + a.kind < b.group + b.kind ? -1 : 1)),
    unlisted: (_group, kind) => ({held: false, absenceIsProof: false, why: `the data holds no ${kind}`}),
    servedVersions: [...served].sort(),
    ...(f.recordedDiscovery ? {} : {inferredDiscovery: {customGroups: customGroups(f.store)}}),
    nodeLeases,
    nodeSet,
    clock: f.clock,
    version: f.version,
    missing,
    ...(f.logs > 0 ? {notes: [`${f.logs} container log ${f.logs === 1 ? 'block' : 'blocks'} of kubectl cluster-info dump skipped`]} : {}),
  })
}
