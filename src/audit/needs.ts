// What a check reads, declared as data: the plan (plan.ts) merges every check's needs into one LIST per kind, the
// gatherer (gather.ts) performs them, and the RBAC rules of deploy/ are derived from the same declarations (rbac.ts).
import type {TypeRef} from '../cluster/source.js'
import type {CheckName} from './checks.js'

/** full: the whole object (projected to what the engines read); metadata: PartialObjectMetadata only. */
export type Detail = 'full' | 'metadata'

/** audit: the audit's scope (every namespace with -A, else the namespace); cluster: every namespace whatever the scope. */
export type NeedScope = 'audit' | 'cluster' | {namespace: string}

export interface ListNeed {
  check: CheckName
  /** How the check finds this need's result again (unique within the check). */
  key: string
  ref: TypeRef
  scope: NeedScope
  detail: Detail
  /**
   * cached: the watch-cache view (resourceVersion=0), what the controller's informer holds; required as such.
   * fresh: a quorum read is wanted, but the check copes with the cached view and knows which one it got.
   */
  view: 'fresh' | 'cached'
  labelSelector?: string
  /** Without it the check cannot run at all (it is reported as not run); otherwise its result is partial. */
  required: boolean
  why: string
}

/** A single-object GET a check may send (owners, the live lease double-check, the recheck before adoption). */
export interface GetNeed {
  check: CheckName
  ref: TypeRef
  why: string
}

export interface CheckNeeds {
  lists: ListNeed[]
  gets: GetNeed[]
}
