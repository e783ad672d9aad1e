// The taint-eviction replay (`kubectl why evicted`, the audit's evicted check): what it is and what it reads.
// Data only (src/replay.ts); its engine reads EVICTED_SEVERITY from here.
import type {Severity} from '../../explanation.js'
import {OBJECT_META, type ReplayDescriptor, severitiesOf} from '../../replay.js'
import {NODE_LIFECYCLE_GETS, NODE_LIFECYCLE_READS} from '../nodelifecycle/descriptor.js'

/** The taint-eviction replay's verdicts (explain.ts decides them). */
export type EvictedVerdict = 'notAffected' | 'toleratedForever' | 'evictAt' | 'evictedImmediately' | 'evicted' | 'notEvictedBecause'

export const EVICTED_SEVERITY: Record<EvictedVerdict, Severity> = {
  notAffected: 'none',
  toleratedForever: 'none',
  notEvictedBecause: 'info',
  evictAt: 'warning',
  evicted: 'warning',
  evictedImmediately: 'critical',
}

export const EVICTED_REPLAY: ReplayDescriptor = {
  name: 'evicted',
  command: 'evicted',
  controllers: ['tainteviction'],
  target: {kinds: ['Pod'], natural: 'Pod'},
  reads: [
    // The taint manager acts on the node lifecycle controller's taints: the same world, read once.
    ...NODE_LIFECYCLE_READS,
    {
      key: 'pods',
      ref: {apiVersion: 'v1', kind: 'Pod'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: true,
      why: 'tolerations, binding time and eviction evidence of every pod',
      fields: [
        ...OBJECT_META,
        'spec.{nodeName,tolerations}',
        'status.phase',
        // PodScheduled: when the pod was bound (process.ts); DisruptionTarget: the eviction's own record (evidence.ts).
        'status.conditions[type=PodScheduled].{type,status,reason,lastTransitionTime}',
        'status.conditions[type=DisruptionTarget].{type,status,reason,message,lastTransitionTime}',
      ],
    },
    {
      key: 'events',
      ref: {apiVersion: 'v1', kind: 'Event'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: 'TaintManagerEviction events (pods already evicted)',
      fields: '*',
    },
  ],
  gets: NODE_LIFECYCLE_GETS,
  scope: 'namespaced',
  subjects: ['pods'],
  schema: {file: 'evicted', definition: 'EvictedExplanation'},
  views: ['evicted'],
  description: 'pods with a taint-eviction deadline, evicted, or kept from eviction',
  severities: severitiesOf(EVICTED_SEVERITY, {
    evictedImmediately: "the pod tolerates none of the node's NoExecute taints: it is deleted now",
    evictAt: 'the pod is deleted when its toleration runs out',
    evicted: 'the controller deleted the pod',
    notEvictedBecause: "kept from eviction by the controller's own brakes",
    notAffected: 'no NoExecute taint concerns it',
    toleratedForever: 'it tolerates the taint without a limit',
  }),
}
