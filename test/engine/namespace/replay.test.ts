// The namespace controller's replay. Converted from upstream
// pkg/controller/namespace/deletion/namespaced_resources_deleter_test.go (TestFinalized, TestFinalizeNamespaceFunc,
// TestSyncNamespaceThatIsActive, testSyncNamespaceThatIsTerminating's entries pending-finalize, complete-finalize,
// groupVersionResourceErr, groupVersionResourceErr-finalize): what the fake client records there (finalize or not,
// the error returned, the DiscoveryFailure condition) is what the replay must conclude from the state the test
// sets up. The other cases are worked by hand from cleanups.md §1.3–§1.7, the reasoning beside each.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {
  type ContentType,
  failedGroupVersions,
  finalizedSpec,
  podEstimate,
  remainingFinalizers,
  remainingResources,
  replayNamespace,
} from '../../../src/engine/namespace/index.js'

const NOW = new Date('2026-11-29T03:00:00Z')

function ns(opts: {deleting?: string; spec?: string[]; conditions?: object[]} = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {name: 'demo', uid: 'ns-1', ...(opts.deleting ? {deletionTimestamp: opts.deleting} : {})},
    spec: {finalizers: opts.spec ?? ['kubernetes']},
    status: {phase: opts.deleting ? 'Terminating' : 'Active', ...(opts.conditions ? {conditions: opts.conditions} : {})},
  }
}
const type = (resource: string, kind: string, items: KubeObject[] = [], group = '', coverage: ContentType['coverage'] = 'proof'): ContentType => ({
  group,
  version: 'v1',
  resource,
  kind,
  coverage,
  items,
})
const cm = (name: string, finalizers?: string[], deleting?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {name, namespace: 'demo', uid: `cm-${name}`, ...(finalizers ? {finalizers} : {}), ...(deleting ? {deletionTimestamp: deleting} : {})},
})
const pod = (name: string, grace: number, phase = 'Running', deleting?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'demo', uid: `p-${name}`, ...(deleting ? {deletionTimestamp: deleting} : {})},
  spec: {nodeName: 'n1', terminationGracePeriodSeconds: grace},
  status: {phase},
})
const apiService = (name: string, available: {status: string; reason: string; message: string}): KubeObject => ({
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata: {name, uid: `a-${name}`},
  spec: {service: {namespace: 'kube-system', name: 'metrics-server', port: 443}, group: 'metrics.k8s.io', version: 'v1beta1'},
  status: {conditions: [{type: 'Available', ...available}]},
})
const EMPTY = [type('pods', 'Pod'), type('configmaps', 'ConfigMap')]

describe('upstream namespaced_resources_deleter_test.go', () => {
  it('TestFinalized: empty spec.finalizers is finalized', () => {
    const r = replayNamespace({namespace: ns({deleting: '2026-11-29T02:00:00Z', spec: []}), content: EMPTY, apiServices: [], now: NOW})
    assert.equal(r.verdict, 'finalized')
    assert.equal(r.actor.action, 'none')
  })
  it('TestFinalizeNamespaceFunc: finalize leaves ["other"] from ["kubernetes", "other"]', () => {
    assert.deepEqual(finalizedSpec(['kubernetes', 'other']), ['other'])
  })
  it('TestSyncNamespaceThatIsActive: no deletionTimestamp, nothing is done', () => {
    const r = replayNamespace({namespace: ns(), content: EMPTY, apiServices: [], now: NOW})
    assert.equal(r.verdict, 'notDeleting')
    assert.equal(r.actor.action, 'none')
  })
  it('pending-finalize: deleting, everything lists empty, no discovery error → finalize', () => {
    const r = replayNamespace({namespace: ns({deleting: '2026-11-29T02:00:00Z'}), content: EMPTY, apiServices: [], now: NOW})
    assert.equal(r.verdict, 'willFinalize')
    assert.equal(r.actor.actor, 'namespace')
    assert.equal(r.actor.action, 'willDelete')
    assert.deepEqual(r.steps.at(-1)?.inputs?.after, [])
  })
  it('complete-finalize and groupVersionResourceErr: already finalized → nothing more, even with a discovery error', () => {
    const cond = {type: 'NamespaceDeletionDiscoveryFailure', status: 'True', reason: 'DiscoveryFailed', message: 'x'}
    const r = replayNamespace({namespace: ns({deleting: '2026-11-29T02:00:00Z', spec: [], conditions: [cond]}), content: EMPTY, apiServices: [], now: NOW})
    assert.equal(r.verdict, 'finalized')
  })
  it('groupVersionResourceErr-finalize: a discovery error means no finalize, however empty the namespace', () => {
    const cond = {
      type: 'NamespaceDeletionDiscoveryFailure',
      status: 'True',
      reason: 'DiscoveryFailed',
      message:
        'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
    }
    const r = replayNamespace({
      namespace: ns({deleting: '2026-11-29T02:00:00Z', conditions: [cond]}),
      content: EMPTY,
      now: NOW,
      apiServicesWhy: 'the data holds no APIService',
    })
    assert.equal(r.verdict, 'blockedByDiscovery')
    assert.equal(r.actor.action, 'blocksDeletion')
    assert.doesNotMatch(r.headline, /next pass/)
  })
})

