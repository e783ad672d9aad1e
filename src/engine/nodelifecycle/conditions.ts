// Node condition helpers and the Unknown write of tryUpdateNodeHealth step 7 (nlc.go:976-1012).
import {parseMicros} from './time.js'
import type {NodeCondition, NodeLike} from './types.js'

export function getNodeCondition(conditions: readonly NodeCondition[] | null | undefined, type: string): NodeCondition | undefined {
  return (conditions ?? []).find((c) => c.type === type)
}

export function readyCondition(node: NodeLike): NodeCondition | undefined {
  return getNodeCondition(node.status?.conditions, 'Ready')
}

function sameInstant(a: string | null | undefined, b: string | null | undefined): boolean {
  return (parseMicros(a, 'condition time') ?? 0) === (parseMicros(b, 'condition time') ?? 0)
}

/** metav1.Time fields compare as instants; "changed" in the controller means "not the same instant". */
export function heartbeatChanged(a: NodeCondition, b: NodeCondition): boolean {
  return !sameInstant(a.lastHeartbeatTime, b.lastHeartbeatTime)
}

export function transitionChanged(a: NodeCondition, b: NodeCondition): boolean {
  return !sameInstant(a.lastTransitionTime, b.lastTransitionTime)
}

/** apiequality.Semantic.DeepEqual on two conditions (times compared as instants). */
export function conditionsSemanticallyEqual(a: NodeCondition | undefined, b: NodeCondition | undefined): boolean {
  if (!a || !b) return a === b
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    sameInstant(a.lastHeartbeatTime, b.lastHeartbeatTime) &&
    sameInstant(a.lastTransitionTime, b.lastTransitionTime)
  )
}

/** The conditions the controller sets Unknown when a node goes stale. NetworkUnavailable is left alone on purpose. */
export const CONDITIONS_SET_UNKNOWN = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const

export const REASON_STATUS_UNKNOWN = 'NodeStatusUnknown'
export const REASON_NEVER_UPDATED = 'NodeStatusNeverUpdated'
export const MESSAGE_STATUS_UNKNOWN = 'Kubelet stopped posting node status.'
export const MESSAGE_NEVER_UPDATED = 'Kubelet never posted node status.'

export interface ConditionChange {
  type: string
  from?: string
  to: 'Unknown'
  reason: string
}

/**
 * Step 7: missing conditions are appended (heartbeat = creationTimestamp), present ones not already Unknown
 * become Unknown keeping their heartbeat; already-Unknown ones are untouched. Returns the new list and the changes.
 */
export function markConditionsUnknown(node: NodeLike, nowIso: string): {conditions: NodeCondition[]; changes: ConditionChange[]} {
  const conditions = (node.status?.conditions ?? []).map((c) => ({...c}))
  const changes: ConditionChange[] = []
  for (const type of CONDITIONS_SET_UNKNOWN) {
    const current = conditions.find((c) => c.type === type)
    if (!current) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: REASON_NEVER_UPDATED,
        message: MESSAGE_NEVER_UPDATED,
        lastHeartbeatTime: node.metadata?.creationTimestamp ?? null,
        lastTransitionTime: nowIso,
      })
      changes.push({type, to: 'Unknown', reason: REASON_NEVER_UPDATED})
    } else if (current.status !== 'Unknown') {
      changes.push({type, from: current.status, to: 'Unknown', reason: REASON_STATUS_UNKNOWN})
      current.status = 'Unknown'
      current.reason = REASON_STATUS_UNKNOWN
      current.message = MESSAGE_STATUS_UNKNOWN
      current.lastTransitionTime = nowIso
    }
  }
  return {conditions, changes}
}
