// Where objects come from. Engines never see a ClusterSource: commands read through it and hand
// plain objects to the engines. Two implementations: live (src/cluster/live/) and snapshot
// (src/cluster/snapshot/); test/cluster/source-contract.test.ts runs one suite against both.
import type {Evidence, Problem, SourceDescription} from '../explanation.js'
import type {KubeObject} from './kube-types.js'
import type {ConnectionOverrides} from './live/kubeconfig.js'
import type {ProjectionPlan} from './projection.js'

// The object types are declared once in kube-types.ts, for the engines too.
export type {KubeObject, ObjectMeta, OwnerReference} from './kube-types.js'

/** One served resource type, as discovery reports it. */
export interface ResourceType {
  group: string
  version: string
  kind: string
  /** Plural resource name used in URLs, e.g. "deployments". */
  resource: string
  namespaced: boolean
  verbs: string[]
  shortNames?: string[]
  singularName?: string
}

/**
 * fresh: a quorum read (no resourceVersion), what the garbage collector's uncached client sees.
 * cached: resourceVersion=0, served from the API server's watch cache: the view informers have.
 */
export type ReadView = 'fresh' | 'cached'

export interface TypeRef {
  kind: string
  /** "group/version" or "v1"; when absent the preferred version of the kind is used. */
  apiVersion?: string
}

export interface GetRequest extends TypeRef {
  namespace?: string
  name: string
  view?: ReadView
  /** Only metadata (PartialObjectMetadata), as the garbage collector's metadata client reads owners. */
  metadataOnly?: boolean
}

export interface ListRequest extends TypeRef {
  /** Absent: all namespaces (or a cluster-scoped kind). */
  namespace?: string
  labelSelector?: string
  fieldSelector?: string
  /** Only metadata (PartialObjectMetadataList); items still carry their real apiVersion and kind. */
  metadataOnly?: boolean
  view?: ReadView
  /** Page size for limit/continue pagination. */
  pageSize?: number
  /**
   * pages() only. A continue token that expired mid-list (410) restarts the list once without a token, as client-go's
   * pager falls back to a full list. With onRestart, it is called first and the list is given again from its first
   * item (the consumer drops what it has: one consistent list). Without it, the pages already handed out stand and
   * the new list resumes after the last key handed out (lists come in etcd key order): nothing twice, nothing
   * skipped that existed throughout, the part before and after the restart read at two resourceVersions.
   */
  onRestart?: () => void
  /**
   * pages() only: called before each page is handed out with how many objects it and those after it hold, where the
   * server says (metadata.remainingItemCount: a paged list without selectors; the last page, its own). The audit's heap
   * budget counts them before they are read, so that a cluster too large is refused at its first page, not minutes in.
   */
  onRemaining?: (remaining: number) => void
  /**
   * What the caller keeps of each item. A source may apply it as the items are read (the live source does, so that
   * a watch-cache list of 150,000 pods, which comes in one piece, is never held whole), and only to objects that fit
   * their kind's shape (the validation boundary reports the others whole); the caller applies it again, so it must
   * give the same object back for an object it made.
   */
  project?: (o: KubeObject) => KubeObject
  /** listTable() only: what each row carries of its object (TableOptions includeObject; default Metadata). */
  includeObject?: 'None' | 'Metadata'
}

export interface TableRow {
  cells: unknown[]
  /** The row's object as PartialObjectMetadata, typed back to the kind (metadata only); none with includeObject=None. */
  object?: KubeObject
}

export interface TableResult {
  /** The column names, in the row cells' order (columnDefinitions). */
  columns: string[]
  rows: TableRow[]
  resourceVersion?: string
}

export interface ListResult {
  items: KubeObject[]
  resourceVersion?: string
}

