// gc KIND/NAME and the mechanisms beside the collector (issue 26), end to end on dumps: the namespace controller on
// examples/gc-namespace-terminating.json (answer worked by hand in its .md), the stuck namespace of
// examples/gc-stuck-namespace.json (the answer that used to say "No finalizer is left"), and a hand-written dump
// holding a finished Job with a TTL, a complete Deployment with revisionHistoryLimit 1 and three old ReplicaSets, and a
// CronJob over its history limit — each answer worked out below. Every JSON output validates against schemas/gc.json.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const validate = validatorFor('gc')
const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
async function gc(file: string, args: string[]): Promise<{code: number; json: any; stdout: string}> {
  const r = await runCli(['gc', ...args, '-f', file, '-o', 'json'])
  assert.notEqual(r.code, 2, r.stderr)
  const json = JSON.parse(r.stdout)
  assert.ok(validate(json), `${args.join(' ')}: ${JSON.stringify(validate.errors, null, 1)}`)
  return {code: r.code, json, stdout: r.stdout}
}

describe('examples/gc-namespace-terminating.json (worked in its .md)', () => {
  const file = example('gc-namespace-terminating.json')
  test('namespace/demo: the namespace controller blocks it; the APIService first, then the ConfigMap', async () => {
    const {code, json} = await gc(file, ['namespace/demo'])
    assert.equal(code, 1)
    assert.equal(json.verdict, 'waitBeingDeleted')
    assert.equal(json.severity, 'warning')
    assert.equal(json.actors[0].actor, 'namespace')
    assert.equal(json.actors[0].action, 'blocksDeletion')
    assert.equal(json.actors[1].actor, 'garbagecollector')
    assert.equal(json.actors[1].action, 'none')
    assert.match(
      json.summary,
      /^Namespace demo is Terminating since 2026-11-29T01:00:00Z, held by the namespace controller's "kubernetes" finalizer: discovery fails for metrics\.k8s\.io\/v1beta1 \(APIService v1beta1\.metrics\.k8s\.io Available=False MissingEndpoints\)/,
    )
    assert.match(json.summary, /ConfigMap settings \("example\.com\/hold"\)/)
    assert.doesNotMatch(json.summary, /No finalizer is left/)
    assert.deepEqual(
      json.actors[0].next.map((n: {command?: string}) => n.command),
      ['kubectl get apiservice v1beta1.metrics.k8s.io -o yaml', 'kubectl why gc configmaps/settings -n demo'],
    )
  })
  test('configmaps/settings: held by example.com/hold, written by hold-operator, which has no ready replica', async () => {
    const {code, json} = await gc(file, ['configmaps/settings', '-n', 'demo'])
    assert.equal(code, 0)
    assert.equal(json.actors[0].actor, 'hold-operator')
    assert.equal(json.actors[0].action, 'blocksDeletion')
    assert.match(json.summary, /^It is held by "example\.com\/hold" \(written by hold-operator; Deployment ops\/hold-operator \(0 ready\)\)/)
  })
  test('the table prints one line per actor', async () => {
    const r = await runCli(['gc', 'namespace/demo', '-f', file, '--no-color'])
    assert.match(r.stdout, /\n {2}actors:\n {4}namespace blocksDeletion \(deleteAllContent\)\n/)
    assert.match(r.stdout, /\n {4}garbagecollector none \(attemptToDeleteItem: being deleted\)\n/)
  })
})

describe('examples/gc-stuck-namespace.json', () => {
  test('namespace/team-a: held by the two objects with finalizers, never "no finalizer is left"', async () => {
    const {json} = await gc(example('gc-stuck-namespace.json'), ['namespace/team-a'])
    assert.doesNotMatch(json.summary, /No finalizer is left/)
    assert.equal(json.actors[0].actor, 'namespace')
    assert.match(
      json.summary,
      /2 object\(s\) held by finalizers: Deployment api \("foregroundDeletion"\), being deleted; ReplicaSet api-6f7d8c9b5 \("example\.com\/audit-hold"\)/,
    )
  })
})

