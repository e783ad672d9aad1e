// The owner/dependent graph around one object (`kubectl why gc --tree`), each edge marked with the classification the
// collector itself gives the reference (classifyReferences in replay.ts, never a second rule). Pure.
import type {Problem, Subject} from '../../explanation.js'
import type {GcVerdict} from './model.js'
import type {RefReport} from './replay.js'

/** One node of the tree: an object (or a missing owner) and the edge that leads to it. */
export interface GcTreeNode {
  subject: Subject
  /** Absent for owners that do not exist (dangling) or could not be read. */
  exists: boolean
  verdict?: GcVerdict
  propagationPolicy?: string
  deleting?: boolean
  finalizers?: string[]
  creationTimestamp?: string
  /** The ownerReference this edge stands for, from the dependent's side. */
  edge?: {classification: string; reason?: string; blockOwnerDeletion: boolean; controller: boolean}
  children: GcTreeNode[]
  /** Children not shown (depth or count bound). */
  more?: number
  /** Already shown elsewhere in the tree (an ownership cycle). */
  cycle?: boolean
}

export interface GcTree {
  /** The object's owners, each with its own owners beneath it (upwards). */
  owners: GcTreeNode[]
  /** The object, with its dependents beneath it (downwards). */
  object: GcTreeNode
  /** Lists that could not be read: dependents of those kinds may be missing from the tree. */
  partial?: Problem[]
}

/** The edge for one classified reference: its classification, and the dangling or unknown reason. */
export function edgeOf(x: RefReport): NonNullable<GcTreeNode['edge']> {
  const reason = x.danglingReason ?? x.unknownReason
  return {classification: x.outcome, ...(reason ? {reason} : {}), blockOwnerDeletion: x.ref.blockOwnerDeletion === true, controller: x.ref.controller === true}
}
