// The taint-eviction replay (`kubectl why evicted`, the audit's evicted check): what it is and what it reads.
// Data only (src/replay.ts); its engine reads EVICTED_SEVERITY from here.
import type {Severity} from '../../explanation.js'
import {OBJECT_META, type ReplayDescriptor, severitiesOf} from '../../replay.js'
import {NODE_LIFECYCLE_GETS, NODE_LIFECYCLE_READS} from '../nodelifecycle/descriptor.js'

/** The taint-eviction replay's verdicts (explain.ts decides them). */
export type EvictedVerdict =
  | 'notAffected'
  | 'toleratedForever'
  | 'evictAt'
  | 'evictedImmediately'
  | 'evicted'
  | 'notEvictedBecause'
  // Named by the pod's own record or replayed by another actor (actors.ts): the kubelet, the scheduler, the
  // Eviction API and the budgets, PodGC.
  | 'evictedByKubelet'
  | 'terminatedByShutdown'
  | 'preemptedByKubelet'
  | 'preempted'
  | 'evictedByApi'
  | 'deletedByPodGC'
  | 'rejectedAtAdmission'
  | 'evictionBlocked'
  | 'willBeCollected'
  | 'beingDeleted'
  | 'atRisk'
  | 'disrupted'

export const EVICTED_SEVERITY: Record<EvictedVerdict, Severity> = {
  notAffected: 'none',
  toleratedForever: 'none',
  notEvictedBecause: 'info',
  evictAt: 'warning',
  evicted: 'warning',
  evictedImmediately: 'critical',
  evictedByKubelet: 'warning',
  terminatedByShutdown: 'info',
  preemptedByKubelet: 'warning',
  preempted: 'warning',
  evictedByApi: 'info',
  deletedByPodGC: 'info',
  rejectedAtAdmission: 'warning',
  evictionBlocked: 'warning',
  willBeCollected: 'info',
  beingDeleted: 'none',
  atRisk: 'warning',
  disrupted: 'info',
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
        // Who else acts on it (actors.ts): the kubelet's record (status.reason/message), QoS and priority for the
        // pressure ranking and the preemption risk, a pending preemptor's nominated node.
        'spec.{priority,priorityClassName,preemptionPolicy}',
        'spec.containers[].{name,resources}',
        'spec.initContainers[].{name,resources,restartPolicy}',
        'status.{phase,reason,message,qosClass,nominatedNodeName}',
        // PodScheduled: when the pod was bound (process.ts); DisruptionTarget: the eviction's own record (evidence.ts).
        'status.conditions[type=PodScheduled].{type,status,reason,lastTransitionTime}',
        'status.conditions[type=DisruptionTarget].{type,status,reason,message,lastTransitionTime}',
        // Ready: the budgets' currentHealthy and the Eviction API's unhealthy-pod rule (../disruption/pdb.ts); the
        // mirror-pod annotation: a static pod is critical, never ranked for a pressure eviction (../podeviction/kubelet.ts).
        'status.conditions[type=Ready].{type,status}',
        'metadata.annotations[kubernetes.io/config.mirror]',
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
    // The Eviction API's answer and the disruption controller's arithmetic (../disruption/pdb.ts), and preemption's
    // priorities (../podeviction/preemption.ts): small objects, read whole, so a snapshot holds them for `evicted`.
    {
      key: 'pdbs',
      ref: {apiVersion: 'policy/v1', kind: 'PodDisruptionBudget'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "the budgets selecting each pod: what a drain's eviction gets back",
      fields: '*',
    },
    {
      key: 'priorityclasses',
      ref: {apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass'},
      scope: 'cluster',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: 'priorities and preemptionPolicy of preemptors and victims',
      fields: '*',
    },
  ],
  gets: [
    ...NODE_LIFECYCLE_GETS,
    // evicted pod/NAME on a pod the kubelet evicted: the node's effective eviction thresholds (../podeviction/configz.ts).
    {
      ref: {apiVersion: 'v1', kind: 'Node'},
      subresource: 'proxy',
      why: "the kubelet's configuration (GET nodes/NAME/proxy/configz): its eviction thresholds, else the release's defaults, unverified",
      // Kubernetes' "Kubelet authentication/authorization" page: nodes/proxy authorizes every kubelet API, not only
      // reads (a GET-initiated WebSocket upgrade reaches exec) — far beyond a read-only audit. Only `evicted pod/NAME`
      // sends this GET, and answers a 403 with the defaults, said to be unverified.
      notInAuditRole:
        'get on nodes/proxy authorizes every kubelet API (exec included), not only reads: grant it to a person running evicted pod/NAME, not to the audit',
    },
  ],
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
    evictedByKubelet: 'the kubelet evicted it under node pressure or for a local-storage limit: its requests or the node need a look',
    terminatedByShutdown: 'the kubelet stopped it for a node shutdown: expected during maintenance',
    preemptedByKubelet: 'the kubelet stopped it to admit a critical pod',
    preempted: 'the scheduler removed it for a higher-priority pod: its priority class needs a look',
    evictedByApi: 'evicted through the Eviction API (a drain or a person), as its budget allowed',
    deletedByPodGC: 'PodGC removed it: its node was gone',
    rejectedAtAdmission: 'not an eviction: the kubelet refused it at admission, so it never ran on that node',
    evictionBlocked: 'its node is being drained and its PodDisruptionBudget refuses the eviction: the drain never finishes',
    willBeCollected: 'PodGC will force-delete it',
    beingDeleted: 'being deleted by a plain DELETE (a person, its controller, the garbage collector): no eviction to look at',
    atRisk: 'next in line: below a pending preemptor nominated to its node, or BestEffort on a node under pressure',
    disrupted: 'its DisruptionTarget condition names a reason no replay here knows: something is removing it',
  }),
}
