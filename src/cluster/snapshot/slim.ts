// What a snapshot keeps of each object when the run reads only what its replays read (the audit): the projection of
// each kind from the fields the replays' reads name (a ProjectionPlan, made from the descriptors by the layer that
// knows them: src/audit/project.ts auditProjectionPlan), applied as objects arrive instead of after the whole file
// sits in memory. A kind no replay reads in full is read by none beyond its metadata (the collector's graph): its body
// (a Job's pod template, a ConfigMap's data, a Secret the audit never reads) is not kept — but a CRD's, which
// discovery reads.
import {groupKindKey} from '../object-store.js'
import {fieldProjection, Interner, NoInterner, type ProjectionPlan, projectMetadata, projectWhole} from '../projection.js'
import type {KubeObject} from '../source.js'

const CRD = 'apiextensions.k8s.io/CustomResourceDefinition'

/** A slimmer, and how to make it stop sharing parts between the objects it keeps (they are to be packed). */
export type Slimmer = ((o: KubeObject) => KubeObject) & {stopSharing: () => void}

export function slimmer(plan: ProjectionPlan): Slimmer {
  let intern = new Interner()
  let byKind = new Map<string, (o: KubeObject) => KubeObject>()
  const slim = (o: KubeObject): KubeObject => {
    const key = groupKindKey(o.apiVersion, o.kind!)
    let project = byKind.get(key)
    if (!project) {
      const reads = plan.byKind.get(key)
      project = reads ? fieldProjection(reads, intern) : key === CRD ? projectWhole : (x) => projectMetadata(x, intern)
      byKind.set(key, project)
    }
    return plan.finish ? plan.finish(o, project(o)) : project(o)
  }
  // A packed object shares nothing (it is written out as text), and the interner's tables (a key per distinct string
  // and structure) were the largest part of a snapshot read's heap: they go, and what comes after is not shared.
  slim.stopSharing = () => {
    intern = new NoInterner()
    byKind = new Map()
  }
  return slim
}
