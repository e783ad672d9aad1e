// The pending-deletions replay (the audit's deleting check; `kubectl why gc --all`'s own section): objects past their
// deletionTimestamp that the namespace controller or a finalizer's holder keeps, worst first (pending.ts), composed by drive.ts over what each holder's replay reads. Its own check, apart from
// the gc check, whose findings are the collector's alone (test/commands/gc-audit-agreement.test.ts). Data only but for
// the graph's types, which discovery decides (the gc descriptor's graphTypes: every object's metadata shows whether it
// is being deleted and with which finalizers). Its command argument is gc's (`kubectl why gc KIND/NAME` answers one).
import type {ResourceType} from '../../cluster/source.js'
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import {OBJECT_META, type ReplayDescriptor, type ReplayRead} from '../../replay.js'
import {GC_REPLAY, GRAPH_FIELDS, graphTypes, typeKey} from '../garbagecollector/descriptor.js'
import {NAMESPACE_CONTROLLER_READS} from '../namespace/reads.js'
import {DELETION_CONTROLLERS} from './pending.js'

/** The fields of a workload the finalizer replay reads to tell whether a finalizer's writer runs (finalizers/replay.ts). */
const WORKLOAD_FIELDS = [...OBJECT_META, 'status.{readyReplicas,numberReady}']

export const DELETIONS_REPLAY: ReplayDescriptor = {
  name: 'deleting',
  command: 'gc',
  controllers: DELETION_CONTROLLERS,
  target: GC_REPLAY.target,
  reads: [
    ...NAMESPACE_CONTROLLER_READS,
    {
      key: 'pods',
      ref: {apiVersion: 'v1', kind: 'Pod'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "pvc-protection's podUsesPVC (node, volumes), the job controller's canRemoveFinalizer (phase), a Terminating namespace's pods (grace periods)",
      // podUsesPVC reads a volume's name, its claim and whether it is ephemeral: nothing else of the volume is kept.
      fields: [...OBJECT_META, 'spec.{nodeName,terminationGracePeriodSeconds}', 'spec.volumes[].{name,persistentVolumeClaim,ephemeral}', 'status.phase'],
    },
    {
      key: 'persistentvolumes',
      ref: {apiVersion: 'v1', kind: 'PersistentVolume'},
      scope: 'cluster',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "pv-protection's isBeingUsed: the phase and the claim it is bound to",
      fields: [...OBJECT_META, 'spec.claimRef', 'status.phase'],
    },
    ...(['Deployment', 'DaemonSet', 'StatefulSet'] as const).map(
      (kind): ReplayRead => ({
        key: `${kind.toLowerCase()}s`,
        ref: {apiVersion: 'apps/v1', kind},
        scope: 'cluster',
        detail: 'full',
        view: 'fresh',
        required: false,
        why: "whether a finalizer's writer (its managedFields manager) runs: a workload of that name and its ready replicas",
        fields: WORKLOAD_FIELDS,
      }),
    ),
  ],
  discovered: (types: readonly ResourceType[]) => ({
    reads: graphTypes(types).map(
      (t): ReplayRead => ({
        key: typeKey(t),
        ref: {apiVersion: apiVersionOf(t), kind: t.kind},
        scope: 'audit',
        detail: 'metadata',
        view: 'fresh',
        required: false,
        why: "every object being deleted, with its finalizers; a Terminating namespace's remaining content",
        fields: GRAPH_FIELDS,
      }),
    ),
    gets: [],
  }),
  gets: [
    {
      ref: {apiVersion: 'batch/v1', kind: 'Job'},
      why: "a job-tracking pod's Job: whether it finished or is being deleted (canRemoveFinalizer)",
      fields: [...OBJECT_META, 'spec.{podFailurePolicy,podReplacementPolicy}', 'status.conditions'],
    },
  ],
  scope: 'mixed',
  subjects: 'all',
  schema: {file: 'deletions', definition: 'DeletionExplanation'},
  views: ['deletions'],
  description: 'objects stuck or pending in deletion: Terminating namespaces and what holds them, finalizers whose holder is absent or not running',
  severities: {
    stuck: {severity: 'warning', why: 'a holder will not let go on its own: a discovery failure, a finalizer whose writer has no ready replica'},
    holderAbsent: {
      severity: 'warning',
      why: 'the writer of a finalizer runs nowhere in the data (every workload read): nothing in the cluster removes it',
    },
    unknown: {severity: 'info', why: 'the data cannot tell whether the holder runs or what it waits for: the list that settles it is named'},
    pending: {
      severity: 'info',
      why: 'every holder runs, or removes its finalizer on its next pass',
      when: [{severity: 'warning', if: 'a Terminating namespace whose content is held by finalizers (the namespace controller waits on their holders)'}],
    },
  },
}
