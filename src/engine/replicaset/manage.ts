// manageReplicas (pkg/controller/replicaset/replica_set.go:649): the diff between claimed active pods and
// spec.replicas, capped at burstReplicas, turned into slow-start creates or ranked deletes.
import {BURST_REPLICAS} from './constants.js'
import type {Gates} from './gates.js'
import {type DeletionPlan, getPodsToDelete} from './pods-to-delete.js'
import {slowStartBatches, worstCaseDoomedCalls} from './slow-start.js'
import type {Pod} from './types.js'

export interface ManagePlan {
  action: 'none' | 'create' | 'delete'
  /** len(activePods) − spec.replicas */
  diff: number
  /** Creates or deletes this call would issue: |diff| capped at BurstReplicas. */
  count: number
  capped: boolean
  batches?: number[]
  worstCaseDoomedCalls?: number
  deletion?: DeletionPlan
}

export function planManageReplicas(active: readonly Pod[], desired: number, related: readonly Pod[] | undefined, now: number, gates: Gates): ManagePlan {
  const diff = active.length - desired
  if (diff === 0) return {action: 'none', diff, count: 0, capped: false}
  const count = Math.min(Math.abs(diff), BURST_REPLICAS)
  const capped = Math.abs(diff) > BURST_REPLICAS
  if (diff < 0) {
    return {action: 'create', diff, count, capped, batches: slowStartBatches(count), worstCaseDoomedCalls: worstCaseDoomedCalls(count)}
  }
  return {action: 'delete', diff, count, capped, deletion: getPodsToDelete(active, related, count, now, gates)}
}
