// schemas/hash.json is the contract of `kubectl why hash -o json`: every explanation the engines produce on the
// fixtures (each verdict, each kind), the --all report of every example, and --template records validate; the schema
// rejects an unannounced field.
import assert from 'node:assert/strict'
import {readdirSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {hashContext, hashReport} from '../../src/engine/workloads/drive.js'
import {explainDaemonSetHash} from '../../src/engine/daemonset/explain.js'
import {explainDeploymentHash} from '../../src/engine/deployment/explain.js'
import type {ReplicaSet} from '../../src/engine/deployment/types.js'
import {explainStatefulSetHash} from '../../src/engine/statefulset/explain.js'
import {findTemplates, hashRecords} from '../../src/hash/template-records.js'
import {daemonSetInput, deploymentInput, load, ofKind, SOURCE, statefulSetInput} from '../engine/deployment/fixture.js'
import {validatorFor} from '../support/schemas.js'

const validate = validatorFor('hash')
const asJson = (v: unknown) => JSON.parse(JSON.stringify(v))
const ok = (v: unknown) => assert.ok(validate(asJson(v)), JSON.stringify(validate.errors, null, 1))
const files = (dir: string) => readdirSync(fileURLToPath(new URL(`../fixtures/${dir}/`, import.meta.url))).filter((f) => f.endsWith('.yaml'))

describe('schemas/hash.json', () => {
  for (const f of files('deployment')) {
    test(`deployment/${f}`, () => {
      const l = load('deployment', f, 'Deployment')
      ok(explainDeploymentHash(deploymentInput(l)))
    })
  }
  for (const f of files('daemonset')) {
    test(`daemonset/${f}`, () => {
      const l = load('daemonset', f, 'DaemonSet')
      ok(explainDaemonSetHash(daemonSetInput(l)))
    })
  }
  for (const f of files('statefulset')) {
    for (const version of [undefined, {minor: 34, patch: 0}]) {
      test(`statefulset/${f}${version ? ' as 1.34.0' : ''}`, () => {
        const l = load('statefulset', f, 'StatefulSet', undefined, version)
        ok(explainStatefulSetHash(statefulSetInput(l)))
      })
    }
  }

  test('--all over every example, and over the replicas examples (owner-less ReplicaSets, skipped stubs)', async () => {
    const dir = fileURLToPath(new URL('../../examples/', import.meta.url))
    for (const f of readdirSync(dir).filter((x) => /^(hash|replicas)-.*\.(json|yaml)$/.test(x))) {
      const source = await SnapshotSource.open(dir + f)
      const report = await hashReport(await hashContext(source, undefined), undefined)
      assert.ok(validate(asJson(report)), `${f}: ${JSON.stringify(validate.errors, null, 1)}`)
    }
  })

  test('dumps without revisions: DaemonSet pods, StatefulSet status, a redacted Deployment', () => {
    const ds = load('daemonset', 'collision-count.yaml', 'DaemonSet')
    ok(explainDaemonSetHash({...daemonSetInput(ds), controllerRevisions: []}))
    const sts = load('statefulset', 'three-revisions.yaml', 'StatefulSet')
    ok(explainStatefulSetHash({...statefulSetInput(sts), controllerRevisions: []}))
    const d = load('deployment', 'missing-replicaset.yaml', 'Deployment')
    const redacted = structuredClone(d.workload) as {spec: {template: {spec: {containers: {image: string}[]}}}}
    redacted.spec.template.spec.containers[0].image = '***HIDDEN***'
    ok(explainDeploymentHash({...deploymentInput(d), workload: redacted as never, replicaSets: []}))
  })

  test('--template records', () => {
    const l = load('deployment', 'upgraded.yaml', 'Deployment')
    const records = hashRecords(findTemplates([{kind: 'List', items: l.items.filter((o) => o.kind !== 'Pod')}], 'upgraded.yaml'), {version: '1.31'})
    assert.ok(records.some((r) => r.reproducedBy !== undefined))
    ok(records)
  })

  test('an unannounced field fails', () => {
    const l = load('deployment', 'up-to-date.yaml', 'Deployment')
    const e = asJson(
      explainDeploymentHash({workload: l.workload, replicaSets: ofKind<ReplicaSet>(l.items, 'ReplicaSet'), settings: l.settings, now: l.now, source: SOURCE}),
    )
    e.deployment.replicaSets[0].label.surprise = 1
    assert.equal(validate(e), false)
    delete e.deployment.replicaSets[0].label.surprise
    assert.equal(validate(e), true)
    e.verdict = 'fine'
    assert.equal(validate(e), false)
  })
})
