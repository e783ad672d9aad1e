// Pending and stuck deletions (issue 26 item 7): the audit's deleting check and `gc --all`'s own section, one driver
// (src/engine/deletions/drive.ts), on a hand-written dump (a `kubectl get -o json` List, evaluated at 03:00). Each
// answer is worked out below from the holders' upstream rules (cleanups.md §1, §2):
//   - Namespace old, deleted 01:00, spec.finalizers [kubernetes], NamespaceDeletionDiscoveryFailure=True for
//     metrics.k8s.io/v1beta1 and APIService v1beta1.metrics.k8s.io Available=False: deleteAllContent returns the
//     discovery error, so finalizeNamespace is never reached — stuck (warning).
//   - ConfigMap db/cfg, deleted 01:30, finalizer example.com/hold with no managedFields: nothing names its writer —
//     unknown (info), and the first next step reads the managedFields, never "remove the finalizer".
//   - Pod db/worker-x, deleted 02:40, batch.kubernetes.io/job-tracking, controlled by Job batch-1, which the dump does
//     not hold (it holds no Job at all: absence proves nothing): handleSingleOrphanPod would release it only if the
//     Job is gone — unknown (info).
//   - PVC db/data, deleted 02:00, kubernetes.io/pvc-protection; Pod db/db-0 is scheduled on n1 with the claim as a
//     volume: podUsesPVC, so processPVC keeps the finalizer — pending (info), the pod named.
//   - PV pv-1, deleted 02:30, kubernetes.io/pv-protection, phase Bound: isBeingUsed — pending (info).
//   - Deployment db/web, deleted 02:50 with foregroundDeletion only: the collector's (the gc check), not listed here.
// Worst first: stuck, then unknown oldest first (cfg 01:30, worker-x 02:40), then pending oldest first (data 02:00,
// pv-1 02:30).
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const NOW = '2026-11-29T03:00:00Z'
const meta = (name: string, extra: object = {}) => ({name, uid: `uid-${name}`, resourceVersion: '1', creationTimestamp: '2026-11-20T00:00:00Z', ...extra})
const ITEMS = [
  {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: meta('old', {deletionTimestamp: '2026-11-29T01:00:00Z'}),
    spec: {finalizers: ['kubernetes']},
    status: {
      phase: 'Terminating',
      conditions: [
        {
          type: 'NamespaceDeletionDiscoveryFailure',
          status: 'True',
          lastTransitionTime: '2026-11-29T01:00:05Z',
          reason: 'DiscoveryFailed',
          message:
            'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
        },
      ],
    },
  },
  {apiVersion: 'v1', kind: 'Namespace', metadata: meta('db'), spec: {finalizers: ['kubernetes']}, status: {phase: 'Active'}},
  {apiVersion: 'v1', kind: 'Namespace', metadata: meta('ops'), spec: {finalizers: ['kubernetes']}, status: {phase: 'Active'}},
  {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: meta('v1beta1.metrics.k8s.io'),
    spec: {service: {namespace: 'kube-system', name: 'metrics-server', port: 443}, group: 'metrics.k8s.io', version: 'v1beta1'},
    status: {
      conditions: [{type: 'Available', status: 'False', lastTransitionTime: '2026-11-29T00:40:00Z', reason: 'MissingEndpoints', message: 'no endpoints'}],
    },
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta('cfg', {namespace: 'db', deletionTimestamp: '2026-11-29T01:30:00Z', finalizers: ['example.com/hold']}),
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('worker-x', {
      namespace: 'db',
      deletionTimestamp: '2026-11-29T02:40:00Z',
      deletionGracePeriodSeconds: 30,
      finalizers: ['batch.kubernetes.io/job-tracking'],
      ownerReferences: [{apiVersion: 'batch/v1', kind: 'Job', name: 'batch-1', uid: 'uid-batch-1', controller: true, blockOwnerDeletion: true}],
    }),
    spec: {nodeName: 'n1', containers: [{name: 'c', image: 'busybox'}]},
    status: {phase: 'Running'},
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('db-0', {namespace: 'db'}),
    spec: {nodeName: 'n1', containers: [{name: 'c', image: 'postgres'}], volumes: [{name: 'data', persistentVolumeClaim: {claimName: 'data'}}]},
    status: {phase: 'Running'},
  },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta('data', {namespace: 'db', deletionTimestamp: '2026-11-29T02:00:00Z', finalizers: ['kubernetes.io/pvc-protection']}),
    spec: {volumeName: 'pv-1'},
    status: {phase: 'Bound'},
  },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: meta('pv-1', {deletionTimestamp: '2026-11-29T02:30:00Z', finalizers: ['kubernetes.io/pv-protection']}),
    spec: {persistentVolumeReclaimPolicy: 'Retain', claimRef: {namespace: 'db', name: 'data', uid: 'uid-data'}},
    status: {phase: 'Bound'},
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('web', {namespace: 'db', deletionTimestamp: '2026-11-29T02:50:00Z', finalizers: ['foregroundDeletion'], generation: 1}),
    spec: {replicas: 1, selector: {matchLabels: {app: 'web'}}, template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'c', image: 'nginx'}]}}},
    status: {observedGeneration: 1},
  },
]

