// StatefulSets: ordinal pods `<name>-0..n-1` behind a headless Service of the same name, all on the
// newest ControllerRevision (currentRevision = updateRevision).
import type {KubeObject} from '../../../src/cluster/source.js'
import {statefulSetSelector, statefulSetTemplateLabels} from './labels.js'
import {meta} from './meta.js'
import type {StatefulSetPlan} from './plan-workloads.js'
import {podTemplate} from './templates.js'

export function statefulSetObject(s: StatefulSetPlan, resourceVersion: string): KubeObject {
  const current = s.revisions[s.revisions.length - 1]
  return {
    kind: 'StatefulSet',
    apiVersion: 'apps/v1',
    metadata: meta({
      name: s.name,
      namespace: s.namespace,
      uid: s.uid,
      resourceVersion,
      generation: s.generation,
      createdMs: s.createdMs,
      labels: statefulSetSelector(s.name),
    }),
    spec: {
      replicas: s.replicas,
      selector: {matchLabels: statefulSetSelector(s.name)},
      template: podTemplate(s.profile, current, statefulSetTemplateLabels(s.name)),
      serviceName: s.serviceName,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 0}},
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: {whenDeleted: 'Retain', whenScaled: 'Retain'},
    },
    status: {
      observedGeneration: s.generation,
      replicas: s.replicas,
      readyReplicas: s.replicas,
      currentReplicas: s.replicas,
      updatedReplicas: s.replicas,
      currentRevision: current.name,
      updateRevision: current.name,
      collisionCount: 0,
      availableReplicas: s.replicas,
    },
  }
}
