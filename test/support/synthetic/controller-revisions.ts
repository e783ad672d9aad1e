// ControllerRevisions of DaemonSets and StatefulSets, as history.NewControllerRevision builds them: the
// owner's template labels plus controller.kubernetes.io/hash, a controller owner reference, `revision`,
// and `data` = the controllers' getPatch(): {"spec":{"template":{...,"$patch":"replace"}}} — marshalled
// from Go maps, so every level's keys are sorted.
import type {KubeObject} from '../../../src/cluster/source.js'
import {controllerRef, meta} from './meta.js'
import type {RevisionPlan, WorkloadPlan} from './plan-workloads.js'
import {podTemplate} from './templates.js'

function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep)
  if (v === null || typeof v !== 'object') return v
  const o = v as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o).sort()) out[k] = sortedDeep(o[k])
  return out
}

export function controllerRevisionObject(
  owner: WorkloadPlan,
  ownerKind: 'DaemonSet' | 'StatefulSet',
  templateLabels: Record<string, string>,
  rev: RevisionPlan,
  resourceVersion: string,
): KubeObject {
  const template = podTemplate(owner.profile, rev, templateLabels)
  return {
    kind: 'ControllerRevision',
    apiVersion: 'apps/v1',
    metadata: meta({
      name: rev.name,
      namespace: owner.namespace,
      uid: rev.uid,
      resourceVersion,
      createdMs: rev.createdMs,
      labels: {...templateLabels, 'controller.kubernetes.io/hash': rev.hash},
      ownerReferences: [controllerRef('apps/v1', ownerKind, owner.name, owner.uid)],
    }),
    data: sortedDeep({spec: {template: {...template, $patch: 'replace'}}}),
    revision: rev.revision,
  }
}
