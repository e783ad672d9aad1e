// What every cluster has before any workload: the namespaces, and the kube-controller-manager static pod
// (as its mirror pod) whose command line tells kubectl-why the node-lifecycle settings in force.
import type {KubeObject} from '../../../src/cluster/source.js'
import {randomHex} from './prng.js'
import {rng, Stream, uidOf} from './identity.js'
import {meta} from './meta.js'
import {namespaceName, SYSTEM_NAMESPACES} from './names.js'
import type {ClusterPlan} from './plan.js'
import {CLUSTER_AGE_MS} from './plan-nodes.js'
import {podState} from './pod-status.js'
import {DAY, isoNanos, MINUTE} from './time.js'

export function namespaceNames(plan: ClusterPlan): string[] {
  return [...SYSTEM_NAMESPACES, ...Array.from({length: plan.o.namespaces}, (_, i) => namespaceName(i))]
}

export function namespaceObject(plan: ClusterPlan, index: number, name: string, resourceVersion: string): KubeObject {
  const born = plan.o.nowMs - CLUSTER_AGE_MS
  const createdMs = index < SYSTEM_NAMESPACES.length ? born + index * 1000 : born + (rng(plan.o.seed, Stream.Namespace, index).int(1, 300) * DAY) / 10
  return {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: meta({name, uid: uidOf(plan.o.seed, Stream.Namespace, index), resourceVersion, createdMs, labels: {'kubernetes.io/metadata.name': name}}),
    spec: {finalizers: ['kubernetes']},
    status: {phase: 'Active'},
  }
}

function hostPath(name: string, path: string, type: string): Record<string, unknown> {
  return {name, hostPath: {path, type}}
}

// Functions, not constants: every generated object is fresh, so a caller may mutate what it gets.
function kcmVolumes(): Record<string, unknown>[] {
  return [
    hostPath('ca-certs', '/etc/ssl/certs', 'DirectoryOrCreate'),
    hostPath('flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', 'DirectoryOrCreate'),
    hostPath('k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate'),
    hostPath('kubeconfig', '/etc/kubernetes/controller-manager.conf', 'FileOrCreate'),
  ]
}

function kcmMounts(): Record<string, unknown>[] {
  return [
    {name: 'ca-certs', readOnly: true, mountPath: '/etc/ssl/certs'},
    {name: 'flexvolume-dir', mountPath: '/usr/libexec/kubernetes/kubelet-plugins/volume/exec'},
    {name: 'k8s-certs', readOnly: true, mountPath: '/etc/kubernetes/pki'},
    {name: 'kubeconfig', readOnly: true, mountPath: '/etc/kubernetes/controller-manager.conf'},
  ]
}

function healthProbe(failureThreshold: number): Record<string, unknown> {
  return {
    httpGet: {path: '/healthz', port: 10257, host: '127.0.0.1', scheme: 'HTTPS'},
    initialDelaySeconds: 10,
    timeoutSeconds: 15,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold,
  }
}

/** The kubelet's mirror of /etc/kubernetes/manifests/kube-controller-manager.yaml on the control-plane node. */
export function controllerManagerPod(plan: ClusterPlan, resourceVersion: string): KubeObject {
  const o = plan.o
  const node = plan.nodes[0]
  const r = rng(o.seed, Stream.ControlPlane, 2)
  // Recreated at the last control-plane upgrade or kubelet restart.
  const createdMs = o.nowMs - r.int(1, 30) * DAY - r.int(0, 1439) * MINUTE
  const configHash = randomHex(r, 32)
  const image = `registry.k8s.io/kube-controller-manager:${o.kubernetesVersion}`
  const command = ['kube-controller-manager', ...Object.entries(o.controllerManagerArgs).map(([k, v]) => `--${k}=${v}`)]
  const state = podState({
    rng: r,
    nowMs: o.nowMs,
    createdMs,
    containerName: 'kube-controller-manager',
    image,
    imageId: `registry.k8s.io/kube-controller-manager@sha256:${randomHex(r, 64)}`,
    qosClass: 'Burstable',
    hostIP: node.address,
    podIP: node.address,
    node: node.health,
    noRestarts: true,
  })
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: meta({
      name: `kube-controller-manager-${node.name}`,
      namespace: 'kube-system',
      uid: uidOf(o.seed, Stream.Pod, plan.controlPlanePod),
      resourceVersion,
      createdMs,
      labels: {component: 'kube-controller-manager', tier: 'control-plane'},
      annotations: {
        'kubernetes.io/config.hash': configHash,
        'kubernetes.io/config.mirror': configHash,
        'kubernetes.io/config.seen': isoNanos(createdMs - 5000, r.int(0, 999_999)),
        'kubernetes.io/config.source': 'file',
      },
      // Mirror pods are owned by their Node (controller, without blockOwnerDeletion).
      ownerReferences: [{apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid, controller: true}],
    }),
    spec: {
      volumes: kcmVolumes(),
      containers: [
        {
          name: 'kube-controller-manager',
          image,
          command,
          resources: {requests: {cpu: '200m'}},
          volumeMounts: kcmMounts(),
          livenessProbe: healthProbe(8),
          startupProbe: healthProbe(24),
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeName: node.name,
      hostNetwork: true,
      securityContext: {seccompProfile: {type: 'RuntimeDefault'}},
      schedulerName: 'default-scheduler',
      tolerations: [{operator: 'Exists', effect: 'NoExecute'}],
      priorityClassName: 'system-node-critical',
      priority: 2000001000,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: state.status,
  }
}
