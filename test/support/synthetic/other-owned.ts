// Objects owned by other objects outside the workload chains — what the garbage collector walks besides
// ReplicaSets and pods. Object k of `otherOwned`:
//
//   k < danglingOwners: a ConfigMap, Secret, Service or Job whose owner uid no longer exists — the owner
//     was recreated under the same name (new uid), or is gone, or was an old ReplicaSet pruned by
//     revisionHistoryLimit.
//   then units of nine, each around one Deployment A in A's namespace:
//     ConfigMap (owned by A) · Secret, metadata only (owned by A) · Service (owned by A, as operators do)
//     · EndpointSlice (owned by that Service) · CronJob (no owner) · three Jobs (owned by the CronJob)
//     · ConfigMap with two non-controller owners (A and the CronJob).
//   The last unit may be cut short; owners always come before their dependents in a unit.
import type {KubeObject, OwnerReference} from '../../../src/cluster/source.js'
import {randomSuffix, randomTemplateHash} from './prng.js'
import {rng, Stream, uidOf} from './identity.js'
import {controllerRef, meta} from './meta.js'
import type {ResolvedOptions} from './options.js'
import type {ClusterPlan} from './plan.js'
import type {DeploymentPlan} from './plan-workloads.js'
import {CLUSTER_AGE_MS} from './plan-nodes.js'
import {HOUR, isoSeconds, MINUTE} from './time.js'

const DANGLING_KINDS = ['ConfigMap', 'Secret', 'Service', 'Job'] as const
const UNIT = ['ConfigMap', 'Secret', 'Service', 'EndpointSlice', 'CronJob', 'Job', 'Job', 'Job', 'ConfigMap'] as const

export function otherOwnedKind(o: ResolvedOptions, k: number): string {
  return k < o.danglingOwners ? DANGLING_KINDS[k % DANGLING_KINDS.length] : UNIT[(k - o.danglingOwners) % UNIT.length]
}

interface Ctx {
  plan: ClusterPlan
  k: number
  resourceVersion: string
}

function unitDeployment(plan: ClusterPlan, key: number): DeploymentPlan {
  return plan.deployments[rng(plan.o.seed, Stream.OtherOwned, key).int(0, plan.deployments.length - 1)]
}

function uidOfOther(plan: ClusterPlan, k: number): string {
  return uidOf(plan.o.seed, Stream.OtherOwned, k)
}

function configMap(c: Ctx, name: string, namespace: string, createdMs: number, owners: OwnerReference[], app: string): KubeObject {
  return {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: meta({name, namespace, uid: uidOfOther(c.plan, c.k), resourceVersion: c.resourceVersion, createdMs, labels: {app}, ownerReferences: owners}),
    data: {APP_ENV: 'production', LOG_FORMAT: 'json', 'config.yaml': `service: ${app}\nreplicas: auto\n`},
  }
}

/** Secrets are captured as metadata only (snapshots never hold Secret data): apiVersion, kind, metadata. */
function secret(c: Ctx, name: string, namespace: string, createdMs: number, owners: OwnerReference[], app: string): KubeObject {
  return {
    kind: 'Secret',
    apiVersion: 'v1',
    metadata: meta({name, namespace, uid: uidOfOther(c.plan, c.k), resourceVersion: c.resourceVersion, createdMs, labels: {app}, ownerReferences: owners}),
  }
}

function clusterIp(k: number): string {
  const n = k + 11
  return `10.${96 + ((n >>> 16) & 15)}.${(n >>> 8) & 255}.${n & 255}`
}

function service(c: Ctx, name: string, namespace: string, createdMs: number, owners: OwnerReference[], app: string): KubeObject {
  const ip = clusterIp(c.k)
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: meta({name, namespace, uid: uidOfOther(c.plan, c.k), resourceVersion: c.resourceVersion, createdMs, labels: {app}, ownerReferences: owners}),
    spec: {
      ports: [{name: 'admin', protocol: 'TCP', port: 9000, targetPort: 9000}],
      // An admin endpoint no pod serves yet: the EndpointSlice below is legitimately empty.
      selector: {app, component: 'admin'},
      clusterIP: ip,
      clusterIPs: [ip],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: {loadBalancer: {}},
  }
}

