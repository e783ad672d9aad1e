// The controller history package as the StatefulSet controller uses it (pkg/controller/history/controller_history.go):
// SortControllerRevisions, EqualRevision, FindEqualRevisions, nextRevision, HashControllerRevision over Data.Raw and
// ControllerRevisionName, and CreateControllerRevision's collision loop.
import {ControllerRevisionName, HashControllerRevision} from '../../hash/controller-revision.js'
import {MAX_PREDICTED_BUMPS} from '../deployment/constants.js'
import {HISTORY_HASH_LABEL} from '../deployment/constants.js'
import type {ControllerRevision} from '../deployment/types.js'
import {rawOf, revisionNumber} from '../daemonset/history.js'

const encoder = new TextEncoder()

/** A revision as the history package compares it: its name, hash label, revision number and raw bytes. */
export interface Rev {
  name: string
  revision: number
  hashLabel?: string
  raw?: string
  created?: string
  object?: ControllerRevision
}

export function revOf(cr: ControllerRevision): Rev {
  return {name: cr.metadata.name, revision: revisionNumber(cr), hashLabel: cr.metadata.labels?.[HISTORY_HASH_LABEL], raw: rawOf(cr), created: cr.metadata.creationTimestamp ?? undefined, object: cr}
}

/** SortControllerRevisions: revision ascending, then creation time, then name. */
export function SortControllerRevisions(revs: Rev[]): Rev[] {
  const t = (r: Rev) => (r.created ? Math.floor(Date.parse(r.created) / 1000) : Number.NEGATIVE_INFINITY)
  return revs.sort((a, b) => a.revision - b.revision || t(a) - t(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** strconv.ParseInt(label, 10, 32): SafeEncoded hashes made only of the alphabet's digits parse (kubernetes#61998). */
function parseInt32(s: string | undefined): number | undefined {
  if (s === undefined || !/^[+-]?\d+$/.test(s)) return undefined
  const n = Number(s)
  return n >= -(2 ** 31) && n < 2 ** 31 ? n >>> 0 : undefined
}

/** EqualRevision: hash labels that both parse as int32 and differ decide "not equal"; otherwise the raw bytes do. */
export function EqualRevision(a: Rev, b: Rev): boolean {
  const ha = parseInt32(a.hashLabel)
  const hb = parseInt32(b.hashLabel)
  if (ha !== undefined && hb !== undefined && ha !== hb) return false
  return a.raw !== undefined && a.raw === b.raw
}

export function FindEqualRevisions(revs: readonly Rev[], needle: Rev): Rev[] {
  return revs.filter((r) => EqualRevision(r, needle))
}

/** nextRevision (stateful_set_utils.go): the latest revision + 1, or 1. */
export function nextRevision(sorted: readonly Rev[]): number {
  return sorted.length === 0 ? 1 : sorted[sorted.length - 1].revision + 1
}

export function hashRaw(raw: string, probe: number | null): string {
  return HashControllerRevision(encoder.encode(raw), probe)
}

export interface CreateAttempt {
  collisionCount: number
  hash: string
  name: string
  taken: boolean
}

/**
 * CreateControllerRevision: name the clone ControllerRevisionName(parent, HashControllerRevision(raw, count)); on
 * AlreadyExists GET it live — equal bytes: return it; else count++ and try again, all within one sync. The hash
 * label keeps the first count's hash (it is not updated in the loop).
 */
export function predictCreateRevision(parent: string, raw: string, collisionCount: number, byName: {get(name: string): Rev | undefined}): {attempts: CreateAttempt[]; creates?: string; returnsExisting?: string} {
  const attempts: CreateAttempt[] = []
  let count = collisionCount
  for (let i = 0; i <= MAX_PREDICTED_BUMPS; i++) {
    const hash = hashRaw(raw, count)
    const name = ControllerRevisionName(parent, hash)
    const holder = byName.get(name)
    attempts.push({collisionCount: count, hash, name, taken: holder !== undefined && holder.raw !== raw})
    if (!holder) return {attempts, creates: name}
    if (holder.raw === raw) return {attempts, returnsExisting: name}
    count++
  }
  return {attempts}
}
