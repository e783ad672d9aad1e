// The read plan: every check's needs for a kind merged into one LIST (per namespace when scopes differ), full only
// when some check needs the whole object, the watch-cache view only where a check needs that view itself; and what a
// merged list hands each need back (its namespace and label selector). Expected plans are worked out from the
// checks' declarations (each replay's descriptor reads: src/engine/*/descriptor.ts).
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import type {ListNeed} from '../../src/audit/needs.js'
import {itemsFor, planReads, typeKey} from '../../src/audit/plan.js'
import {auditPlan} from '../../src/audit/run.js'
import {BUILTIN_KINDS} from '../../src/cluster/builtin-kinds.js'
import type {KubeObject} from '../../src/cluster/source.js'

const listsOf = (plan: ReturnType<typeof auditPlan>, key: string) =>
  plan.lists
    .filter((l) => typeKey(l.type) === key)
    .map((l) => ({namespace: l.namespace ?? null, view: l.view, metadataOnly: l.metadataOnly, labelSelector: l.labelSelector ?? null}))

describe('audit -A: one list per kind', () => {
  const plan = auditPlan(DEFAULT_CHECKS, BUILTIN_KINDS, undefined)

  test('no kind is listed twice', () => {
    const keys = plan.lists.map((l) => typeKey(l.type))
    assert.deepEqual(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      [],
    )
  })

  test('pods: gc (metadata), evicted and replicas (full), node (kube-system, component=kube-controller-manager) → one full list of every namespace', () => {
    // The replicas check reads pods as the controller's informer holds them (the watch cache), so the merged list is a
    // cached one (issue 13: the audit and `kubectl why replicas` had different views of examples/replicas-unobserved-deletes).
    assert.deepEqual(listsOf(plan, '/pods'), [{namespace: null, view: 'cached', metadataOnly: false, labelSelector: null}])
  })

  test('leases: gc (metadata, quorum acceptable) and node (kube-node-lease, watch cache required) → one watch-cache list of every namespace, full', () => {
    assert.deepEqual(listsOf(plan, 'coordination.k8s.io/leases'), [{namespace: null, view: 'cached', metadataOnly: false, labelSelector: null}])
  })

  test('a kind only the collector reads is metadata-only; workloads, revisions, nodes, replicasets, events and the kinds of the other cleanups are full', () => {
    assert.equal(listsOf(plan, '/configmaps')[0].metadataOnly, true)
    // TTL-after-finished and CronJob history read Jobs whole (the gc descriptor's reads beside the collector's graph).
    assert.equal(listsOf(plan, 'batch/jobs')[0].metadataOnly, false)
    assert.equal(listsOf(plan, 'batch/cronjobs')[0].metadataOnly, false)
    assert.equal(listsOf(plan, 'apps/deployments')[0].metadataOnly, false)
    assert.equal(listsOf(plan, 'apps/controllerrevisions')[0].metadataOnly, false)
    assert.equal(listsOf(plan, 'apps/replicasets')[0].metadataOnly, false)
    assert.equal(listsOf(plan, '/nodes')[0].metadataOnly, false)
    assert.equal(listsOf(plan, '/events')[0].metadataOnly, false)
  })

  test('never Secrets, nor events.k8s.io Events (the collector ignores events; the checks read core/v1 ones)', () => {
    assert.deepEqual(listsOf(plan, '/secrets'), [])
    assert.deepEqual(listsOf(plan, 'events.k8s.io/events'), [])
  })

  test('the biggest lists start first', () => {
    assert.deepEqual(
      plan.lists.slice(0, 3).map((l) => typeKey(l.type)),
      ['/pods', '/events', 'apps/replicasets'],
    )
  })
})

