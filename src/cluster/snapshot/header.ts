// The `kubectlWhy` header of kubectl-why's own snapshot (docs/snapshot-format.md).
import type {Problem} from '../../explanation.js'
import type {ReadFailure} from '../../errors.js'
import type {KubeObject, ServerVersion} from '../source.js'

/** One list the capture made: absence of an object of this kind (in this namespace) in the snapshot proves it did not exist. */
export interface ListMade {
  apiVersion: string
  kind: string
  /** Absent: all namespaces, or a cluster-scoped kind. */
  namespace?: string
  metadataOnly?: boolean
}

/** A list the capture could not make, with the error a live list would raise, so that a replay raises it again. */
export interface Gap extends ListMade {
  reason: ReadFailure
  status?: number
  message: string
  hint?: string
}

export interface SnapshotHeader {
  format: number
  capturedAt?: string
  /** Set when capturedAt is not a capture time but an estimate (a dump re-written by `snapshot -f`): how it was found. */
  clockFrom?: string
  serverVersion?: ServerVersion
  context?: string
  namespace?: string
  resources?: unknown[]
  metadataOnly?: string[]
  cached?: KubeObject[]
  problems?: Problem[]
  /** Every list the capture made (format 1 files written before this field: nodes, node Leases, the full and metadata-only kinds, all namespaces). */
  lists?: ListMade[]
  gaps?: Gap[]
}
