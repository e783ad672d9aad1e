// getNewReplicaSet's create path (pkg/controller/deployment/sync.go): the name the controller creates when no
// ReplicaSet has the Deployment's template, and what happens when that name is taken (AlreadyExists: the same
// owner and template is adopted; anything else is a hash collision, status.collisionCount is bumped and the
// next sync hashes with it). Also: which existing objects explain a collisionCount already above zero.
import type {CompiledLayout} from '../../hash/compile.js'
import {ComputeHash} from '../../hash/compute-hash.js'
import {replicaSetNameFor} from '../../hash/names.js'
import {plural} from './common.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {MAX_PREDICTED_BUMPS} from '../history/constants.js'
import {EqualIgnoreHash} from './equal-ignore-hash.js'
import {describeCount} from '../history/label-check.js'
import type {ReplicaSet, Workload} from './types.js'

export interface NameHolder {
  name: string
  uid?: string
  /** The holder's controller, "Deployment web (uid …)"; absent for an orphan. */
  controller?: string
}

export interface Bump {
  collisionCount: number | null
  hash: string
  name: string
  /** Taken by an object with another template (or another owner): this attempt collides too. */
  taken: boolean
}

export interface CreatePrediction {
  /** The attempts in order: the first with status.collisionCount, then one per bump, until a free name. */
  attempts: Bump[]
  /** The name finally created, when a free one was found within the bound. */
  creates?: string
  /** The first attempt's name belongs to an object with the same owner and template: taken as the new one. */
  adopts?: NameHolder
  collision?: {holder: NameHolder; why: string}
  /** The name is over 253 characters on a controller that does not cut it (before 1.34): every create fails. */
  nameError?: string
  nameTruncated?: boolean
}

function holderOf(rs: ReplicaSet): NameHolder {
  const c = getControllerOf(rs)
  return {name: rs.metadata.name, ...(rs.metadata.uid ? {uid: rs.metadata.uid} : {}), ...(c ? {controller: `${c.kind} ${c.name} (uid ${c.uid})`} : {})}
}

/** Why the holder of a computed name is not the Deployment's new ReplicaSet (the AlreadyExists branch of getNewReplicaSet). */
export function collides(layout: CompiledLayout, d: Workload, holder: ReplicaSet): string | undefined {
  const c = getControllerOf(holder)
  if (!c) return 'it has no controller owner reference'
  if (c.uid !== d.metadata.uid) return `it is controlled by ${c.kind} ${c.name} (uid ${c.uid}), not by this Deployment`
  if (!EqualIgnoreHash(layout, d.spec?.template, holder.spec?.template)) return 'it has a different template'
  return undefined
}

export function predictCreate(
  layout: CompiledLayout,
  d: Workload,
  template: unknown,
  collisionCount: number | null,
  version: string,
  minor: number,
  byName: ReadonlyMap<string, ReplicaSet>,
): CreatePrediction {
  const out: CreatePrediction = {attempts: []}
  let count = collisionCount
  for (let i = 0; i <= MAX_PREDICTED_BUMPS; i++) {
    const hash = ComputeHash(template, count, version)
    const named = replicaSetNameFor(minor, d.metadata.name, hash)
    if (i === 0) {
      if (named.warning) out.nameError = named.warning
      if (named.name.length < d.metadata.name.length + 1 + hash.length) out.nameTruncated = true
    }
    const holder = byName.get(named.name)
    const why = holder ? collides(layout, d, holder) : undefined
    out.attempts.push({collisionCount: count, hash, name: named.name, taken: why !== undefined})
    if (!holder) {
      out.creates = named.name
      return out
    }
    if (why === undefined) {
      if (i === 0) out.adopts = holderOf(holder)
      else out.creates = named.name
      return out
    }
    if (i === 0) out.collision = {holder: holderOf(holder), why}
    count = (count ?? 0) + 1
  }
  return out
}

export interface CollisionCountEvidence {
  /** The object holding the name the count was bumped away from. */
  holder: string
  /** The count that was in use when that name collided. */
  from: number | null
  template: 'current' | string
}

/**
 * status.collisionCount > 0 means an earlier create hit AlreadyExists with another template. Evidence still in the
 * data: an object holding the name the current template gets with an earlier count, or the name a ReplicaSet
 * created after a bump (its label reproduced with count c > 0) had with the count before.
 */
export function explainCollisionCount(
  layout: CompiledLayout,
  d: Workload,
  template: unknown,
  collisionCount: number,
  version: string,
  minor: number,
  byName: ReadonlyMap<string, ReplicaSet>,
  bumpedReplicaSets: readonly {rs: ReplicaSet; template: unknown; collisionCount: number; version: string}[],
): {evidence: CollisionCountEvidence[]; why: string} {
  const evidence: CollisionCountEvidence[] = []
  const counts: (number | null)[] = [null]
  for (let c = 1; c < collisionCount; c++) counts.push(c)
  for (const c of counts) {
    const name = replicaSetNameFor(minor, d.metadata.name, ComputeHash(template, c, version)).name
    const holder = byName.get(name)
    if (holder && collides(layout, d, holder)) evidence.push({holder: name, from: c, template: 'current'})
  }
  for (const b of bumpedReplicaSets) {
    const before = b.collisionCount === 1 ? null : b.collisionCount - 1
    const name = replicaSetNameFor(Number(b.version.split('.')[1]), d.metadata.name, ComputeHash(b.template, before, b.version)).name
    const holder = byName.get(name)
    if (holder && holder.metadata.uid !== b.rs.metadata.uid && !evidence.some((e) => e.holder === name)) {
      evidence.push({holder: name, from: before, template: b.rs.metadata.name})
    }
  }
  const why =
    evidence.length > 0
      ? evidence
          .map(
            (e) =>
              `${e.holder} holds the name ${e.template === 'current' ? 'the current template' : `the template of ${e.template}`} gets with ${describeCount(e.from)}`,
          )
          .join('; ')
      : `no object in the data explains it: the ReplicaSet that held the name has been deleted since, or the collision was with a template replaced since (the count never goes down)`
  return {evidence, why: `status.collisionCount is ${collisionCount} (${plural(collisionCount, 'collision')} so far): ${why}`}
}
