// Which daemon pods are on which revision, and which count as updated (pkg/controller/daemon/util/daemonset_util.go
// IsPodUpdated, GetTemplateGeneration).
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {DAEMONSET_TEMPLATE_GENERATION_ANNOTATION, POD_TEMPLATE_GENERATION_LABEL} from '../deployment/constants.js'
import {CONTROLLER_REVISION_HASH_LABEL} from '../history/constants.js'
import type {PodMeta, Workload} from '../deployment/types.js'

/** GetTemplateGeneration: the deprecated annotation as int64; undefined when absent (a bad value is a sync error upstream). */
export function templateGeneration(ds: Workload): string | undefined {
  const v = ds.metadata.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]
  return v !== undefined && /^-?\d+$/.test(v) ? String(BigInt(v)) : undefined
}

/** IsPodUpdated: the pod's hash label is the current revision's, or its template generation is the DaemonSet's. */
export function IsPodUpdated(pod: PodMeta, hash: string | undefined, generation: string | undefined): {updated: boolean; by?: 'hash' | 'generation'} {
  const labels = pod.metadata.labels ?? {}
  if (hash !== undefined && hash !== '' && labels[CONTROLLER_REVISION_HASH_LABEL] === hash) return {updated: true, by: 'hash'}
  if (generation !== undefined && labels[POD_TEMPLATE_GENERATION_LABEL] === generation) return {updated: true, by: 'generation'}
  return {updated: false}
}

/** The DaemonSet's pods (controlled by it), terminating ones apart as findUpdatedPodsOnNode ignores them. */
export function daemonPods(ds: Workload, pods: readonly PodMeta[]): PodMeta[] {
  return pods.filter((p) => p.metadata.namespace === ds.metadata.namespace && getControllerOf(p)?.uid === ds.metadata.uid)
}
