// getIndirectlyRelatedPods, getPodsRankedByRelatedPodsOnSameNode and getPodsToDelete
// (pkg/controller/replicaset/replica_set.go:915-987): which pods a scale-down removes, in order.
import type {Gates} from './gates.js'
import {getControllerOf, isPodActive} from './pod-util.js'
import {type Comparison, compareWithRanks, type RankedPod} from './ranking.js'
import {labelSelectorAsSelector} from './selector.js'
import type {Pod, ReplicaSet} from './types.js'

/**
 * getIndirectlyRelatedPods: pods matching the selector of any ReplicaSet with the same controller UID as `rs`
 * (this one included), whoever owns them, de-duplicated by pod UID. A ReplicaSet with no controller (a
 * standalone one) has no related pods, so every rank is 0.
 */
export function getIndirectlyRelatedPods(rs: ReplicaSet, replicaSets: readonly ReplicaSet[], pods: readonly Pod[]): Pod[] | undefined {
  const controller = getControllerOf(rs)
  if (controller === undefined) return undefined
  const related: Pod[] = []
  const seen = new Set<string>()
  const siblings = replicaSets.filter((r) => getControllerOf(r)?.uid === controller.uid)
  if (!siblings.some((r) => r.metadata.uid === rs.metadata.uid)) siblings.unshift(rs)
  for (const sibling of siblings) {
    let selector
    try {
      selector = labelSelectorAsSelector(sibling.spec?.selector)
    } catch {
      continue // An invalid selector matches no pods.
    }
    for (const pod of pods) {
      if (pod.metadata.namespace !== sibling.metadata.namespace || !selector(pod.metadata.labels)) continue
      const uid = pod.metadata.uid ?? ''
      if (seen.has(uid)) continue
      seen.add(uid)
      related.push(pod)
    }
  }
  return related
}

/** getPodsRankedByRelatedPodsOnSameNode: rank = active related pods on the same node name (an empty node name counts too). */
export function rankPods(podsToRank: readonly Pod[], related: readonly Pod[] | undefined): RankedPod[] {
  const onNode = new Map<string, number>()
  for (const pod of related ?? []) {
    if (!isPodActive(pod)) continue
    const node = pod.spec?.nodeName ?? ''
    onNode.set(node, (onNode.get(node) ?? 0) + 1)
  }
  return podsToRank.map((pod) => ({pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0}))
}

export interface DeletionCandidate {
  pod: Pod
  rank: number
  /** 1-based position in the deletion order. */
  position: number
  chosen: boolean
  /** The rule that puts this pod before the next one in the order (undefined: they compare equal). */
  versusNext?: Comparison
}

export interface DeletionPlan {
  /** False when every active pod goes (diff == len): upstream skips the sort and keeps lister order. */
  sorted: boolean
  candidates: DeletionCandidate[]
  chosen: Pod[]
  /** What separates the last chosen pod from the first kept one. */
  cut?: Comparison
  /** Pods that compare equal across the cut: Go's unstable sort may pick any `slots` of them. */
  tie?: {pods: Pod[]; slots: number}
}

/**
 * getPodsToDelete: when fewer than all active pods go, sort them with ActivePodsWithRanks (Now = the
 * evaluation time, or zero without LogarithmicScaleDown) and take the first `diff`.
 */
export function getPodsToDelete(active: readonly Pod[], related: readonly Pod[] | undefined, diff: number, now: number, gates: Gates): DeletionPlan {
  const ranked = rankPods(active, related)
  if (diff >= ranked.length) {
    return {
      sorted: false,
      candidates: ranked.map((r, i) => ({pod: r.pod, rank: r.rank, position: i + 1, chosen: true})),
      chosen: ranked.map((r) => r.pod),
    }
  }
  const sortNow = gates.LogarithmicScaleDown ? now : null
  const cmp = (a: RankedPod, b: RankedPod) => compareWithRanks(a, b, sortNow, gates)
  ranked.sort((a, b) => (cmp(a, b).less ? -1 : cmp(b, a).less ? 1 : 0))
  const candidates: DeletionCandidate[] = ranked.map((r, i) => {
    const next = ranked[i + 1]
    const versus = next === undefined ? undefined : cmp(r, next)
    return {pod: r.pod, rank: r.rank, position: i + 1, chosen: i < diff, versusNext: versus?.less ? versus : undefined}
  })
  const plan: DeletionPlan = {sorted: true, candidates, chosen: ranked.slice(0, diff).map((r) => r.pod)}
  if (diff > 0) plan.cut = cmp(ranked[diff - 1], ranked[diff])
  // The tie group around the cut: neighbours that compare equal both ways.
  const equal = (i: number) => !cmp(ranked[i], ranked[i + 1]).less && !cmp(ranked[i + 1], ranked[i]).less
  if (diff > 0 && equal(diff - 1)) {
    let lo = diff - 1
    let hi = diff
    while (lo > 0 && equal(lo - 1)) lo--
    while (hi + 1 < ranked.length && equal(hi)) hi++
    plan.tie = {pods: ranked.slice(lo, hi + 1).map((r) => r.pod), slots: diff - lo}
  }
  return plan
}
