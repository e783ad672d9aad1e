// One answer per cluster (issue 13 item 8): `audit -o json`'s gc findings are `gc --all -A -o json`'s findings — the
// same subjects, verdicts and severities, in the same order — on every example and on synthetic clusters, since both
// run the one driver (src/engine/garbagecollector/drive.ts). The one difference is by design: the audit never reads
// Secrets (its ClusterRole grants nothing on them), so gc's Secret findings are left out of the comparison and the
// audit must have none.
import assert from 'node:assert/strict'
import {mkdtempSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'
import {writeSnapshot} from '../support/synthetic/index.js'

interface Finding {
  subject: {kind: string; namespace?: string; name: string}
  controller: string
  verdict: string
  severity: string
}

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
const line = (f: Finding) => `${f.severity} ${f.verdict} ${f.subject.kind} ${f.subject.namespace ?? ''}/${f.subject.name}`

async function both(file: string): Promise<{gc: string[]; audit: string[]}> {
  const g = await runCli(['gc', '--all', '-A', '-f', file, '-o', 'json'])
  assert.notEqual(g.code, 2, g.stderr)
  const a = await runCli(['audit', '-A', '-f', file, '-o', 'json'])
  assert.notEqual(a.code, 2, a.stderr)
  const gc = (JSON.parse(g.stdout).findings as Finding[]).filter((f) => f.subject.kind !== 'Secret').map(line)
  const audit = (JSON.parse(a.stdout).findings as Finding[]).filter((f) => f.controller === 'garbagecollector').map(line)
  return {gc, audit}
}

describe('audit and gc --all agree on every example', () => {
  const files = readdirSync(EXAMPLES)
    .filter((f) => /\.(json|yaml)$/.test(f))
    .sort()
  for (const file of files) {
    test(file, async () => {
      const {gc, audit} = await both(join(EXAMPLES, file))
      assert.deepEqual(audit, gc)
    })
  }
  test('the examples hold gc findings to compare', async () => {
    const {gc} = await both(join(EXAMPLES, 'incident.yaml'))
    assert.ok(gc.length > 0)
  })
})

describe('audit and gc --all agree on a synthetic cluster', () => {
  let file: string
  before(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'gc-agree-')), 'cluster.json')
    // Dangling owners among the owned objects (ConfigMaps, Secrets, Services, Jobs…) and stuck foreground deletions:
    // delete, waitForBlockingDependents and waitBeingDeleted findings at several severities.
    await writeSnapshot(file, {seed: 13, nodes: 12, danglingOwners: 30, stuckForeground: 2})
  })
  test('same findings, same order', async () => {
    const {gc, audit} = await both(file)
    assert.ok(gc.length >= 10, `enough findings to compare order (${gc.length})`)
    assert.deepEqual(audit, gc)
  })
})
