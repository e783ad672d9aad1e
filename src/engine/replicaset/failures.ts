// Creates that fail (quota, admission): FailedCreate events carry the API server's error
// ("Error creating: <err>", controller_utils.go:600) and manageReplicas' error becomes the ReplicaFailure
// condition (replica_set_utils.go calculateStatus). With slow start beginning at a batch of 1, a sync whose
// first create fails makes exactly one doomed call, subtracts the rest from its expectations, and is retried
// under the work queue's exponential backoff.
import {REQUEUE_BASE_MS, REQUEUE_MAX_MS} from './constants.js'
import {type ActionKind, classifyCreateError, type ControllerAction, type CreateFailureKind} from './events.js'
import {iso} from './time.js'
import type {ReplicaSetCondition} from './types.js'

export interface CreateFailures {
  /** Whether the most recent create attempt on record failed (or the ReplicaFailure condition says so). */
  failingNow: boolean
  /** FailedCreate calls on record (event counts, aggregated events included). */
  failedCalls: number
  firstAt?: string
  lastAt?: string
  /** The API server's error text of the latest failure (or the condition's message). */
  error?: string
  kind?: CreateFailureKind
  detail?: string
  condition?: {reason: string; message: string; since?: string}
}

export function analyseCreateFailures(
  actions: readonly ControllerAction[] | undefined,
  condition: ReplicaSetCondition | undefined,
): CreateFailures | undefined {
  const failed = (actions ?? []).filter((a) => a.kind === 'createFailed')
  const cond =
    condition && condition.status === 'True' && condition.reason === 'FailedCreate'
      ? {reason: condition.reason, message: condition.message ?? '', since: condition.lastTransitionTime ?? undefined}
      : undefined
  if (failed.length === 0 && cond === undefined) return undefined
  const latestOf = (kind: ActionKind) => Math.max(-Infinity, ...(actions ?? []).filter((a) => a.kind === kind).map((a) => a.last))
  const lastFailed = latestOf('createFailed')
  const lastCreated = latestOf('create')
  const failingNow = (failed.length > 0 && lastFailed >= lastCreated) || cond !== undefined
  const latest = failed.length > 0 ? failed.reduce((a, b) => (b.last >= a.last ? b : a)) : undefined
  const error = latest?.error ?? cond?.message
  const out: CreateFailures = {failingNow, failedCalls: failed.reduce((n, a) => n + a.count, 0)}
  if (failed.length > 0) {
    out.firstAt = iso(Math.min(...failed.map((a) => a.first)))
    out.lastAt = iso(lastFailed)
  }
  if (error !== undefined) {
    out.error = error
    const c = classifyCreateError(error)
    out.kind = c.kind
    out.detail = c.detail
  }
  if (cond) out.condition = cond
  return out
}

/** The per-item backoff after `failures` consecutive failed syncs (ItemExponentialFailureRateLimiter). */
export function requeueDelayMs(failures: number): number {
  return Math.min(REQUEUE_BASE_MS * 2 ** Math.max(0, failures - 1), REQUEUE_MAX_MS)
}
