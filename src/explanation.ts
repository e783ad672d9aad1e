// The Explanation: what every engine returns and `-o json` prints. Scripts depend on this shape;
// schemas/explanation.json is its contract and a test holds the two together.

export const EXPLANATION_VERSION = 'kubectl-why/v1'

export type Severity = 'none' | 'info' | 'warning' | 'critical'
export const SEVERITIES: readonly Severity[] = ['none', 'info', 'warning', 'critical']

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s)
}

/** The --fail-on rule, which every command's exit code and the audit's report follow: at or above it; none never. */
export function failsOn(severity: Severity, failOn: Severity): boolean {
  return failOn !== 'none' && severityRank(severity) >= severityRank(failOn)
}

export interface Subject {
  kind: string
  apiVersion?: string
  namespace?: string
  name: string
  uid?: string
}

/** One re-executed upstream rule: what went in, what came out, and why. */
export interface Step {
  rule: string
  /** Upstream file (and line where useful) of the rule re-executed. */
  upstream: string
  inputs?: Record<string, unknown>
  result: string
  why: string
  /** Set when the step rests on inference rather than on something the API shows. */
  inferred?: {evidence: string; confidence: 'certain' | 'likely' | 'possible'}
}

export interface SourceDescription {
  mode: 'live' | 'snapshot'
  context?: string
  file?: string
  serverVersion?: string
  /** The Kubernetes minor version whose rules were applied, e.g. "1.31". */
  k8sVersion?: string
  capturedAt?: string
  settings?: Record<string, {value: unknown; from: string}>
  /** What could not be read: the result is partial when this is non-empty. */
  partial?: Problem[]
  /** What the data can prove (built in src/cluster/evidence.ts): per kind held or not, node Leases, node set, clock, version. */
  evidence?: Evidence
}

// What the data can prove, built once per run (src/cluster/evidence.ts) and handed to every engine beside the
// objects: engines ask it before they turn "not in the data" into "does not exist".

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
  /**
   * Present when the data recorded no API discovery (a dump not written by `kubectl why snapshot`): the kinds served
   * are the built-in ones plus what the data shows, so a version missing from them is not proven unserved.
   * `customGroups`: the groups the data's CustomResourceDefinitions define (their served versions are in the data).
   */
  inferredDiscovery?: {customGroups: string[]}
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
  /** What was left out on purpose (container logs of a cluster-info dump). */
  notes?: string[]
}

/** Something the source could not read or could not use; reported, never silently dropped. */
export interface Problem {
  what: string
  reason: string
  file?: string
  hint?: string
}

/**
 * What a person can do next about a verdict: a command to run (kubectl-why or kubectl; never run by the tool,
 * which only reads) or an object and field to change, with why.
 */
export interface NextStep {
  /** A command line to run, e.g. "kubectl why gc job/backup -n ops" or "kubectl describe resourcequota -n shop". */
  command?: string
  /** An object and field to change, e.g. "ResourceQuota shop/compute: spec.hard.pods". */
  change?: string
  why: string
}

/**
 * Who acts on the subject, one shape for every mechanism (evictions and cleanups alike). `actor` is the controller's
 * name as kube-controller-manager spells it in --controllers (garbagecollector, namespace, podgc, disruption,
 * taint-eviction-controller, ttl-after-finished, cronjob, deployment, daemonset, statefulset, pvc-protection,
 * pv-protection, …), or one of the components that are not controllers: kubelet, scheduler, eviction-api.
 */
export interface Actor {
  actor: string
  action: ActorAction
  /** When it acted or will act (RFC 3339 UTC); absent when the data cannot say. */
  at?: string
  /** The upstream rule (function) that decides, e.g. "attemptToDeleteItem" or "rankMemoryPressure". */
  rule: string
  /** What in the data shows it: conditions, status, events, fields, each as one short line. */
  evidence: string[]
  /** This actor's own next steps. */
  next: NextStep[]
}

export const ACTOR_ACTIONS = ['evicted', 'willEvict', 'refusesEviction', 'deleted', 'willDelete', 'blocksDeletion', 'none'] as const
export type ActorAction = (typeof ACTOR_ACTIONS)[number]

export interface Explanation {
  subject: Subject
  controller: string
  verdict: string
  severity: Severity
  summary: string
  steps: Step[]
  evaluatedAt: string
  source: SourceDescription
  /** What to do about it; absent when nothing needs doing. */
  next?: NextStep[]
  /** Who acts on the subject (Actor); absent from the replays that do not name them yet. */
  actors?: Actor[]
  [extra: string]: unknown
}

/** Which namespaces a report covers. */
export type ReportScope = {allNamespaces: true} | {namespace: string}

export function reportScope(namespace: string | undefined): ReportScope {
  return namespace === undefined ? {allNamespaces: true} : {namespace}
}

/** What every report (gc --all, replicas --all, hash --all, audit) starts with; each adds its own body. */
export interface ReportHeader<K extends string> {
  apiVersion: typeof EXPLANATION_VERSION
  kind: K
  scope: ReportScope
  evaluatedAt: string
  source: SourceDescription
}
