// `kubectl why audit -A -f` over every example snapshot: exactly the findings the example was built to show (its own
// README line, examples/<name>.md or the snapshot's kubectlWhy.readme, quoted below), plus — listed one by one, with
// the reason — the findings an example shows without meaning to: the node examples hold no workload owners, so the
// collector would delete their pods; the gc examples' ReplicaSets carry only metadata. Every kind of finding is
// checked against the engine's own single-object command on the same snapshot: the audit composes the engines as
// the commands do. Run `npm run build` first.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {CHECK_OF_CONTROLLER} from '../../src/render/audit.js'
import {runCli} from '../support/cli.js'

// biome-ignore lint/suspicious/noExplicitAny: the report's JSON, read field by field
type Any = any
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
// The check of each finding's controller, from the registry.
const CHECK = CHECK_OF_CONTROLLER
const line = (f: Any) => `${CHECK[f.controller]} ${f.verdict} ${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`

interface Expectation {
  /** What the example's README line says the tool must conclude (findings only: kept objects are not findings). */
  stated: string[]
  /** Findings the example shows without being built for them, each with why. */
  besides?: [string, string][]
  /** Verdict counts the README line states for objects that are not findings. */
  verdicts?: Record<string, Record<string, number>>
  /** Where the audit and the README line differ by design, and why. */
  differs?: string
  /** summary.incomplete when the audit is incomplete (it then exits 1, --fail-on-partial being the default), with why. */
  incomplete?: [string[], string]
}

const NO_OWNERS = "the snapshot holds only nodes, leases, pods and events: the pod's owner is not in it, so the collector would delete the pod"
const METADATA_RS =
  "the example's ReplicaSets carry metadata only (no spec, no status): the ReplicaSet replay sees a nil selector, which matches no pod, and the default of 1 replica"
const NO_TEMPLATE =
  'the example holds its Deployment without spec.template (the data holds only part of the object): the hash check cannot replay it, and says so'

