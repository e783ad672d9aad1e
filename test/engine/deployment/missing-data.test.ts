// Dumps that lack the objects a controller works from (support bundles without ReplicaSets, must-gathers without
// ControllerRevisions): the replays conclude from pods and status where these show the answer, report a redacted
// template as such, and refuse to guess when nothing shows it. Hashes from ../shared/k8s-hash vectors, as in the fixtures.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {explainDaemonSetHash, type DaemonSetHashReplay} from '../../../src/engine/daemonset/explain.js'
import {MissingDataError} from '../../../src/engine/deployment/claim.js'
import {explainDeploymentHash, type DeploymentHashReplay} from '../../../src/engine/deployment/explain.js'
import type {PodMeta, Workload} from '../../../src/engine/deployment/types.js'
import {explainStatefulSetHash, type StatefulSetHashReplay} from '../../../src/engine/statefulset/explain.js'
import {load, ofKind, SOURCE} from './fixture.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

function deployment(mutate: (d: Any, pods: Any[]) => void) {
  const l = load('deployment', 'missing-replicaset.yaml', 'Deployment', 'web')
  const d = structuredClone(l.workload) as Any
  const pods = structuredClone(ofKind<PodMeta>(l.items, 'Pod')) as Any[]
  mutate(d, pods)
  return () => explainDeploymentHash({workload: d, replicaSets: [], pods, settings: l.settings, now: l.now, source: SOURCE})
}

describe('a Deployment whose ReplicaSets are not in the data', () => {
  test('no pods either, but its status counts replicas: not replayed (MissingDataError), never "rolloutPending"', () => {
    assert.throws(
      deployment((_, pods) => pods.splice(0)),
      (err: Error) => err instanceof MissingDataError && /none of its ReplicaSets/.test(err.message),
    )
  })
  // Info since issue 15 (was warning): an unreproducible label changes nothing the controller does.
  test('pods carrying a label the template does not hash to: unreproducible, info', () => {
    const e = deployment((_, pods) =>
      pods.forEach((p) => {
        p.metadata.labels['pod-template-hash'] = '7c5b8d9f64'
      }),
    )()
    assert.equal(e.verdict, 'unreproducible')
    assert.equal(e.severity, 'info')
    assert.equal((e.deployment as DeploymentHashReplay).create, undefined, 'no create is predicted from missing data')
  })
  test('a redacted template: unreproducible, info, said so', () => {
    const e = deployment((d) => (d.spec.template.spec.containers[0].image = '***HIDDEN***'))()
    assert.equal(e.verdict, 'unreproducible')
    assert.equal(e.severity, 'info')
    assert.equal((e.deployment as DeploymentHashReplay).templateRedacted, true)
    assert.match(e.summary, /redacted/)
  })
})

function daemonSet(file: string, mutate: (ds: Any, pods: Any[]) => void, version?: {minor: number}) {
  const l = load('daemonset', file, 'DaemonSet', 'agent', version)
  const ds = structuredClone(l.workload) as Any
  const pods = structuredClone(ofKind<PodMeta>(l.items, 'Pod')) as Any[]
  mutate(ds, pods)
  return () => explainDaemonSetHash({workload: ds as Workload, controllerRevisions: [], pods, settings: l.settings, now: l.now, source: SOURCE})
}

describe('a DaemonSet whose ControllerRevisions are not in the data', () => {
  test('pods labelled 6d68758fc5 (1.31, collisionCount 1): upToDate from the pods', () => {
    const e = daemonSet('collision-count.yaml', () => {})()
    assert.equal(e.verdict, 'upToDate')
    const r = e.daemonSet as DaemonSetHashReplay
    assert.deepEqual(
      r.podRevisions?.map((g) => [g.label, g.pods, g.current.result, g.current.collisionCount]),
      [['6d68758fc5', 3, 'matches', 1]],
    )
  })
  test('pods labelled 86dcfdf4c6 on 1.31: written by 1.28–1.29 → hashDrift', () => {
    const e = daemonSet('rolling.yaml', (ds, pods) => {
      delete ds.status.collisionCount
      for (const p of pods) p.metadata.labels['controller-revision-hash'] = '86dcfdf4c6'
    })()
    assert.equal(e.verdict, 'hashDrift')
    assert.deepEqual((e.daemonSet as DaemonSetHashReplay).podRevisions?.[0].current.reproducedBy?.[0], {versions: ['1.28', '1.29'], collisionCount: null})
  })
  test('no pods either, and pods scheduled per status: not replayed', () => {
    assert.throws(
      daemonSet('rolling.yaml', (_, pods) => pods.splice(0)),
      MissingDataError,
    )
  })
})

function statefulSet(version: {minor: number; patch?: number}, mutate: (set: Any) => void = () => {}) {
  const l = load('statefulset', 'three-revisions.yaml', 'StatefulSet', 'web', version)
  const set = structuredClone(l.workload) as Any
  mutate(set)
  return explainStatefulSetHash({
    workload: set,
    controllerRevisions: [],
    pods: ofKind<PodMeta>(l.items, 'Pod'),
    settings: l.settings,
    now: l.now,
    source: SOURCE,
  })
}

describe('a StatefulSet whose ControllerRevisions are not in the data', () => {
  test('status.updateRevision web-8668c76b8d is what 1.33 writes with probe 0: upToDate', () => {
    const e = statefulSet({minor: 33, patch: 4})
    assert.equal(e.verdict, 'upToDate')
    assert.equal((e.statefulSet as StatefulSetHashReplay).statusRevision?.check.collisionCount, 0)
  })
  test('on 1.34 the same name comes from an older serializer (with "creationTimestamp":null): hashDrift', () => {
    const e = statefulSet({minor: 34, patch: 2})
    assert.equal(e.verdict, 'hashDrift')
    const by = (e.statefulSet as StatefulSetHashReplay).statusRevision!.check.reproducedBy!
    assert.ok(by[0].versions.includes('1.33') && !by[0].versions.includes('1.34'))
  })
  // Info since issue 15 (was warning): an unreproducible name changes nothing the controller does.
  test('a name no serializer gives the template: unreproducible, info', () => {
    const e = statefulSet({minor: 33}, (set) => (set.status.updateRevision = 'web-7c5b8d9f64'))
    assert.equal(e.verdict, 'unreproducible')
    assert.equal(e.severity, 'info')
  })
})

describe('no server version recorded', () => {
  test('the newest kubelet in the data (v1.18) explains a 2021 label no layout reproduces', async () => {
    const {checkTemplateLabel} = await import('../../../src/engine/history/label-check.js')
    const l = load('deployment', 'unreproducible.yaml', 'Deployment', 'web')
    const rs = ofKind<Any>(l.items, 'ReplicaSet')[0]
    const {'pod-template-hash': label, ...labels} = rs.spec.template.metadata.labels
    const template = {...rs.spec.template, metadata: {...rs.spec.template.metadata, labels}}
    const base = {settings: {...l.settings, versionAssumed: true}, counts: [null], createdAt: '2021-05-11T16:15:53Z'}
    assert.equal(checkTemplateLabel(template, label, base).reason, 'unknown')
    const hinted = checkTemplateLabel(template, label, {...base, settings: {...base.settings, kubeletVersion: 'v1.18.19-gke.1701'}})
    assert.equal(hinted.reason, 'clusterPredatesLayouts')
    assert.equal(hinted.explained, true)
    assert.match(hinted.why, /1\.18–1\.20/)
  })
})
