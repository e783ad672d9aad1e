// The fields of a Pod the replay reads, and nothing else: lists of tens of thousands of pods are kept in
// memory as these (managedFields, volumes, env and the rest of spec and status dropped as each page arrives).
import type {KubeObject} from '../../cluster/source.js'
import type {Pod} from './types.js'

export function slimPod(o: KubeObject): Pod {
  const p = o as Pod
  const {managedFields: _managed, ...metadata} = p.metadata ?? ({} as Pod['metadata'])
  const spec: NonNullable<Pod['spec']> = {}
  if (p.spec?.nodeName) spec.nodeName = p.spec.nodeName
  const sidecars = (p.spec?.initContainers ?? []).filter((c) => c?.restartPolicy === 'Always')
  if (sidecars.length > 0) spec.initContainers = sidecars.map((c) => ({name: c.name, restartPolicy: c.restartPolicy}))
  const out: Pod = {apiVersion: o.apiVersion ?? 'v1', kind: o.kind ?? 'Pod', metadata: metadata as Pod['metadata'], spec}
  const s = p.status
  if (s) {
    out.status = {}
    if (s.phase !== undefined) out.status.phase = s.phase
    if (s.conditions)
      out.status.conditions = s.conditions
        .filter((c) => c?.type === 'Ready')
        .map((c) => ({type: c.type, status: c.status, lastTransitionTime: c.lastTransitionTime ?? null}))
    if (s.containerStatuses) out.status.containerStatuses = s.containerStatuses.map((c) => ({name: c.name, restartCount: c.restartCount}))
    if (s.initContainerStatuses) out.status.initContainerStatuses = s.initContainerStatuses.map((c) => ({name: c.name, restartCount: c.restartCount}))
  }
  return out
}

/**
 * The informer's view rebuilt from a watch-cache metadata list and a quorum list of full pods: what exists,
 * its labels, owners and deletionTimestamp come from the cache; phase and readiness from the quorum read
 * (the cache lags in what the controller sees of creations and deletions, which is what matters here).
 */
export function informerView(cachedMetadata: readonly KubeObject[], fresh: readonly Pod[]): Pod[] {
  const byUid = new Map(fresh.map((p) => [p.metadata.uid, p]))
  return cachedMetadata.map((m) => {
    const f = byUid.get(m.metadata?.uid)
    const {managedFields: _managed, ...metadata} = (m.metadata ?? {}) as Pod['metadata']
    return f ? {...f, metadata: metadata as Pod['metadata']} : ({apiVersion: 'v1', kind: 'Pod', metadata} as Pod)
  })
}
