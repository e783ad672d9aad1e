// Scheduler preemption and graceful node shutdown, as far as the victim, its preemptor and the PriorityClasses show
// them (decision spec evictions.md §3, §4): who preempted (the uid in the Preempted event, or the pending pod
// nominated to the victim's node), both priorities and PriorityClasses, the preemptor's preemptionPolicy
// (PodEligibleToPreemptOthers), the SelectVictimsOnNode rule that only strictly lower priorities are victims, and
// the PDBs the victim's eviction would violate (filterPodsWithPDBViolation reads their recorded status).
import type {LabelSelector} from '../../cluster/kube-types.js'
import {labelSelectorAsSelector, SelectorError} from '../../apimachinery/labels.js'
import {podRequest, quantityValue} from '../../component-helpers/resource.js'
import {toleratesTaint} from '../../component-helpers/tolerations.js'
import type {PreemptedEvent} from './evidence.js'
import type {NodeLike, PodLike, PriorityClassLike} from './types.js'

export const DEFAULT_PREEMPTION = 'pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go'
export const SHUTDOWN = 'pkg/kubelet/nodeshutdown/nodeshutdown_manager.go'

export interface PreemptionReplay {
  preemptor?: {
    ref: string
    priority: number
    priorityClassName?: string
    preemptionPolicy: string
    nominatedNodeName?: string
    found: 'uid' | 'name' | 'nominated'
  }
  victimPriority: number
  victimPriorityClass?: string
  /** A PriorityClass named by a pod but missing from the data (or PriorityClasses not read). */
  missingClasses: string[]
  /** SelectVictimsOnNode: potential victims have priority strictly below the preemptor's. */
  lowerPriority?: boolean
  node?: string
  why: string[]
}

const prio = (p: PodLike) => p.spec?.priority ?? 0
const ref = (p: PodLike) => `${p.metadata?.namespace}/${p.metadata?.name}`

export function replayPreemption(input: {
  victim: PodLike
  event?: PreemptedEvent
  pods: readonly PodLike[]
  priorityClasses?: readonly PriorityClassLike[]
}): PreemptionReplay {
  const {victim, event} = input
  const node = event?.node ?? victim.spec?.nodeName
  let preemptor: PodLike | undefined
  let found: 'uid' | 'name' | 'nominated' | undefined
  const relatedUid = event?.preemptorUid ?? event?.related?.uid
  if (relatedUid) {
    preemptor = input.pods.find((p) => p.metadata?.uid === relatedUid)
    found = preemptor ? 'uid' : undefined
  }
  const named = event?.preemptorRef ?? (event?.related?.name ? `${event.related.namespace ?? victim.metadata?.namespace}/${event.related.name}` : undefined)
  if (!preemptor && named) {
    preemptor = input.pods.find((p) => ref(p) === named)
    found = preemptor ? 'name' : undefined
  }
  if (!preemptor && node) {
    // The preemptor keeps status.nominatedNodeName until it binds; the highest-priority such pod is the likely one.
    const nominated = input.pods.filter((p) => p.status?.nominatedNodeName === node && prio(p) > prio(victim)).sort((a, b) => prio(b) - prio(a))
    preemptor = nominated[0]
    found = preemptor ? 'nominated' : undefined
  }
  const classes = input.priorityClasses
  const missingClasses: string[] = []
  for (const p of [victim, preemptor]) {
    const c = p?.spec?.priorityClassName
    if (c && classes && !classes.some((x) => x.metadata?.name === c)) missingClasses.push(c)
  }
  const why: string[] = []
  if (event?.preemptorUid && !preemptor)
    why.push(`the Preempted event names pod uid ${event.preemptorUid}, which is not in the data (bound and renamed, deleted, or in another namespace not read)`)
  let lowerPriority: boolean | undefined
  if (preemptor) {
    lowerPriority = prio(victim) < prio(preemptor)
    why.push(
      `preemptor ${ref(preemptor)} (${found === 'uid' ? 'uid from the Preempted event' : found === 'name' ? 'named by the Preempted event' : `pending with nominatedNodeName ${node}`}) has priority ${prio(preemptor)}${preemptor.spec?.priorityClassName ? ` (PriorityClass ${preemptor.spec.priorityClassName})` : ''}; the victim ${prio(victim)}${victim.spec?.priorityClassName ? ` (PriorityClass ${victim.spec.priorityClassName})` : ''}: ${lowerPriority ? 'strictly lower, so a potential victim (SelectVictimsOnNode)' : 'not lower — the scheduler never preempts equal or higher priority; the preemptor named is not the one'}`,
    )
    const policy = preemptor.spec?.preemptionPolicy ?? 'PreemptLowerPriority'
    if (policy === 'Never') why.push(`the preemptor's preemptionPolicy is Never: PodEligibleToPreemptOthers refuses it — it cannot have preempted`)
  }
  return {
    preemptor: preemptor
      ? {
          ref: ref(preemptor),
          priority: prio(preemptor),
          priorityClassName: preemptor.spec?.priorityClassName ?? undefined,
          preemptionPolicy: preemptor.spec?.preemptionPolicy ?? 'PreemptLowerPriority',
          nominatedNodeName: preemptor.status?.nominatedNodeName ?? undefined,
          found: found!,
        }
      : undefined,
    victimPriority: prio(victim),
    victimPriorityClass: victim.spec?.priorityClassName ?? undefined,
    missingClasses,
    lowerPriority,
    node,
    why,
  }
}

