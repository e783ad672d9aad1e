// getIndirectlyRelatedPods, getPodsRankedByRelatedPodsOnSameNode and getPodsToDelete
// (pkg/controller/replicaset/replica_set.go:915-987): which pods a scale-down removes, in order.
import type {Gates} from './gates.js'
import {isPodActive} from './pod-util.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {type Comparison, compareWithRanks, keyLess, type RankedPod, rankKey} from './ranking.js'
import {labelSelectorAsSelector, type Selector} from '../../apimachinery/labels.js'
import {analyseTies, type TieAtCut} from './ties.js'
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
    let selector: Selector
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
  /** Pods of which any `slots` may go, depending on the informer's list order (ties.ts). */
  tie?: {
    pods: Pod[]
    slots: number
    reason: TieAtCut['reason']
    /** For notTransitive: three pods and the rule that orders each pair, showing Less is not a strict weak order here. */
    witness?: {pods: [Pod, Pod, Pod]; cycle: boolean; pairs: {before: Pod; after: Pod; comparison: Comparison}[]}
  }
}

/**
 * getPodsToDelete: when fewer than all active pods go, sort them with ActivePodsWithRanks (Now = the
 * evaluation time, or zero without LogarithmicScaleDown) and take the first `diff`. The order shown puts the pods no
 * list order can move (ties.ts) where every sort puts them; the tie is the set the cut falls in, when it is not certain.
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
  const ties = analyseTies(
    ranked.map((r) => rankKey(r, sortNow)),
    diff,
    (a, b) => keyLess(a, b, sortNow, gates),
  )
  // A sort given an inconsistent comparator may leave a pod after one it is certainly Less than: order by component.
  const position = new Map(ranked.map((r, i) => [r, i]))
  const component = new Map(ranked.map((r, i) => [r, ties.component[i]]))
  ranked.sort((a, b) => component.get(a)! - component.get(b)! || position.get(a)! - position.get(b)!)
  const candidates: DeletionCandidate[] = ranked.map((r, i) => {
    const next = ranked[i + 1]
    const versus = next === undefined ? undefined : cmp(r, next)
    return {pod: r.pod, rank: r.rank, position: i + 1, chosen: i < diff, versusNext: versus?.less ? versus : undefined}
  })
  const plan: DeletionPlan = {sorted: true, candidates, chosen: ranked.slice(0, diff).map((r) => r.pod)}
  if (diff > 0) plan.cut = cmp(ranked[diff - 1], ranked[diff])
  const t = ties.tie
  if (t) {
    const original = [...position.keys()]
    const members = new Set(t.members.map((i) => original[i]))
    plan.tie = {pods: ranked.filter((r) => members.has(r)).map((r) => r.pod), slots: t.slots, reason: t.reason}
    if (t.witness) {
      const [a, b, c] = t.witness.indices.map((i) => original[i])
      plan.tie.witness = {
        pods: [a.pod, b.pod, c.pod],
        cycle: t.witness.cycle,
        pairs: [
          [a, b],
          [b, c],
          [c, a],
        ].map(([x, y]) => {
          const forward = cmp(x, y)
          return forward.less || forward.rule ? {before: x.pod, after: y.pod, comparison: forward} : {before: x.pod, after: y.pod, comparison: cmp(y, x)}
        }),
      }
    }
  }
  return plan
}
