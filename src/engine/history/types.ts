// What the hash kernel reads: ControllerRevisions (pkg/controller/history), and the controller-manager settings
// a hash is computed under.
import type {KubeObject, ObjectMeta} from '../../cluster/kube-types.js'

export interface ControllerRevision extends KubeObject {
  metadata: ObjectMeta & {name: string; namespace?: string}
  data?: unknown
  revision?: number | bigint
}

/**
 * What the replays need to know about the controller-manager: which struct layout its hashes use, its
 * version (naming rules and feature gates change with it) and how far back to look for collision counts.
 */
export interface HashSettings {
  /** The layout hashes are computed with now ("1.31"); undefined when the cluster is older than every layout. */
  version?: string
  /** Why version is what it is, or why there is none (older than the layouts, newer, unknown). */
  versionNote?: string
  /** No version was recorded or inferable: `version` is only the newest layout, so byte-level comparisons are unsure. */
  versionAssumed?: boolean
  /**
   * The data does not settle the version: the releases (layouts, oldest first) it leaves possible, why, and what would
   * settle it. `version` is then only one of them (the one label checks compare with), never the answer by itself.
   */
  candidates?: {versions: string[]; why: string}
  /** With no server version: the newest kubelet version the data's Nodes report (a control plane is never older). */
  kubeletVersion?: string
  /** The control plane's minor and, when known, patch version. */
  minor?: number
  patch?: number
  /** Collision counts tried when inferring which layout wrote a label: none, then 0..this (at least the object's count). */
  maxInferredCollisionCount: number
  /** Feature gate overrides (StatefulSetSemanticRevisionComparison). */
  gates?: Record<string, boolean>
}
