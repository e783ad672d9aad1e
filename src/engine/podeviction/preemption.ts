// Scheduler preemption and graceful node shutdown, as far as the victim, its preemptor and the PriorityClasses show
// them (decision spec evictions.md §3, §4): who preempted (the uid in the Preempted event, or the pending pod
// nominated to the victim's node), both priorities and PriorityClasses, the preemptor's preemptionPolicy
// (PodEligibleToPreemptOthers), the SelectVictimsOnNode rule that only strictly lower priorities are victims, and
// the PDBs the victim's eviction would violate (filterPodsWithPDBViolation reads their recorded status).
import type {LabelSelector} from '../../cluster/kube-types.js'
import {labelSelectorAsSelector, SelectorError} from '../../apimachinery/labels.js'
import type {PreemptedEvent} from './evidence.js'
import type {PodLike, PriorityClassLike} from './types.js'

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
