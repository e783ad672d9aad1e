// The garbage-collector replay (`kubectl why gc`, the audit's gc check): what it is and what it reads. Data only
// (src/replay.ts) but for the one thing discovery decides: the collector's graph holds every monitored kind
// (discovery.ts GcDiscovery, as garbagecollector.go GetDeletableResources), each read as metadata.
// Secrets are not read at all by the audit: its ClusterRole grants nothing on them (RBAC cannot grant metadata alone).
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import type {ResourceType} from '../../cluster/source.js'
import {OBJECT_META, type ReplayDescriptor, type ReplayRead} from '../../replay.js'
import {GcDiscovery} from './discovery.js'
import {NAMESPACE_CONTROLLER_READS} from '../namespace/reads.js'

/** Kinds the audit never reads, by group/resource. */
export const NOT_READ: ReadonlySet<string> = new Set(['/secrets'])

/** A type's group/resource, as NOT_READ and the reads' keys spell it. */
export const typeKey = (t: {group: string; resource: string}): string => `${t.group}/${t.resource}`

/** The metadata the collector's graph holds of each object (model.ts slimObject). */
export const GRAPH_FIELDS: readonly string[] = ['metadata.{name,namespace,uid,resourceVersion,deletionTimestamp,finalizers,ownerReferences}']

/** Every monitored type the audit reads: the collector's graph. */
export function graphTypes(types: readonly ResourceType[]): ResourceType[] {
  return new GcDiscovery(types).monitoredTypes().filter((t) => !NOT_READ.has(typeKey(t)))
}

