// What a check reads, from its replay's descriptor (src/engine/<controller>/descriptor.ts, its `reads` and `gets`):
// the plan (plan.ts) merges every check's needs into one LIST per kind, the gatherer (gather.ts) performs them and
// projects each object to the fields the reads name (project.ts), and the RBAC rules of deploy/ are derived from the
// same declarations (rbac.ts).
import type {ResourceType, TypeRef} from '../cluster/source.js'
import type {ReplayRead} from '../replay.js'
import type {CheckName} from './checks.js'
import {entryOf} from './registry.js'

/** full: the whole object (projected to what the engines read); metadata: PartialObjectMetadata only. */
export type Detail = ReplayRead['detail']

/** audit: the audit's scope (every namespace with -A, else the namespace); cluster: every namespace whatever the scope. */
export type NeedScope = ReplayRead['scope']

export interface ListNeed extends ReplayRead {
  check: CheckName
}

/** A single-object GET a check may send (owners, the live lease double-check, the recheck before adoption). */
export interface GetNeed {
  check: CheckName
  ref: TypeRef
  why: string
  /** A subresource GET (ReplayGet.subresource). */
  subresource?: 'proxy'
  /** ReplayGet.notInAuditRole: left out of the rules the audit derives (deploy/clusterrole.yaml). */
  notInAuditRole?: string
}

export interface CheckNeeds {
  lists: ListNeed[]
  gets: GetNeed[]
}

/** A check's reads: its descriptor's, and those discovery decides over the served types. */
export function needsOf(check: CheckName, types: readonly ResourceType[]): CheckNeeds {
  const d = entryOf(check)
  const found = d.discovered?.(types) ?? {reads: [], gets: []}
  return {
    lists: [...d.reads, ...found.reads].map((r) => ({...r, check})),
    gets: [...d.gets, ...found.gets].map((g) => ({...g, check})),
  }
}
