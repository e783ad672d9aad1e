// `hash --all -A` over the real dumps of ../shared/realworld (skipped, saying so, when that folder is absent): per dump,
// how many ReplicaSet and revision labels reproduce, and that every one that does not carries a reason — checked
// against what the corpus's INDEX.md records for each artifact.
import assert from 'node:assert/strict'
import {existsSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {hashContext, type HashReport, hashReport, labelsOf} from '../../src/engine/workloads/drive.js'

const ROOT = fileURLToPath(new URL('../../../shared/realworld/', import.meta.url))
const skip = existsSync(ROOT) ? false : `../shared/realworld not present (${ROOT}): real-world dumps not checked`

async function report(artifact: string): Promise<HashReport> {
  const source = await SnapshotSource.open(ROOT + artifact)
  return hashReport(await hashContext(source, undefined), undefined)
}

function reasons(r: HashReport): Record<string, number> {
  const out: Record<string, number> = {}
  for (const l of [...r.results.flatMap(labelsOf), ...(r.unowned ?? []).map((u) => u.label)]) {
    if (l.result === 'unreproducible') out[l.reason ?? '?'] = (out[l.reason ?? '?'] ?? 0) + 1
  }
  return out
}

describe('real-world dumps', {skip}, () => {
  test('OpenShift 4.8 must-gather (aws): every ReplicaSet label reproduces, under 1.22 inferred from the labels', async () => {
    const r = await report('replicasets/033-mgc-aws-ocp4.8.0')
    // INDEX.md: 61/63 with two it could not explain (insights-operator-6946895465, machine-config-operator-5958949465);
    // both reproduce here from their own templates — an FNV-32 match over 18 layouts × 12 counts is no accident.
    assert.deepEqual(r.labels, {checked: 63, matches: 63, otherLayout: 0, unreproducible: 0, noLabel: 0})
    assert.equal(r.source.k8sVersion, '1.22')
    assert.deepEqual(r.counts, {upToDate: 57})
  })

  test('kURL support bundle v1.23.5, projectcontour: redacted (INDEX: 0/1)', async () => {
    const r = await report('replicasets/013-sbctl-rs-projectcontour.json')
    assert.deepEqual(reasons(r), {redacted: 1})
  })

  test('kubeiql 1.9/1.10: a decimal label (INDEX)', async () => {
    assert.deepEqual(reasons(await report('replicasets/003-kubeiql-replicaset.json')), {decimalLabel: 1})
  })

  test('IKS objects replayed into kind: 12/12 reproduce with 1.20–1.22 (INDEX)', async () => {
    const r = await report('replicasets/048-kubevious-replayed-iks')
    assert.equal(r.labels.checked, 12)
    assert.equal(r.labels.matches + r.labels.otherLayout, 12)
    // Their Deployments were recreated with other uids: not replayed, and said why.
    assert.ok((r.skipped ?? []).every((s) => /none of its ReplicaSets/.test(s.reason)))
  })

  test('k3s v1.20.2 bundle without ReplicaSets: 12 Deployments reproduce from their pods, 11 redacted (INDEX: 12/23)', async () => {
    const r = await report('replicasets/054-troubleshoot-hist-k3s1202-deploy-pods')
    assert.equal(r.counts.upToDate, 12)
    assert.equal(r.counts.unreproducible, 11)
    assert.ok(r.results.filter((e) => e.verdict === 'unreproducible').every((e) => (e.deployment as {templateRedacted?: true}).templateRedacted === true))
  })

  test('GKE mock, created under ≤1.18 control planes: none reproduces (INDEX: 0/166), each with a reason', async () => {
    const r = await report('replicasets/047-kubevious-large-cluster-mock-gke')
    assert.equal(r.labels.matches + r.labels.otherLayout, 0)
    const why = reasons(r)
    assert.ok((why.predatesLayouts ?? 0) >= 100, JSON.stringify(why))
    assert.deepEqual(Object.keys(why).sort(), ['predatesLayouts', 'unknown'])
  })

  test('sonobuoy v1.21.1 DaemonSet revisions: 2/2 reproduce (INDEX)', async () => {
    const r = await report('controllerrevisions/010-sonobuoy-v1211-crs-kube-system.json')
    assert.equal(r.labels.checked, 2)
    assert.equal(r.labels.matches + r.labels.otherLayout, 2)
  })
})
