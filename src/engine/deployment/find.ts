// Which ReplicaSet the Deployment controller treats as new, and which as old
// (pkg/controller/deployment/util/deployment_util.go FindNewReplicaSet:629, FindOldReplicaSets:646, Revision, MaxRevision).
import type {CompiledLayout} from '../../hash/compile.js'
import {REVISION_ANNOTATION} from './constants.js'
import {EqualIgnoreHash} from './equal-ignore-hash.js'
import type {ReplicaSet, Workload} from './types.js'

function created(rs: ReplicaSet): number {
  const t = rs.metadata.creationTimestamp
  const ms = typeof t === 'string' ? Date.parse(t) : Number.NaN
  // A missing timestamp is Go's zero time: before everything.
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : Math.floor(ms / 1000)
}

/** controller.ReplicaSetsByCreationTimestamp (controller_utils.go:1232): oldest first, ties by name. */
export function byCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
  const ca = created(a)
  const cb = created(b)
  if (ca !== cb) return ca < cb ? -1 : 1
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0
}

/**
 * FindNewReplicaSet: after sorting by creation time, the first ReplicaSet whose template EqualIgnoreHash's the
 * Deployment's — the oldest, which settles duplicate "new" ReplicaSets after upgrades (kubernetes#40415).
 * Also returns the sorted list and every other match (they are old to the controller).
 */
export function FindNewReplicaSet(
  layout: CompiledLayout,
  d: Workload,
  rsList: readonly ReplicaSet[],
): {newRS?: ReplicaSet; sorted: ReplicaSet[]; duplicates: ReplicaSet[]} {
  const sorted = [...rsList].sort(byCreationTimestamp)
  const matching = sorted.filter((rs) => EqualIgnoreHash(layout, rs.spec?.template, d.spec?.template))
  return {newRS: matching[0], sorted, duplicates: matching.slice(1)}
}

/** FindOldReplicaSets: (required = old ones with spec.replicas != 0, all = every other one); nil (null) when none. */
export function FindOldReplicaSets(sorted: readonly ReplicaSet[], newRS: ReplicaSet | undefined): {required: ReplicaSet[] | null; all: ReplicaSet[] | null} {
  const all = sorted.filter((rs) => !newRS || rs.metadata.uid !== newRS.metadata.uid)
  // spec.replicas is defaulted to 1 by the API server; a dump that lacks it is read the same way.
  const required = all.filter((rs) => (rs.spec?.replicas ?? 1) !== 0)
  return {required: required.length > 0 ? required : null, all: all.length > 0 ? all : null}
}

/** Revision: the revision annotation as int64; absent is 0; undefined when it does not parse (ParseInt fails). */
export function Revision(rs: ReplicaSet): number | undefined {
  const v = rs.metadata.annotations?.[REVISION_ANNOTATION]
  if (v === undefined) return 0
  return /^[+-]?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : undefined
}

/** MaxRevision: the highest parseable revision (unparseable ones are skipped, as upstream logs and skips them). */
export function MaxRevision(list: readonly ReplicaSet[] | null): number {
  let max = 0
  for (const rs of list ?? []) {
    const r = Revision(rs)
    if (r !== undefined && r > max) max = r
  }
  return max
}