function endpointSlice(c: Ctx, serviceName: string, serviceUid: string, namespace: string, createdMs: number): KubeObject {
  const r = rng(c.plan.o.seed, Stream.OtherOwned, c.k)
  return {
    kind: 'EndpointSlice',
    apiVersion: 'discovery.k8s.io/v1',
    metadata: meta({
      name: `${serviceName}-${randomSuffix(r)}`,
      generateName: `${serviceName}-`,
      namespace,
      uid: uidOfOther(c.plan, c.k),
      resourceVersion: c.resourceVersion,
      generation: 1,
      createdMs,
      labels: {'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io', 'kubernetes.io/service-name': serviceName},
      annotations: {'endpoints.kubernetes.io/last-change-trigger-time': isoSeconds(createdMs)},
      ownerReferences: [controllerRef('v1', 'Service', serviceName, serviceUid)],
    }),
    addressType: 'IPv4',
    endpoints: null,
    ports: null,
  }
}

function jobPodTemplate(image: string, labels?: Record<string, string>): Record<string, unknown> {
  const metadata: Record<string, unknown> = {creationTimestamp: null}
  if (labels) metadata.labels = labels
  return {
    metadata,
    spec: {
      containers: [
        {
          name: 'cleanup',
          image,
          command: ['/bin/cleanup', '--older-than=24h'],
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'OnFailure',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  }
}

function cronJob(c: Ctx, name: string, namespace: string, createdMs: number, minute: number, image: string, app: string): KubeObject {
  const last = lastSchedule(c.plan.o.nowMs, minute)
  return {
    kind: 'CronJob',
    apiVersion: 'batch/v1',
    metadata: meta({name, namespace, uid: uidOfOther(c.plan, c.k), resourceVersion: c.resourceVersion, generation: 1, createdMs, labels: {app}}),
    spec: {
      schedule: `${minute} * * * *`,
      concurrencyPolicy: 'Forbid',
      suspend: false,
      jobTemplate: {metadata: {creationTimestamp: null}, spec: {template: jobPodTemplate(image)}},
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    },
    status: {lastScheduleTime: isoSeconds(last), lastSuccessfulTime: isoSeconds(last - HOUR + 45_000)},
  }
}

/** The newest scheduled time of `<minute> * * * *` at or before now. */
function lastSchedule(nowMs: number, minute: number): number {
  return nowMs - ((((nowMs - minute * MINUTE) % HOUR) + HOUR) % HOUR)
}

function job(c: Ctx, cronName: string, namespace: string, scheduledMs: number, image: string, owners: OwnerReference[]): KubeObject {
  const uid = uidOfOther(c.plan, c.k)
  const name = `${cronName}-${Math.floor(scheduledMs / MINUTE)}`
  const labels = {'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name}
  const startMs = Math.min(c.plan.o.nowMs, scheduledMs + 1000)
  const doneMs = startMs + 20_000 + (c.k % 60) * 1000
  const done = doneMs <= c.plan.o.nowMs
  const status: Record<string, unknown> = done
    ? {
        conditions: [{type: 'Complete', status: 'True', lastProbeTime: isoSeconds(doneMs), lastTransitionTime: isoSeconds(doneMs)}],
        startTime: isoSeconds(startMs),
        completionTime: isoSeconds(doneMs),
        succeeded: 1,
        terminating: 0,
        uncountedTerminatedPods: {},
        ready: 0,
      }
    : {startTime: isoSeconds(startMs), active: 1, terminating: 0, uncountedTerminatedPods: {}, ready: 1}
  return {
    kind: 'Job',
    apiVersion: 'batch/v1',
    metadata: meta({
      name,
      namespace,
      uid,
      resourceVersion: c.resourceVersion,
      generation: 1,
      createdMs: scheduledMs,
      labels,
      annotations: {'batch.kubernetes.io/cronjob-scheduled-timestamp': isoSeconds(scheduledMs)},
      ownerReferences: owners,
    }),
    spec: {
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      selector: {matchLabels: {'batch.kubernetes.io/controller-uid': uid}},
      template: jobPodTemplate(image, labels),
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    },
    status,
  }
}

function danglingObject(c: Ctx): KubeObject {
  const {plan, k} = c
  const a = unitDeployment(plan, 0x40000000 + k)
  const r = rng(plan.o.seed, Stream.Deleted, k)
  const deletedUid = uidOf(plan.o.seed, Stream.Deleted, k)
  const kind = DANGLING_KINDS[k % DANGLING_KINDS.length]
  // Older than the current owner: it belonged to the previous one. Never before the cluster existed.
  const createdMs = Math.max(plan.o.nowMs - CLUSTER_AGE_MS + HOUR, a.createdMs - r.int(1, 90) * 86_400_000)
  let owner: OwnerReference
  if (kind === 'Job') owner = controllerRef('batch/v1', 'CronJob', `${a.name}-nightly`, deletedUid)
  else if (k % 3 === 0)
    owner = controllerRef('apps/v1', 'Deployment', a.name, deletedUid) // recreated: same name, new uid
  else if (k % 3 === 1)
    owner = controllerRef('apps/v1', 'Deployment', `${a.name}-v1`, deletedUid) // gone
  else owner = controllerRef('apps/v1', 'ReplicaSet', `${a.name}-${randomTemplateHash(r)}`, deletedUid) // pruned old ReplicaSet
  const name = `${a.name}-legacy-${k}`
  switch (kind) {
    case 'ConfigMap':
      return configMap(c, name, a.namespace, createdMs, [owner], a.name)
    case 'Secret':
      return secret(c, name, a.namespace, createdMs, [owner], a.name)
    case 'Service':
      return service(c, name, a.namespace, createdMs, [owner], a.name)
    // A distinct run per k (minute k%60, one hour earlier per 60): Job names stay unique.
    case 'Job':
      return job(
        c,
        `${a.name}-nightly`,
        a.namespace,
        lastSchedule(plan.o.nowMs, k % 60) - 30 * 86_400_000 - Math.floor(k / 60) * HOUR,
        `registry.example.com/${a.namespace}/${a.name}-jobs:1.0.0`,
        [owner],
      )
  }
}

export function otherOwnedObject(plan: ClusterPlan, k: number, resourceVersion: string): KubeObject {
  const c: Ctx = {plan, k, resourceVersion}
  if (k < plan.o.danglingOwners) return danglingObject(c)
  const j = k - plan.o.danglingOwners
  const unit = Math.floor(j / UNIT.length)
  const first = plan.o.danglingOwners + unit * UNIT.length
  const a = unitDeployment(plan, unit)
  const r = rng(plan.o.seed, Stream.OtherOwned, 0x20000000 + unit)
  // Before the CronJob's last three hourly runs, so that its Jobs are younger than it.
  const createdMs = a.createdMs + Math.floor(r.float() * Math.max(0, plan.o.nowMs - 4 * HOUR - a.createdMs))
  const byA = controllerRef('apps/v1', 'Deployment', a.name, a.uid)
  const serviceName = `${a.name}-${unit}`
  const cronName = `${a.name}-cleanup-${unit}`
  const minute = unit % 60
  const image = `registry.example.com/${a.namespace}/${a.name}-jobs:1.${unit % 7}.0`
  switch (j % UNIT.length) {
    case 0:
      return configMap(c, `${a.name}-env-${unit}`, a.namespace, createdMs, [byA], a.name)
    case 1:
      return secret(c, `${a.name}-credentials-${unit}`, a.namespace, createdMs, [byA], a.name)
    case 2:
      return service(c, serviceName, a.namespace, createdMs, [byA], a.name)
    case 3:
      return endpointSlice(c, serviceName, uidOfOther(plan, first + 2), a.namespace, createdMs + 1000)
    case 4:
      return cronJob(c, cronName, a.namespace, createdMs, minute, image, a.name)
    case 5:
    case 6:
    case 7: {
      const ago = 7 - (j % UNIT.length) // oldest first: 2, 1, 0 hours before the last run
      const cronUid = uidOfOther(plan, first + 4)
      return job(c, cronName, a.namespace, lastSchedule(plan.o.nowMs, minute) - ago * HOUR, image, [controllerRef('batch/v1', 'CronJob', cronName, cronUid)])
    }
    default: {
      // Shared by two owners, neither its controller: collected only when both are gone.
      const owners: OwnerReference[] = [
        {apiVersion: 'apps/v1', kind: 'Deployment', name: a.name, uid: a.uid},
        {apiVersion: 'batch/v1', kind: 'CronJob', name: cronName, uid: uidOfOther(plan, first + 4)},
      ]
      return configMap(c, `${a.name}-shared-${unit}`, a.namespace, createdMs, owners, a.name)
    }
  }
}
