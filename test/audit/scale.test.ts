// A 5,000-node synthetic cluster (test/support/synthetic; 400 nodes down, dangling owners, stuck foreground
// deletions; pods kept to 8,000 — one DaemonSet — so that the test takes seconds, not minutes): the default table
// fits one terminal screen (24 rows × 120 columns) per check group, every line within the width, and the JSON still
// has every finding. Run in-process over a snapshot file of the cluster.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {before, describe, test} from 'node:test'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import type {AuditReport} from '../../src/audit/report.js'
import {runAudit} from '../../src/audit/run.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {chooseVersion} from '../../src/cluster/version.js'
import {renderAudit} from '../../src/render/audit.js'
import {auditJsonChunks} from '../../src/render/audit-json.js'
import {writeSnapshot} from '../support/synthetic/index.js'

const SCREEN = {rows: 24, columns: 120}

describe('audit of 5,000 nodes', () => {
  let report: AuditReport
  let table: string[]

  before(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-scale-')), 'big.json')
    await writeSnapshot(file, {
      seed: 5,
      nodes: 5000,
      daemonSets: 1,
      pods: 8000,
      deployments: 200,
      statefulSets: 20,
      otherOwned: 2000,
      events: 2000,
      notReadyNodes: 400,
      danglingOwners: 300,
      stuckForeground: 2,
    })
    const source = await SnapshotSource.open(file)
    report = await runAudit(source, {checks: DEFAULT_CHECKS, version: chooseVersion(undefined, await source.serverVersion()), overrides: {}, failOn: 'warning'})
    table = renderAudit(report, {screen: SCREEN}).split('\n')
  })

  test("the default table: each check's group of findings fits one screen, no line wider than the screen", () => {
    const header = /^(hash|gc|deleting|node|evicted|replicas) — (\d+) findings?: /
    const starts = table.map((l, i) => (header.test(l) ? i : -1)).filter((i) => i >= 0)
    assert.equal(starts.length, report.summary.checks.filter((c) => c.findings.critical + c.findings.warning + c.findings.info + c.findings.none > 0).length)
    const end = table.findIndex((l, i) => i > starts[0] && (l === '' || /finding\(s\) not shown/.test(l)))
    for (const [k, start] of starts.entries()) {
      const group = table.slice(start, starts[k + 1] ?? end)
      assert.ok(group.length <= SCREEN.rows, `${table[start]}: ${group.length} lines`)
    }
    const wide = table.filter((l) => [...l].length > SCREEN.columns)
    // Only the header, the summary table (its COVERED column), the CI summary line (one line, for a log) and a next
    // step's command (whole, to paste) may be wider: no other finding line is.
    assert.deepEqual(
      wide.filter(
        (l) =>
          !l.startsWith('kubectl why audit —') &&
          !l.startsWith('kubectl-why audit FAILED') &&
          !/^ \w+ +(complete|partial|not run)/.test(l) &&
          !l.startsWith(' CHECK') &&
          // a next step's command stands whole on its line, never cut, so that it pastes (issue 28.3)
          !/^ {10}kubectl \S/.test(l),
      ),
      [],
    )
    // Groups hold many more findings than they show: the limit is what kept them on a screen.
    assert.ok(report.findings.length > 4 * SCREEN.rows, `${report.findings.length} findings`)
  })

  test("-o json has every finding, and the counts agree with the table's groups", () => {
    const j = JSON.parse([...auditJsonChunks(report)].join(''))
    const perCheck = j.summary.checks.reduce((n: number, c: {findings: Record<string, number>}) => n + Object.values(c.findings).reduce((a, b) => a + b, 0), 0)
    assert.equal(j.findings.length, perCheck)
    assert.equal(j.findings.length, report.findings.length)
    const counted = table
      .map((l) => /^(?:hash|gc|deleting|node|evicted|replicas) — (\d+) findings?: /.exec(l))
      .filter((m) => m)
      .reduce((n, m) => n + Number(m![1]), 0)
    assert.equal(counted, j.findings.length)
  })
})
