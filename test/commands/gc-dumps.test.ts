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
