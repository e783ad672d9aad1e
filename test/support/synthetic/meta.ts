// ObjectMeta and OwnerReference as the API server writes them (ObjectMeta's Go field order; managedFields
// omitted, as `kubectl get --show-managed-fields=false` and metadata-only captures drop them).
import type {ObjectMeta, OwnerReference} from '../../../src/cluster/source.js'
import {sortedMap} from './templates.js'
import {isoSeconds} from './time.js'

export interface MetaInput {
  name: string
  generateName?: string
  namespace?: string
  uid: string
  resourceVersion: string
  generation?: number
  createdMs: number
  deletionMs?: number
  deletionGracePeriodSeconds?: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
  finalizers?: string[]
}

export function meta(m: MetaInput): ObjectMeta {
  const out: ObjectMeta = {name: m.name}
  if (m.generateName !== undefined) out.generateName = m.generateName
  if (m.namespace !== undefined) out.namespace = m.namespace
  out.uid = m.uid
  out.resourceVersion = m.resourceVersion
  if (m.generation !== undefined) out.generation = m.generation
  out.creationTimestamp = isoSeconds(m.createdMs)
  if (m.deletionMs !== undefined) {
    out.deletionTimestamp = isoSeconds(m.deletionMs)
    out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds ?? 0
  }
  if (m.labels !== undefined) out.labels = sortedMap(m.labels)
  if (m.annotations !== undefined) out.annotations = sortedMap(m.annotations)
  if (m.ownerReferences !== undefined) out.ownerReferences = m.ownerReferences
  if (m.finalizers !== undefined) out.finalizers = m.finalizers
  return out
}

/** metav1.NewControllerRef: what every workload controller sets on what it creates. */
export function controllerRef(apiVersion: string, kind: string, name: string, uid: string): OwnerReference {
  return {apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true}
}