export const GC_REPLAY: ReplayDescriptor = {
  name: 'gc',
  command: 'gc',
  controllers: ['garbagecollector'],
  target: {kinds: ['Deployment', 'ReplicaSet', 'Pod', 'StatefulSet', 'DaemonSet', 'Job', 'ConfigMap', 'Service']},
  // The other cleanup mechanisms `gc KIND/NAME` composes around the collector (drive-actors.ts) read whole objects of
  // these kinds: declared here so that a snapshot keeps the fields they read (a Namespace kept as metadata loses
  // spec.finalizers and the conditions the namespace controller writes) and the RBAC and the projections derive them.
  // Jobs and CronJobs whole (TTL-after-finished, CronJob history): once backed out because the synthetic snapshot of
  // test/commands/audit.test.ts then disagreed with the live run — its writer recorded no `lists`, so the reader took
  // it for an old file whose full kinds were a fixed few and held Jobs and CronJobs without proving them complete (a
  // Job whose CronJob is gone was unknown offline, delete live). The writer now records its lists as capture.ts does.
  reads: [
    ...NAMESPACE_CONTROLLER_READS,
    {
      key: 'jobs',
      ref: {apiVersion: 'batch/v1', kind: 'Job'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "TTL-after-finished, a CronJob's history limits and the job-tracking finalizer: the Job's TTL, start and finish",
      fields: [...OBJECT_META, 'spec.{ttlSecondsAfterFinished,podFailurePolicy,podReplacementPolicy}', 'status.{startTime,conditions}'],
    },
    {
      key: 'cronjobs',
      ref: {apiVersion: 'batch/v1', kind: 'CronJob'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: 'the CronJob controller deletes the oldest finished Jobs above its history limits',
      fields: [...OBJECT_META, 'spec.{successfulJobsHistoryLimit,failedJobsHistoryLimit}'],
    },
    {
      key: 'persistentvolumes',
      ref: {apiVersion: 'v1', kind: 'PersistentVolume'},
      scope: 'cluster',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "the PV controller's reclaim (../pvreclaim/reclaim.ts): the policy, the claim it is bound to, the phase, who provisioned it",
      fields: [
        ...OBJECT_META,
        `metadata.annotations[pv.kubernetes.io/migrated-to]`,
        `metadata.annotations[pv.kubernetes.io/provisioned-by]`,
        'spec.{persistentVolumeReclaimPolicy,claimRef}',
        'spec.csi.driver',
        'status.phase',
      ],
    },
    {
      key: 'csrs',
      ref: {apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest'},
      scope: 'cluster',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "the CSR cleaner's inputs (../csrcleaner/cleaner.ts): conditions and their lastUpdateTime, the certificate's NotAfter",
      fields: [...OBJECT_META, 'status.{certificate,conditions}'],
    },
  ],
  discovered: (types) => {
    const graph = graphTypes(types)
    return {
      reads: graph.map(
        (t): ReplayRead => ({
          key: typeKey(t),
          ref: {apiVersion: apiVersionOf(t), kind: t.kind},
          scope: 'audit',
          detail: 'metadata',
          view: 'fresh',
          required: false,
          why: "the collector's graph: every object of every monitored type and its owner references",
          fields: GRAPH_FIELDS,
        }),
      ),
      gets: graph.map((t) => ({
        ref: {apiVersion: apiVersionOf(t), kind: t.kind},
        why: 'owner lookups (fresh, metadata-only), as attemptToDeleteItem makes them',
      })),
    }
  },
  // The whole object `gc KIND/NAME` reads for the other mechanisms (drive-actors.ts tryGet), of the kinds above.
  gets: [
    {
      ref: {apiVersion: 'v1', kind: 'Namespace'},
      why: 'the Namespace read whole for the namespace controller',
      fields: [...OBJECT_META, 'spec.finalizers', 'status.{phase,conditions}'],
    },
    {
      ref: {apiVersion: 'batch/v1', kind: 'Job'},
      why: 'the Job read whole for TTL-after-finished and CronJob history',
      fields: [...OBJECT_META, 'spec.{ttlSecondsAfterFinished,podFailurePolicy,podReplacementPolicy}', 'status.{startTime,conditions}'],
    },
    {
      ref: {apiVersion: 'batch/v1', kind: 'CronJob'},
      why: "a Job's controlling CronJob, for its history limits",
      fields: [...OBJECT_META, 'spec.{successfulJobsHistoryLimit,failedJobsHistoryLimit}'],
    },
    {
      ref: {apiVersion: 'v1', kind: 'PersistentVolume'},
      why: 'the PV read whole for its reclaim policy',
      fields: [
        ...OBJECT_META,
        'metadata.annotations[pv.kubernetes.io/migrated-to]',
        'metadata.annotations[pv.kubernetes.io/provisioned-by]',
        'spec.{persistentVolumeReclaimPolicy,claimRef}',
        'spec.csi.driver',
        'status.phase',
      ],
    },
    {ref: {apiVersion: 'v1', kind: 'PersistentVolumeClaim'}, why: "a PV's claim, by name: whether it still exists, with which uid", fields: OBJECT_META},
    {
      ref: {apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest'},
      why: 'the CSR read whole for the CSR cleaner',
      fields: [...OBJECT_META, 'status.{certificate,conditions}'],
    },
  ],
  scope: 'mixed',
  subjects: 'all',
  schema: {file: 'gc', definition: 'GcExplanation'},
  views: ['gc'],
  description: 'objects the garbage collector would delete, patch or finish, or is stuck on',
  severities: {
    delete: {severity: 'warning', why: 'every owner is gone: the collector deletes the object (check it was meant to go)'},
    removeFinalizer: {severity: 'warning', why: 'foreground deletion finished: the collector removes the finalizer and the object goes'},
    waitForBlockingDependents: {
      severity: 'warning',
      why: 'a foreground deletion waits for blocking dependents',
      when: [{severity: 'critical', if: 'a blocking dependent can never go (a cycle, or one stuck itself)'}],
    },
    stuckRestMapping: {severity: 'warning', why: "an owner's apiVersion is not served: the collector retries forever until a person fixes the reference"},
    stuckNamespacedOwnerOfClusterScopedObject: {
      severity: 'warning',
      why: 'a cluster-scoped object names a namespaced owner: invalid, the collector never resolves it',
    },
    unknown: {
      severity: 'warning',
      why: "an owner could not be read: the collector's branch cannot be told (grant the read, or look)",
      when: [
        {severity: 'info', if: 'the owner is only missing from the data (a dump that did not capture it): no severity above info rests on missing evidence'},
      ],
    },
    patchRemoveOwnerRefs: {severity: 'info', why: 'some owners are gone, one remains: the collector only drops the dangling references'},
    waitBeingDeleted: {
      severity: 'info',
      why: 'an owner is being deleted in the foreground: the collector waits, as designed',
      when: [
        {
          severity: 'warning',
          if: "gc KIND/NAME of a Namespace whose deletion the namespace controller finds blocked: a discovery, GroupVersion or content failure, objects held by finalizers, content the data lacks, or another controller's spec.finalizers",
        },
      ],
    },
    orphanDependentsThenRemoveFinalizer: {severity: 'info', why: 'orphan deletion: the collector orphans the dependents, then lets the owner go'},
    notMonitored: {
      severity: 'none',
      why: "the kind is not in the collector's graph",
      when: [{severity: 'warning', if: 'its finalizer is one only the collector removes: it is never removed'}],
    },
    keep: {severity: 'none', why: 'an owner is solid'},
    noOwners: {severity: 'none', why: 'no owner references'},
  },
}
