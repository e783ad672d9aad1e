// What ClaimPods (pkg/controller/controller_ref_manager.go ClaimObject, CRM:69) does with each pod the
// controller lists: FilterPodsByOwner (controller_utils.go:1169) hands it the pods whose controllerRef is
// exactly this ReplicaSet (namespace/kind/name/uid) plus every orphan in the namespace; only active ones
// reach ClaimPods (replica_set.go:804). Pods controlled by something else never reach it: they are
// reported here as "ignore" when they match the selector, because that is what a reader wonders about.
import {isPodActive, phaseOf} from './pod-util.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import type {Selector} from '../../apimachinery/labels.js'
import type {Pod, ReplicaSet} from './types.js'

export type ClaimAction = 'owned' | 'adopt' | 'release' | 'ignore'

export interface PodClaim {
  pod: Pod
  action: ClaimAction
  /** Whether the pod ends up among the claimed active pods (adoptions count once the patch succeeds). */
  claimed: boolean
  why: string
}

/** The uncached GET of the ReplicaSet before the first adoption (claimPods' canAdoptFunc, replica_set.go:859). */
export type Recheck = {read: 'found'; replicaSet: ReplicaSet} | {read: 'notFound'} | {read: 'failed'; reason: string}

export interface ClaimResult {
  claims: PodClaim[]
  /** Pods listed by FilterPodsByOwner and active: owned by this RS, or orphans. */
  considered: number
  /** Whether an adoption is attempted, which triggers the recheck. */
  adoptionAttempted: boolean
  /** Set when the recheck refuses adoptions: the aggregated error claimPods returns, which aborts the sync. */
  claimError?: string
}

function isOwnedBy(pod: Pod, rs: ReplicaSet): boolean {
  const ref = getControllerOf(pod)
  return ref !== undefined && ref.kind === 'ReplicaSet' && ref.name === rs.metadata.name && ref.uid === rs.metadata.uid
}

/** RecheckDeletionTimestamp wrapped by AdoptPod: the error text each refused adoption carries, or undefined. */
export function recheckError(rs: ReplicaSet, recheck: Recheck | undefined): string | undefined {
  if (recheck === undefined) return undefined
  const ns = rs.metadata.namespace ?? ''
  const name = rs.metadata.name
  if (recheck.read === 'failed') return `can't recheck DeletionTimestamp: ${recheck.reason}`
  if (recheck.read === 'notFound') return `can't recheck DeletionTimestamp: replicasets.apps "${name}" not found`
  const fresh = recheck.replicaSet
  if (fresh.metadata.uid !== rs.metadata.uid) {
    return `can't recheck DeletionTimestamp: original ReplicaSet ${ns}/${name} is gone: got uid ${fresh.metadata.uid}, wanted ${rs.metadata.uid}`
  }
  if (fresh.metadata.deletionTimestamp) return `${ns}/${name} has just been deleted at ${fresh.metadata.deletionTimestamp}`
  return undefined
}

export function claimPods(rs: ReplicaSet, selector: Selector, pods: readonly Pod[], recheck?: Recheck): ClaimResult {
  const rsDeleting = Boolean(rs.metadata.deletionTimestamp)
  const claims: PodClaim[] = []
  let considered = 0
  let adoptionAttempted = false
  const refusal = recheckError(rs, recheck)
  const errors: string[] = []
  for (const pod of pods) {
    const ref = getControllerOf(pod)
    const matches = selector(pod.metadata.labels)
    if (ref !== undefined && !isOwnedBy(pod, rs)) {
      if (matches && isPodActive(pod)) {
        claims.push({
          pod,
          action: 'ignore',
          claimed: false,
          why: `controlled by ${ref.kind}/${ref.name} (uid ${ref.uid})${ref.uid === rs.metadata.uid ? ' under another name or kind' : ''}`,
        })
      }
      continue
    }
    if (!isPodActive(pod)) continue
    considered++
    if (ref !== undefined) {
      if (matches) {
        claims.push({pod, action: 'owned', claimed: true, why: 'controlled by this ReplicaSet and matches its selector'})
      } else if (rsDeleting) {
        claims.push({pod, action: 'ignore', claimed: false, why: 'selector no longer matches; not released because the ReplicaSet is being deleted'})
      } else {
        claims.push({
          pod,
          action: 'release',
          claimed: false,
          why: 'controlled by this ReplicaSet but its labels no longer match the selector: ReleasePod patches its ownerReference away',
        })
      }
      continue
    }
    // An orphan (no controller reference).
    if (rsDeleting || !matches) continue
    adoptionAttempted = true
    if (refusal !== undefined) {
      const error = `can't adopt Pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name} (${pod.metadata.uid ?? ''}): ${refusal}`
      errors.push(error)
      claims.push({pod, action: 'adopt', claimed: false, why: `orphan matching the selector, but adoption is refused: ${refusal}`})
    } else {
      claims.push({
        pod,
        action: 'adopt',
        claimed: true,
        why: `orphan (phase ${phaseOf(pod) || 'unset'}) matching the selector: AdoptPod patches in a controller reference${recheck ? ' (the uncached recheck passed)' : ''}`,
      })
    }
  }
  const claimError = errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`
  return {claims, considered, adoptionAttempted, claimError}
}
