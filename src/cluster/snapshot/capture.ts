// What a snapshot holds, and the capture itself: nodes and node Leases first (their moment is the
// capture time; Leases in both views), then every kind the replays read in full (the caller names them, from the
// replays' descriptors: src/replay.ts fullKinds), then the metadata of every other listable kind for ownership. A
// kind that cannot be read is recorded as a problem and the capture goes on. Secrets are metadata only.
import {ReadError} from '../../errors.js'
import type {Evidence, Problem} from '../../explanation.js'
import {apiVersionOf, splitApiVersion} from '../builtin-kinds.js'
import {evidenceOf} from '../evidence.js'
import type {ClusterSource, ListRequest, ResourceType} from '../source.js'
import type {Gap, ListMade} from './header.js'
import type {SnapshotWriter} from './writer.js'

export type FullKinds = readonly {apiVersion: string; kind: string}[]

/** Nodes and Leases are read first, whatever else is read in full. */
const FIRST = new Set(['v1/Node', 'coordination.k8s.io/v1/Lease'])

const NODE_LEASE_NAMESPACE = 'kube-node-lease'

/** One version per group and kind (the first served, which discovery lists as preferred), listable, not a full kind. */
export function metadataOnlyKinds(types: readonly ResourceType[], full: FullKinds): ResourceType[] {
  const taken = new Set(['/Node', 'coordination.k8s.io/Lease', ...full.map((k) => `${splitApiVersion(k.apiVersion).group}/${k.kind}`), 'events.k8s.io/Event'])
  const out: ResourceType[] = []
  for (const t of types) {
    const key = `${t.group}/${t.kind}`
    if (taken.has(key) || !t.verbs.includes('list')) continue
    taken.add(key)
    out.push(t)
  }
  return out
}

/** The lists a dump proves complete (its own format's, or a snapshot's recorded ones), for its rewritten header. */
function provenLists(evidence: Evidence, types: readonly ResourceType[]): ListMade[] {
  const out: ListMade[] = []
  for (const k of evidence.kinds) {
    if (!k.absenceIsProof || k.coverage === 'none') continue
    const t = types.find((x) => x.group === k.group && x.kind === k.kind)
    const apiVersion = t ? apiVersionOf(t) : k.group === '' ? 'v1' : `${k.group}/v1`
    if (k.coverage === 'all') out.push({apiVersion, kind: k.kind})
    else for (const namespace of k.namespaces ?? []) out.push({apiVersion, kind: k.kind, namespace})
  }
  return out
}

export interface CaptureOptions {
  /** The kinds read in full (the replays' reads); Nodes and Leases are read first whatever it says. */
  full: FullKinds
  /** Restrict namespaced kinds to one namespace; undefined captures all. */
  namespace?: string
  progress?: (line: string) => void
  clock?: () => Date
}

