// gc --all's exit code counts its pending-deletions section, as the audit's deleting check does: a finding at or
// above warning (stuck) exits 1; a pending one (info) alone exits 0. Worked by hand:
// - examples/gc-namespace-terminating.json: the collector flags nothing (gc --all exited 0 before), but ConfigMap
//   demo/settings is stuck — "example.com/hold" written by hold-operator, whose Deployment has 0 ready replicas
//   (warning) — and Namespace demo waits on a stale APIService (warning): exit 1.
// - a dump holding only PersistentVolume pv-1 being deleted with kubernetes.io/pv-protection, status.phase Bound to
//   claim db/data (which exists): pv-protection waits while it is Bound — pending, info; nothing else: exit 0.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))

function dump(items: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'why-gc-exit-'))
  const file = join(dir, 'dump.json')
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  return file
}

describe('gc --all: the exit code counts the deletions section', () => {
  test('a stuck deletion (warning) and nothing from the collector: exit 1', async () => {
    const r = await runCli(['gc', '--all', '-A', '-f', example('gc-namespace-terminating.json'), '-o', 'json'])
    const json = JSON.parse(r.stdout)
    assert.deepEqual(
      json.findings.filter((f: {severity: string}) => f.severity === 'warning' || f.severity === 'critical'),
      [],
    )
    assert.ok(json.deletions.findings.some((f: {verdict: string; severity: string}) => f.verdict === 'stuck' && f.severity === 'warning'))
    assert.equal(r.code, 1)
  })
  test('a pending deletion (info) alone: exit 0', async () => {
    const file = dump([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: {name: 'pv-1', uid: 'pv-1', deletionTimestamp: '2026-11-29T09:00:00Z', finalizers: ['kubernetes.io/pv-protection']},
        spec: {persistentVolumeReclaimPolicy: 'Retain', claimRef: {namespace: 'db', name: 'data', uid: 'pvc-data'}},
        status: {phase: 'Bound'},
      },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {name: 'data', namespace: 'db', uid: 'pvc-data'},
        spec: {volumeName: 'pv-1'},
        status: {phase: 'Bound'},
      },
    ])
    const r = await runCli(['gc', '--all', '-A', '-f', file, '--now', '2026-11-29T10:00:00Z', '-o', 'json'])
    const json = JSON.parse(r.stdout)
    assert.deepEqual(
      json.deletions.findings.map((f: {subject: {name: string}; verdict: string; severity: string}) => [f.subject.name, f.verdict, f.severity]),
      [['pv-1', 'pending', 'info']],
    )
    assert.equal(r.code, 0, r.stderr)
  })
})
