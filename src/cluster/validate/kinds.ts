// The shape of each kind as the checks read it: every field src/engine/**, src/hash/**, src/settings/**,
// src/audit/** and the commands touch with plain JavaScript, with its JSON type (the engines' input types name them:
// engine/replicaset/types.ts, engine/tainteviction/types.ts, engine/nodelifecycle/types.ts,
// engine/deployment/types.ts). Every field a replay's descriptor names (src/engine/*/descriptor.ts) is checked here:
// test/replays/shapes.test.ts builds an object with that field of the wrong type and wants it refused. Fields not listed are not looked at. Pod templates are left to the hash code, which
// decodes them against Go's own type layouts and names the field it cannot use (src/hash/typed-json.ts).
import {boolean, type Check, int32, int64, int64Exact, intOrString, json, list, name, object, quantityMap, required, string, stringMap, time} from './shape.js'

const ownerReference = object({
  apiVersion: required(name),
  kind: required(name),
  name: required(name),
  uid: required(name),
  controller: boolean,
  blockOwnerDeletion: boolean,
})

/** ObjectMeta: identity, ownership, deletion, labels (apimachinery/pkg/apis/meta/v1/types.go). */
const metadata = object({
  name: required(name),
  generateName: string,
  namespace: string,
  uid: string,
  resourceVersion: string,
  generation: int64,
  creationTimestamp: time,
  deletionTimestamp: time,
  deletionGracePeriodSeconds: int64,
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: list(ownerReference),
  finalizers: list(string),
})

const labelSelector = object({
  matchLabels: stringMap,
  matchExpressions: list(object({key: required(string), operator: required(string), values: list(string)})),
})

const condition = object({
  type: required(string),
  status: required(string),
  reason: string,
  message: string,
  lastTransitionTime: time,
  lastHeartbeatTime: time,
  lastProbeTime: time,
  lastUpdateTime: time,
})
const conditions = list(condition)

/** What the ReplicaSet replay reads of a template, and what the hash code needs to find it. */
const templateMeta = object({metadata: object({labels: stringMap, annotations: stringMap})})

const containerStatus = object({name: string, restartCount: int32, ready: boolean, started: boolean})

// requests and limits: the kubelet's pressure ranking and the pod's QoS class (component-helpers/resource.ts).
const resources = object({requests: quantityMap, limits: quantityMap})

const pod = object({
  spec: object({
    nodeName: string,
    tolerations: list(object({key: string, operator: string, value: string, effect: string, tolerationSeconds: int64Exact})),
    // The controller-manager's mirror pod: its command line holds the node lifecycle settings (settings/kcm.ts).
    containers: list(object({name: string, image: string, command: list(string), args: list(string), resources})),
    initContainers: list(object({name: string, restartPolicy: string, resources})),
    // Preemption and the pressure ranking: the pod's priority and its policy.
    priority: int32,
    priorityClassName: string,
    preemptionPolicy: string,
    // The deleting check: a Terminating namespace's grace estimate, pvc-protection's podUsesPVC.
    terminationGracePeriodSeconds: int64,
    volumes: list(object({name: string, persistentVolumeClaim: object({claimName: string}), ephemeral: object({})})),
  }),
  status: object({
    phase: string,
    reason: string,
    message: string,
    qosClass: string,
    nominatedNodeName: string,
    conditions,
    containerStatuses: list(containerStatus),
    initContainerStatuses: list(containerStatus),
  }),
})

const node = object({
  spec: object({
    taints: list(object({key: required(string), value: string, effect: required(string), timeAdded: time})),
    unschedulable: boolean,
  }),
  // nodeInfo.kubeletVersion: the hash replay's bound on the version of a dump that records none.
  status: object({conditions, phase: string, nodeInfo: object({kubeletVersion: string})}),
})

const lease = object({
  spec: object({holderIdentity: string, leaseDurationSeconds: int32, acquireTime: time, renewTime: time, leaseTransitions: int32}),
})

