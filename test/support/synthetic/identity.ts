// Who is who: the random streams objects draw from, their uids, and resourceVersions.
//
// A uid is a pure function of (seed, stream, index), so an owner reference, an event's involvedObject
// or a pod's node can name an object that was — or will be — generated elsewhere, without a lookup table.
import {randomUid, rngFor, type Rng} from './prng.js'

/** One stream per kind of draw; never renumber (it would change every seeded cluster). */
export const Stream = {
  Namespace: 1,
  Node: 2,
  NodeHealth: 3,
  Deployment: 4,
  ReplicaSet: 5,
  Pod: 6,
  DaemonSet: 7,
  StatefulSet: 8,
  ControllerRevision: 9,
  OtherOwned: 10,
  Event: 11,
  ControlPlane: 12,
  PodPlacement: 13,
  /** Objects that existed once and were deleted: the uids dangling owner references point at. */
  Deleted: 14,
  Lease: 15,
  Plan: 16,
} as const

/** uids come from their own streams so that drawing one never shifts an object's other properties. */
const UID_OFFSET = 1000

export function uidOf(seed: number, stream: number, index: number): string {
  return randomUid(rngFor(seed, stream + UID_OFFSET, index))
}

export function rng(seed: number, stream: number, index: number): Rng {
  return rngFor(seed, stream, index)
}

/**
 * etcd revisions. Objects get increasing resourceVersions in the order they are generated, starting
 * where a long-lived cluster's would be; node Leases, renewed every 10 s, hold the newest ones
 * (see leaseResourceVersion), above every other object's.
 */
export class ResourceVersions {
  private next: number
  constructor(readonly start: number) {
    this.next = start
  }

  take(): string {
    return String(this.next++)
  }
}
