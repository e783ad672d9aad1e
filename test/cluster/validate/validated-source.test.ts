// The boundary (src/cluster/validate): an object without the shape the checks read is left out, reported once with
// the field and what was there, and a single read of it is "unreadable", never "not found". Expected messages are
// the shapes' own words for the JSON types written in each object below.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {openSource} from '../../../src/cluster/open.js'
import {runCli} from '../../support/cli.js'
import type {ClusterSource, KubeObject, ListRequest, ResourceType, ServerVersion} from '../../../src/cluster/source.js'
import {ValidatedSource} from '../../../src/cluster/validate/validated-source.js'
import {invalidOf} from '../../../src/cluster/validate/validate-object.js'
import {ReadError, UserError} from '../../../src/errors.js'
import {auditProjectionPlan} from '../../../src/audit/project.js'

const pod = (name: string, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'shop', uid: `uid-${name}`, ...meta},
  ...extra,
})

/** A source over fixed objects, as bare as the contract allows. */
function memory(items: KubeObject[], opts: {version?: unknown; types?: unknown[]; now?: Date; namespace?: unknown} = {}): ClusterSource {
  return {
    describe: () => ({mode: 'snapshot', file: 'mem'}),
    serverVersion: async () => opts.version as ServerVersion | undefined,
    discovery: async () => (opts.types ?? []) as ResourceType[],
    get: async (r) => items.find((o) => o.metadata?.name === r.name),
    list: async (r: ListRequest) => ({items: items.filter((o) => o.kind === r.kind)}),
    async *pages(r: ListRequest) {
      const all = items.filter((o) => o.kind === r.kind)
      for (let i = 0; i < all.length; i += 2) yield all.slice(i, i + 2)
    },
    defaultNamespace: () => (opts.namespace as string) ?? 'shop',
    now: () => opts.now ?? new Date('2026-11-29T10:00:00Z'),
    problems: () => [{what: 'list secrets', reason: 'forbidden'}],
  }
}