/**
 * groupByPriority / killPods for the pod, from what the pod shows: the kubelet's shutdownGracePeriod(ByPodPriority)
 * is not in the data; with the legacy pair the groups are priority 0 (requested − critical seconds) and 2000000000
 * (critical seconds), and the pod's grace is the group's, lowered to terminationGracePeriodSeconds.
 */
export function describeShutdown(pod: PodLike): string {
  const p = prio(pod)
  const tgps = pod.spec?.terminationGracePeriodSeconds ?? 30
  return `priority ${p}: ${p >= 2_000_000_000 ? 'the critical group (shutdownGracePeriodCriticalPods), killed last' : 'the regular group (shutdownGracePeriod − shutdownGracePeriodCriticalPods), killed first'}, with the group's seconds lowered to its terminationGracePeriodSeconds ${tgps}; the kubelet's shutdown settings are not in the data`
}

/** The slice of a PodDisruptionBudget filterPodsWithPDBViolation reads: its recorded status, not a recomputation. */
export interface PreemptionPdb {
  metadata?: {name?: string; namespace?: string}
  spec?: {selector?: LabelSelector | null}
  status?: {disruptionsAllowed?: number; disruptedPods?: Record<string, string> | null}
}

/**
 * filterPodsWithPDBViolation (default_preemption.go): the victims, in importance order, split into those whose
 * eviction would take a budget below zero and the rest. Each matching budget's recorded disruptionsAllowed is
 * decremented per victim; a pod already in its disruptedPods is skipped (the API server has counted it); a pod
 * without labels, and a budget with a nil or empty selector, match nothing here (unlike the Eviction API).
 */
export function filterPodsWithPDBViolation<P extends PodLike>(victims: readonly P[], pdbs: readonly PreemptionPdb[]): {violating: P[]; nonViolating: P[]} {
  const allowed = pdbs.map((b) => b.status?.disruptionsAllowed ?? 0)
  const violating: P[] = []
  const nonViolating: P[] = []
  for (const pod of victims) {
    let violated = false
    const labels = pod.metadata?.labels ?? {}
    if (Object.keys(labels).length > 0) {
      pdbs.forEach((b, i) => {
        if ((b.metadata?.namespace ?? '') !== (pod.metadata?.namespace ?? '')) return
        const sel = b.spec?.selector
        if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) return
        let matches: boolean
        try {
          matches = labelSelectorAsSelector(sel)(labels)
        } catch (err) {
          if (err instanceof SelectorError) return
          throw err
        }
        if (!matches) return
        if (Object.hasOwn(b.status?.disruptedPods ?? {}, pod.metadata?.name ?? '')) return
        allowed[i]--
        if (allowed[i] < 0) violated = true
      })
    }
    ;(violated ? violating : nonViolating).push(pod)
  }
  return {violating, nonViolating}
}

// ------------------------------------------------------------------ the candidate-node choice

export const PREEMPTION = 'pkg/scheduler/framework/preemption/preemption.go'

/** One candidate node and its victims (extenderv1.Victims), the victims ordered by decreasing priority. */
export interface NodeVictims {
  node: string
  pods: readonly PodLike[]
  numPDBViolations: number
}

const MAX_INT32_PLUS_ONE = 2 ** 31

/**
 * util.GetEarliestPodStartTime: the earliest status.startTime among the victims of the highest priority; a pod not
 * started yet counts as starting now (GetPodStartTime). Milliseconds; undefined for no victims.
 */
