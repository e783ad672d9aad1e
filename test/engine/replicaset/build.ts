// Small builders for the upstream test pods, so each test reads like the Go test it reproduces.
import type {Pod, ReplicaSet} from '../../../src/engine/replicaset/types.js'

export const NOW = Date.parse('2026-11-29T10:00:00Z')
export const at = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')
/** metav1.Time.AddDate(0, -1, 0) of NOW. */
export const THEN_1_MONTH = Date.parse('2026-10-29T10:00:00Z')
export const HOUR = 3_600_000

export interface PodOptions {
  name: string
  namespace?: string
  uid?: string
  node?: string
  phase?: string
  ready?: boolean
  readySince?: number | null
  created?: number | null
  restarts?: number[]
  sidecarRestarts?: number
  sidecar?: boolean
  annotations?: Record<string, string>
  labels?: Record<string, string>
  owner?: {name: string; uid: string; kind?: string} | null
  deletionTimestamp?: string
  deletionGracePeriodSeconds?: number
  generateName?: string
}

export function pod(o: PodOptions): Pod {
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: o.name, namespace: o.namespace ?? 'default'},
    spec: {},
    status: {phase: o.phase ?? 'Running'},
  }
  if (o.uid !== undefined) p.metadata.uid = o.uid
  if (o.generateName !== undefined) p.metadata.generateName = o.generateName
  if (o.created !== undefined && o.created !== null) p.metadata.creationTimestamp = at(o.created)
  if (o.annotations) p.metadata.annotations = o.annotations
  if (o.labels) p.metadata.labels = o.labels
  if (o.deletionTimestamp) p.metadata.deletionTimestamp = o.deletionTimestamp
  if (o.deletionGracePeriodSeconds !== undefined) p.metadata.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds
  if (o.owner)
    p.metadata.ownerReferences = [
      {apiVersion: 'apps/v1', kind: o.owner.kind ?? 'ReplicaSet', name: o.owner.name, uid: o.owner.uid, controller: true, blockOwnerDeletion: true},
    ]
  if (o.node) p.spec!.nodeName = o.node
  if (o.sidecar) p.spec!.initContainers = [{name: 'sidecar', restartPolicy: 'Always'}]
  if (o.ready !== undefined) {
    p.status!.conditions = [
      {type: 'Ready', status: o.ready ? 'True' : 'False', lastTransitionTime: o.readySince === undefined || o.readySince === null ? null : at(o.readySince)},
    ]
  }
  if (o.restarts) p.status!.containerStatuses = o.restarts.map((r, i) => ({name: `c${i}`, restartCount: r}))
  if (o.sidecarRestarts !== undefined) p.status!.initContainerStatuses = [{name: 'sidecar', restartCount: o.sidecarRestarts}]
  return p
}

export interface RsOptions {
  name?: string
  namespace?: string
  uid?: string
  replicas?: number
  selector?: Record<string, string>
  templateLabels?: Record<string, string>
  owner?: {name: string; uid: string} | null
  created?: number
  generation?: number
  status?: ReplicaSet['status']
  deletionTimestamp?: string
  minReadySeconds?: number
}

export function replicaSet(o: RsOptions = {}): ReplicaSet {
  const selector = o.selector ?? {app: 'web'}
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {name: o.name ?? 'web-5d4f8c7b9', namespace: o.namespace ?? 'default', uid: o.uid ?? 'rs-uid-1', generation: o.generation ?? 1},
    spec: {
      replicas: o.replicas ?? 3,
      selector: {matchLabels: selector},
      template: {metadata: {labels: o.templateLabels ?? selector}},
    },
    status: o.status ?? {replicas: 0, observedGeneration: o.generation ?? 1},
  }
  if (o.minReadySeconds !== undefined) rs.spec!.minReadySeconds = o.minReadySeconds
  if (o.created !== undefined) rs.metadata.creationTimestamp = at(o.created)
  if (o.deletionTimestamp) rs.metadata.deletionTimestamp = o.deletionTimestamp
  if (o.owner)
    rs.metadata.ownerReferences = [
      {apiVersion: 'apps/v1', kind: 'Deployment', name: o.owner.name, uid: o.owner.uid, controller: true, blockOwnerDeletion: true},
    ]
  return rs
}

/** Fisher–Yates with a seeded generator, so shuffling tests are reproducible. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items]
  let s = seed
  const rand = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s / 0x80000000
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}