describe('a hand-written dump: TTL, Deployment history, CronJob history', () => {
  // Captured 2026-11-29T10:00:00Z.
  // - Job ci/build finished (Complete) at 09:00 with ttlSecondsAfterFinished 7200 → expireAt 11:00, in 60 minutes.
  // - Deployment shop/web at revision 4, complete (2/2 updated, available, generation observed), limit 1; old
  //   ReplicaSets web-1, web-2, web-3 (revisions 1–3) at 0 replicas: 3 − 1 = 2 examined oldest first → web-1 and
  //   web-2 deleted, web-3 kept.
  // - CronJob ops/nightly, successfulJobsHistoryLimit 1: two Complete Jobs, nightly-1 (start 08:00) and nightly-2
  //   (start 09:00) → nightly-1 is deleted.
  const dir = mkdtempSync(join(tmpdir(), 'gc-cleanups-'))
  const file = join(dir, 'dump.json')
  const rs = (name: string, rev: string, replicas: number) => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'shop',
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: `2026-11-2${rev}T00:00:00Z`,
      annotations: {'deployment.kubernetes.io/revision': rev},
      ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}],
    },
    spec: {replicas},
    status: {replicas, observedGeneration: 1},
  })
  const cronJobJob = (name: string, start: string) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'ops',
      uid: `uid-${name}`,
      ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: 'uid-nightly', controller: true, blockOwnerDeletion: true}],
    },
    spec: {},
    status: {startTime: start, conditions: [{type: 'Complete', status: 'True', lastTransitionTime: start}]},
  })
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      kubectlWhy: {format: 1, capturedAt: '2026-11-29T10:00:00Z', serverVersion: {major: '1', minor: '34', gitVersion: 'v1.34.2'}},
      items: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: {name: 'build', namespace: 'ci', uid: 'uid-build'},
          spec: {ttlSecondsAfterFinished: 7200},
          status: {conditions: [{type: 'Complete', status: 'True', lastTransitionTime: '2026-11-29T09:00:00Z'}]},
        },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {name: 'web', namespace: 'shop', uid: 'uid-web', generation: 4, annotations: {'deployment.kubernetes.io/revision': '4'}},
          spec: {replicas: 2, revisionHistoryLimit: 1},
          status: {replicas: 2, updatedReplicas: 2, availableReplicas: 2, observedGeneration: 4},
        },
        rs('web-1', '1', 0),
        rs('web-2', '2', 0),
        rs('web-3', '3', 0),
        rs('web-4', '4', 2),
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: {name: 'nightly', namespace: 'ops', uid: 'uid-nightly'},
          spec: {successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1},
        },
        cronJobJob('nightly-1', '2026-11-29T08:00:00Z'),
        cronJobJob('nightly-2', '2026-11-29T09:00:00Z'),
      ],
    }),
  )
  test('job/build: the ttl-after-finished controller deletes it at 11:00, never "never garbage-collected"', async () => {
    const {json, stdout} = await gc(file, ['job/build', '-n', 'ci'])
    assert.equal(json.verdict, 'noOwners')
    assert.equal(json.actors[0].actor, 'ttl-after-finished')
    assert.equal(json.actors[0].action, 'willDelete')
    assert.equal(json.actors[0].at, '2026-11-29T11:00:00.000Z')
    assert.match(json.summary, /^The ttl-after-finished controller deletes it at 2026-11-29T11:00:00\.000Z \(in 60m\)/)
    assert.doesNotMatch(stdout, /never garbage-collected/)
  })
  test('rs/web-1: the deployment controller deletes it (beyond revisionHistoryLimit 1), never "changes nothing"', async () => {
    const {json, stdout} = await gc(file, ['rs/web-1', '-n', 'shop'])
    assert.equal(json.verdict, 'keep')
    assert.equal(json.actors[0].actor, 'deployment')
    assert.equal(json.actors[0].action, 'willDelete')
    assert.doesNotMatch(stdout, /changes nothing/)
    assert.equal((await gc(file, ['rs/web-2', '-n', 'shop'])).json.actors[0].action, 'willDelete')
  })
  test('rs/web-3 is within the limit: nobody deletes it, and the summary says which limit keeps it', async () => {
    const {json} = await gc(file, ['rs/web-3', '-n', 'shop'])
    assert.deepEqual(
      json.actors.map((a: {actor: string; action: string}) => `${a.actor} ${a.action}`),
      ['deployment none', 'garbagecollector none'],
    )
    assert.match(json.summary, /^Within Deployment shop\/web's revisionHistoryLimit 1: the deployment controller keeps it\./)
  })
  test('job/nightly-1: the cronjob controller deletes it (successfulJobsHistoryLimit 1); nightly-2 stays', async () => {
    const one = await gc(file, ['job/nightly-1', '-n', 'ops'])
    assert.equal(one.json.actors[0].actor, 'cronjob')
    assert.equal(one.json.actors[0].action, 'willDelete')
    const two = await gc(file, ['job/nightly-2', '-n', 'ops'])
    assert.equal(two.json.actors.find((a: {actor: string}) => a.actor === 'cronjob').action, 'none')
  })
})

