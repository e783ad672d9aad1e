// A field a replay reads that its descriptor does not name fails here. Every replay (the audit runs each one's own
// driver and engine) is run twice over the same data: once as the audit reads it — a snapshot keeping, as objects
// arrive, only the fields the descriptors name (cluster/snapshot/slim.ts), the gathering projecting each list to its
// reads' fields (audit/project.ts) — and once over whole objects. The answers must be the same, byte for byte: every
// finding, verdict, count, note and problem. Over every example and synthetic clusters with incidents of each kind.
import assert from 'node:assert/strict'
import {mkdtempSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import {auditProjectionPlan} from '../../src/audit/project.js'
import {runAudit} from '../../src/audit/run.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {slimmer} from '../../src/cluster/snapshot/slim.js'
import {chooseVersion} from '../../src/cluster/version.js'
import {writeSnapshot} from '../support/synthetic/index.js'

async function audit(path: string, projected: boolean, namespace?: string): Promise<unknown> {
  const source = await SnapshotSource.open(path, projected ? {slim: slimmer(auditProjectionPlan())} : {})
  const report = await runAudit(source, {
    checks: DEFAULT_CHECKS,
    namespace,
    version: chooseVersion(undefined, await source.serverVersion()),
    overrides: {},
    failOn: 'warning',
    wholeObjects: !projected,
  })
  return JSON.parse(JSON.stringify(report))
}

async function same(path: string, namespace?: string): Promise<void> {
  const whole = (await audit(path, false, namespace)) as {findings: unknown[]}
  const projected = await audit(path, true, namespace)
  assert.deepEqual(projected, whole)
}

describe('the descriptors name every field their replays read: the same answers from projected objects as from whole ones', () => {
  const examples = readdirSync('examples').filter((f) => /\.(json|yaml)$/.test(f))
  test('the examples are there', () => assert.ok(examples.length >= 20, examples.join(' ')))
  for (const f of examples) test(`examples/${f}`, () => same(join('examples', f)))

  const dir = mkdtempSync(join(tmpdir(), 'replay-fields-'))
  const clusters = [
    {seed: 1, nodes: 30, notReadyNodes: 4, danglingOwners: 5, stuckForeground: 1, events: 60},
    {seed: 7, nodes: 12, notReadyNodes: 2, danglingOwners: 2, stuckForeground: 2, deployments: 20, statefulSets: 4, daemonSets: 2, otherOwned: 40},
  ]
  for (const [i, options] of clusters.entries()) {
    test(`synthetic cluster ${JSON.stringify(options)}: every namespace, then one`, async () => {
      const path = join(dir, `c${i}.json`)
      await writeSnapshot(path, options)
      const whole = (await audit(path, false)) as {findings: unknown[]}
      assert.ok(whole.findings.length > 0, 'the cluster has findings to compare')
      await same(path)
      await same(path, 'default')
    })
  }
})
