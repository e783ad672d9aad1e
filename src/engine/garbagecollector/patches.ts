// The exact request bodies the collector sends, so an explanation can show them byte for byte, and the
// outcome rules of the orphaning worker. Go's encoding/json writes struct fields in declaration order and
// map keys sorted; the objects below are built in that order so JSON.stringify writes the same bytes.
import type {OwnerReference} from '../../cluster/source.js'

export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json'
export const JSON_MERGE_PATCH = 'application/merge-patch+json'

/** metav1.OwnerReference field order: apiVersion, kind, name, uid, controller, blockOwnerDeletion (the last two omitempty). */
function goOwnerReference(r: OwnerReference, blockOwnerDeletion?: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = {apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid}
  if (r.controller !== undefined && r.controller !== null) o.controller = r.controller
  const bod = blockOwnerDeletion ?? r.blockOwnerDeletion
  if (bod !== undefined && bod !== null) o.blockOwnerDeletion = bod
  return o
}

/**
 * GenerateDeleteOwnerRefStrategicMergeBytes (controller_ref_manager.go:562-596): the dependent's UID in the body acts
 * as a precondition; each owner is removed by UID with the "$patch":"delete" directive (map keys sorted).
 */
export function deleteOwnerRefStrategicMergePatch(dependentUID: string, ownerUIDs: readonly string[]): string {
  return JSON.stringify({metadata: {uid: dependentUID, ownerReferences: ownerUIDs.length === 0 ? null : ownerUIDs.map((uid) => ({$patch: 'delete', uid}))}})
}

/** deleteOwnerRefJSONMergePatch (patch.go:108-129): the full remaining list plus resourceVersion, for types without SMP (415). */
export function deleteOwnerRefJsonMergePatch(resourceVersion: string, refs: readonly OwnerReference[], ownerUIDs: readonly string[]): string {
  const remaining = refs.filter((r) => !ownerUIDs.includes(r.uid)).map((r) => goOwnerReference(r))
  return JSON.stringify({metadata: {resourceVersion, ownerReferences: remaining.length === 0 ? null : remaining}})
}

/**
 * unblockOwnerReferencesStrategicMergePatch (patch.go:133-147): only the refs that block, each set to
 * blockOwnerDeletion=false, in a MetadataOnlyObject (hence the zero creationTimestamp written as null).
 */
export function unblockOwnerRefsStrategicMergePatch(itemUID: string, refs: readonly OwnerReference[]): string {
  const blocking = refs.filter((r) => r.blockOwnerDeletion === true).map((r) => goOwnerReference(r, false))
  const metadata: Record<string, unknown> = {uid: itemUID, creationTimestamp: null}
  if (blocking.length > 0) metadata.ownerReferences = blocking
  return JSON.stringify({metadata})
}

/** unblockOwnerReferencesJSONMergePatch (patch.go:150-166): every ref set to blockOwnerDeletion=false, plus resourceVersion. */
export function unblockOwnerRefsJsonMergePatch(resourceVersion: string, refs: readonly OwnerReference[]): string {
  const all = refs.map((r) => goOwnerReference(r, false))
  return JSON.stringify({metadata: {resourceVersion, ownerReferences: all.length === 0 ? null : all}})
}

/** What the API server's strategic merge leaves of ownerReferences (merge key uid) after one of the patches above. */
export function applyOwnerRefsStrategicMergePatch(refs: readonly OwnerReference[], patch: string): OwnerReference[] {
  const body = JSON.parse(patch) as {metadata?: {ownerReferences?: Array<Record<string, unknown>> | null}}
  let out = refs.map((r) => ({...r}))
  for (const p of body.metadata?.ownerReferences ?? []) {
    const uid = p.uid as string
    if (p.$patch === 'delete') {
      out = out.filter((r) => r.uid !== uid)
      continue
    }
    const i = out.findIndex((r) => r.uid === uid)
    const {$patch: _ignored, ...fields} = p
    if (i === -1) out.push(fields as unknown as OwnerReference)
    else out[i] = {...out[i], ...fields}
  }
  return out
}

/** One dependent's orphaning patch result: an HTTP status (2xx success). */
export interface OrphanPatchResult {
  dependent: string
  status: number
  message?: string
}

export interface OrphanOutcome {
  /** removeFinalizer(orphan) runs only when every dependent patch succeeded (or found the dependent gone). */
  removeFinalizer: boolean
  queue: 'forget' | 'requeueRateLimited'
  error?: string
}

/** The message client-go gives a status code when the body is not a Status (errors.go NewGenericServerResponse). */
function genericMessage(status: number): string {
  switch (status) {
    case 409:
      return 'the server reported a conflict'
    case 403:
      return 'the server does not allow this method on the requested resource'
    case 422:
      return 'the server rejected our request due to an error in our request'
    case 429:
      return 'the server has received too many requests and has asked us to try again later'
    case 500:
      return 'an error on the server has prevented the request from succeeding'
    case 503:
      return 'the server is currently unable to handle the request'
    default:
      return `the server responded with the status code ${status} but did not return more information`
  }
}

/**
 * orphanDependents + attemptToOrphanWorker (garbagecollector.go:716-752, 784-810): every dependent is patched;
 * a 404 is ignored; any other failure aggregates into one error, the owner is requeued with backoff and the
 * orphan finalizer stays.
 */
export function orphanDependentsOutcome(owner: string, results: readonly OrphanPatchResult[]): OrphanOutcome {
  const errors = results
    .filter((r) => (r.status < 200 || r.status > 299) && r.status !== 404)
    .map((r) => `orphaning ${r.dependent} failed, ${r.message ?? genericMessage(r.status)}`)
  if (errors.length === 0) return {removeFinalizer: true, queue: 'forget'}
  const aggregate = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`
  return {removeFinalizer: false, queue: 'requeueRateLimited', error: `failed to orphan dependents of owner ${owner}, got errors: ${aggregate}`}
}