// Item 4 of issue 26's leftovers: the audit and gc --all give ConfigMap demo/settings the same holder verdict. Its
// "example.com/hold" was written by hold-operator (managedFields: the one entry with f:metadata.f:finalizers
// v:"example.com/hold"), whose Deployment ops/hold-operator has no ready replica, so both say stuck (warning) and name
// the writer. Before, the audit dropped every managedFields entry and said unknown (info).
describe('examples/gc-namespace-terminating.json: the audit and gc --all agree on the finalizer holder', () => {
  const file = example('gc-namespace-terminating.json')
  test('stuck, warning, written by hold-operator — in both', async () => {
    const g = await runCli(['gc', '--all', '-A', '-f', file, '-o', 'json'])
    const a = await runCli(['audit', '-A', '-f', file, '--checks', 'deleting', '-o', 'json'])
    assert.notEqual(g.code, 2, g.stderr)
    assert.notEqual(a.code, 2, a.stderr)
    type F = {subject: {kind: string; namespace?: string; name: string}; verdict: string; severity: string; summary: string}
    const pick = (fs: F[]) => fs.find((f) => f.subject.kind === 'ConfigMap' && f.subject.namespace === 'demo' && f.subject.name === 'settings')
    const fromGc = pick(JSON.parse(g.stdout).deletions.findings)
    const fromAudit = pick(JSON.parse(a.stdout).findings)
    assert.ok(fromGc && fromAudit)
    assert.deepEqual([fromAudit.verdict, fromAudit.severity], ['stuck', 'warning'])
    assert.deepEqual([fromGc.verdict, fromGc.severity], ['stuck', 'warning'])
    for (const f of [fromGc, fromAudit]) assert.match(f.summary, /"example\.com\/hold" \(written by hold-operator; Deployment ops\/hold-operator \(0 ready\)\)/)
  })
})

// The audit's projection keeps, of managedFields, only the entries that wrote metadata.finalizers of objects being
// deleted, cut to that set (src/audit/project.ts finalizerWriters).
describe('finalizerWriters', () => {
  test('an object being deleted: the finalizer writers only, cut to f:metadata.f:finalizers; any other object: none', async () => {
    const {finalizerWriters} = await import('../../src/audit/project.js')
    const mf = [
      {manager: 'kubectl', operation: 'Update', time: 't1', fieldsV1: {'f:data': {'f:x': {}}}},
      {manager: 'op', operation: 'Update', time: 't2', fieldsV1: {'f:metadata': {'f:labels': {}, 'f:finalizers': {'.': {}, 'v:"example.com/hold"': {}}}}},
    ]
    const o = {apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'c', deletionTimestamp: 'd', finalizers: ['example.com/hold'], managedFields: mf}}
    assert.deepEqual(finalizerWriters(o as never), [
      {manager: 'op', operation: 'Update', time: 't2', fieldsV1: {'f:metadata': {'f:finalizers': {'.': {}, 'v:"example.com/hold"': {}}}}},
    ])
    assert.equal(finalizerWriters({...o, metadata: {...o.metadata, deletionTimestamp: undefined}} as never), undefined)
    assert.equal(finalizerWriters({...o, metadata: {...o.metadata, finalizers: []}} as never), undefined)
  })
})