describe('condition messages (status_condition_utils.go formats, client-go discovery error text)', () => {
  it('the GroupVersions of the observed two-GV message (cleanups.md §1.5)', () => {
    const m =
      'Discovery failed for some groups, 2 failing: unable to retrieve the complete list of server APIs: subresources.kubevirt.io/v1: stale GroupVersion discovery: subresources.kubevirt.io/v1, subresources.kubevirt.io/v1alpha3: stale GroupVersion discovery: subresources.kubevirt.io/v1alpha3'
    assert.deepEqual(failedGroupVersions(m), [
      {group: 'subresources.kubevirt.io', version: 'v1', error: 'stale GroupVersion discovery: subresources.kubevirt.io/v1'},
      {group: 'subresources.kubevirt.io', version: 'v1alpha3', error: 'stale GroupVersion discovery: subresources.kubevirt.io/v1alpha3'},
    ])
  })
  it('remaining resources (core group with a trailing dot) and remaining finalizers', () => {
    assert.deepEqual(remainingResources('Some resources are remaining: configmaps. has 1 resource instances, widgets.example.com has 2 resource instances'), [
      {resource: 'configmaps', group: '', count: 1},
      {resource: 'widgets', group: 'example.com', count: 2},
    ])
    assert.deepEqual(
      remainingFinalizers(
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances, kubernetes.io/pvc-protection in 2 resource instances',
      ),
      [
        {finalizer: 'example.com/hold', count: 1},
        {finalizer: 'kubernetes.io/pvc-protection', count: 2},
      ],
    )
  })
})