const EXPECTED: Record<string, Expectation> = {
  'gc-cluster-scoped-child.json': {stated: ['gc stuckNamespacedOwnerOfClusterScopedObject ClusterRole tenant-a-reader']},
  'gc-forbidden-owner.json': {
    stated: ['gc unknown Job ops/nightly-29123'],
    verdicts: {gc: {keep: 1, unknown: 1}},
    // The deleting check lists every kind for objects past their deletionTimestamp, CronJobs too: partial as well.
    incomplete: [
      ['gc: partial — list batch/v1 CronJob', 'deleting: partial — list batch/v1 CronJob'],
      'the snapshot records the CronJob list as forbidden: replayed as the live 403 it was',
    ],
  },
  'gc-foreground-cycle.json': {
    stated: ['gc waitForBlockingDependents Pod gc-cycle/pod1', 'gc delete Pod gc-cycle/pod2'],
    verdicts: {gc: {waitForBlockingDependents: 1, delete: 1, keep: 1}},
  },
  'gc-foreground-finished.json': {
    stated: ['gc removeFinalizer Job ci/build-42'],
    besides: [
      [
        'deleting unknown Pod ci/build-42-abcde',
        'the pod is held by example.com/log-shipper; the audit keeps no managedFields, so who holds it is not in its data',
      ],
    ],
  },
  'gc-mixed-owners.json': {stated: ['gc patchRemoveOwnerRefs ConfigMap shop/storefront-config']},
  'gc-orphan.json': {
    stated: ['gc orphanDependentsThenRemoveFinalizer ReplicationController legacy/frontend'],
    verdicts: {gc: {keep: 3, orphanDependentsThenRemoveFinalizer: 1}},
  },
  'gc-recreated-deployment.json': {
    stated: ['gc delete ReplicaSet shop/web-5d8f7b9c4'],
    verdicts: {gc: {noOwners: 2, keep: 3, delete: 1}},
    besides: [
      ['replicas willCreate ReplicaSet shop/web-5d8f7b9c4', METADATA_RS],
      ['replicas waitingForExpectations ReplicaSet shop/web-7c9d6f5b8', METADATA_RS],
    ],
    incomplete: [['hash: partial — Deployment shop/web'], NO_TEMPLATE],
  },
  'gc-stuck-namespace.json': {
    stated: ['gc waitForBlockingDependents Deployment team-a/api'],
    incomplete: [['hash: partial — Deployment team-a/api'], NO_TEMPLATE],
    besides: [
      ['deleting pending Namespace team-a', 'the namespace the story has Terminating: the namespace controller still deletes its content'],
      [
        'deleting unknown ReplicaSet team-a/api-6f7d8c9b5',
        'held by example.com/audit-hold; the audit keeps no managedFields, so who holds it is not in its data',
      ],
      [
        'replicas beingDeleted ReplicaSet team-a/api-6f7d8c9b5',
        'the ReplicaSet the story has being deleted: the ReplicaSet controller only updates its status',
      ],
    ],
  },
  'gc-unserved-apiversion.json': {
    stated: ['gc stuckRestMapping ReplicaSet batch/report-7f9c'],
    besides: [['replicas waitingForExpectations ReplicaSet batch/report-7f9c', METADATA_RS]],
    incomplete: [['hash: partial — Deployment batch/report'], NO_TEMPLATE],
  },
  'node-lease-cache-lag.json': {
    stated: ['ip-10-1-0-1', 'ip-10-1-0-2', 'ip-10-1-0-3', 'ip-10-2-0-1', 'ip-10-2-0-2', 'ip-10-2-0-3', 'ip-10-2-0-4']
      .map((n) => `node circuitOpen Node ${n}`)
      .concat(['evicted notEvictedBecause Pod shop/api-5d8f9c7b6-r7m2d']),
    verdicts: {node: {circuitOpen: 7}, evicted: {notEvictedBecause: 1, notAffected: 1}},
    besides: [
      ['gc delete Pod shop/api-5d8f9c7b6-qz8kt', NO_OWNERS],
      ['gc delete Pod shop/api-5d8f9c7b6-r7m2d', NO_OWNERS],
    ],
  },
  'node-small-zone-partial.json': {
    stated: [
      'node taintBlocked Node node-c1',
      'node taintBlocked Node node-c2',
      'node taintBlocked Node node-c3',
      'evicted notEvictedBecause Pod shop/cart-7c9d8f6b5-w2xlm',
    ],
    verdicts: {node: {healthy: 9, taintBlocked: 3}},
    besides: [['gc delete Pod shop/cart-7c9d8f6b5-w2xlm', NO_OWNERS]],
  },
  'node-zone-outage.json': {
    stated: [
      'node unhealthy Node worker-c1',
      'node unhealthy Node worker-c2',
      'node unhealthy Node worker-c3',
      'node unhealthy Node worker-c4',
      'evicted evicted Pod shop/web-7d9f4b6c8-x2k9p',
      'evicted evicted Pod shop/checkout-5c6f7d8b9-ttq2w',
      'evicted evictAt Pod batch/report-28971234-7xq2m',
    ],
    // node-exporter-b5e25 toleratedForever (and the DaemonSet's other pods on zone c: "DaemonSet pods tolerate the taint forever").
    verdicts: {node: {healthy: 9, unhealthy: 4}, evicted: {evicted: 3, evictAt: 1, toleratedForever: 4, notAffected: 6}},
    besides: [
      ['evicted evicted Pod shop/web-7d9f4b6c8-q8v4n', 'its TaintManagerEviction event (03:05:52) is in the snapshot, though the README line names only x2k9p'],
      [
        'gc unknown Pod batch/report-28971234-7xq2m',
        "its owner is a Job and the snapshot holds no Job at all: the data cannot show the owner gone, so the collector's branch is unknown (info), not delete (issue 12: nothing rests on missing evidence)",
      ],
      ...[
        'monitoring/node-exporter-0f31d',
        'monitoring/node-exporter-4d45f',
        'monitoring/node-exporter-8a081',
        'monitoring/node-exporter-b5e25',
        'monitoring/node-exporter-ba10d',
        'monitoring/node-exporter-beded',
        'shop/web-7d9f4b6c8-h7wq2',
        'shop/web-7d9f4b6c8-m3zt7',
        'shop/web-7d9f4b6c8-zp4kd',
      ].map((p): [string, string] => [`gc delete Pod ${p}`, NO_OWNERS]),
    ],
  },
  'incident.yaml': {
    stated: [
      'replicas createsFailing ReplicaSet shop/checkout-6b5f97d66c',
      'gc delete ConfigMap shop/web-canary-env',
      'node unhealthy Node worker-c1',
      'evicted evictAt Pod shop/web-85d7f67c4d-2xk9p',
    ],
    verdicts: {
      hash: {upToDate: 3},
      gc: {keep: 17, noOwners: 14, delete: 1},
      node: {healthy: 5, unhealthy: 1},
      evicted: {evictAt: 1, toleratedForever: 1, notAffected: 5},
      replicas: {converged: 2, createsFailing: 1},
    },
  },
  'hash-collision.json': {stated: ['hash collision Deployment shop/web']},
  'hash-daemonset-collision-count.json': {stated: [], verdicts: {hash: {upToDate: 1}}},
  'hash-drift-after-upgrade.json': {stated: ['hash hashDrift Deployment shop/web', 'hash hashDrift DaemonSet shop/agent']},
  'hash-rollout-pending.json': {stated: ['hash rolloutPending Deployment shop/web']},
  'hash-statefulset-1.34-upgrade.json': {stated: ['hash hashDrift StatefulSet test/test']},
  'hash-statefulset-rollout.json': {stated: [], verdicts: {hash: {upToDate: 1}}},
  'hash-unreproducible.json': {stated: ['hash unreproducible Deployment shop/web']},
  'hash-up-to-date.json': {stated: [], verdicts: {hash: {upToDate: 1}}},
  'replicas-adoption.yaml': {
    stated: ['replicas adoptionPending ReplicaSet shop/web-7d4b9c6f5'],
    incomplete: [['hash: partial — Deployment shop/web'], NO_TEMPLATE],
  },
  'replicas-deletion-cost.yaml': {
    stated: ['replicas willDelete ReplicaSet shop/checkout-6b7f9d5c4d'],
    incomplete: [['hash: partial — Deployment shop/checkout'], NO_TEMPLATE],
  },
  'replicas-quota.yaml': {
    stated: ['replicas createsFailing ReplicaSet shop/cart-7c9d8f6b5'],
    besides: [['gc delete ReplicaSet shop/cart-7c9d8f6b5', "the snapshot holds no Deployment cart (uid dep-cart): the ReplicaSet's only owner is absent"]],
  },
  // The audit reads pods from the watch cache, as the controller's informer does: eeee5 is not yet terminating there.
  'replicas-unobserved-deletes.yaml': {
    stated: ['replicas waitingForExpectations ReplicaSet shop/api-5f6d7c8b9'],
    besides: [['gc delete ReplicaSet shop/api-5f6d7c8b9', "the snapshot holds no Deployment api (uid dep-api): the ReplicaSet's only owner is absent"]],
  },
}

