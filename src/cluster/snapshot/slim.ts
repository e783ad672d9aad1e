// What a snapshot keeps of each object when the run reads only what the checks read (the audit): the audit's own
// projections (src/audit/project.ts), applied as objects arrive instead of after the whole file sits in memory.
// ReplicaSets stay whole but for managedFields and the last-applied annotation: the hash check needs the pod
// template as it is. Metadata-only kinds arrive as metadata already. A kind with no shape (validate/kinds.ts: every
// field the checks read, by kind) is read by no check beyond its metadata (the collector's graph): its body (a Job's
// pod template, a ConfigMap's data, a Secret the audit never reads) is not kept — but a CRD's, which discovery reads.
import {Interner, projectMetadata, projectNode, projectObject, projectPod} from '../../audit/project.js'
import {groupKindKey} from '../object-store.js'
import type {KubeObject} from '../source.js'
import {KIND_SHAPES} from '../validate/kinds.js'

const CRD = 'apiextensions.k8s.io/CustomResourceDefinition'

export function auditSlim(): (o: KubeObject) => KubeObject {
  const intern = new Interner()
  return (o) => {
    if (o.kind === 'Pod' && o.apiVersion === 'v1') return projectPod(o, intern)
    if (o.kind === 'Node' && o.apiVersion === 'v1') return projectNode(o)
    const key = groupKindKey(o.apiVersion, o.kind!)
    return KIND_SHAPES.has(key) || key === CRD ? projectObject(o) : projectMetadata(o, intern)
  }
}