/** How a command asks for its source (built from the shared flags by the base command; src/cluster/open.ts opens it). */
export interface SourceOptions {
  snapshot?: string
  kubeconfig?: string
  context?: string
  /**
   * Milliseconds per request, retries included; 0 means no timeout. Undefined (--request-timeout not given): none
   * when stdin or stdout is a terminal, else DEFAULT_UNATTENDED_TIMEOUT_MS (a CronJob or CI run must not hang).
   */
  requestTimeout?: number
  /** Overrides the evaluation instant. */
  now?: Date
  /**
   * A snapshot keeps of each object only the fields the run's replays read, as it arrives (memory at 5,000 nodes):
   * the audit's plan (src/audit/project.ts auditProjectionPlan). Live reads are projected by the reader itself.
   */
  slim?: ProjectionPlan
  debug?: boolean
  /** Called with a short status line while long reads run (stderr progress). */
  progress?: (line: string) => void
  /** Where one-line warnings go (an unencrypted http:// server, a context without a user); default stderr. */
  warn?: (line: string) => void
  /** Where --debug lines go (the base command's stderr, through the terminal sanitiser); default stderr. */
  log?: (line: string) => void
  /** The in-cluster service-account directory (default /var/run/secrets/kubernetes.io/serviceaccount). */
  serviceAccountDir?: string
  /** Whether a person is at a terminal (stdin or stdout is a TTY); decides the default timeout and exec plugins' interactiveMode. */
  interactive?: boolean
  /** -v N: kubectl's request log (src/cluster/live/request-log.ts) from 6 up, through `log`. */
  verbosity?: number
  /** kubectl's connection flags (--user, --cluster, --server, --token, ...) over the kubeconfig (src/cluster/live/kubeconfig.ts). */
  connection?: ConnectionOverrides
  /** --as, --as-uid, --as-group: impersonation over the kubeconfig user's own (src/cluster/live/credentials.ts). */
  impersonate?: {user?: string; uid?: string; groups?: string[]}
}

/** The request timeout of a run nobody watches (no terminal on stdin or stdout), when --request-timeout is not given. */
export const DEFAULT_UNATTENDED_TIMEOUT_MS = 5 * 60_000

export interface ServerVersion {
  major: string
  minor: string
  gitVersion: string
  [field: string]: unknown
}

export interface ClusterSource {
  /** For the Explanation's `source` (mode, context or file, server version, capture time). */
  describe(): SourceDescription
  serverVersion(): Promise<ServerVersion | undefined>
  /** Every served group/version/kind with its scope and verbs. */
  discovery(): Promise<ResourceType[]>
  /** One object; undefined when it does not exist (404). Other failures throw ReadError. */
  get(request: GetRequest): Promise<KubeObject | undefined>
  /** Every matching object, all pages read. Failures throw ReadError. */
  list(request: ListRequest): Promise<ListResult>
  /** The same as list, a page at a time, for large clusters. */
  pages(request: ListRequest): AsyncIterable<KubeObject[]>
  /** The namespace a command uses without -n: the kubeconfig context's, a snapshot's recorded one, or "default". */
  defaultNamespace(): string
  /** The evaluation instant: --now, the snapshot's capture time, or the live clock when opened. */
  now(): Date
  /** What could not be read or used so far; a non-empty list makes every result partial. */
  problems(): Problem[]
  /** Objects of the input left out (malformed: src/cluster/validate), each named; a rewrite that loses them is not a copy. */
  leftOut?(): Problem[]
  /**
   * GET /api/v1/nodes/NAME/proxy/PATH (the kubelet's own endpoints through the API server; RBAC nodes/proxy get).
   * Only a live source has it; failures throw ReadError (403 Forbidden, 404 for a kubelet that does not serve it).
   */
  nodeProxyGet?(node: string, path: 'configz'): Promise<unknown>
  /**
   * A list as the server-side Table kubectl get prints (meta.k8s.io/v1 Table, includeObject=Metadata: each row's
   * cells and its object's metadata), every page. Only a live source has it; a server that serves no Table for the
   * kind (old and aggregated servers) answers 406 NotAcceptable, thrown as a ReadError: the caller lists instead.
   */
  listTable?(request: ListRequest): Promise<TableResult>
  /** What the data can prove (src/cluster/evidence.ts); a source without it answers every read, as a live one does. */
  evidence?(): Promise<Evidence>
  close?(): Promise<void>
}
