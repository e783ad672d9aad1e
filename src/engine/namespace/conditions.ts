// The namespace's own status conditions, read back: the five types and message formats the namespace controller
// writes (pkg/controller/namespace/deletion/status_condition_utils.go updateConditions, ProcessContentTotals), and the
// discovery error text client-go produces (discovery/discovery_client.go ErrGroupDiscoveryFailed.Error; stale
// GroupVersions: discovery/aggregated_discovery.go StaleGroupVersionError). Pure parsing, no I/O.

export const NSC = 'pkg/controller/namespace/deletion/status_condition_utils.go'

/** corev1.NamespaceConditionType values (k8s.io/api core/v1/types.go). */
export const DISCOVERY_FAILURE = 'NamespaceDeletionDiscoveryFailure'
export const GV_PARSING_FAILURE = 'NamespaceDeletionGroupVersionParsingFailure'
export const CONTENT_FAILURE = 'NamespaceDeletionContentFailure'
export const CONTENT_REMAINING = 'NamespaceContentRemaining'
export const FINALIZERS_REMAINING = 'NamespaceFinalizersRemaining'

export interface NamespaceCondition {
  type: string
  status: string
  reason?: string
  message?: string
  lastTransitionTime?: string
}

export function conditionsOf(status: unknown): NamespaceCondition[] {
  const cs = (status as {conditions?: unknown} | undefined)?.conditions
  if (!Array.isArray(cs)) return []
  return cs.filter((c): c is NamespaceCondition => typeof c === 'object' && c !== null && typeof (c as NamespaceCondition).type === 'string')
}

export function trueCondition(cs: readonly NamespaceCondition[], type: string): NamespaceCondition | undefined {
  return cs.find((c) => c.type === type && c.status === 'True')
}

/** One GroupVersion discovery could not read, as the DiscoveryFailed message names it. */
export interface FailedGroupVersion {
  group: string
  version: string
  error: string
}

const DISCOVERY_PREFIX = 'unable to retrieve the complete list of server APIs: '

/**
 * The GroupVersions named by a DiscoveryFailed message: `Discovery failed for some groups, %d failing: %v` around
 * ErrGroupDiscoveryFailed, whose text is the prefix above and `<group>/<version>: <err>` entries sorted and joined by
 * ", " (client-go discovery_client.go ErrGroupDiscoveryFailed.Error). An entry starts where "<group>/<version>: "
 * starts after ", "; an error text holding ", " stays in its entry.
 */
export function failedGroupVersions(message: string): FailedGroupVersion[] {
  const at = message.indexOf(DISCOVERY_PREFIX)
  if (at < 0) return []
  const body = message.slice(at + DISCOVERY_PREFIX.length)
  const entry = /(?:^|, )([a-z0-9][a-z0-9.-]*)\/(v[0-9a-z]+): /g
  const starts: {index: number; end: number; group: string; version: string}[] = []
  for (let m = entry.exec(body); m; m = entry.exec(body)) starts.push({index: m.index, end: m.index + m[0].length, group: m[1], version: m[2]})
  return starts.map((s, i) => ({group: s.group, version: s.version, error: body.slice(s.end, i + 1 < starts.length ? starts[i + 1].index : undefined)}))
}

/** `<resource>.<group> has <n> resource instances` entries of a SomeResourcesRemain message (core group: "pods."). */
export function remainingResources(message: string): {resource: string; group: string; count: number}[] {
  const out: {resource: string; group: string; count: number}[] = []
  const re = /([a-z0-9-]+)\.([a-z0-9.-]*) has (\d+) resource instances/g
  for (let m = re.exec(message); m; m = re.exec(message)) out.push({resource: m[1], group: m[2], count: Number(m[3])})
  return out
}

/** `<finalizer> in <n> resource instances` entries of a SomeFinalizersRemain message. */
export function remainingFinalizers(message: string): {finalizer: string; count: number}[] {
  const out: {finalizer: string; count: number}[] = []
  const body = message.replace(/^Some content in the namespace has finalizers remaining: /, '')
  for (const part of body.split(', ')) {
    const m = /^(.+) in (\d+) resource instances$/.exec(part)
    if (m) out.push({finalizer: m[1], count: Number(m[2])})
  }
  return out
}
