// The consistency store behind the lease circuit breaker (staging/src/k8s.io/client-go/util/consistency/consistency.go):
// the node lifecycle controller records the resourceVersion of a Lease it saw live, and refuses to evaluate
// any node until its lease informer has synced at least that far. It uses one empty key for everything, so
// the block is controller-wide.

const VALID_RV = /^[1-9][0-9]*$/

/** Compares two resourceVersions as the client does: decimal integers; anything else is not comparable. */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!VALID_RV.test(a) || !VALID_RV.test(b)) return undefined
  const x = BigInt(a)
  const y = BigInt(b)
  return x === y ? 0 : x < y ? -1 : 1
}

export type EnsureReadyResult = {ready: true; cleared: boolean} | {ready: false; recordedRV: string; readRV: string; why: 'notSynced' | 'behind'}

export class ConsistencyStore {
  /** The lease RV the controller wrote down, if any. */
  recordedRV: string | undefined

  constructor(recordedRV?: string) {
    this.recordedRV = recordedRV
  }

  /** WroteAt: invalid or empty RVs are ignored; an existing record only moves forward. */
  wroteAt(rv: string): void {
    if (!VALID_RV.test(rv)) return
    if (this.recordedRV === undefined || (compareResourceVersions(rv, this.recordedRV) ?? 0) > 0) this.recordedRV = rv
  }

  /**
   * EnsureReady against the lease informer's last-sync RV. An empty read RV (before the first sync, or without
   * the AtomicFIFO client gate) is not ready; an RV that cannot be compared is skipped (treated as ready).
   * Once ready, the record is cleared.
   */
  ensureReady(informerSyncRV: string | undefined): EnsureReadyResult {
    if (this.recordedRV === undefined) return {ready: true, cleared: false}
    const read = informerSyncRV ?? ''
    if (read === '') return {ready: false, recordedRV: this.recordedRV, readRV: read, why: 'notSynced'}
    const cmp = compareResourceVersions(this.recordedRV, read)
    if (cmp !== undefined && cmp > 0) return {ready: false, recordedRV: this.recordedRV, readRV: read, why: 'behind'}
    this.recordedRV = undefined
    return {ready: true, cleared: true}
  }
}