async function audit(file: string): Promise<{code: number; json: Any; stderr: string}> {
  const r = await runCli(['audit', '-A', '-f', `${EXAMPLES}${file}`, '-o', 'json'])
  return {code: r.code, json: JSON.parse(r.stdout), stderr: r.stderr}
}

/** The engine's own command for one finding's subject, on the same snapshot. */
async function single(file: string, f: Any): Promise<Any> {
  const s = f.subject
  const ns = s.namespace ? ['-n', s.namespace] : []
  const args = {
    deployment: ['hash', `deployment/${s.name}`, ...ns],
    daemonset: ['hash', `daemonset/${s.name}`, ...ns],
    statefulset: ['hash', `statefulset/${s.name}`, ...ns],
    garbagecollector: ['gc', `${s.kind}/${s.name}`, ...ns],
    replicaset: ['replicas', `rs/${s.name}`, ...ns],
    nodelifecycle: ['node', s.name],
    tainteviction: ['evicted', `pod/${s.name}`, ...ns],
  }[f.controller as string]!
  const r = await runCli([...args, '-f', `${EXAMPLES}${file}`, '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, `${args.join(' ')}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

describe('audit of each example snapshot', () => {
  for (const [file, want] of Object.entries(EXPECTED)) {
    test(file, async () => {
      const {code, json, stderr} = await audit(file)
      const got = json.findings.map(line).sort()
      assert.deepEqual(got, [...want.stated, ...(want.besides ?? []).map(([f]) => f)].sort())
      for (const [check, counts] of Object.entries(want.verdicts ?? {})) {
        const c = json.summary.checks.find((x: Any) => x.name === check)
        for (const [v, n] of Object.entries(counts)) assert.equal(c.verdicts[v] ?? 0, n, `${check} ${v}`)
      }
      // Partial fails loudly (issue 15): exit 1 for a finding at or above warning, or for an incomplete audit — which
      // says so in one line on stderr.
      assert.deepEqual(json.summary.incomplete, want.incomplete?.[0] ?? [])
      const more = (want.incomplete?.[0].length ?? 0) - 1
      assert.equal(
        stderr,
        want.incomplete ? `kubectl-why audit: incomplete: ${want.incomplete[0][0]}${more > 0 ? ` (and ${more} more: summary.incomplete)` : ''}\n` : '',
      )
      assert.equal(code, json.findings.some((f: Any) => f.severity === 'warning' || f.severity === 'critical') || want.incomplete ? 1 : 0)
      // The same verdict (and severity) from the engine's own command, once per kind of finding.
      const seen = new Set<string>()
      for (const f of json.findings) {
        const k = `${f.controller} ${f.verdict}`
        if (seen.has(k)) continue
        seen.add(k)
        if (CHECK[f.controller] === 'deleting') {
          // A pending deletion's own command is gc --all's deletions section (gc KIND/NAME answers with the
          // collector's verdict, the holder among its actors): the same object there, the same verdict and severity.
          const r = await runCli(['gc', '--all', '-A', '-f', `${EXAMPLES}${file}`, '-o', 'json'])
          const same = (JSON.parse(r.stdout).deletions?.findings ?? []).find(
            (d: Any) => d.subject.kind === f.subject.kind && d.subject.namespace === f.subject.namespace && d.subject.name === f.subject.name,
          )
          assert.deepEqual([same?.verdict, same?.severity], [f.verdict, f.severity], `${line(f)} vs gc --all`)
          continue
        }
        const one = await single(file, f)
        assert.deepEqual([one.verdict, one.severity, one.propagationPolicy], [f.verdict, f.severity, f.propagationPolicy], `${line(f)} vs its own command`)
      }
    })
  }

  test('the incident: worst first, with the severities its README line states', async () => {
    const {code, json} = await audit('incident.yaml')
    assert.equal(code, 1)
    assert.deepEqual(
      json.findings.map((f: Any) => `${f.severity} ${line(f)}`),
      [
        'critical replicas createsFailing ReplicaSet shop/checkout-6b5f97d66c',
        'warning gc delete ConfigMap shop/web-canary-env',
        'warning node unhealthy Node worker-c1',
        'warning evicted evictAt Pod shop/web-85d7f67c4d-2xk9p',
      ],
    )
    const [rs, cm, node, pod] = json.findings
    assert.equal(rs.replicaSet.createFailures.failedCalls, 11)
    assert.deepEqual(
      [rs.replicaSet.createFailures.firstAt, rs.replicaSet.createFailures.kind, rs.replicaSet.desired, rs.replicaSet.active],
      ['2026-11-29T09:50:00Z', 'quota', 4, 3],
    )
    assert.equal(cm.propagationPolicy, 'Background')
    assert.equal(cm.ownerReferences[0].reason, 'notFound')
    assert.deepEqual(
      [node.timeline.lastRenewal, node.timeline.lastHeartbeat, node.timeline.graceExpiry, node.timeline.markedUnknown, node.timeline.noExecuteTaintAdded],
      ['2026-11-29T09:55:58Z', '2026-11-29T09:55:30Z', '2026-11-29T09:56:48Z', '2026-11-29T09:56:50Z', '2026-11-29T09:56:55Z'],
    )
    assert.deepEqual([node.zone.state, node.zone.rate, node.masterDisruption], ['Normal', 0.1, false])
    assert.deepEqual([pod.estimate.deadline, pod.minTolerationSeconds, pod.tolerations[0].origin], ['2026-11-29T10:01:55Z', 300, 'admissionDefault'])
    assert.deepEqual(json.summary.findings, {critical: 1, warning: 3, info: 0, none: 0})
  })
})
