// Real objects from real clusters, copied from ../shared/realworld into fixtures (provenance in each header), with the
// outcome that corpus's INDEX.md records for them: a 1.21 coredns that reproduces, a redacted support-bundle template, a
// 1.8 decimal label, a 1.21 kindnet DaemonSet revision.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {explainDaemonSetHash, type DaemonSetHashReplay} from '../../../src/engine/daemonset/explain.js'
import {explainDeploymentHash, type DeploymentHashReplay} from '../../../src/engine/deployment/explain.js'
import type {ControllerRevision} from '../../../src/engine/history/types.js'
import {deploymentInput, load, ofKind, SOURCE} from './fixture.js'

function deployment(file: string, version?: {minor: number}) {
  const l = load('deployment', file, 'Deployment', undefined, version)
  const e = explainDeploymentHash(deploymentInput(l))
  return {e, r: e.deployment as DeploymentHashReplay}
}

describe('real clusters (fixtures from ../shared/realworld)', () => {
  test('coredns on kind v1.21.1: upToDate (INDEX: 1/1 match 1.21,1.22)', () => {
    const {e, r} = deployment('realworld-coredns-1.21.yaml')
    assert.equal(e.verdict, 'upToDate')
    assert.equal(r.newReplicaSet, 'coredns-558bd4d5db')
    assert.equal(r.replicaSets[0].label.result, 'matches')
  })

  test('contour in a redacted support bundle, v1.23.5: unreproducible for the reason "redacted" (INDEX: 0/1, ***HIDDEN***)', () => {
    const {e, r} = deployment('realworld-redacted-1.23.yaml')
    assert.equal(e.verdict, 'unreproducible')
    assert.equal(e.severity, 'info')
    assert.equal(r.replicaSets[0].role, 'new')
    assert.equal(r.replicaSets[0].label.reason, 'redacted')
  })

  test('calico on v1.8.4: nothing computed now, the decimal label said so (INDEX: DECIMAL labels)', () => {
    const {e, r} = deployment('realworld-decimal-1.8.yaml')
    assert.equal(e.verdict, 'unreproducible')
    assert.equal(e.severity, 'info')
    assert.equal(r.computed, undefined)
    assert.match(r.computeError ?? '', /older than every known layout/)
    assert.equal(r.replicaSets[0].label.reason, 'decimalLabel')
  })

  test('kindnet on kind v1.21.1: the revision Matches and reproduces (INDEX: 2/2 match 1.20,1.21,1.22)', () => {
    const l = load('daemonset', 'realworld-kindnet-1.21.yaml', 'DaemonSet')
    const e = explainDaemonSetHash({
      workload: l.workload,
      controllerRevisions: ofKind<ControllerRevision>(l.items, 'ControllerRevision'),
      settings: l.settings,
      now: l.now,
      source: SOURCE,
    })
    assert.equal(e.verdict, 'upToDate')
    assert.equal((e.daemonSet as DaemonSetHashReplay).currentRevision, 'kindnet-5b547684d9')
  })
})
