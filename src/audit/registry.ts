// The one list of the audit's checks. Everything that enumerates checks derives from it: the audit's run order and
// report order, --checks/--skip-checks, `audit --help`, the JUnit suites and class names, the controller → check map
// of the views, deploy/clusterrole.yaml (rbac.ts over each adapter's declared reads), and the tests' lists; the
// schema's enums (schemas/audit-report.json CheckName, Finding.controller, VerdictSeverities) are tested against it
// (test/audit/registry.test.ts). A new replay is its engine folder, one entry here and its command file.
import {hashCheckWith} from './checks/hash.js'
import {gcCheck} from './checks/gc.js'
import {nodeCheck} from './checks/node.js'
import {evictedCheck} from './checks/evicted.js'
import {replicasCheck} from './checks/replicas.js'
import {EVICTED_SEVERITY} from '../engine/tainteviction/explain.js'
import {NODE_SEVERITY} from '../engine/nodelifecycle/explain.js'
import type {Explanation, Severity} from '../explanation.js'
import {renderHashExplanation} from '../render/hash-workload.js'
import {renderNode} from '../render/node.js'
import {renderEvicted} from '../render/node-evicted.js'
import {renderReplicaSet} from '../render/replicas.js'
import type {Check, CheckEnvironment} from './context.js'

/**
 * The severity a verdict gets, reviewed against "does this need a person?": critical — now; warning — soon, the
 * cluster will not fix it alone or is about to act; info — worth knowing, nothing to do; none — nothing to see.
 * `when` lists the conditions under which the engine gives another severity than `severity`.
 */
export interface VerdictSeverity {
  severity: Severity
  why: string
  when?: readonly {severity: Severity; if: string}[]
}

/**
 * Where a check's subjects are: namespaced — the audit's scope (-n, -A, the context's namespace); cluster — cluster-
 * scoped objects, always the whole cluster; mixed — namespaced objects in the audit's scope, cluster-scoped objects
 * (and the Nodes' own namespaced objects, their Leases) over the whole cluster.
 */
export type CheckScope = 'namespaced' | 'cluster' | 'mixed'

export interface CheckEntry {
  /** The --checks value, the report's name, the JUnit suite: `kubectl-why.<name>.<Kind>`. */
  name: string
  /** `kubectl why <command>` replays one subject of this check. */
  command: string
  /** The Explanation.controller values its findings carry (the first is the check's controller in the report). */
  controllers: readonly string[]
  /** The adapter over the audit's gathered lists (its needs() are the RBAC reads: rbac.ts, deploy/). */
  adapter: (env: CheckEnvironment) => Check
  /** The schema of its findings: schemas/<file>.json#/definitions/<definition>. */
  schema: {file: string; definition: string}
  /** The command's own view of one finding (the audit's -o wide). */
  render?: (e: Explanation, wide: boolean) => string
  scope: CheckScope
  /** The needs (their keys) whose listed objects are the check's subjects; 'all': every list it reads. */
  subjects: 'all' | readonly string[]
  description: string
  severities: Record<string, VerdictSeverity>
  /** Set while the check's engine has not landed: left out of the default set, refused by --checks. */
  unavailable?: string
}

const fromMap = (map: Record<string, Severity>, why: Record<string, string>): Record<string, VerdictSeverity> =>
  Object.fromEntries(Object.entries(map).map(([v, severity]) => [v, {severity, why: why[v] ?? ''}]))

