// What a snapshot keeps of each object when the run reads only what the checks read (the audit): the audit's own
// projections (src/audit/project.ts), applied as objects arrive instead of after the whole file sits in memory.
// ReplicaSets stay whole but for managedFields and the last-applied annotation: the hash check needs the pod
// template as it is. Metadata-only kinds arrive as metadata already.
import {Interner, projectNode, projectObject, projectPod} from '../../audit/project.js'
import type {KubeObject} from '../source.js'

export function auditSlim(): (o: KubeObject) => KubeObject {
  const intern = new Interner()
  return (o) => {
    if (o.kind === 'Pod' && o.apiVersion === 'v1') return projectPod(o, intern)
    if (o.kind === 'Node' && o.apiVersion === 'v1') return projectNode(o)
    return projectObject(o)
  }
}
