// ControllerExpectations and UIDTrackingControllerExpectations (pkg/controller/controller_utils.go:183-395),
// re-executed with an explicit clock so the inference can replay what the controller did and saw.

import {EXPECTATIONS_TIMEOUT_MS} from './constants.js'

interface Record_ {
  add: number
  del: number
  /** Set only by SetExpectations (CU:230); lowering or raising never refreshes it. */
  timestamp: number
}

export class ControllerExpectations {
  private readonly store = new Map<string, Record_>()

  constructor(private readonly clock: () => number) {}

  getExpectations(key: string): {add: number; del: number; timestamp: number} | undefined {
    const r = this.store.get(key)
    return r ? {...r} : undefined
  }

  /** SatisfiedExpectations (CU:195): no record, fulfilled (add ≤ 0 and del ≤ 0), or expired. */
  satisfiedExpectations(key: string): boolean {
    const r = this.store.get(key)
    if (!r) return true
    return fulfilled(r) || this.isExpired(r)
  }

  /** isExpired (CU:225): strictly more than ExpectationsTimeout since the timestamp. */
  isExpired(r: {timestamp: number}): boolean {
    return this.clock() - r.timestamp > EXPECTATIONS_TIMEOUT_MS
  }

  setExpectations(key: string, add: number, del: number): void {
    this.store.set(key, {add, del, timestamp: this.clock()})
  }

  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0)
  }

  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels)
  }

  lowerExpectations(key: string, add: number, del: number): void {
    const r = this.store.get(key)
    if (r) {
      r.add -= add
      r.del -= del
    }
  }

  raiseExpectations(key: string, add: number, del: number): void {
    const r = this.store.get(key)
    if (r) {
      r.add += add
      r.del += del
    }
  }

  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0)
  }

  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1)
  }

  deleteExpectations(key: string): void {
    this.store.delete(key)
  }
}

export function fulfilled(r: {add: number; del: number}): boolean {
  return r.add <= 0 && r.del <= 0
}

/**
 * UIDTrackingControllerExpectations (CU:340): deletions are tracked by pod key ("ns/name"), so a graceful
 * delete (deletionTimestamp update, then the final delete) is counted once, and deletions of pods the
 * controller did not choose are not counted at all.
 */
export class UIDTrackingControllerExpectations extends ControllerExpectations {
  private readonly uids = new Map<string, Set<string>>()

  getUIDs(key: string): Set<string> | undefined {
    return this.uids.get(key)
  }

  expectDeletionKeys(key: string, podKeys: string[]): void {
    const set = new Set(podKeys)
    this.uids.set(key, set)
    this.expectDeletions(key, set.size)
  }

  deletionObservedKey(key: string, podKey: string): void {
    const set = this.uids.get(key)
    if (set?.has(podKey)) {
      this.deletionObserved(key)
      set.delete(podKey)
    }
  }

  override deleteExpectations(key: string): void {
    super.deleteExpectations(key)
    this.uids.delete(key)
  }
}