export const REGISTRY = {
  hash: {
    name: 'hash',
    command: 'hash',
    controllers: ['deployment', 'daemonset', 'statefulset'],
    adapter: (env) => hashCheckWith(env.source),
    schema: {file: 'hash', definition: 'HashExplanation'},
    render: renderHashExplanation,
    scope: 'namespaced',
    subjects: ['Deployment', 'DaemonSet', 'StatefulSet'],
    description: 'workloads whose pod-template-hash / controller-revision-hash is off',
    severities: {
      collision: {
        severity: 'warning',
        why: "the new ReplicaSet's name is taken: the controller bumps collisionCount and retries, and a person should find what holds the name",
      },
      rolloutPending: {
        severity: 'info',
        why: 'the controller creates the new ReplicaSet/revision on its next sync',
        when: [
          {severity: 'critical', if: 'the create fails (the name is invalid) and the workload is neither paused nor being deleted'},
          {severity: 'warning', if: 'StatefulSet: the rollout is spurious (only a hash layout change, no template change)'},
        ],
      },
      unreproducible: {
        severity: 'info',
        why: 'a label no known layout reproduces: the controller never recomputes existing labels, so nothing it does changes',
      },
      hashDrift: {severity: 'info', why: "labels made by an older controller's layout: matched semantically, no rollout"},
      upToDate: {severity: 'none', why: 'the label is the hash this version computes'},
    },
  },
  gc: {
    name: 'gc',
    command: 'gc',
    controllers: ['garbagecollector'],
    adapter: () => gcCheck,
    schema: {file: 'gc', definition: 'GcExplanation'},
    scope: 'mixed',
    subjects: 'all',
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
      waitBeingDeleted: {severity: 'info', why: 'an owner is being deleted in the foreground: the collector waits, as designed'},
      orphanDependentsThenRemoveFinalizer: {severity: 'info', why: 'orphan deletion: the collector orphans the dependents, then lets the owner go'},
      notMonitored: {
        severity: 'none',
        why: "the kind is not in the collector's graph",
        when: [{severity: 'warning', if: 'its finalizer is one only the collector removes: it is never removed'}],
      },
      keep: {severity: 'none', why: 'an owner is solid'},
      noOwners: {severity: 'none', why: 'no owner references'},
    },
  },
  node: {
    name: 'node',
    command: 'node',
    controllers: ['nodelifecycle'],
    adapter: () => nodeCheck,
    schema: {file: 'node', definition: 'NodeExplanation'},
    render: renderNode,
    scope: 'cluster',
    subjects: ['nodes'],
    description: 'nodes that are, or will be, tainted NoExecute (or are kept from it)',
    severities: fromMap(NODE_SEVERITY, {
      unhealthy: 'the node stopped reporting: it is tainted and its pods are evicted',
      taintPending: 'the node is due a NoExecute taint the controller has not added yet',
      taintBlocked: "the taint is held back (zone rate, master disruption): a person should know why the node's pods stay",
      circuitOpen: 'the lease circuit breaker holds the controller: its view of the node is not trusted',
      withinGrace: 'a missed heartbeat still within the grace period: nothing is done yet',
      unknown: "the data cannot show the node's health (its heartbeats were not captured): nothing above info rests on missing evidence",
      healthy: 'healthy',
      excluded: 'excluded from disruption handling by its labels',
    }),
  },
  evicted: {
    name: 'evicted',
    command: 'evicted',
    controllers: ['tainteviction'],
    adapter: () => evictedCheck,
    schema: {file: 'evicted', definition: 'EvictedExplanation'},
    render: renderEvicted,
    scope: 'namespaced',
    subjects: ['pods'],
    description: 'pods with a taint-eviction deadline, evicted, or kept from eviction',
    severities: fromMap(EVICTED_SEVERITY, {
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
  },
  replicas: {
    name: 'replicas',
    command: 'replicas',
    controllers: ['replicaset'],
    adapter: () => replicasCheck,
    schema: {file: 'replicas', definition: 'ReplicasExplanation'},
    render: renderReplicaSet,
    scope: 'namespaced',
    subjects: ['replicasets'],
    description: 'ReplicaSets that are not converging, and why',
    severities: {
      createsFailing: {severity: 'critical', why: 'every create is refused (quota, admission): the ReplicaSet stays short until a person acts'},
      waitingForExpectations: {severity: 'warning', why: 'the controller waits on creates/deletes it has not observed (up to 5 minutes)'},
      willCreate: {
        severity: 'info',
        why: 'short of replicas: the controller creates pods on its next sync',
        when: [{severity: 'warning', if: 'a gated signature in the events (the last sync failed the same way)'}],
      },
      willDelete: {
        severity: 'info',
        why: 'over its replicas: the controller deletes pods on its next sync',
        when: [{severity: 'warning', if: 'a gated signature in the events (the last sync failed the same way)'}],
      },
      adoptionPending: {severity: 'info', why: 'orphan pods match: the controller adopts them', when: [{severity: 'warning', if: 'the claim fails'}]},
      beingDeleted: {severity: 'info', why: 'the ReplicaSet is being deleted: the controller only updates its status'},
      converged: {
        severity: 'none',
        why: 'active pods equal the desired replicas',
        when: [{severity: 'info', if: 'pods are released (no longer match the selector)'}],
      },
    },
  },
} as const satisfies Record<string, CheckEntry>

export type CheckName = keyof typeof REGISTRY

export const ENTRIES: readonly CheckEntry[] = Object.values(REGISTRY)

export function entryOf(name: CheckName): CheckEntry {
  return REGISTRY[name]
}

/** The check whose engine wrote an Explanation (by its `controller`). */
export function checkOfController(controller: string): CheckName | undefined {
  return ENTRIES.find((e) => e.controllers.includes(controller))?.name as CheckName | undefined
}
