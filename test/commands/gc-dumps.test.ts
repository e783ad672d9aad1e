// `kubectl why gc --all` and the audit on the hand-made dumps of test/fixtures/garbagecollector, read by the snapshot
// reader as users hand them over (issue 12 item 3). The answers are the ones reasoned out in
// test/engine/garbagecollector/evidence.test.ts: an owner the dump cannot show is unknown (info), never delete.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/garbagecollector/${name}`, import.meta.url))
interface Finding {
  subject: {kind: string; namespace?: string; name: string}
  controller: string
  verdict: string
  severity: string
}
const line = (f: Finding) => `${f.severity} ${f.verdict} ${f.subject.kind} ${f.subject.namespace ?? ''}/${f.subject.name}`

// [file, gc --all findings]
const CASES: [string, string[]][] = [
  // No Job in a cluster-info dump: the Job pods are unknown, not deleted.
  ['cluster-info-dump-jobs.json', ['info unknown Pod ops/backup-29123640-7xk2p', 'info unknown Pod ops/report-29123580-q9w7z']],
  // No Node in `get all`: spec.nodeName shows Node cp-1 exists, not its uid.
  ['get-all-static-pods.yaml', ['info unknown Pod kube-system/etcd-cp-1', 'info unknown Pod kube-system/kube-apiserver-cp-1']],
  // Objects at rbac v1beta1 show it served: the Role is read there, the binding kept — no finding.
  ['rbac-v1beta1.yaml', []],
]

describe('gc on dumps that cannot prove absence', () => {
  for (const [file, want] of CASES) {
    test(`${file}: gc --all and the audit`, async () => {
      const g = await runCli(['gc', '--all', '-A', '-f', fixture(file), '-o', 'json'])
      assert.equal(g.code, 0, `nothing above info: exit 0 (${g.stderr})`)
      assert.deepEqual(JSON.parse(g.stdout).findings.map(line), want)
      const a = await runCli(['audit', '-A', '--checks', 'gc', '-f', fixture(file), '-o', 'json'])
      assert.notEqual(a.code, 2, a.stderr)
      assert.deepEqual((JSON.parse(a.stdout).findings as Finding[]).filter((f) => f.controller === 'garbagecollector').map(line), want)
    })
  }
  test("the mirror pods' next step reads the Node's uid from the live cluster", async () => {
    const g = await runCli(['gc', 'pod/etcd-cp-1', '-n', 'kube-system', '-f', fixture('get-all-static-pods.yaml'), '-o', 'json'])
    const e = JSON.parse(g.stdout)
    assert.equal(e.ownerReferences[0].unknownReason, 'nameOnly')
    assert.equal(e.next[0].command, "kubectl get node/cp-1 -o jsonpath='{.metadata.uid}'")
  })
})

describe('one object across its served versions (issue 27 point 5)', () => {
  // Upstream TestConflictingData, "good child -> existing owner with non-preferred accessible API version"
  // (pkg/controller/garbagecollector/garbagecollector_test.go, v1.28.0 :1270-1313): the collector GETs the owner at
  // the version its reference names; the API server serves it there (one stored object, converted), the uid matches,
  // so the child is kept. Before: `gc rolebinding/…` answered "the snapshot's API does not serve
  // rbac.authorization.k8s.io/v1beta1 Role (404)" while the evidence listed v1beta1 as served.
  test('gc KIND/NAME reads the owner at the non-preferred version the data shows served: keep', async () => {
    const g = await runCli(['gc', 'rolebinding/tenant-reader-binding', '-n', 'tenant-a', '-f', fixture('rbac-v1beta1.yaml'), '-o', 'json'])
    assert.equal(g.code, 0, g.stderr)
    const e = JSON.parse(g.stdout)
    assert.equal(e.verdict, 'keep')
    assert.ok(e.source.evidence.servedVersions.includes('rbac.authorization.k8s.io/v1beta1'))
    assert.doesNotMatch(g.stdout, /does not serve/)
  })
  test('the owner stored at the preferred version, its reference at another served one: found, keep', async () => {
    // The Role written at v1 (as `kubectl get` returns it), the binding's ref at v1beta1, and a ClusterRole stored at
    // v1beta1 proving that version served. The owner is the same object whichever version reads it.
    const objects = [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: {name: 'reader', namespace: 'tenant-a', uid: 'role-1', resourceVersion: '1', creationTimestamp: '2026-11-01T10:00:00Z'},
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1beta1',
        kind: 'ClusterRole',
        metadata: {name: 'old-style', uid: 'cr-1', resourceVersion: '2', creationTimestamp: '2026-11-01T10:00:00Z'},
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: {
          name: 'reader-binding',
          namespace: 'tenant-a',
          uid: 'rb-1',
          resourceVersion: '3',
          creationTimestamp: '2026-11-01T10:00:01Z',
          ownerReferences: [{apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'Role', name: 'reader', uid: 'role-1'}],
        },
        roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader'},
      },
    ]
    const stdin = JSON.stringify({apiVersion: 'v1', kind: 'List', metadata: {resourceVersion: ''}, items: objects})
    const g = await runCli(['gc', 'rolebinding/reader-binding', '-n', 'tenant-a', '-f', '-', '-o', 'json'], {stdin})
    assert.equal(g.code, 0, g.stderr)
    assert.equal(JSON.parse(g.stdout).verdict, 'keep')
    // A version nothing shows served (no object at it) is not invented as served — nor, with no recorded discovery
    // and no version, proven unserved: rbac v1alpha1 (an alpha version, off by default, but a server may enable it)
    // is unknown, not stuckRestMapping.
    const alpha = stdin.replace(
      '"ownerReferences":[{"apiVersion":"rbac.authorization.k8s.io/v1beta1"',
      '"ownerReferences":[{"apiVersion":"rbac.authorization.k8s.io/v1alpha1"',
    )
    const u = await runCli(['gc', 'rolebinding/reader-binding', '-n', 'tenant-a', '-f', '-', '-o', 'json'], {stdin: alpha})
    const e = JSON.parse(u.stdout)
    assert.equal(e.verdict, 'unknown')
    assert.equal(e.ownerReferences[0].unknownReason, 'servedUnknown')
    assert.match(e.summary + JSON.stringify(e.steps), /records no API discovery/)
    // Missing evidence carries no severity above info; the next step asks the live cluster what it serves.
    assert.equal(e.severity, 'info')
    assert.equal(e.next[0].command, 'kubectl api-resources --api-group=rbac.authorization.k8s.io -o wide')
  })
})