export function earliestPodStartTime(pods: readonly PodLike[], now: number): number | undefined {
  if (pods.length === 0) return undefined
  const start = (p: PodLike) => {
    const t = (p.status as {startTime?: string | null} | undefined)?.startTime
    const v = t ? Date.parse(t) : Number.NaN
    return Number.isNaN(v) ? now : v
  }
  let earliest = start(pods[0])
  let max = prio(pods[0])
  for (const p of pods) {
    if (prio(p) === max) earliest = Math.min(earliest, start(p))
    else if (prio(p) > max) {
      max = prio(p)
      earliest = start(p)
    }
  }
  return earliest
}

/**
 * pickOneNodeForPreemption (preemption.go, the default score functions): each criterion keeps the nodes with the
 * best score and decides when one is left — fewest PDB violations; lowest highest-priority victim; smallest sum of
 * (priority + MaxInt32 + 1) over the victims; fewest victims; the latest earliest start time of the highest-priority
 * victims; else the first candidate in the order given. Returns the node and the criterion that decided.
 */
export function pickOneNodeForPreemption(candidates: readonly NodeVictims[], now: number): {node?: string; decidedBy?: string} {
  if (candidates.length === 0) return {}
  const byNode = new Map(candidates.map((c) => [c.node, c]))
  const scoreFuncs: [string, (c: NodeVictims) => number][] = [
    ['minNumPDBViolating', (c) => -c.numPDBViolations],
    ['minHighestPriority', (c) => -(c.pods.length > 0 ? prio(c.pods[0]) : 0)],
    ['minSumPriorities', (c) => -c.pods.reduce((s, p) => s + prio(p) + MAX_INT32_PLUS_ONE, 0)],
    ['minNumPods', (c) => -c.pods.length],
    ['latestStartTime', (c) => earliestPodStartTime(c.pods, now) ?? Number.MIN_SAFE_INTEGER],
  ]
  let all = candidates.map((c) => c.node)
  for (const [name, f] of scoreFuncs) {
    let max = Number.NEGATIVE_INFINITY
    let selected: string[] = []
    for (const n of all) {
      const s = f(byNode.get(n) as NodeVictims)
      if (s > max) {
        max = s
        selected = []
      }
      if (s === max) selected.push(n)
    }
    if (selected.length === 1) return {node: selected[0], decidedBy: name}
    all = selected
  }
  return {node: all[0], decidedBy: 'first'}
}

// ------------------------------------------------------------------ victims per node and the node chosen

/** What NodeResourcesFit compares: cpu in millicores, memory in bytes, the pod count. */
export interface Allocatable {
  cpu: number
  memory: number
  pods: number
}

const milli = (cores: number) => Math.round(cores * 1000)
const requestOf = (p: PodLike) => ({cpu: milli(podRequest(p, 'cpu')), memory: podRequest(p, 'memory')})

/** The node's status.allocatable as NodeResourcesFit reads it; undefined when the node does not record it. */
export function allocatableOf(node: NodeLike): Allocatable | undefined {
  const a = (node.status as {allocatable?: Record<string, string | number>} | undefined)?.allocatable
  if (!a) return undefined
  const cpu = quantityValue(a.cpu)
  const memory = quantityValue(a.memory)
  if (cpu === undefined || memory === undefined) return undefined
  return {cpu: milli(cpu), memory, pods: quantityValue(a.pods) ?? 110}
}

/** NodeResourcesFit's fitsRequest over cpu, memory and the pod count: the pods left on the node plus the preemptor. */
function fits(preemptor: PodLike, remaining: readonly PodLike[], cap: Allocatable): boolean {
  const want = requestOf(preemptor)
  let cpu = want.cpu
  let memory = want.memory
  for (const p of remaining) {
    const r = requestOf(p)
    cpu += r.cpu
    memory += r.memory
  }
  return remaining.length + 1 <= cap.pods && cpu <= cap.cpu && memory <= cap.memory
}

const startOf = (p: PodLike) => {
  const t = p.status?.startTime ? Date.parse(p.status.startTime) : Number.NaN
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t
}

/** util.MoreImportantPod: higher priority first, then the earlier start time. */
export const moreImportantPod = (a: PodLike, b: PodLike) => prio(b) - prio(a) || startOf(a) - startOf(b)

/**
 * SelectVictimsOnNode (default_preemption.go@e4d77d92) with NodeResourcesFit as the only filter: every pod of lower
 * priority is removed; if the preemptor still does not fit, the node is no candidate (undefined). Then the removed
 * pods, most important first — those whose eviction would violate a budget first (filterPodsWithPDBViolation),
 * then the rest — are added back one by one and stay when the preemptor still fits (the reprieve); those that must
 * go are the victims, numPDBViolations counting the violating ones among them. A node with no lower-priority pod is
 * no candidate either ("No preemption victims found for incoming pod").
 */