describe('one object against its kind', () => {
  const reason = (o: unknown) => invalidOf(o)?.reason
  test("the issue's own example", () => {
    assert.deepEqual(invalidOf(pod('web-1', {}, {ownerReferences: 'ReplicaSet/web'})), {
      what: 'Pod shop/web-1',
      reason: 'metadata.ownerReferences is a string, want a list',
    })
  })
  test('owner references: a list of objects with the four identifying strings', () => {
    assert.equal(
      reason(pod('a', {}, {ownerReferences: [{apiVersion: 1.5, kind: 'ReplicaSet', name: 'r', uid: 'u'}]})),
      'metadata.ownerReferences[0].apiVersion is a fraction, want a non-empty string',
    )
    assert.equal(
      reason(pod('a', {}, {ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r'}]})),
      'metadata.ownerReferences[0].uid is missing',
    )
    assert.equal(reason(pod('a', {}, {ownerReferences: [null]})), 'metadata.ownerReferences[0] is null, want an element')
    assert.equal(
      reason(pod('a', {}, {ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u', controller: 'true'}]})),
      'metadata.ownerReferences[0].controller is a string, want a boolean',
    )
  })
  test('type, name, string maps', () => {
    assert.equal(reason({apiVersion: 1, kind: 'Pod', metadata: {name: 'a'}}), 'apiVersion is a number, want a non-empty string')
    assert.equal(reason({apiVersion: 'v1', kind: {}, metadata: {name: 'a'}}), 'kind is an object, want a non-empty string')
    assert.equal(reason({apiVersion: 'v1', kind: 'Pod', metadata: {}}), 'metadata.name is missing')
    assert.equal(reason(pod('a', {}, {labels: {'app.kubernetes.io/name': 3}})), 'metadata.labels["app.kubernetes.io/name"] is a number, want a string')
    assert.equal(reason(pod('a', {}, {resourceVersion: 18446744073709551616n})), 'metadata.resourceVersion is a number beyond ±2^53, want a string')
  })
  test('timestamps are RFC 3339 instants that exist', () => {
    assert.equal(
      reason(pod('a', {}, {creationTimestamp: '2026-02-30T00:00:00Z'})),
      'metadata.creationTimestamp is "2026-02-30T00:00:00Z", want an RFC 3339 time',
    )
    assert.equal(reason(pod('a', {}, {deletionTimestamp: 1764410400})), 'metadata.deletionTimestamp is a number, want an RFC 3339 time')
    assert.equal(
      reason(pod('a', {status: {conditions: [{type: 'Ready', status: 'True', lastTransitionTime: 'yesterday'}]}})),
      'status.conditions[0].lastTransitionTime is "yesterday", want an RFC 3339 time',
    )
  })
  test("counters are integers in their Go type's range", () => {
    const rs = (status: object) => ({apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: {name: 'r'}, status})
    assert.equal(reason(rs({replicas: 2147483648})), 'status.replicas is 2147483648, want an int32')
    assert.equal(reason(rs({replicas: 1.5})), 'status.replicas is a fraction, want an int32')
    assert.equal(reason(rs({observedGeneration: 9007199254740993n})), 'status.observedGeneration is a number beyond ±2^53, want an integer within ±2^53')
    assert.equal(reason(rs({replicas: Number.POSITIVE_INFINITY})), 'status.replicas is a number beyond any range, want an int32')
    assert.equal(reason(rs({replicas: 3, observedGeneration: 9007199254740991})), undefined)
    // extensions/v1beta1 ReplicaSets are read as apps ones (the object store folds the group): the same shape applies.
    assert.equal(reason({...rs({replicas: '3'}), apiVersion: 'extensions/v1beta1'}), 'status.replicas is a string, want an int32')
  })
  test('lists of objects: conditions, taints, tolerations', () => {
    const node = (spec: object, status: object = {}) => ({apiVersion: 'v1', kind: 'Node', metadata: {name: 'n'}, spec, status})
    assert.equal(reason(node({}, {conditions: {Ready: 'True'}})), 'status.conditions is an object, want a list')
    assert.equal(reason(node({taints: [{key: 'k', effect: 7}]})), 'spec.taints[0].effect is a number, want a string')
    assert.equal(reason(node({taints: [{key: 'k'}]})), 'spec.taints[0].effect is missing')
    assert.equal(
      reason(pod('a', {spec: {tolerations: [{key: 'k', tolerationSeconds: '300'}]}})),
      'spec.tolerations[0].tolerationSeconds is a string, want an int64',
    )
    // tolerationSeconds is read exactly (the replay computes Go's wrapping Duration): any int64, as bigint beyond 2^53;
    // beyond int64 a Go decoder refuses it, and so does this.
    const tol = (s: number | bigint) => pod('a', {spec: {tolerations: [{key: 'k', tolerationSeconds: s}]}})
    assert.equal(reason(tol(2n ** 63n - 1n)), undefined)
    assert.equal(reason(tol(-(2n ** 63n))), undefined)
    assert.equal(reason(tol(2n ** 63n)), 'spec.tolerations[0].tolerationSeconds is 9223372036854775808, want an int64')
    assert.equal(reason(tol(1.5)), 'spec.tolerations[0].tolerationSeconds is a fraction, want an int64')
  })
  test("null is Go's zero value: the field is taken as absent (and removed, as the checks test === undefined)", () => {
    const o = pod('a', {status: null}, {labels: null, creationTimestamp: null})
    assert.equal(invalidOf(o), undefined)
    assert.deepEqual(o, pod('a'))
  })
  test('kinds the checks do not read beyond metadata: only metadata is looked at', () => {
    assert.equal(reason({apiVersion: 'example.com/v1', kind: 'Widget', metadata: {name: 'w'}, spec: {replicas: 'many'}}), undefined)
    assert.equal(reason({apiVersion: 'example.com/v1', kind: 'Widget', metadata: {name: 'w', finalizers: 'x'}}), 'metadata.finalizers is a string, want a list')
  })
  test("a ControllerRevision's data holds no number beyond float64", () => {
    assert.equal(
      reason({
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {name: 'c'},
        revision: 2,
        data: {spec: {template: {x: [1, Number.POSITIVE_INFINITY]}}},
      }),
      'data.spec.template.x[1] is a number beyond any range, want a number within float64',
    )
  })
})

describe('the source', () => {
  const bad = pod('web-1', {}, {ownerReferences: 'ReplicaSet/web'})
  const nameless = {apiVersion: 'v1', kind: 'Pod', metadata: {namespace: 'shop', name: 7}} as unknown as KubeObject
  const items = [pod('web-0'), bad, pod('web-2'), nameless, pod('web-4')]

  test('lists and pages leave the object out and report it once, with what the source already reported', async () => {
    const s = ValidatedSource.wrap(memory(items))
    assert.deepEqual(
      (await s.list({kind: 'Pod'})).items.map((o) => o.metadata?.name),
      ['web-0', 'web-2', 'web-4'],
    )
    const paged: string[] = []
    for await (const page of s.pages({kind: 'Pod'})) for (const o of page) paged.push(o.metadata!.name!)
    assert.deepEqual(paged, ['web-0', 'web-2', 'web-4'])
    assert.deepEqual(s.problems(), [
      {what: 'list secrets', reason: 'forbidden'},
      {what: 'Pod shop/web-1', reason: 'metadata.ownerReferences is a string, want a list; left out of the replay'},
      {what: 'Pod in shop (item 3 of the Pod list)', reason: 'metadata.name is a number, want a non-empty string; left out of the replay'},
    ])
    assert.deepEqual(s.describe().partial, s.problems())
    assert.deepEqual(
      s.leftOut().map((p) => p.what),
      ['Pod shop/web-1', 'Pod in shop (item 3 of the Pod list)'],
    )
  })

  test('a GET of a malformed object is unreadable (ReadError BadResponse), not a 404', async () => {
    const s = ValidatedSource.wrap(memory(items))
    await assert.rejects(
      s.get({kind: 'Pod', namespace: 'shop', name: 'web-1'}),
      (e: unknown) =>
        e instanceof ReadError && e.reason === 'BadResponse' && /^Pod shop\/web-1 cannot be read: metadata\.ownerReferences is a string/.test(e.message),
    )
    assert.equal((await s.get({kind: 'Pod', namespace: 'shop', name: 'web-0'}))?.metadata?.name, 'web-0')
    assert.equal(await s.get({kind: 'Pod', namespace: 'shop', name: 'absent'}), undefined)
  })

  test('server version, discovery and the recorded namespace are checked too', async () => {
    const types = [
      {group: '', version: 'v1', kind: 'Pod', resource: 'pods', namespaced: true, verbs: ['list']},
      {group: '', version: 'v1', kind: 'Node', resource: 'nodes', namespaced: false, verbs: 'list'},
    ]
    const s = ValidatedSource.wrap(memory([], {version: {major: '1', minor: '31', gitVersion: 131}, types, namespace: 4}))
    assert.equal(await s.serverVersion(), undefined)
    assert.deepEqual(
      (await s.discovery()).map((t) => t.kind),
      ['Pod'],
    )
    assert.equal(s.defaultNamespace(), 'default')
    assert.deepEqual(
      s
        .problems()
        .slice(1)
        .map((p) => `${p.what}: ${p.reason}`),
      [
        'the server version: gitVersion is a number, want a string; the version is taken as unknown',
        'resource type 1 of the discovery: verbs is a string, want a list; its objects cannot be read',
        'the recorded namespace: it is 4, not a namespace name; "default" is used',
      ],
    )
  })

  // Found by npm run fuzz (seed 879344011): a recorded namespace beyond 2^53 is a bigint, which JSON.stringify cannot write.
  test('a recorded namespace that is a huge number is named, not a crash', () => {
    const s = ValidatedSource.wrap(memory([], {namespace: 18446744073709551616n}))
    assert.equal(s.defaultNamespace(), 'default')
    assert.deepEqual(
      s
        .problems()
        .map((p) => `${p.what}: ${p.reason}`)
        .filter((p) => p.startsWith('the recorded namespace')),
      ['the recorded namespace: it is 18446744073709551616, not a namespace name; "default" is used'],
    )
  })

  test('a clock that is not an instant is refused when the source is opened', () => {
    assert.throws(
      () => ValidatedSource.wrap(memory([], {now: new Date(Number.NaN)})),
      (e: unknown) => e instanceof UserError && /capture time/.test(e.message) && /--now/.test(e.hint ?? ''),
    )
  })
})

test('openSource checks a snapshot: the malformed pod is named, the rest is read', async () => {
  const example = fileURLToPath(new URL('../../../examples/node-zone-outage.json', import.meta.url))
  const doc = JSON.parse(readFileSync(example, 'utf8')) as {items: KubeObject[]}
  const victim = doc.items.find((o) => o.kind === 'Pod')!
  ;(victim.metadata as Record<string, unknown>).ownerReferences = 'broken'
  const file = join(mkdtempSync(join(tmpdir(), 'validate-')), 'dump.json')
  writeFileSync(file, JSON.stringify(doc, null, 1))
  const source = await openSource({snapshot: file, requestTimeout: 0})
  const pods = (await source.list({apiVersion: 'v1', kind: 'Pod'})).items
  assert.equal(pods.length, doc.items.filter((o) => o.kind === 'Pod').length - 1)
  assert.ok(
    source
      .problems()
      .some(
        (p) =>
          p.what === `Pod ${victim.metadata!.namespace}/${victim.metadata!.name}` && p.reason.startsWith('metadata.ownerReferences is a string, want a list'),
      ),
  )
})

test('snapshot -f names the object the boundary left out of the rewrite and exits 2 (needs npm run build)', async () => {
  const example = fileURLToPath(new URL('../../../examples/replicas-quota.yaml', import.meta.url))
  const dir = mkdtempSync(join(tmpdir(), 'validate-snapshot-'))
  const file = join(dir, 'dump.yaml')
  // The first pod's ownerReferences as a string: YAML allows it, the API server never serves it.
  const text = readFileSync(example, 'utf8')
  const broken = text.replace(/(kind: Pod, metadata: \{name: cart-7c9d8f6b5-h2bq9,[^\n]*?)ownerReferences: \[[^\]]*\]/, '$1ownerReferences: "ReplicaSet/cart"')
  assert.notEqual(broken, text, 'the example has a pod with owner references on one line')
  writeFileSync(file, broken)
  const r = await runCli(['snapshot', '-f', file, '--out', join(dir, 'out.json')])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /error: left out Pod shop\/cart-[a-z0-9-]+: metadata\.ownerReferences is a string, want a list; left out of the replay/)
})

test("the audit's projections on arrival (slim) do not hide a malformed object: it is named, not quietly trimmed", async () => {
  const example = fileURLToPath(new URL('../../../examples/node-zone-outage.json', import.meta.url))
  const doc = JSON.parse(readFileSync(example, 'utf8')) as {items: KubeObject[]}
  const victim = doc.items.find((o) => o.kind === 'Pod' && Array.isArray((o.status as {conditions?: unknown})?.conditions))!
  // A map where a list belongs: projectPod keeps conditions only when they are a list, so it would drop them silently.
  ;(victim.status as Record<string, unknown>).conditions = {Ready: 'True'}
  const file = join(mkdtempSync(join(tmpdir(), 'validate-slim-')), 'dump.json')
  writeFileSync(file, JSON.stringify(doc, null, 1))
  const source = await openSource({snapshot: file, requestTimeout: 0, slim: auditProjectionPlan()})
  const pods = (await source.list({apiVersion: 'v1', kind: 'Pod'})).items
  assert.equal(
    pods.some((p) => p.metadata?.name === victim.metadata?.name),
    false,
  )
  assert.ok(
    source
      .problems()
      .some(
        (p) => p.what === `Pod ${victim.metadata!.namespace}/${victim.metadata!.name}` && p.reason.startsWith('status.conditions is an object, want a list'),
      ),
  )
})
