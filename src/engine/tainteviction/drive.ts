// The taint-eviction controller's reads and replay, for `kubectl why evicted` and the audit's evicted check alike
// (I/O only through the ClusterSource handed in; the audit hands a façade over its gathered lists): the pod (a
// quorum read), the events about it (its TaintManagerEviction marks, and the scheduler's Scheduled event naming the
// node of a pod that is gone), and the node lifecycle world (../nodelifecycle/drive.ts) for its node.
import {PAGE_SIZE, readFailure} from '../../cluster/read.js'
import {evidenceOf} from '../../cluster/evidence.js'
import type {ClusterSource, KubeObject, TypeRef} from '../../cluster/source.js'
import type {Explanation, Problem} from '../../explanation.js'
import type {PdbLike, ScaleOwner} from '../disruption/pdb.js'
import type {NodeLifecycleWorld} from '../nodelifecycle/drive.js'
import {noExecuteTaints} from '../nodelifecycle/taints.js'
import type {PodLike as EvictionPod, PriorityClassLike} from '../podeviction/types.js'
import {readKubeletConfig} from '../podeviction/configz.js'
import {controllerManagerArgs, terminatedPodGcThreshold} from '../../settings/kcm.js'
import {type EvictionContext, withActors} from './actors.js'
import {nodeFromEvents} from './evidence.js'
import {explainEvicted} from './explain.js'
import {type PodTally, tallyPods} from './tally.js'
import type {EventLike, PodLike} from './types.js'

const key = (namespace: string | undefined, name: string | undefined) => `${namespace ?? ''}/${name ?? ''}`
const regarding = (e: EventLike) => e.involvedObject ?? e.regarding

/**
 * One pod's replay: its node from its spec, or from the scheduler's event when the pod is gone; then who acted, from
 * the pod's record, with each named actor's decision replayed over what the context holds (actors.ts).
 */
export function explainPod(
  world: NodeLifecycleWorld,
  namespace: string,
  name: string,
  pod: PodLike | undefined,
  events: readonly EventLike[],
  context: EvictionContext = {},
): Explanation {
  const nodeName = pod?.spec?.nodeName ?? nodeFromEvents(events, name)
  const node = nodeName ? world.nodes.find((n) => n.metadata?.name === nodeName) : undefined
  const taint = explainEvicted({
    namespace,
    name,
    pod,
    events,
    node: nodeName ? world.nodes.find((n) => n.metadata?.name === nodeName) : undefined,
    nodeAnalysis: nodeName ? world.analysis.nodes.find((n) => n.name === nodeName) : undefined,
    cluster: world.analysis,
    now: world.now,
    settings: world.settings.settings,
    source: world.source,
    ...(nodeName && world.byRelease?.nodes[nodeName] ? {nodeByRelease: {why: world.byRelease.why, answers: world.byRelease.nodes[nodeName]}} : {}),
  })
  return withActors(taint, {
    namespace,
    name,
    pod: pod as EvictionPod | undefined,
    events,
    now: world.now,
    context: {
      node: node as EvictionContext['node'],
      nodes: world.nodes as EvictionContext['nodes'],
      nodesComplete: world.analysis.evidence ? world.analysis.evidence.nodeSet === 'complete' : true,
      ...context,
    },
  })
}

export interface PodRead {
  pod?: PodLike
  events: EventLike[]
  problems: Problem[]
  /** What the other actors' replays read: the namespace's PDBs, pods and workloads, PriorityClasses, the node's pods. */
  context: EvictionContext
}

const OWNER_KINDS: TypeRef[] = [
  {apiVersion: 'apps/v1', kind: 'ReplicaSet'},
  {apiVersion: 'apps/v1', kind: 'Deployment'},
  {apiVersion: 'apps/v1', kind: 'StatefulSet'},
  {apiVersion: 'v1', kind: 'ReplicationController'},
]

/**
 * The reads the actors need (actors.ts): the PodDisruptionBudgets, pods and workloads of the namespace (the
 * disruption controller's arithmetic, the preemptor), the PriorityClasses, and the pods on the pod's node (the
 * kubelet's ranking). A kind the data does not hold is left undefined (not proof of absence) and said so.
 */
