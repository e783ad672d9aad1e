// Which objects one ReplicaSet's replay is handed, computed the same way whatever was read (one ReplicaSet's
// targeted reads, or a whole scope): its family (getReplicaSetsWithSameController, replica_set.go:925, over the
// controllerUID index of the ReplicaSet informer) and the pods it can touch — those controlled by a family member
// (FilterPodsByOwner gives the controller its own; the rest only show as ignored) and those matching the selector of
// any family member, whoever controls them (getIndirectlyRelatedPods, RS:915, lists the pod lister by selector).
// Orphans matching no family selector are left out: claimPods skips them without action.
// Pure: objects in, objects out.
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {labelSelectorAsSelector, type Selector} from '../../apimachinery/labels.js'
import type {CoreEvent, Pod, ReplicaSet} from './types.js'

/** getReplicaSetsWithSameController: every ReplicaSet whose controllerRef has rs's controller UID, rs included. */
export function getReplicaSetsWithSameController(rs: ReplicaSet, all: readonly ReplicaSet[]): ReplicaSet[] {
  const ref = getControllerOf(rs)
  if (!ref) return [rs]
  const siblings = all.filter((r) => getControllerOf(r)?.uid === ref.uid)
  return siblings.some((r) => r.metadata.uid === rs.metadata.uid) ? siblings : [rs, ...siblings]
}

function selectorOf(rs: ReplicaSet): Selector | undefined {
  try {
    return labelSelectorAsSelector(rs.spec?.selector)
  } catch {
    return undefined // An invalid selector matches no pod (the replay itself reports it).
  }
}

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const l = m.get(k)
  if (l) l.push(v)
  else m.set(k, [v])
}

/**
 * Every ReplicaSet of a scope indexed once: its family, the pods a replay of it is handed (see the header), its
 * events. Pods are found by controller UID and, for selectors, through the rarest of their matchLabels pairs, so a
 * scope of 60,000 pods is not scanned once per ReplicaSet.
 */
export function indexScope(replicaSets: readonly ReplicaSet[], pods: readonly Pod[], events?: readonly CoreEvent[]) {
  const byController = new Map<string, Pod[]>()
  const byNamespace = new Map<string, Pod[]>()
  const byLabel = new Map<string, Pod[]>()
  for (const p of pods) {
    const ns = p.metadata.namespace ?? ''
    const ref = getControllerOf(p)
    if (ref) push(byController, ref.uid, p)
    push(byNamespace, ns, p)
    for (const [k, v] of Object.entries(p.metadata.labels ?? {})) push(byLabel, `${ns}\u0000${k}\u0000${v}`, p)
  }
  const siblings = new Map<string, ReplicaSet[]>()
  for (const rs of replicaSets) {
    const ref = getControllerOf(rs)
    if (ref) push(siblings, ref.uid, rs)
  }
  const eventsByUid = new Map<string, CoreEvent[]>()
  for (const e of events ?? []) if (e.involvedObject?.kind === 'ReplicaSet') push(eventsByUid, e.involvedObject.uid ?? '', e)

  const matching = (rs: ReplicaSet): Pod[] => {
    const selector = selectorOf(rs)
    if (!selector) return []
    const ns = rs.metadata.namespace ?? ''
    let candidates = byNamespace.get(ns) ?? []
    for (const [k, v] of Object.entries(rs.spec?.selector?.matchLabels ?? {})) {
      const l = byLabel.get(`${ns}\u0000${k}\u0000${v}`) ?? []
      if (l.length < candidates.length) candidates = l
    }
    return candidates.filter((p) => selector(p.metadata.labels))
  }
  const familyOf = (rs: ReplicaSet): ReplicaSet[] => {
    const ref = getControllerOf(rs)
    const s = ref ? siblings.get(ref.uid) : undefined
    return s ? getReplicaSetsWithSameController(rs, s) : [rs]
  }
  const podsCache = new Map<string, Pod[]>()
  return {
    familyOf,
    /** The pods handed to a replay of rs: one list per family, shared by its members. */
    podsFor(rs: ReplicaSet): Pod[] {
      const family = familyOf(rs)
      const key = getControllerOf(rs)?.uid ?? `rs/${rs.metadata.uid ?? rs.metadata.name}`
      const cached = podsCache.get(key)
      if (cached) return cached
      const seen = new Set<Pod>()
      const out: Pod[] = []
      const add = (p: Pod) => {
        if (seen.has(p)) return
        seen.add(p)
        out.push(p)
      }
      for (const r of family)
        for (const p of byController.get(r.metadata.uid ?? '') ?? []) if ((p.metadata.namespace ?? '') === (rs.metadata.namespace ?? '')) add(p)
      for (const r of family) for (const p of matching(r)) add(p)
      podsCache.set(key, out)
      return out
    },
    eventsFor(rs: ReplicaSet): CoreEvent[] | undefined {
      return events ? (eventsByUid.get(rs.metadata.uid ?? '') ?? []) : undefined
    },
  }
}