describe('worked by hand', () => {
  // cleanups.md §1.5 worked example: metrics.k8s.io/v1beta1 stale (metrics-server scaled to 0), one ConfigMap held by
  // example.com/hold. Discovery blocks first (it alone blocks finalization); the ConfigMap is the second holder.
  const conditions = [
    {
      type: 'NamespaceDeletionDiscoveryFailure',
      status: 'True',
      reason: 'DiscoveryFailed',
      message:
        'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
    },
    {
      type: 'NamespaceContentRemaining',
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps. has 1 resource instances',
    },
    {
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    },
  ]
  const svc = apiService('v1beta1.metrics.k8s.io', {
    status: 'False',
    reason: 'MissingEndpoints',
    message: 'endpointslices for service/metrics-server in "kube-system" have no addresses with port name "https"',
  })
  it('the APIService is named with its Available condition, then the object with the finalizer', () => {
    const r = replayNamespace({
      namespace: ns({deleting: '2026-11-29T01:00:00Z', conditions}),
      content: [type('pods', 'Pod'), type('configmaps', 'ConfigMap', [cm('settings', ['example.com/hold'], '2026-11-29T01:00:05Z')])],
      apiServices: [svc],
      now: NOW,
      minor: 34,
    })
    assert.equal(r.verdict, 'blockedByDiscovery')
    assert.equal(r.severity, 'warning')
    assert.deepEqual(
      r.blockers.map((b) => b.kind),
      ['blockedByDiscovery', 'waitingForFinalizers'],
    )
    assert.match(r.headline, /APIService v1beta1\.metrics\.k8s\.io Available=False MissingEndpoints/)
    assert.match(r.headline, /ConfigMap settings \("example\.com\/hold"\)/)
    assert.equal(r.actor.next[0].command, 'kubectl get apiservice v1beta1.metrics.k8s.io -o yaml')
    assert.equal(r.actor.next[1].command, 'kubectl why gc configmaps/settings -n demo')
    // The condition's count (1 configmap) agrees with the data.
    assert.ok(r.steps.some((s) => s.rule === 'ProcessContentTotals' && /configmaps\.: 1, as in the data/.test(s.why)))
  })
  it('an unavailable APIService with no condition yet still blocks (inferred, likely)', () => {
    const r = replayNamespace({namespace: ns({deleting: '2026-11-29T02:59:50Z'}), content: EMPTY, apiServices: [svc], now: NOW, minor: 34})
    assert.equal(r.verdict, 'blockedByDiscovery')
    assert.equal(r.steps[0].inferred?.confidence, 'likely')
  })
  it('ordered deletion (1.34): a running pod with 60s grace, deleted 20s ago → waiting for pods, estimate 60, other types untouched', () => {
    // estimateGracefulTerminationForPods: max grace of non-terminal pods = 60; 20 s < 60 s since deletion → 60.
    const r = replayNamespace({
      namespace: ns({deleting: '2026-11-29T02:59:40Z'}),
      content: [
        type('pods', 'Pod', [pod('web', 60, 'Running', '2026-11-29T02:59:41Z'), pod('done', 600, 'Succeeded')]),
        type('configmaps', 'ConfigMap', [cm('held', ['example.com/hold'])]),
      ],
      apiServices: [],
      now: NOW,
      minor: 34,
    })
    assert.equal(r.estimateSeconds, 60)
    assert.equal(r.verdict, 'waitingForPods')
    assert.equal(r.severity, 'info')
    // Pods first: the ConfigMap's finalizer is not blamed while pods remain.
    assert.ok(r.blockers.every((b) => b.kind === 'waitingForPods'))
    assert.match(r.headline, /until 2026-11-29T03:00:40\.000Z/)
  })
  it('podEstimate drops to 0 once the grace period has passed since the namespace deletion', () => {
    assert.equal(podEstimate([pod('a', 30)], '2026-11-29T02:59:00Z', NOW), 0)
    assert.equal(podEstimate([pod('a', 30)], '2026-11-29T02:59:40Z', NOW), 30)
    assert.equal(podEstimate([pod('a', 30, 'Failed')], '2026-11-29T02:59:40Z', NOW), 0)
  })
  it('unordered deletion (1.31): every type with content is named, the finalizer holder first', () => {
    const r = replayNamespace({
      namespace: ns({deleting: '2026-11-29T01:00:00Z'}),
      content: [type('pods', 'Pod'), type('configmaps', 'ConfigMap', [cm('held', ['example.com/hold'], '2026-11-29T01:00:01Z')])],
      apiServices: [],
      now: NOW,
      minor: 31,
    })
    assert.equal(r.verdict, 'waitingForFinalizers')
    assert.match(r.headline, /released when those objects' finalizers are removed/)
  })
  it('a type the data cannot show is not proved empty: the condition names it, the answer says the data lacks it', () => {
    const cond = {
      type: 'NamespaceContentRemaining',
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: widgets.example.com has 2 resource instances',
    }
    const r = replayNamespace({
      namespace: ns({deleting: '2026-11-29T01:00:00Z', conditions: [cond]}),
      content: [...EMPTY, {...type('widgets', 'Widget', [], 'example.com', 'none'), why: 'the data holds no Widget'}],
      apiServices: [],
      now: NOW,
      minor: 34,
    })
    assert.equal(r.verdict, 'contentNotInData')
    assert.match(r.headline, /widgets\.example\.com has 2 resource instances, which the data does not hold/)
    assert.doesNotMatch(r.headline, /next pass/)
  })
  it('spec.finalizers of another controller: the namespace controller has done its part once "kubernetes" is gone', () => {
    const r = replayNamespace({namespace: ns({deleting: '2026-11-29T01:00:00Z', spec: ['example.com/ns-cleanup']}), content: EMPTY, apiServices: [], now: NOW})
    assert.equal(r.verdict, 'finalized')
    assert.equal(r.severity, 'warning')
    assert.match(r.headline, /"example\.com\/ns-cleanup"/)
  })
})

// Issue 27 point 4: "nothing holds it" (finalizeNamespace on the next pass) rests on absence, so only where every
// deletable type is proved empty and the APIServices are in the data; otherwise contentNotInData, action none, and the
// lists that settle it. Worked by hand: no discovery failure, no item of any type in the data.
describe('finalize only on proof', () => {
  const deleting = ns({deleting: '2026-11-29T01:00:00Z'})
  it('every type proved empty and APIServices read: willFinalize (the controller acts)', () => {
    const r = replayNamespace({namespace: deleting, content: [type('configmaps', 'ConfigMap')], apiServices: [], now: NOW, minor: 34})
    assert.equal(r.verdict, 'willFinalize')
    assert.equal(r.actor.action, 'willDelete')
  })
  it('ConfigMaps held only in part (none in the data): contentNotInData, not "removes its finalizer"', () => {
    const r = replayNamespace({namespace: deleting, content: [type('configmaps', 'ConfigMap', [], '', 'partial')], apiServices: [], now: NOW, minor: 34})
    assert.equal(r.verdict, 'contentNotInData')
    assert.equal(r.actor.action, 'none')
    assert.match(r.headline, /nothing in the data holds it, but the data cannot show every object of 1 deletable type\(s\) \(configmaps\.\)/)
    assert.match(r.headline, /cannot be told/)
    assert.match(r.actor.next[0].command ?? '', /^kubectl api-resources --verbs=list --namespaced -o name/)
  })
  it('no APIService in the data: contentNotInData, and `kubectl get apiservices` named', () => {
    const r = replayNamespace({
      namespace: deleting,
      content: [type('configmaps', 'ConfigMap')],
      apiServicesWhy: 'the data holds no APIService',
      now: NOW,
      minor: 34,
    })
    assert.equal(r.verdict, 'contentNotInData')
    assert.ok(r.actor.next.some((n) => n.command === 'kubectl get apiservices'))
  })
  it('spec.finalizers empty while metadata.finalizers holds one: never "no finalizer is left"', () => {
    const o = ns({deleting: '2026-11-29T01:00:00Z', spec: []})
    o.metadata = {...o.metadata, finalizers: ['example.com/ns-hold']} as KubeObject['metadata']
    const r = replayNamespace({namespace: o, content: [], apiServices: [], now: NOW, minor: 34})
    assert.match(r.steps[0].why, /metadata\.finalizers still holds "example\.com\/ns-hold"/)
    assert.doesNotMatch(JSON.stringify(r), /[Nn]o finalizer is left/)
  })
})
