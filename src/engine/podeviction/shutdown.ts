// Graceful node shutdown's grouping, re-executed (pkg/kubelet/nodeshutdown/nodeshutdown_manager.go migrateConfig,
// groupByPriority, and the grace killPods gives each pod): for when the kubelet's shutdown settings are known
// (configz); from a dump alone the replay states the rule (preemption.ts describeShutdown).

import {SYSTEM_CRITICAL_PRIORITY} from './kubelet.js'

export {SYSTEM_CRITICAL_PRIORITY}
/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const DEFAULT_PRIORITY = 0

export interface ShutdownGracePeriodByPodPriority {
  priority: number
  shutdownGracePeriodSeconds: number
}

/**
 * migrateConfig: the legacy shutdownGracePeriod / shutdownGracePeriodCriticalPods pair as two priority groups —
 * priority 0 gets requested − critical seconds, priority 2000000000 the critical seconds; none when requested is 0
 * or either part would be negative.
 */
export function migrateConfig(requestedSeconds: number, criticalSeconds: number): ShutdownGracePeriodByPodPriority[] | undefined {
  if (requestedSeconds === 0) return undefined
  const defaultPart = requestedSeconds - criticalSeconds
  if (defaultPart < 0) return undefined
  const criticalPart = requestedSeconds - defaultPart
  if (criticalPart < 0) return undefined
  return [
    {priority: DEFAULT_PRIORITY, shutdownGracePeriodSeconds: defaultPart},
    {priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: criticalPart},
  ]
}

export interface PodShutdownGroup<P> {
  group: ShutdownGracePeriodByPodPriority
  pods: P[]
}

/**
 * groupByPriority: the groups by ascending priority; a pod (priority nil = 0) joins the group with the largest
 * priority ≤ its own, the lowest group when below all, the highest when above all. Groups keep their pods in input
 * order; killPods runs them lowest first.
 */
export function groupByPriority<P extends {spec?: {priority?: number | null}}>(
  config: readonly ShutdownGracePeriodByPodPriority[],
  pods: readonly P[],
): PodShutdownGroup<P>[] {
  const groups = [...config].sort((a, b) => a.priority - b.priority).map((group) => ({group, pods: [] as P[]}))
  if (groups.length === 0) return []
  for (const pod of pods) {
    const priority = pod.spec?.priority ?? 0
    // sort.Search: the first group whose priority ≥ the pod's.
    let index = groups.findIndex((g) => g.group.priority >= priority)
    if (index === -1) index = groups.length - 1
    else if (priority < groups[index].group.priority && index > 0) index--
    groups[index].pods.push(pod)
  }
  return groups
}

/** killPods: the group's seconds, lowered to terminationGracePeriodSeconds when that is not larger. */
export function shutdownKillGrace(groupSeconds: number, terminationGracePeriodSeconds: number | null | undefined): number {
  return terminationGracePeriodSeconds !== null && terminationGracePeriodSeconds !== undefined && terminationGracePeriodSeconds <= groupSeconds
    ? terminationGracePeriodSeconds
    : groupSeconds
}
