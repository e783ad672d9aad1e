// What the data can prove, built once per run and handed to every engine beside the objects. A live cluster
// answers every read, so absence there is proof; a foreign dump only proves presence, unless its format is known
// to be complete for a kind (the tool's own snapshot records each list it made). Engines ask this before they turn
// "not in the data" into "does not exist".
import type {Problem} from '../explanation.js'

/** How the data covers one kind. */
export interface KindCoverage {
  /** API group ("" for the core group). */
  group: string
  kind: string
  /** all: every namespace (or cluster-scoped); namespaces: only those listed; none: the data holds no such object. */
  coverage: 'all' | 'namespaces' | 'none'
  namespaces?: string[]
  /** True when an object missing from the data does not exist (a live read, or a list recorded as complete). */
  absenceIsProof: boolean
  /** Where the answer comes from, for the explanation ("live", "the snapshot's list", "objects in the dump"). */
  from: string
  /** Objects of this kind in the data. */
  count: number
}

/** The answer for one object's kind and namespace. */
export interface Coverage {
  /** The data holds this kind in this namespace. */
  held: boolean
  /** An object of this kind and namespace that is not in the data does not exist. */
  absenceIsProof: boolean
  /** One phrase for the explanation when absence is no proof: "the data holds no Job". */
  why: string
}

export interface Evidence {
  kinds: KindCoverage[]
  /** Coverage of one kind in one namespace (namespace undefined: cluster-scoped, or any namespace). */
  coverage(group: string, kind: string, namespace?: string): Coverage
  /** group/versions shown served: recorded discovery, or objects present at that group/version (REST-mapping evidence). */
  servedVersions: string[]
  /** Node Leases (kube-node-lease): all nodes have one in the data, some do, or the data holds none. */
  nodeLeases: 'present' | 'partial' | 'absent'
  /** complete: the data is known to hold every Node; partial: it may not; none: it holds no Node. */
  nodeSet: 'complete' | 'partial' | 'none'
  /** The evaluation instant and how far to trust it. */
  clock: {at: string; from: string; trust: 'exact' | 'estimated'}
  /** The version whose rules apply, and how it was found. */
  version?: {text: string; from: string}
  /** What the data lacks that an answer would need, stated once per run. */
  missing: Problem[]
}