export async function capture(source: ClusterSource, writer: SnapshotWriter, options: CaptureOptions): Promise<{objects: number; problems: Problem[]}> {
  const FULL_KINDS = options.full.filter((k) => !FIRST.has(`${k.apiVersion}/${k.kind}`))
  const problems: Problem[] = []
  const gaps: Gap[] = []
  // Live: the moment nodes and leases were read. Re-writing a dump keeps the dump's own instant.
  const clock = options.clock ?? (() => (source.describe().mode === 'live' ? new Date() : source.now()))
  const serverVersion = await source.serverVersion()
  const resources = await source.discovery()
  problems.push(...source.problems())
  const metadataKinds = metadataOnlyKinds(resources, FULL_KINDS)
  let done = 0
  let objects = 0
  const total = 4 + FULL_KINDS.length + metadataKinds.length
  const tick = (what: string): void => options.progress?.(`snapshot: ${++done}/${total} lists (${what}), ${objects} objects`)

  // Every list the capture makes, recorded in the header: absence of an object from a list that succeeded is proof.
  const lists: ListMade[] = [
    {apiVersion: 'v1', kind: 'Node'},
    {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NODE_LEASE_NAMESPACE},
    {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...(options.namespace ? {namespace: options.namespace} : {})},
    ...FULL_KINDS.map((k) => ({...k, ...(options.namespace ? {namespace: options.namespace} : {})})),
    ...metadataKinds.map((t) => ({
      apiVersion: apiVersionOf(t),
      kind: t.kind,
      ...(t.namespaced && options.namespace ? {namespace: options.namespace} : {}),
      metadataOnly: true,
    })),
  ]

  const safeList = async (request: ListRequest) => {
    try {
      const r = await source.list(request)
      objects += r.items.length
      return r.items
    } catch (err) {
      // Losing the cluster or the credentials ends the capture; a kind that fails alone is recorded.
      if (!(err instanceof ReadError) || err.reason === 'Unreachable' || err.reason === 'Unauthorized') throw err
      problems.push({
        what: `list ${request.apiVersion ?? ''} ${request.kind}${request.namespace ? ` in ${request.namespace}` : ''}`.replace('  ', ' '),
        reason: `${err.reason}${err.status ? ` (${err.status})` : ''}: ${err.message}`,
        ...(err.hint ? {hint: err.hint} : {}),
      })
      // The cached view of node Leases is a second read of a list already recorded; its failure is a problem only.
      if (request.view !== 'cached') {
        gaps.push({
          apiVersion: request.apiVersion ?? '',
          kind: request.kind,
          ...(request.namespace ? {namespace: request.namespace} : {}),
          ...(request.metadataOnly ? {metadataOnly: true} : {}),
          reason: err.reason,
          ...(err.status ? {status: err.status} : {}),
          message: err.message,
          ...(err.hint ? {hint: err.hint} : {}),
        })
      }
      return []
    } finally {
      tick(request.kind)
    }
  }

  const nodes = await safeList({apiVersion: 'v1', kind: 'Node'})
  const leases = await safeList({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NODE_LEASE_NAMESPACE})
  const cachedLeases = await safeList({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NODE_LEASE_NAMESPACE, view: 'cached'})
  const capturedAt = clock().toISOString()
  const desc = source.describe()
  // Re-writing a dump: only what the dump itself proves is recorded as listed, and an estimated clock stays estimated.
  const proof = desc.mode === 'snapshot' && !options.clock ? await evidenceOf(source) : undefined
  const clockFrom = proof && proof.clock.trust !== 'exact' ? proof.clock.from : undefined
  await writer.begin({
    capturedAt,
    ...(clockFrom ? {clockFrom} : {}),
    serverVersion,
    context: desc.context,
    namespace: source.defaultNamespace(),
    resources,
    metadataOnly: metadataKinds.map((t) => `${apiVersionOf(t)}/${t.kind}`),
    cached: cachedLeases,
    problems: [...problems],
    lists: proof ? provenLists(proof, resources) : lists,
    gaps: [...gaps],
  })
  const headerProblems = problems.length
  const headerGaps = gaps.length
  for (const o of nodes) await writer.item(o)
  for (const o of leases) await writer.item(o)
  // Every other Lease (leader election, API server identity): the garbage collector and the audit see them live.
  for (const o of await safeList({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: options.namespace})) {
    if (o.metadata?.namespace !== NODE_LEASE_NAMESPACE) await writer.item(o)
  }
  for (const k of FULL_KINDS) for (const o of await safeList({...k, namespace: options.namespace})) await writer.item(o)
  for (const t of metadataKinds) {
    const namespace = t.namespaced ? options.namespace : undefined
    for (const o of await safeList({apiVersion: apiVersionOf(t), kind: t.kind, namespace, metadataOnly: true})) await writer.item(o)
  }
  const count = await writer.end({problems: problems.slice(headerProblems), gaps: gaps.slice(headerGaps)})
  return {objects: count, problems}
}
