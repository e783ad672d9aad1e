// The controller history package (pkg/controller/history/controller_history.go), shared by the workload replays:
// SortControllerRevisions, EqualRevision, FindEqualRevisions, HashControllerRevision over Data.Raw and
// ControllerRevisionName, and CreateControllerRevision's collision loop.
import {ControllerRevisionName, HashControllerRevision} from '../../hash/controller-revision.js'
import {describeCount, type LabelCheck, suffixOf} from './label-check.js'
import {HISTORY_HASH_LABEL, MAX_PREDICTED_BUMPS} from './constants.js'
import type {ControllerRevision} from './types.js'
import {rawOf, revisionNumber} from './revision-data.js'

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
  return {
    name: cr.metadata.name,
    revision: revisionNumber(cr),
    hashLabel: cr.metadata.labels?.[HISTORY_HASH_LABEL],
    raw: rawOf(cr),
    created: cr.metadata.creationTimestamp ?? undefined,
    object: cr,
  }
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
export function predictCreateRevision(
  parent: string,
  raw: string,
  collisionCount: number,
  byName: {get(name: string): Rev | undefined},
): {attempts: CreateAttempt[]; creates?: string; returnsExisting?: string} {
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

/** Which collision count reproduces a revision's name (and its hash label) from its own data. */
export function checkRevision(setName: string, r: Rev, collisionCount: number, max: number): {label: LabelCheck; hashLabelCount?: number} {
  const suffix = suffixOf(r.name)
  if (r.raw === undefined)
    return {
      label: {
        label: suffix,
        result: 'unreproducible',
        reason: 'invalidTemplate',
        explained: true,
        why: 'the revision has no data to hash (read as metadata only?)',
      },
    }
  const counts = [...new Set([collisionCount, ...Array.from({length: Math.max(max, collisionCount) + 1}, (_, i) => i)])]
  let nameCount: number | undefined
  let labelCount: number | undefined
  for (const c of counts) {
    const h = hashRaw(r.raw, c)
    if (nameCount === undefined && ControllerRevisionName(setName, h) === r.name) nameCount = c
    if (labelCount === undefined && h === r.hashLabel) labelCount = c
  }
  if (nameCount !== undefined) {
    const bumped =
      labelCount !== undefined && labelCount !== nameCount
        ? `; its ${'controller.kubernetes.io/hash'} label is the hash with collisionCount ${labelCount}: created after a collision (the label is not updated in CreateControllerRevision's loop)`
        : ''
    return {
      label: {
        label: suffix,
        recomputed: hashRaw(r.raw, collisionCount),
        result: 'matches',
        collisionCount: nameCount,
        why: `HashControllerRevision of its data with ${describeCount(nameCount)} gives its name${bumped}`,
      },
      ...(labelCount !== undefined ? {hashLabelCount: labelCount} : {}),
    }
  }
  return {
    label: {
      label: suffix,
      recomputed: hashRaw(r.raw, collisionCount),
      result: 'unreproducible',
      reason: 'unknown',
      explained: false,
      why: `its data does not hash to its name with collisionCount 0–${Math.max(max, collisionCount)}: the data was rewritten (a re-serialized dump does not keep bytes) or edited, or an older controller hashed differently`,
    },
  }
}
