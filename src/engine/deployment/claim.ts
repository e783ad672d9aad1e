// ClaimObject (pkg/controller/controller_ref_manager.go), as ClaimReplicaSets and ClaimControllerRevisions run it:
// which of the namespace's objects the workload controller works with, adopts, releases or leaves alone.
import {labelSelectorAsSelector, SelectorError} from '../../apimachinery/labels.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import type {KubeObject} from '../../cluster/source.js'
import type {LabelSelector, Workload} from './types.js'

export type ClaimResult = 'owned' | 'adopt' | 'release' | 'ignore'

export interface Claim<T> {
  object: T
  result: ClaimResult
  why: string
}

export class WorkloadInputError extends Error {}

/**
 * The objects the controller works from are not in the data although the workload's status shows it has run (a dump
 * without ReplicaSets or ControllerRevisions): replaying would guess, so the workload is not replayed.
 */
export class MissingDataError extends WorkloadInputError {}

/** Every object of the owner's namespace, classified. Owned and adopted ones are what the controller syncs with. */
export function claimObjects<T extends KubeObject>(owner: Workload, objects: readonly T[]): Claim<T>[] {
  let match: (labels: Record<string, string> | undefined) => boolean
  try {
    match = labelSelectorAsSelector(owner.spec?.selector as LabelSelector | undefined)
  } catch (err) {
    if (err instanceof SelectorError)
      throw new WorkloadInputError(`${owner.kind ?? 'workload'} ${owner.metadata.namespace}/${owner.metadata.name}: spec.selector: ${err.message}`)
    throw err
  }
  const ownerDeleting = Boolean(owner.metadata.deletionTimestamp)
  const out: Claim<T>[] = []
  for (const o of objects) {
    if (o.metadata?.namespace !== owner.metadata.namespace) continue
    const ref = getControllerOf(o)
    const matches = match(o.metadata?.labels)
    const deleting = Boolean(o.metadata?.deletionTimestamp)
    if (ref) {
      // Owned and not matching: released unless the *owner* is being deleted (CRM:69 ClaimObject; as read at
      // controller_ref_manager.go@b4d1ea12 claimObject L94-98: `if m.controller.GetDeletionTimestamp() != nil`).
      // The object's own deletionTimestamp does not stop the release; it only stops an adoption (L117).
      if (ref.uid !== owner.metadata.uid) out.push({object: o, result: 'ignore', why: `controlled by ${ref.kind} ${ref.name} (uid ${ref.uid})`})
      else if (matches) out.push({object: o, result: 'owned', why: 'controlled by it and matching its selector'})
      else if (ownerDeleting)
        out.push({
          object: o,
          result: 'ignore',
          why: `controlled by it but no longer matching its selector; not released while the ${owner.kind ?? 'owner'} is being deleted`,
        })
      else
        out.push({
          object: o,
          result: 'release',
          why: `controlled by it but no longer matching its selector: the controller releases it${deleting ? ' (its own deletion does not stop that)' : ''}`,
        })
    } else if (matches && !ownerDeleting && !deleting) {
      out.push({object: o, result: 'adopt', why: 'an orphan matching its selector: the controller adopts it at the next sync'})
    } else {
      out.push({
        object: o,
        result: 'ignore',
        why: matches ? 'an orphan, but one of the two is being deleted' : 'not controlled by it and not matching its selector',
      })
    }
  }
  return out
}

/** The objects the controller works with: owned ones and those it adopts. */
export function claimed<T extends KubeObject>(claims: readonly Claim<T>[]): T[] {
  return claims.filter((c) => c.result === 'owned' || c.result === 'adopt').map((c) => c.object)
}
