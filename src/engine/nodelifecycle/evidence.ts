// What the data can prove about node health, from the source's Evidence (src/cluster/evidence.ts) or, for a live
// source (no evidence()), from what was read. Without a node's Lease a stale status heartbeat proves nothing: a
// kubelet that renews its Lease posts status only every nodeStatusReportFrequency (5 min); the controller's own
// marks (Ready Unknown with reason NodeStatusUnknown, its NoExecute taints with timeAdded) are evidence of what it
// concluded. Cluster-level verdicts are certain only over a complete node set.
import type {Evidence, Problem} from '../../explanation.js'
import {iso} from './time.js'

export interface DataEvidence {
  /** A file (snapshot or foreign dump), not a live cluster. */
  file: boolean
  /** Nodes whose Lease the data holds. */
  leaseNames: ReadonlySet<string>
  /** A node's Lease missing from the data means it has none (live read, or a list recorded as complete). */
  leaseAbsenceIsProof: boolean
  leases: 'present' | 'partial' | 'absent'
  nodeSet: 'complete' | 'partial' | 'none'
  clock: {at: string; from: string; trust: 'exact' | 'estimated'}
  missing: Problem[]
}

export interface ReadFacts {
  /** The watch-cache lease list was read (false: it failed). */
  leasesRead: boolean
  leaseNames: ReadonlySet<string>
  file: boolean
  now: number
}

export function dataEvidence(e: Evidence | undefined, read: ReadFacts): DataEvidence {
  if (!e) {
    // A live source answers every read: a lease it does not list does not exist — unless the list failed.
    return {
      file: read.file,
      leaseNames: read.leaseNames,
      leaseAbsenceIsProof: read.leasesRead,
      leases: !read.leasesRead ? 'absent' : 'present',
      nodeSet: 'complete',
      clock: {at: iso(read.now), from: read.file ? 'the data' : 'the live clock', trust: 'exact'},
      missing: [],
    }
  }
  const lease = e.coverage('coordination.k8s.io', 'Lease', 'kube-node-lease')
  // The instant in force is the source's (--now wins); the evidence says how far to trust it when it is the same.
  const same = Date.parse(e.clock.at) === read.now
  return {
    file: read.file,
    leaseNames: read.leaseNames,
    leaseAbsenceIsProof: lease.absenceIsProof && read.leasesRead,
    leases: e.nodeLeases,
    nodeSet: e.nodeSet,
    clock: same ? e.clock : {at: iso(read.now), from: '--now', trust: 'exact'},
    missing: e.missing,
  }
}

/** Whether the data can say anything about this node's lease (it holds it, or its absence is proof). */
export function leaseKnown(ev: DataEvidence | undefined, node: string): boolean {
  return !ev || ev.leaseAbsenceIsProof || ev.leaseNames.has(node)
}
