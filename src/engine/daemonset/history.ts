// The DaemonSet controller's revisions (pkg/controller/daemon/update.go): Match (bytes.Equal of the patch the
// controller builds now with a revision's data, src/engine/history/revision-data.ts), constructHistory's current/old split, dedupCurHistories,
// and snapshot's create path with its collision handling and stale-collisionCount guard.
import {ComputeHash} from '../../hash/compute-hash.js'
import {daemonSetRevisionName} from '../../hash/names.js'
import {MAX_PREDICTED_BUMPS} from '../history/constants.js'
import type {Workload} from '../deployment/types.js'
import type {ControllerRevision} from '../history/types.js'
import {rawOf, revisionNumber} from '../history/revision-data.js'

export interface DaemonSetHistory {
  current: ControllerRevision[]
  old: ControllerRevision[]
  /** dedupCurHistories' keeper when several revisions match (the highest revision; ties: the last in lister order). */
  keeper?: ControllerRevision
  /** Several current revisions share the highest revision number: which one survives depends on informer order. */
  keeperTie?: boolean
  /** max(old revision) + 1: what the current revision is renumbered or created with. */
  currRevision: number
}

/** constructHistory (update.go:293) without its writes: which revisions Match, and the revision number the current gets. */
export function constructHistory(patch: string, histories: readonly ControllerRevision[]): DaemonSetHistory {
  const current: ControllerRevision[] = []
  const old: ControllerRevision[] = []
  for (const h of histories) (rawOf(h) === patch ? current : old).push(h)
  let max = 0
  for (const h of old) max = Math.max(max, revisionNumber(h))
  const out: DaemonSetHistory = {current, old, currRevision: max + 1}
  if (current.length > 0) {
    // dedupCurHistories (update.go:403): `>=` keeps the last of equal maxima.
    let keeper = current[0]
    let top = -1
    for (const c of current) {
      if (revisionNumber(c) >= top) {
        keeper = c
        top = revisionNumber(c)
      }
    }
    out.keeper = keeper
    if (current.filter((c) => revisionNumber(c) === top).length > 1) out.keeperTie = true
  }
  return out
}

export interface SnapshotAttempt {
  collisionCount: number | null
  hash: string
  name: string
  taken: boolean
}

export interface SnapshotPrediction {
  attempts: SnapshotAttempt[]
  creates?: string
  /** The first name is held by a revision whose data Match: snapshot returns it ("we already created it"). */
  existing?: string
  collision?: {holder: string; why: string}
}

/**
 * snapshot (update.go:522): name = "<ds>-<ComputeHash(template, collisionCount)>", uncut. On AlreadyExists it GETs the
 * revision live: if it Matches it is returned; otherwise it GETs the DaemonSet live and bumps collisionCount only
 * when the live count is the one it hashed with (the stale guard), then returns the error to requeue.
 */
export function predictSnapshot(
  ds: Workload,
  template: unknown,
  patch: string,
  collisionCount: number | null,
  version: string,
  byName: ReadonlyMap<string, ControllerRevision>,
): SnapshotPrediction {
  const out: SnapshotPrediction = {attempts: []}
  let count = collisionCount
  for (let i = 0; i <= MAX_PREDICTED_BUMPS; i++) {
    const hash = ComputeHash(template, count, version)
    const name = daemonSetRevisionName(ds.metadata.name, hash)
    const holder = byName.get(name)
    const matches = holder !== undefined && rawOf(holder) === patch
    out.attempts.push({collisionCount: count, hash, name, taken: holder !== undefined && !matches})
    if (!holder) {
      out.creates = name
      return out
    }
    if (matches) {
      if (i === 0) out.existing = name
      else out.creates = name
      return out
    }
    if (i === 0) out.collision = {holder: name, why: holder.data === undefined ? 'its data could not be read' : "its data is another template's patch"}
    count = (count ?? 0) + 1
  }
  return out
}
