// The audit keeps its largest lists compressed once it holds more objects than a quarter of the heap holds
// (src/audit/gather.ts SpillPolicy, issue 29.1), and each check takes back the fields its own reads name. The answers
// must not change: every example and synthetic clusters with incidents of each kind are audited twice, compressing
// from the first object (spillAt 0) and never, and the two reports must be the same, byte for byte — every finding,
// verdict, count, note and problem — with -A, with -n, with -l and --sort age (the subjects' labels and creation
// times are looked up in the compressed lists).
import assert from 'node:assert/strict'
import {mkdtempSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import {auditProjectionPlan} from '../../src/audit/project.js'
import {type AuditOptions, runAudit} from '../../src/audit/run.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {slimmer} from '../../src/cluster/snapshot/slim.js'
import {chooseVersion} from '../../src/cluster/version.js'
import {writeSnapshot} from '../support/synthetic/index.js'

async function audit(path: string, spillAt: number | undefined, extra: Partial<AuditOptions> = {}): Promise<{report: unknown; lines: string[]}> {
  const source = await SnapshotSource.open(path, {slim: slimmer(auditProjectionPlan())})
  const lines: string[] = []
  const report = await runAudit(source, {
    checks: DEFAULT_CHECKS,
    version: chooseVersion(undefined, await source.serverVersion()),
    overrides: {},
    failOn: 'warning',
    ...(spillAt !== undefined ? {spillAt} : {}),
    progress: (line) => lines.push(line),
    ...extra,
  })
  return {report: JSON.parse(JSON.stringify(report)), lines}
}

const COMPRESSED = /the largest lists are kept compressed/

async function same(path: string, extra: Partial<AuditOptions> = {}): Promise<void> {
  const held = await audit(path, undefined, extra)
  assert.ok(!held.lines.some((l) => COMPRESSED.test(l)), 'a small cluster is not compressed by default')
  const compressed = await audit(path, 0, extra)
  assert.ok(
    compressed.lines.some((l) => COMPRESSED.test(l)),
    'spillAt 0 compresses',
  )
  assert.deepEqual(compressed.report, held.report)
}

describe('the audit gives the same answers with its largest lists kept compressed', () => {
  const examples = readdirSync('examples').filter((f) => /\.(json|yaml)$/.test(f))
  test('the examples are there', () => assert.ok(examples.length >= 20, examples.join(' ')))
  for (const f of examples) test(`examples/${f}`, () => same(join('examples', f)))

  const dir = mkdtempSync(join(tmpdir(), 'audit-spill-'))
  const clusters = [
    {seed: 1, nodes: 30, notReadyNodes: 4, danglingOwners: 5, stuckForeground: 1, events: 60},
    {seed: 7, nodes: 12, notReadyNodes: 2, danglingOwners: 2, stuckForeground: 2, deployments: 20, statefulSets: 4, daemonSets: 2, otherOwned: 40},
  ]
  for (const [i, options] of clusters.entries()) {
    test(`synthetic cluster ${JSON.stringify(options)}: -A, -n default, -l, --sort age`, async () => {
      const path = join(dir, `c${i}.json`)
      await writeSnapshot(path, options)
      const whole = (await audit(path, undefined)).report as {findings: unknown[]}
      assert.ok(whole.findings.length > 0, 'the cluster has findings to compare')
      await same(path)
      await same(path, {namespace: 'default'})
      await same(path, {selection: {labelSelector: 'app'}, sort: 'age'})
    })
  }
})