export async function readEvictionContext(
  source: ClusterSource,
  namespace: string,
  pod: PodLike | undefined,
): Promise<{context: EvictionContext; problems: Problem[]}> {
  const problems: Problem[] = []
  const evidence = await evidenceOf(source)
  // The reads go out together; each keeps its place for its problem, so the problems come in the order written here.
  const slots: Problem[][] = []
  const attempt = async <T>(ref: TypeRef & {namespace?: string; fieldSelector?: string}, group: string, what: string): Promise<T[] | undefined> => {
    const slot: Problem[] = []
    slots.push(slot)
    const c = evidence.coverage(group, ref.kind, ref.namespace)
    if (!c.held && !c.absenceIsProof) return undefined
    try {
      return (await source.list({...ref, pageSize: PAGE_SIZE})).items as T[]
    } catch (err) {
      slot.push({what, reason: readFailure(err)})
      return undefined
    }
  }
  const context: EvictionContext = {problems}
  const nodeName = pod?.spec?.nodeName
  const st = pod?.status
  const pdbs = attempt<PdbLike>({apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', namespace}, 'policy', `list PodDisruptionBudgets in ${namespace}`)
  const namespacePods = attempt<EvictionPod>({apiVersion: 'v1', kind: 'Pod', namespace}, '', `list pods in ${namespace}`)
  const priorityClasses = attempt<PriorityClassLike>({apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass'}, 'scheduling.k8s.io', 'list PriorityClasses')
  const onNode = nodeName
    ? attempt<EvictionPod>({apiVersion: 'v1', kind: 'Pod', fieldSelector: `spec.nodeName=${nodeName}`}, '', `list pods on node ${nodeName}`)
    : undefined
  // Preemption's node choice reads every node's pods: only for a pod the scheduler preempted (actors.ts nodeChoice).
  const preempted = (st?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.reason === 'PreemptionByScheduler')
  const allPods = preempted ? attempt<EvictionPod>({apiVersion: 'v1', kind: 'Pod'}, '', 'list pods in every namespace') : undefined
  // The kubelet's thresholds, live (configz through the node proxy, a GET), for a pod the kubelet evicted.
  const kubeletSlot: Problem[] = []
  slots.push(kubeletSlot)
  const kubeletConfig =
    nodeName && (st?.reason === 'Evicted' || (st?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.reason === 'TerminationByKubelet'))
      ? readKubeletConfig(source, nodeName)
      : undefined
  // Awaited below, after the others: its failure (an error that is not a read's) still fails the read there.
  kubeletConfig?.catch(() => undefined)
  // PodGC's gcTerminated bound, for a terminated pod: the controller-manager's flag when its static pod is in the data.
  const kcm =
    pod && !['Pending', 'Running', 'Unknown'].includes(pod.status?.phase ?? '')
      ? attempt<KubeObject>({apiVersion: 'v1', kind: 'Pod', namespace: 'kube-system'}, '', 'list pods in kube-system (kube-controller-manager flags)')
      : undefined
  const ownerLists = OWNER_KINDS.map((ref) =>
    attempt<KubeObject & {spec?: {replicas?: number}}>({...ref, namespace}, ref.apiVersion === 'v1' ? '' : 'apps', `list ${ref.kind}s in ${namespace}`),
  )

  context.pdbs = await pdbs
  context.namespacePods = await namespacePods
  context.priorityClasses = await priorityClasses
  if (onNode) context.podsOnNode = await onNode
  // Whether a cluster-wide pod list holds every pod: a live read does; a dump only if it recorded every namespace's.
  const podKind = evidence.kinds.find((x) => x.kind === 'Pod' && x.group === '')
  const everyPod = podKind ? podKind.coverage === 'all' && podKind.absenceIsProof : evidence.coverage('', 'Pod').absenceIsProof
  if (context.podsOnNode) context.podsOnNodeComplete = everyPod
  if (allPods) {
    context.allPods = await allPods
    context.allPodsComplete = !!context.allPods && everyPod
  }
  if (kubeletConfig) {
    context.kubeletConfig = await kubeletConfig
    if (context.kubeletConfig.state === 'refused') kubeletSlot.push({what: `kubelet configuration of node ${nodeName}`, reason: context.kubeletConfig.reason})
  }
  if (kcm) {
    const pods = await kcm
    context.podGcThreshold = terminatedPodGcThreshold(pods ? controllerManagerArgs(pods) : undefined)
  }
  const owners: ScaleOwner[] = []
  for (const [i, ref] of OWNER_KINDS.entries())
    for (const o of (await ownerLists[i]) ?? [])
      owners.push({
        kind: ref.kind,
        name: o.metadata?.name ?? '',
        uid: o.metadata?.uid,
        replicas: o.spec?.replicas,
        ownerReferences: o.metadata?.ownerReferences as ScaleOwner['ownerReferences'],
      })
  context.owners = owners
  for (const slot of slots) problems.push(...slot)
  return {context, problems}
}

/**
 * The sweep's budgets and PriorityClasses (the pods it has): each list undefined when the data does not hold the kind
 * (coverage neither held nor proof) or it could not be read — never an empty list standing for "none".
 */
async function readSweepContext(
  source: ClusterSource,
  namespace: string | undefined,
): Promise<{pdbs?: PdbLike[]; priorityClasses?: PriorityClassLike[]; problems: Problem[]}> {
  const problems: Problem[] = []
  const evidence = await evidenceOf(source)
  const attempt = async <T>(ref: TypeRef & {namespace?: string}, group: string, what: string, lacks: string): Promise<T[] | undefined> => {
    const c = evidence.coverage(group, ref.kind, ref.namespace)
    if (!c.held && !c.absenceIsProof) return undefined
    try {
      return (await source.list({...ref, pageSize: PAGE_SIZE})).items as T[]
    } catch (err) {
      problems.push({what, reason: `${readFailure(err)}; ${lacks}`})
      return undefined
    }
  }
  const scope = namespace ? ` in ${namespace}` : ''
  const pdbs = await attempt<PdbLike>(
    {apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', namespace},
    'policy',
    `list PodDisruptionBudgets${scope}`,
    'drains blocked by a budget are not found',
  )
  const priorityClasses = await attempt<PriorityClassLike>(
    {apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass'},
    'scheduling.k8s.io',
    'list PriorityClasses',
    "preemptions are replayed from the pods' own priorities",
  )
  return {pdbs, priorityClasses, problems}
}

/**
 * The pod and the events about it (or about nodes) in its namespace, and the other actors' context. `onPod` is
 * called with the pod as soon as it is read, before the rest (evicted pod/NAME starts its node's reads then).
 */
export async function readPod(source: ClusterSource, namespace: string, name: string, onPod?: (pod: PodLike | undefined) => void): Promise<PodRead> {
  const pod = (await source.get({apiVersion: 'v1', kind: 'Pod', namespace, name, view: 'fresh'})) as PodLike | undefined
  onPod?.(pod)
  const problems: Problem[] = []
  const [events, extra] = await Promise.all([
    source.list({apiVersion: 'v1', kind: 'Event', namespace, pageSize: PAGE_SIZE}).then(
      (l) => (l.items as EventLike[]).filter((e) => regarding(e)?.name === name || regarding(e)?.kind === 'Node'),
      (err: unknown) => {
        problems.push({what: `list events in ${namespace}`, reason: readFailure(err)})
        return [] as EventLike[]
      },
    ),
    readEvictionContext(source, namespace, pod),
  ])
  return {pod, events, problems: [...problems, ...extra.problems], context: extra.context}
}

export interface EvictedSweep {
  findings: Explanation[]
  verdicts: Record<string, number>
  evaluated: number
  notes: string[]
  problems: Problem[]
}

/**
 * Every pod in scope (and every pod gone but named by a TaintManagerEviction event), replayed one by one as
 * `kubectl why evicted` does. A pod on a node that carries no NoExecute taint, is owed none under any release the data
 * leaves possible and is not held by the circuit breaker, with no eviction evidence, is notAffected by explainEvicted's
 * first rules: counted without a replay.
 * Findings: severity above none, in pod list order (then the gone pods), the order the command would give them.
 */
export async function sweepEvictions(source: ClusterSource, world: NodeLifecycleWorld, namespace: string | undefined): Promise<EvictedSweep> {
  const problems: Problem[] = []
  const pods = (await source.list({apiVersion: 'v1', kind: 'Pod', namespace, pageSize: PAGE_SIZE})).items as (KubeObject & PodLike)[]
  let events: EventLike[] = []
  try {
    events = (await source.list({apiVersion: 'v1', kind: 'Event', namespace, pageSize: PAGE_SIZE})).items as EventLike[]
  } catch (err) {
    problems.push({
      what: `list events${namespace ? ` in ${namespace}` : ''}`,
      reason: `${readFailure(err)}; pods already evicted and deleted are not found, and evidence on live pods is limited to their DisruptionTarget condition`,
    })
  }
  const byPod = new Map<string, EventLike[]>()
  const evictionNamed = new Set<string>()
  const actorNamed = new Set<string>()
  for (const e of events) {
    const o = regarding(e)
    if ((o?.kind ?? 'Pod') !== 'Pod' || !o?.name) continue
    const k = key(o.namespace ?? e.metadata?.namespace, o.name)
    const list = byPod.get(k)
    if (list) list.push(e)
    else byPod.set(k, [e])
    if (e.reason === 'TaintManagerEviction') evictionNamed.add(k)
    else if (e.reason === 'Evicted' || e.reason === 'Preempted' || e.reason === 'Preempting') actorNamed.add(k)
  }
  const byName = new Map(world.nodes.map((n) => [n.metadata?.name ?? '', n]))
  const affected = new Set<string>()
  for (const a of world.analysis.nodes) {
    const n = byName.get(a.name)
    // A node whose answer depends on the release (no version in the data) may owe a taint under another release: its
    // pods are replayed, as `evicted pod/NAME` answers them (explainEvicted's nodeByRelease).
    if ((n && noExecuteTaints(n).length > 0) || a.noExecute.expected !== undefined || a.verdict === 'circuitOpen' || world.byRelease?.nodes[a.name])
      affected.add(a.name)
  }
  const verdicts: Record<string, number> = {}
  const findings: Explanation[] = []
  const count = (v: string, n = 1) => {
    verdicts[v] = (verdicts[v] ?? 0) + n
  }
  // Pending pods nominated to a node (preemptors on their way) and the nodes under pressure: their pods are at risk.
  const nominated = pods.filter((p) => p.status?.phase === 'Pending' && p.status?.nominatedNodeName && !p.spec?.nodeName) as EvictionPod[]
  const riskNodes = new Set<string>(nominated.map((p) => p.status!.nominatedNodeName as string))
  for (const n of world.nodes)
    if ((n.status?.conditions ?? []).some((c) => ['MemoryPressure', 'DiskPressure'].includes(c.type) && c.status === 'True'))
      riskNodes.add(n.metadata?.name ?? '')
  // Cordoned nodes (spec.unschedulable: a drain, or one to come): their pods are replayed against their budgets.
  const cordoned = new Set<string>()
  for (const n of world.nodes) if ((n as {spec?: {unschedulable?: boolean}}).spec?.unschedulable) cordoned.add(n.metadata?.name ?? '')
  // What the other actors' replays read, from the lists already read: the budgets (the Eviction API's answer on a
  // cordoned node), each namespace's pods (the budgets' arithmetic), and — only when every namespace's pods were read
  // (a -n list shows a node's pods of one namespace only) — each node's pods, the neighbours a pressure eviction ranks
  // (rankMemoryPressure/rankDiskPressure over requests and priorities, which the pod projection keeps).
  const sweep = await readSweepContext(source, namespace)
  problems.push(...sweep.problems)
  const podsByNs = new Map<string, EvictionPod[]>()
  const podsByNode = new Map<string, EvictionPod[]>()
  // Appended in place: a copy of the namespace's list per pod was quadratic (thousands of pods per namespace).
  const add = <T>(m: Map<string, T[]>, k: string, v: T) => {
    const list = m.get(k)
    if (list) list.push(v)
    else m.set(k, [v])
  }
  for (const p of pods) {
    add(podsByNs, p.metadata?.namespace ?? '', p as EvictionPod)
    const node = p.spec?.nodeName
    if (node && namespace === undefined) add(podsByNode, node, p as EvictionPod)
  }
  const pdbsByNs = new Map<string, PdbLike[]>()
  for (const b of sweep.pdbs ?? []) add(pdbsByNs, b.metadata?.namespace ?? '', b)
  const byActor: Record<string, number> = {}
  // PodGC's gcTerminated bound: the controller-manager's flag when the pods read include its static pod.
  const gcThreshold = terminatedPodGcThreshold(controllerManagerArgs(pods.filter((p) => p.metadata?.namespace === 'kube-system')))
  const replay = (ns: string, name: string, pod: PodLike | undefined) => {
    const node = pod?.spec?.nodeName
    const e = explainPod(world, ns, name, pod, byPod.get(key(ns, name)) ?? [], {
      nominated,
      namespacePods: podsByNs.get(ns) ?? [],
      podGcThreshold: gcThreshold,
      ...(sweep.pdbs ? {pdbs: pdbsByNs.get(ns) ?? []} : {}),
      ...(sweep.priorityClasses ? {priorityClasses: sweep.priorityClasses} : {}),
      ...(node && namespace === undefined
        ? {podsOnNode: podsByNode.get(node) ?? [], podsOnNodeComplete: true, allPods: pods as EvictionPod[], allPodsComplete: true}
        : {}),
    })
    count(e.verdict)
    for (const a of e.actors ?? []) if (a.action === 'evicted' || a.action === 'deleted') byActor[a.actor] = (byActor[a.actor] ?? 0) + 1
    if (e.severity !== 'none') findings.push(e)
  }
  const seen = new Set<string>()
  let skipped = 0
  for (const p of pods) {
    const k = key(p.metadata?.namespace, p.metadata?.name)
    seen.add(k)
    // Any record of a disruption (a True DisruptionTarget of any actor, a status.reason, a deletion, an actor's event)
    // is replayed: only the pods that record nothing, on nodes that owe them no taint, are notAffected unreplayed.
    const evidence =
      evictionNamed.has(k) ||
      actorNamed.has(k) ||
      !!p.status?.reason ||
      !!p.metadata?.deletionTimestamp ||
      (p.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.status === 'True')
    if (evidence || (p.spec?.nodeName && (affected.has(p.spec.nodeName) || riskNodes.has(p.spec.nodeName) || cordoned.has(p.spec.nodeName))))
      replay(p.metadata?.namespace ?? '', p.metadata?.name ?? '', p)
    else skipped++
  }
  if (skipped > 0) count('notAffected', skipped)
  let gone = 0
  for (const k of evictionNamed) {
    if (seen.has(k)) continue
    const slash = k.indexOf('/')
    if (namespace !== undefined && k.slice(0, slash) !== namespace) continue
    gone++
    replay(k.slice(0, slash), k.slice(slash + 1), undefined)
  }
  const notes = [
    `${affected.size} node(s) carry or are owed a NoExecute taint, or are held by the circuit breaker; the pods on the others are notAffected without a replay`,
  ]
  if (gone > 0) notes.push(`${gone} pod(s) no longer exist and are known from their TaintManagerEviction events`)
  const acted = Object.entries(byActor).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (acted.length > 0) notes.push(`disruptions by actor in the data: ${acted.map(([a, n]) => `${a} ${n}`).join(', ')}`)
  if (cordoned.size > 0)
    notes.push(
      `${cordoned.size} node(s) are cordoned (spec.unschedulable): their pods were replayed against their PodDisruptionBudgets${sweep.pdbs ? '' : ', which the data does not hold'}`,
    )
  if (namespace !== undefined && findings.some((f) => f.verdict === 'evictedByKubelet'))
    notes.push(`node-pressure evictions are ranked against the pods of ${namespace} only: the audit read no other namespace's pods`)
  if (riskNodes.size > 0)
    notes.push(
      `${riskNodes.size} node(s) are under memory or disk pressure, or have a pending preemptor nominated to them: their pods were replayed for the risk`,
    )
  return {findings, verdicts, evaluated: pods.length + gone, notes, problems}
}

/** The pods on a node (a field-selector list), or why they could not be read; never rejects. */
export type PodsOnNodeRead = {pods: PodLike[]} | {failure: string}
export function readPodsOnNode(source: ClusterSource, name: string): Promise<PodsOnNodeRead> {
  return source.list({apiVersion: 'v1', kind: 'Pod', fieldSelector: `spec.nodeName=${name}`, pageSize: PAGE_SIZE}).then(
    (l) => ({pods: l.items as PodLike[]}),
    (err: unknown) => ({failure: readFailure(err)}),
  )
}

/**
 * `kubectl why node NAME`'s pod tally: the pods on the node against its NoExecute taints. `read`: the list already
 * asked for (readPodsOnNode, started while the node lifecycle was read), else it is read now.
 */
export async function podsOnNode(
  source: ClusterSource,
  world: NodeLifecycleWorld,
  name: string,
  read?: Promise<PodsOnNodeRead>,
): Promise<PodTally | {read: false}> {
  const a = world.analysis.nodes.find((n) => n.name === name)
  const node = world.nodes.find((n) => n.metadata?.name === name)
  if (!a || !node) return {read: false}
  const r = await (read ?? readPodsOnNode(source, name))
  if ('failure' in r) {
    world.source.partial = [...(world.source.partial ?? []), {what: `list pods on node ${name}`, reason: r.failure}]
    return {read: false}
  }
  return tallyPods(node, a, r.pods, {comparisonOperators: world.settings.settings.taintTolerationComparisonOperators})
}