describe('audit -n shop: namespaced reads follow the scope, the node lifecycle reads do not', () => {
  const plan = auditPlan(DEFAULT_CHECKS, BUILTIN_KINDS, 'shop')

  test('pods: shop in full; the controller-manager pod is looked for in kube-system by its label', () => {
    assert.deepEqual(listsOf(plan, '/pods'), [
      {namespace: 'shop', view: 'cached', metadataOnly: false, labelSelector: null},
      {namespace: 'kube-system', view: 'fresh', metadataOnly: false, labelSelector: 'component=kube-controller-manager'},
    ])
  })

  test('leases: shop for the collector (metadata, quorum), kube-node-lease from the watch cache for the node lifecycle replay', () => {
    assert.deepEqual(listsOf(plan, 'coordination.k8s.io/leases'), [
      {namespace: 'shop', view: 'fresh', metadataOnly: true, labelSelector: null},
      {namespace: 'kube-node-lease', view: 'cached', metadataOnly: false, labelSelector: null},
    ])
  })

  test('cluster-scoped kinds are listed whole', () => {
    assert.deepEqual(listsOf(plan, '/nodes'), [{namespace: null, view: 'fresh', metadataOnly: false, labelSelector: null}])
    assert.deepEqual(listsOf(plan, 'rbac.authorization.k8s.io/clusterroles'), [{namespace: null, view: 'fresh', metadataOnly: true, labelSelector: null}])
  })
})

describe('--checks limits the reads to what those checks declare', () => {
  test('replicas alone: ReplicaSets, pods, events and namespaces', () => {
    const plan = auditPlan(['replicas'], BUILTIN_KINDS, undefined)
    assert.deepEqual(plan.lists.map((l) => typeKey(l.type)).sort(), ['/events', '/namespaces', '/pods', 'apps/replicasets'])
  })
  test('hash alone: the three workload kinds, ReplicaSets, ControllerRevisions, pods (metadata) and nodes (kubelet versions)', () => {
    const plan = auditPlan(['hash'], BUILTIN_KINDS, undefined)
    assert.deepEqual(plan.lists.map((l) => `${typeKey(l.type)}${l.metadataOnly ? ' (metadata)' : ''}`).sort(), [
      '/nodes',
      '/pods (metadata)',
      'apps/controllerrevisions',
      'apps/daemonsets',
      'apps/deployments',
      'apps/replicasets',
      'apps/statefulsets',
    ])
  })
  test('node alone: nodes, leases, pods (for -n and the controller-manager pod)', () => {
    const plan = auditPlan(['node'], BUILTIN_KINDS, undefined)
    assert.deepEqual(plan.lists.map((l) => typeKey(l.type)).sort(), ['/nodes', '/pods', 'coordination.k8s.io/leases'])
  })
})

describe('what a merged list gives each need', () => {
  const need = (over: Partial<ListNeed>): ListNeed => ({
    check: 'gc',
    key: 'k',
    ref: {apiVersion: 'v1', kind: 'Pod'},
    scope: 'audit',
    detail: 'full',
    view: 'fresh',
    required: false,
    why: '',
    fields: '*',
    ...over,
  })
  const pod = (namespace: string, name: string, labels?: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {namespace, name, labels},
  })
  const items = [
    pod('shop', 'web'),
    pod('kube-system', 'kube-controller-manager-cp-1', {component: 'kube-controller-manager'}),
    pod('kube-system', 'coredns', {k8sApp: 'kube-dns'}),
  ]

  test('a namespace and a selector are applied to the wider list', () => {
    const plan = planReads(
      [need({key: 'all'}), need({key: 'kcm', check: 'node', scope: {namespace: 'kube-system'}, labelSelector: 'component=kube-controller-manager'})],
      [],
      BUILTIN_KINDS,
      undefined,
    )
    assert.equal(plan.lists.length, 1)
    const [all, kcm] = plan.needs
    assert.deepEqual(
      itemsFor(all, items).map((o) => o.metadata?.name),
      ['web', 'kube-controller-manager-cp-1', 'coredns'],
    )
    assert.deepEqual(
      itemsFor(kcm, items).map((o) => o.metadata?.name),
      ['kube-controller-manager-cp-1'],
    )
  })

  test('two selectors in one namespace without an unselected need: two lists', () => {
    const plan = planReads(
      [need({scope: {namespace: 'a'}, labelSelector: 'x=1'}), need({key: 'k2', scope: {namespace: 'a'}, labelSelector: 'y=2'})],
      [],
      BUILTIN_KINDS,
      undefined,
    )
    assert.deepEqual(
      plan.lists.map((l) => l.labelSelector),
      ['x=1', 'y=2'],
    )
  })

  test('a kind the source does not serve has no list, and says so', () => {
    const plan = planReads([need({ref: {apiVersion: 'example.com/v1', kind: 'Widget'}})], [], BUILTIN_KINDS, undefined)
    assert.equal(plan.lists.length, 0)
    assert.equal(plan.needs[0].type, undefined)
  })
})