const EXPECTED = [
  ['Namespace', 'old', 'stuck', 'warning', 'namespace'],
  ['ConfigMap', 'cfg', 'unknown', 'info', 'finalizer'],
  ['Pod', 'worker-x', 'unknown', 'info', 'job'],
  ['PersistentVolumeClaim', 'data', 'pending', 'info', 'pvc-protection'],
  ['PersistentVolume', 'pv-1', 'pending', 'info', 'pv-protection'],
]

function dump(items: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'why-deletions-'))
  const file = join(dir, 'dump.json')
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  return file
}

type Finding = {subject: {kind: string; name: string}; verdict: string; severity: string; controller: string; summary: string; next?: {command?: string}[]}
const rows = (fs: Finding[]) => fs.map((f) => [f.subject.kind, f.subject.name, f.verdict, f.severity, f.controller])

describe('pending and stuck deletions: the deleting check and gc --all', () => {
  const file = dump(ITEMS)
  test('gc --all lists them in its own section, worst first, as worked above; the report validates', async () => {
    const r = await runCli(['gc', '--all', '-A', '-f', file, '--now', NOW, '-o', 'json'])
    assert.notEqual(r.code, 2, r.stderr)
    const json = JSON.parse(r.stdout)
    const v = validatorFor('gc', 'GcReport')
    assert.ok(v(json), JSON.stringify(v.errors, null, 1))
    assert.deepEqual(rows(json.deletions.findings), EXPECTED)
    assert.deepEqual(json.deletions.counts, {stuck: 1, unknown: 2, pending: 2})
    const [ns, cfg, pod, pvc] = json.deletions.findings as Finding[]
    assert.match(ns.summary, /discovery fails for metrics\.k8s\.io\/v1beta1/)
    assert.equal(ns.next?.[0].command, 'kubectl get apiservice v1beta1.metrics.k8s.io -o yaml')
    assert.equal(cfg.next?.[0].command, 'kubectl get configmap cfg -n db -o yaml --show-managed-fields')
    assert.match(pod.summary, /its Job is not in the data/)
    assert.match(pvc.summary, /db-0/)
    // The foreground deletion is the collector's, never listed here.
    assert.ok(!json.deletions.findings.some((f: Finding) => f.subject.name === 'web'))
  })
  test("the audit's deleting check gives the same findings in the same order", async () => {
    const r = await runCli(['audit', '-A', '-f', file, '--now', NOW, '--checks', 'deleting', '-o', 'json'])
    assert.notEqual(r.code, 2, r.stderr)
    const json = JSON.parse(r.stdout)
    assert.deepEqual(rows(json.findings), EXPECTED)
    const v = validatorFor('audit-report')
    assert.ok(v(json), JSON.stringify(v.errors, null, 1))
  })
  // gc KIND/NAME of each held object: its holder leads the actors (the same replay as the list above), and no answer
  // says "No finalizer is left" while metadata.finalizers or spec.finalizers holds one (issue 26, Done when).
  // The headline says who holds it and what would release it (issue 26 item 7): each clause as worked from ITEMS.
  for (const [target, ns, actor, action, release] of [
    ['namespace/old', undefined, 'namespace', 'blocksDeletion', /it is released when discovery succeeds again/],
    ['persistentvolumeclaim/data', 'db', 'pvc-protection', 'blocksDeletion', /still use the claim \(db-0\): released once they are gone/],
    [
      'persistentvolume/pv-1',
      undefined,
      'pv-protection',
      'blocksDeletion',
      /the volume is Bound to db\/data: released once the claim is deleted and the volume leaves Bound/,
    ],
    ['pod/worker-x', 'db', 'job', 'blocksDeletion', /its Job is not in the data\): released once the pod ends or its Job finishes or is gone/],
    ['configmap/cfg', 'db', 'unknown', 'blocksDeletion', /: released by the controller that owns it/],
  ] as const) {
    test(`gc ${target}: ${actor} ${action} first, never "no finalizer is left"`, async () => {
      const r = await runCli(['gc', target, ...(ns ? ['-n', ns] : []), '-f', file, '--now', NOW, '-o', 'json'])
      assert.notEqual(r.code, 2, r.stderr)
      const json = JSON.parse(r.stdout)
      assert.ok(validatorFor('gc')(json))
      assert.deepEqual([json.actors[0].actor, json.actors[0].action], [actor, action])
      assert.doesNotMatch(json.summary, /[Nn]o finalizer is left|never garbage-collected|changes nothing/)
      assert.match(json.summary, release)
    })
  }
})
