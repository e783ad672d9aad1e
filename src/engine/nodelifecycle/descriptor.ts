// The node lifecycle replay (`kubectl why node`, the audit's node check): what it is and what it reads.
// Data only (src/replay.ts); its engine reads NODE_SEVERITY from here.
import type {Severity} from '../../explanation.js'
import {OBJECT_META, type ReplayDescriptor, type ReplayGet, type ReplayRead, severitiesOf} from '../../replay.js'
import type {NodeVerdict} from './analyze.js'

/** The namespace of the node heartbeat Leases (pkg/apis/core/v1: NamespaceNodeLease). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease'

export const NODE_SEVERITY: Record<NodeVerdict, Severity> = {
  healthy: 'none',
  excluded: 'none',
  withinGrace: 'info',
  unhealthy: 'warning',
  taintPending: 'warning',
  taintBlocked: 'warning',
  circuitOpen: 'warning',
  unknown: 'info',
}

/** What the node lifecycle world reads (drive.ts readNodeLifecycle); the taint-eviction replay builds on the same world. */
export const NODE_LIFECYCLE_READS: readonly ReplayRead[] = [
  {
    key: 'nodes',
    ref: {apiVersion: 'v1', kind: 'Node'},
    scope: 'cluster',
    detail: 'full',
    view: 'fresh',
    required: true,
    why: 'node health, zones and taints',
    // The image list, addresses and capacity are not read.
    fields: [...OBJECT_META, 'metadata.annotations', 'spec', 'status.{conditions,phase}'],
  },
  {
    key: 'leases',
    ref: {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'},
    scope: {namespace: NODE_LEASE_NAMESPACE},
    detail: 'full',
    view: 'cached',
    required: false,
    why: "node heartbeats as the controller's lease informer holds them (watch cache)",
    fields: '*',
  },
  {
    key: 'kcm',
    ref: {apiVersion: 'v1', kind: 'Pod'},
    scope: {namespace: 'kube-system'},
    labelSelector: 'component=kube-controller-manager',
    detail: 'full',
    view: 'fresh',
    required: false,
    why: "kube-controller-manager flags (its static pod's command line)",
    fields: '*',
  },
]

/** The GET the node lifecycle world may send (drive.ts: the circuit breaker's live lease read). */
export const NODE_LIFECYCLE_GETS: readonly ReplayGet[] = [
  {ref: {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'}, why: 'the live lease double-check of stale nodes (circuit breaker)', fields: '*'},
]

export const NODE_REPLAY: ReplayDescriptor = {
  name: 'node',
  command: 'node',
  controllers: ['nodelifecycle'],
  target: {kinds: ['Node'], natural: 'Node'},
  reads: [
    ...NODE_LIFECYCLE_READS,
    {
      key: 'pods',
      ref: {apiVersion: 'v1', kind: 'Pod'},
      scope: 'audit',
      detail: 'full',
      view: 'fresh',
      required: false,
      why: "with -n: which nodes the namespace's pods run on",
      fields: ['spec.nodeName'],
    },
  ],
  gets: NODE_LIFECYCLE_GETS,
  scope: 'cluster',
  subjects: ['nodes'],
  schema: {file: 'node', definition: 'NodeExplanation'},
  views: ['node'],
  description: 'nodes that are, or will be, tainted NoExecute (or are kept from it)',
  severities: severitiesOf(NODE_SEVERITY, {
    unhealthy: 'the node stopped reporting: it is tainted and its pods are evicted',
    taintPending: 'the node is due a NoExecute taint the controller has not added yet',
    taintBlocked: "the taint is held back (zone rate, master disruption): a person should know why the node's pods stay",
    circuitOpen: 'the lease circuit breaker holds the controller: its view of the node is not trusted',
    withinGrace: 'a missed heartbeat still within the grace period: nothing is done yet',
    unknown: "the data cannot show the node's health (its heartbeats were not captured): nothing above info rests on missing evidence",
    healthy: 'healthy',
    excluded: 'excluded from disruption handling by its labels',
  }),
}
