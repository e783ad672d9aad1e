// The DaemonSet controller's revisions (pkg/controller/daemon/update.go): getPatch and Match (bytes.Equal of the
// patch the controller builds now with a revision's data), constructHistory's current/old split, dedupCurHistories,
// and snapshot's create path with its collision handling and stale-collisionCount guard.
import type {CompiledLayout} from '../../hash/compile.js'
import {ComputeHash} from '../../hash/compute-hash.js'
import {statefulSetPatch} from '../../hash/controller-revision.js'
import {goJsonMarshal, type GoJson} from '../../hash/go-json.js'
import {daemonSetRevisionName} from '../../hash/names.js'
import {isObj} from '../deployment/common.js'
import {MAX_PREDICTED_BUMPS} from '../deployment/constants.js'
import type {ControllerRevision, Workload} from '../deployment/types.js'

/**
 * getPatch (update.go:499): the DaemonSet as JSON, decoded into a map, reduced to
 * {"spec":{"template":<template + "$patch":"replace">}}, written by json.Marshal (sorted keys, HTML-safe escapes).
 * Only the template matters; how it is written depends on the version's struct tags (omitempty, omitzero).
 */
export function getPatch(layout: CompiledLayout, template: unknown): string {
  return new TextDecoder().decode(statefulSetPatch(layout, template))
}

/**
 * A revision's Data.Raw. The API server returns the stored bytes as embedded JSON; the controllers wrote them with
 * json.Marshal of a map, so writing the parsed value back the same way gives the stored bytes again.
 */
export function rawOf(cr: ControllerRevision): string | undefined {
  return cr.data === undefined || cr.data === null ? undefined : goJsonMarshal(cr.data as GoJson)
}

/** The pod template a revision's data holds (without "$patch"), or undefined when it holds none. */
export function templateOfRevision(cr: ControllerRevision): Record<string, unknown> | undefined {
  const d = cr.data
  if (!isObj(d) || !isObj(d.spec) || !isObj(d.spec.template)) return undefined
  const {$patch: _, ...template} = d.spec.template
  return template
}

export function revisionNumber(cr: ControllerRevision): number {
  const r = cr.revision
  return typeof r === 'bigint' ? Number(r) : typeof r === 'number' ? r : 0
}

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
export function predictSnapshot(ds: Workload, template: unknown, patch: string, collisionCount: number | null, version: string,
  byName: ReadonlyMap<string, ControllerRevision>): SnapshotPrediction {
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
    if (i === 0) out.collision = {holder: name, why: holder.data === undefined ? 'its data could not be read' : 'its data is another template\'s patch'}
    count = (count ?? 0) + 1
  }
  return out
}
