// slowStartBatch (pkg/controller/replicaset/replica_set.go:887): creates in batches of 1, 2, 4, ... (each
// min(2 × previous, remaining)); a batch runs to completion, and any failure in it stops the rest.
import {SLOW_START_INITIAL_BATCH_SIZE} from './constants.js'

/** The batch sizes when every call succeeds. */
export function slowStartBatches(count: number, initialBatchSize = SLOW_START_INITIAL_BATCH_SIZE): number[] {
  const out: number[] = []
  let remaining = count
  for (let size = Math.min(remaining, initialBatchSize); size > 0; size = Math.min(2 * size, remaining)) {
    out.push(size)
    remaining -= size
  }
  return out
}

export interface SlowStartOutcome {
  /** The batches actually run. */
  batches: number[]
  /** Calls made (the sum of the batches run). */
  calls: number
  successes: number
  /** Calls never attempted: manageReplicas lowers the creation expectations by diff − successes. */
  skipped: number
  /** Failed calls: each costs one API request and, except NamespaceTerminating, one FailedCreate event. */
  failures: number
}

/**
 * Replays slowStartBatch when only the first `succeedFirst` calls succeed (like a quota with room for that
 * many pods), the way TestSlowStartBatch's callLimit does. Infinity: all succeed.
 */
export function simulateSlowStart(count: number, succeedFirst: number, initialBatchSize = SLOW_START_INITIAL_BATCH_SIZE): SlowStartOutcome {
  const batches: number[] = []
  let remaining = count
  let calls = 0
  let successes = 0
  for (let size = Math.min(remaining, initialBatchSize); size > 0; size = Math.min(2 * size, remaining)) {
    batches.push(size)
    const ok = Math.max(0, Math.min(size, succeedFirst - calls))
    calls += size
    successes += ok
    if (ok < size) break
    remaining -= size
  }
  return {batches, calls, successes, skipped: count - successes, failures: calls - successes}
}

/** The most calls that can fail in one manageReplicas pass: a whole batch, at worst the largest. */
export function worstCaseDoomedCalls(count: number, initialBatchSize = SLOW_START_INITIAL_BATCH_SIZE): number {
  return Math.max(0, ...slowStartBatches(count, initialBatchSize))
}