export function selectVictimsOnNode(
  preemptor: PodLike,
  node: string,
  cap: Allocatable,
  podsOnNode: readonly PodLike[],
  pdbs: readonly PreemptionPdb[],
): NodeVictims | undefined {
  const p = prio(preemptor)
  const potential = podsOnNode.filter((x) => prio(x) < p).sort(moreImportantPod)
  if (potential.length === 0) return undefined
  const kept = podsOnNode.filter((x) => prio(x) >= p)
  if (!fits(preemptor, kept, cap)) return undefined
  const {violating, nonViolating} = filterPodsWithPDBViolation(potential, pdbs)
  const victims: PodLike[] = []
  let numPDBViolations = 0
  const reprieve = (pod: PodLike, violates: boolean) => {
    kept.push(pod)
    if (fits(preemptor, kept, cap)) return
    kept.pop()
    victims.push(pod)
    if (violates) numPDBViolations++
  }
  for (const v of violating) reprieve(v, true)
  for (const v of nonViolating) reprieve(v, false)
  if (violating.length > 0 && nonViolating.length > 0) victims.sort(moreImportantPod)
  return {node, pods: victims, numPDBViolations}
}

export interface PreemptionChoice {
  /** Each candidate node with its victims (names), in the order considered. */
  candidates: {node: string; victims: string[]; numPDBViolations: number}[]
  /** Nodes the preemptor fits without removing anything (the victims are gone, or room was made otherwise). */
  fitsWithoutPreemption?: string[]
  chosen?: string
  decidedBy?: string
  /** What the data lacks for the answer, each said once; empty when it holds everything this replay reads. */
  missing: string[]
}

/**
 * Which node the preemptor chose (or would choose): SelectVictimsOnNode on every node that can hold it, then
 * pickOneNodeForPreemption. Needs every node's allocatable and every pod bound to those nodes (podsComplete): a
 * node's pods not all read would make its victims wrong. Nodes cordoned, or tainted NoSchedule/NoExecute without a
 * matching toleration, fail NodeUnschedulable / TaintToleration and are no candidates; the other filters
 * (affinity, ports, volumes, topology spread) are not replayed.
 */
export function choosePreemptionNode(input: {
  preemptor: PodLike
  nodes: readonly NodeLike[]
  pods: readonly PodLike[]
  podsComplete: boolean
  pdbs?: readonly PreemptionPdb[]
  now: number
}): PreemptionChoice {
  const missing: string[] = []
  if (!input.podsComplete) missing.push('the pods of every node (only some namespaces or one node were read)')
  if (!input.pdbs) missing.push('the PodDisruptionBudgets (violations are counted from their status)')
  const candidates: NodeVictims[] = []
  const byNode = new Map<string, PodLike[]>()
  for (const p of input.pods) {
    const n = p.spec?.nodeName
    if (!n || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue
    const list = byNode.get(n) ?? []
    list.push(p)
    byNode.set(n, list)
  }
  const tolerations = input.preemptor.spec?.tolerations ?? []
  const fitsAsIs: string[] = []
  for (const node of input.nodes) {
    const name = node.metadata?.name ?? ''
    if (node.spec?.unschedulable) continue
    const blocked = (node.spec?.taints ?? []).some(
      (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerations.some((tol) => toleratesTaint(tol, t)),
    )
    if (blocked) continue
    const cap = allocatableOf(node)
    if (!cap) {
      missing.push(`node ${name}'s status.allocatable`)
      continue
    }
    const onNode = byNode.get(name) ?? []
    // A node the preemptor fits as it is passes Filter: the scheduler binds there and preemption does not run.
    if (fits(input.preemptor, onNode, cap)) fitsAsIs.push(name)
    const v = selectVictimsOnNode(input.preemptor, name, cap, onNode, input.pdbs ?? [])
    if (v) candidates.push(v)
  }
  const out: PreemptionChoice = {
    candidates: candidates.map((c) => ({node: c.node, victims: c.pods.map(ref), numPDBViolations: c.numPDBViolations})),
    ...(fitsAsIs.length > 0 ? {fitsWithoutPreemption: fitsAsIs} : {}),
    missing,
  }
  if (missing.length > 0) return out
  if (fitsAsIs.length > 0) return {...out, chosen: fitsAsIs[0], decidedBy: 'fitsWithoutPreemption'}
  if (candidates.length === 0) return out
  const picked = pickOneNodeForPreemption(candidates, input.now)
  return {...out, chosen: picked.node, decidedBy: picked.decidedBy}
}
