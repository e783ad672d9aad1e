// When a dump does not say when it was taken, the newest timestamp inside it is the best evidence of
// the capture time: heartbeats, lease renewals, managed-field writes and events are written up to the end.
import type {KubeObject, ServerVersion} from '../source.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/

function later(current: string | undefined, candidate: unknown): string | undefined {
  if (typeof candidate !== 'string' || !ISO.test(candidate)) return current
  return current === undefined || Date.parse(candidate) > Date.parse(current) ? candidate : current
}

export function newestTimestamp(objects: Iterable<KubeObject>): string | undefined {
  let newest: string | undefined
  for (const o of objects) {
    const m = o.metadata
    newest = later(newest, m?.creationTimestamp)
    newest = later(newest, m?.deletionTimestamp)
    for (const f of (m?.managedFields as {time?: string}[] | undefined) ?? []) newest = later(newest, f.time)
    const spec = o.spec as {renewTime?: string} | undefined
    newest = later(newest, spec?.renewTime)
    newest = later(newest, o.lastTimestamp)
    newest = later(newest, o.eventTime)
    const status = o.status as {conditions?: {lastHeartbeatTime?: string; lastTransitionTime?: string}[]} | undefined
    if (Array.isArray(status?.conditions)) {
      for (const c of status.conditions) {
        newest = later(newest, c.lastHeartbeatTime)
        newest = later(newest, c.lastTransitionTime)
      }
    }
  }
  return newest
}

/** The control plane's version from the image tag of a kube-apiserver or kube-controller-manager static pod. */
export function versionFromControlPlanePods(pods: Iterable<KubeObject>): ServerVersion | undefined {
  for (const p of pods) {
    if (p.metadata?.namespace !== 'kube-system') continue
    const containers = (p.spec as {containers?: {name?: string; image?: string}[]} | undefined)?.containers ?? []
    for (const c of containers) {
      const m = /\/(?:kube-apiserver|kube-controller-manager)(?:-[a-z0-9]+)?:(v1\.(\d+)\.\d+[^@\s]*)/.exec(c.image ?? '')
      if (m) return {major: '1', minor: m[2], gitVersion: m[1], inferredFrom: `image of pod kube-system/${p.metadata.name}`}
    }
  }
  return undefined
}
