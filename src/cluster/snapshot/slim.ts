// What a snapshot keeps of each object when the run reads only what its replays read (the audit): the projection of
// each kind from the fields the replays' reads name (a ProjectionPlan, made from the descriptors by the layer that
// knows them: src/audit/project.ts auditProjectionPlan), applied as objects arrive instead of after the whole file
// sits in memory. A kind no replay reads in full is read by none beyond its metadata (the collector's graph): its body
// (a Job's pod template, a ConfigMap's data, a Secret the audit never reads) is not kept — but a CRD's, which
// discovery reads.
import {groupKindKey} from '../object-store.js'
import {fieldProjection, Interner, type ProjectionPlan, projectMetadata, projectWhole} from '../projection.js'
import type {KubeObject} from '../source.js'

const CRD = 'apiextensions.k8s.io/CustomResourceDefinition'

export function slimmer(plan: ProjectionPlan): (o: KubeObject) => KubeObject {
  const intern = new Interner()
  const byKind = new Map<string, (o: KubeObject) => KubeObject>()
  return (o) => {
    const key = groupKindKey(o.apiVersion, o.kind!)
    let project = byKind.get(key)
    if (!project) {
      const reads = plan.byKind.get(key)
      project = reads ? fieldProjection(reads, intern) : key === CRD ? projectWhole : (x) => projectMetadata(x, intern)
      byKind.set(key, project)
    }
    return plan.finish ? plan.finish(o, project(o)) : project(o)
  }
}