const replicaCounts = {
  replicas: int32,
  fullyLabeledReplicas: int32,
  readyReplicas: int32,
  availableReplicas: int32,
  terminatingReplicas: int32,
  updatedReplicas: int32,
  currentReplicas: int32,
  unavailableReplicas: int32,
  observedGeneration: int64,
  collisionCount: int32,
  currentNumberScheduled: int32,
  numberMisscheduled: int32,
  desiredNumberScheduled: int32,
  numberReady: int32,
  updatedNumberScheduled: int32,
  numberAvailable: int32,
  numberUnavailable: int32,
}

const replicaSet = object({
  spec: object({replicas: int32, minReadySeconds: int32, selector: labelSelector, template: templateMeta}),
  status: object({...replicaCounts, conditions}),
})

const rollingUpdate = object({maxSurge: intOrString, maxUnavailable: intOrString, partition: int32})
const strategy = object({type: string, rollingUpdate})

const workloadSpec = {
  replicas: int32,
  selector: labelSelector,
  template: templateMeta,
  paused: boolean,
  minReadySeconds: int32,
  revisionHistoryLimit: int32,
  strategy,
  updateStrategy: strategy,
  podManagementPolicy: string,
  serviceName: string,
}
const workload = object({
  spec: object(workloadSpec),
  status: object({...replicaCounts, currentRevision: string, updateRevision: string, conditions}),
})

const controllerRevision = object({revision: int64, data: json})

const reference = object({kind: string, namespace: string, name: string, uid: string, apiVersion: string, fieldPath: string})
/** core/v1 and events.k8s.io/v1 Events (the object store treats them as one kind). */
const event = object({
  involvedObject: reference,
  regarding: reference,
  related: reference,
  reason: string,
  message: string,
  note: string,
  type: string,
  action: string,
  reportingComponent: string,
  reportingController: string,
  count: int32,
  deprecatedCount: int32,
  firstTimestamp: time,
  lastTimestamp: time,
  eventTime: time,
  deprecatedFirstTimestamp: time,
  deprecatedLastTimestamp: time,
  series: object({count: int32, lastObservedTime: time}),
  source: object({component: string, host: string}),
  deprecatedSource: object({component: string, host: string}),
})

const namespace = object({spec: object({finalizers: list(string)}), status: object({phase: string, conditions})})

// What `gc KIND/NAME`'s other cleanup mechanisms read (src/engine/garbagecollector/descriptor.ts reads).
const apiService = object({
  spec: object({group: string, version: string, service: object({namespace: string, name: string, port: int32})}),
  status: object({conditions}),
})
const job = object({
  spec: object({ttlSecondsAfterFinished: int32, podFailurePolicy: object({rules: list(object({action: string}))}), podReplacementPolicy: string}),
  status: object({startTime: time, conditions}),
})
const cronJob = object({spec: object({successfulJobsHistoryLimit: int32, failedJobsHistoryLimit: int32})})
const persistentVolume = object({
  spec: object({
    persistentVolumeReclaimPolicy: string,
    claimRef: object({namespace: string, name: string, uid: string, apiVersion: string, kind: string, resourceVersion: string}),
    csi: object({driver: string}),
  }),
  status: object({phase: string}),
})
/** status.certificate: base64 of PEM on the wire. */
const certificateSigningRequest = object({status: object({certificate: string, conditions})})

/** By the object store's group/kind key (object-store.ts groupKindKey: extensions folded into apps, events.k8s.io into core). */
export const KIND_SHAPES: ReadonlyMap<string, Check> = new Map([
  ['/Pod', pod],
  ['/Node', node],
  ['/Namespace', namespace],
  ['/Event', event],
  ['coordination.k8s.io/Lease', lease],
  ['apps/ReplicaSet', replicaSet],
  ['apps/Deployment', workload],
  ['apps/DaemonSet', workload],
  ['apps/StatefulSet', workload],
  ['apps/ControllerRevision', controllerRevision],
  ['apiregistration.k8s.io/APIService', apiService],
  ['/PersistentVolume', persistentVolume],
  ['batch/Job', job],
  ['batch/CronJob', cronJob],
  ['certificates.k8s.io/CertificateSigningRequest', certificateSigningRequest],
])

/** Every object: its type and its metadata. */
export const OBJECT = object({apiVersion: required(name), kind: required(name), metadata: required(metadata)})
