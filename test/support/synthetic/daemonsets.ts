// DaemonSets: one pod per node (every one tolerates everything, like kube-proxy or a CNI agent),
// rolled out completely to the newest ControllerRevision.
import type {KubeObject} from '../../../src/cluster/source.js'
import {daemonSetTemplateLabels} from './labels.js'
import {meta} from './meta.js'
import type {DaemonSetPlan} from './plan-workloads.js'
import {podTemplate} from './templates.js'

/** `notReady`: nodes whose pods the node lifecycle controller has marked Ready=False. */
export function daemonSetObject(s: DaemonSetPlan, resourceVersion: string, notReady: number): KubeObject {
  const current = s.revisions[s.revisions.length - 1]
  const status: Record<string, unknown> = {
    currentNumberScheduled: s.replicas,
    numberMisscheduled: 0,
    desiredNumberScheduled: s.replicas,
    numberReady: s.replicas - notReady,
    observedGeneration: s.generation,
    updatedNumberScheduled: s.replicas,
    numberAvailable: s.replicas - notReady,
  }
  if (notReady > 0) status.numberUnavailable = notReady
  return {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    metadata: meta({
      name: s.name,
      namespace: s.namespace,
      uid: s.uid,
      resourceVersion,
      generation: s.generation,
      createdMs: s.createdMs,
      labels: daemonSetTemplateLabels(s.name),
      annotations: {'deprecated.daemonset.template.generation': String(s.generation)},
    }),
    spec: {
      selector: {matchLabels: daemonSetTemplateLabels(s.name)},
      template: podTemplate(s.profile, current, daemonSetTemplateLabels(s.name)),
      updateStrategy: {type: 'RollingUpdate', rollingUpdate: {maxUnavailable: 1, maxSurge: 0}},
      revisionHistoryLimit: 10,
    },
    status,
  }
}