describe('stuckRestMapping only when the data shows the version unserved (issue 27 point 5)', () => {
  // A dump with a recorded server version but no recorded discovery (the kubectlWhy header of examples/gc-*.json):
  // the deprecation guide's removals and the release settle built-in versions. Expected verdicts worked from
  // https://kubernetes.io/docs/reference/using-api/deprecation-guide/: rbac.authorization.k8s.io/v1beta1 stopped
  // being served in 1.22, autoscaling/v1 HorizontalPodAutoscaler is still served.
  const dump = (minor: number, refApiVersion: string, extra: object[] = []) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      metadata: {resourceVersion: ''},
      kubectlWhy: {format: 1, capturedAt: '2026-11-29T03:00:00Z', serverVersion: {major: '1', minor: String(minor), gitVersion: `v1.${minor}.3`}},
      items: [
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: {name: 'reader', namespace: 'tenant-a', uid: 'role-1', resourceVersion: '1', creationTimestamp: '2026-11-01T10:00:00Z'},
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: {
            name: 'reader-binding',
            namespace: 'tenant-a',
            uid: 'rb-1',
            resourceVersion: '3',
            creationTimestamp: '2026-11-01T10:00:01Z',
            ownerReferences: [{apiVersion: refApiVersion, kind: 'Role', name: 'reader', uid: 'role-1'}],
          },
          roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader'},
        },
        ...extra,
      ],
    })
  const gc = async (stdin: string, what = 'rolebinding/reader-binding') =>
    JSON.parse((await runCli(['gc', what, '-n', 'tenant-a', '-f', '-', '-o', 'json'], {stdin})).stdout)
  test('1.21 still serves rbac v1beta1: the owner is read there and found: keep', async () => {
    assert.equal((await gc(dump(21, 'rbac.authorization.k8s.io/v1beta1'))).verdict, 'keep')
  })
  test('1.24 no longer serves it (removed in 1.22): stuckRestMapping, saying why', async () => {
    const e = await gc(dump(24, 'rbac.authorization.k8s.io/v1beta1'))
    assert.equal(e.verdict, 'stuckRestMapping')
    assert.match(JSON.stringify(e.steps), /removed in Kubernetes 1\.22 .*runs 1\.24/)
  })
  test('autoscaling/v1 HorizontalPodAutoscaler is served beside v2: an owner there is read, not stuck', async () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: {name: 'web', namespace: 'tenant-a', uid: 'hpa-1', resourceVersion: '5', creationTimestamp: '2026-11-01T10:00:00Z'},
    }
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'hpa-notes',
        namespace: 'tenant-a',
        uid: 'cm-1',
        resourceVersion: '6',
        creationTimestamp: '2026-11-01T10:00:02Z',
        ownerReferences: [{apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', name: 'web', uid: 'hpa-1'}],
      },
    }
    assert.equal((await gc(dump(30, 'rbac.authorization.k8s.io/v1', [hpa, cm]), 'configmap/hpa-notes')).verdict, 'keep')
  })
  test("a CustomResourceDefinition in the data settles its group's versions: one it does not serve is stuck", async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {name: 'widgets.example.com', uid: 'crd-1', resourceVersion: '7', creationTimestamp: '2026-11-01T09:00:00Z'},
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: {kind: 'Widget', plural: 'widgets', singular: 'widget'},
        versions: [{name: 'v1', served: true, storage: true}],
      },
    }
    const widget = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {name: 'w', namespace: 'tenant-a', uid: 'w-1', resourceVersion: '8', creationTimestamp: '2026-11-01T10:00:00Z'},
    }
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'w-state',
        namespace: 'tenant-a',
        uid: 'cm-2',
        resourceVersion: '9',
        creationTimestamp: '2026-11-01T10:00:02Z',
        ownerReferences: [{apiVersion: 'example.com/v1alpha1', kind: 'Widget', name: 'w', uid: 'w-1'}],
      },
    }
    const e = await gc(dump(30, 'rbac.authorization.k8s.io/v1', [crd, widget, cm]), 'configmap/w-state')
    assert.equal(e.verdict, 'stuckRestMapping')
    assert.match(JSON.stringify(e.steps), /CustomResourceDefinition in the data does not serve example\.com\/v1alpha1\/Widget/)
  })
})
