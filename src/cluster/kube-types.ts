// The Kubernetes API types more than one replay reads, declared once (k8s.io/api and k8s.io/apimachinery field
// names). Only the fields some engine reads are typed; objects arrive as the API server's JSON (int64 beyond 2^53 as
// bigint, timestamps as RFC 3339 strings or null). An engine's own slice of a kind (a Pod with just what the taint
// manager reads) stays in its types.ts.

/** metav1.OwnerReference. */
export interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

/** metav1.ObjectMeta. */
export interface ObjectMeta {
  name?: string
  generateName?: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string | null
  deletionTimestamp?: string | null
  deletionGracePeriodSeconds?: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
  finalizers?: string[]
  [field: string]: unknown
}

/** Any Kubernetes object as the API returns it (JSON decoded; int64 beyond 2^53 as bigint). */
export interface KubeObject {
  apiVersion?: string
  kind?: string
  metadata?: ObjectMeta
  [field: string]: unknown
}

/** metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirement {
  key: string
  operator: string
  values?: string[]
}

/** metav1.LabelSelector (null fields as a dump may hold them). */
export interface LabelSelector {
  matchLabels?: Record<string, string> | null
  matchExpressions?: LabelSelectorRequirement[] | null
}

/** corev1.Taint. */
export interface Taint {
  key: string
  value?: string
  effect: string
  timeAdded?: string | null
}

/** corev1.Toleration. */
export interface Toleration {
  key?: string
  operator?: string
  value?: string
  effect?: string
  /** int64 in the API: exact JSON reading may hand a bigint. */
  tolerationSeconds?: number | bigint | null
}

/** corev1.PodCondition. */
export interface PodCondition {
  type: string
  status: string
  reason?: string
  message?: string
  lastTransitionTime?: string | null
}

/** core/v1 Event (and events.k8s.io/v1's regarding/note/series): the fields the replays read. */
export interface EventLike {
  metadata?: {name?: string; namespace?: string; creationTimestamp?: string | null; annotations?: Record<string, string> | null}
  involvedObject?: {kind?: string; name?: string; namespace?: string; uid?: string}
  regarding?: {kind?: string; name?: string; namespace?: string; uid?: string}
  related?: {kind?: string; name?: string; namespace?: string; uid?: string} | null
  reason?: string
  message?: string
  note?: string
  type?: string
  count?: number
  firstTimestamp?: string | null
  lastTimestamp?: string | null
  eventTime?: string | null
  series?: {lastObservedTime?: string | null}
  source?: {component?: string; host?: string}
  reportingComponent?: string
  reportingController?: string
  [k: string]: unknown
}
