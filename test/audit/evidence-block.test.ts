// One evidence block per report (issue 29): the run's Evidence is the same object for every finding, so the report
// holds it once, in its source, and each finding's source goes without it — unless a finding's evidence differs.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import {shareEvidence} from '../../src/audit/report.js'
import {runAudit} from '../../src/audit/run.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {chooseVersion} from '../../src/cluster/version.js'
import type {Explanation, SourceDescription} from '../../src/explanation.js'
import {auditJsonChunks} from '../../src/render/audit-json.js'

describe('one evidence block per report', () => {
  test('incident.yaml: the report source holds the evidence, no finding repeats it', async () => {
    const source = await SnapshotSource.open(fileURLToPath(new URL('../../examples/incident.yaml', import.meta.url)))
    const r = await runAudit(source, {
      checks: DEFAULT_CHECKS,
      version: chooseVersion(undefined, await source.serverVersion()),
      overrides: {},
      failOn: 'warning',
    })
    const j = JSON.parse([...auditJsonChunks(r)].join(''))
    // A snapshot describes what it can prove (src/cluster/snapshot/snapshot-source.ts puts it in describe()).
    assert.ok(j.source.evidence, 'the report source has the evidence block')
    assert.ok(Array.isArray(j.source.evidence.kinds))
    assert.equal(j.findings.length, 4)
    for (const f of j.findings) {
      assert.equal(f.source.evidence, undefined, `${f.subject.kind}/${f.subject.name} repeats the evidence`)
      // Everything else in the finding's source is still its own.
      assert.equal(f.source.mode, 'snapshot')
    }
  })

  const evidence = (clockFrom: string) => ({
    kinds: [],
    servedVersions: ['v1'],
    nodeLeases: 'present' as const,
    nodeSet: 'complete' as const,
    clock: {at: '2026-12-01T00:00:00.000Z', from: clockFrom, trust: 'exact' as const},
    missing: [],
  })
  const finding = (name: string, source: SourceDescription) => ({subject: {kind: 'Pod', name}, source}) as unknown as Explanation

  test('a finding whose evidence is equal (not the same object) shares; one that differs keeps its own', () => {
    const shared = evidence('the snapshot capture time')
    const report: SourceDescription = {mode: 'snapshot', file: 'x.json', evidence: shared as never}
    const a = finding('a', {mode: 'snapshot', file: 'x.json', evidence: shared as never})
    const b = finding('b', {mode: 'snapshot', file: 'x.json', evidence: evidence('the snapshot capture time') as never})
    const c = finding('c', {mode: 'snapshot', file: 'x.json', evidence: evidence('--now') as never})
    const d = finding('d', {mode: 'snapshot', file: 'x.json'})
    shareEvidence([a, b, c, d], report)
    assert.deepEqual(a.source, {mode: 'snapshot', file: 'x.json'})
    assert.deepEqual(b.source, {mode: 'snapshot', file: 'x.json'})
    assert.equal(c.source.evidence?.clock.from, '--now')
    assert.deepEqual(d.source, {mode: 'snapshot', file: 'x.json'})
    // The report's own block is untouched.
    assert.equal(report.evidence, shared)
  })

  test('a report source without evidence (live) leaves findings as they are', () => {
    const e = evidence('the live clock')
    const a = finding('a', {mode: 'live', evidence: e as never})
    shareEvidence([a], {mode: 'live'})
    assert.equal(a.source.evidence, e)
  })
})
