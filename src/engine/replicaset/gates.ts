// Version differences in the deletion ranking. Each gate's default follows its KEP's graduation:
// PodDeletionCost (KEP-2255) alpha 1.21, beta (on) 1.22; LogarithmicScaleDown (KEP-2185) alpha 1.21, beta (on)
// 1.22, later GA and removed, after which ActivePodsWithRanks.Now is always set (replica_set.go:986);
// sidecar restart counts joined compareMaxContainerRestarts with kubernetes/kubernetes#124952 (merged
// mid-2024, first released in 1.31 by its merge date; the exact release is not pinned).
import type {GateName, ReplicaSetSettings} from './types.js'

const SINCE: Record<GateName, number> = {
  PodDeletionCost: 22,
  LogarithmicScaleDown: 22,
  SidecarRestartRanking: 31,
}

export type Gates = Record<GateName, boolean>

export function gatesFor(settings: ReplicaSetSettings): Gates {
  const out = {} as Gates
  for (const name of Object.keys(SINCE) as GateName[]) {
    out[name] = settings.gates?.[name] ?? settings.minor >= SINCE[name]
  }
  return out
}
