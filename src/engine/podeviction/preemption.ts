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
