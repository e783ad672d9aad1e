// -o json is written a piece at a time (src/render/audit-json.ts); the pieces make exactly the text formatData writes
// for the whole report — with findings, and without.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import {runAudit} from '../../src/audit/run.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {chooseVersion} from '../../src/cluster/version.js'
import {auditJsonChunks} from '../../src/render/audit-json.js'
import {formatData} from '../../src/render/output.js'

async function report(example: string) {
  const source = await SnapshotSource.open(fileURLToPath(new URL(`../../examples/${example}`, import.meta.url)))
  const version = chooseVersion(undefined, await source.serverVersion())
  return runAudit(source, {checks: DEFAULT_CHECKS, version, overrides: {}, failOn: 'warning'})
}

describe('auditJsonChunks', () => {
  for (const [example, findings] of [
    ['incident.yaml', 4],
    ['hash-up-to-date.json', 0],
  ] as const) {
    test(`${example}: the same text as formatData (${findings} findings)`, async () => {
      const r = await report(example)
      assert.equal(r.findings.length, findings)
      const chunks = [...auditJsonChunks(r)]
      assert.equal(chunks.join(''), formatData(r, 'json'))
      assert.equal(chunks.length, findings === 0 ? 1 : findings + 2)
    })
  }
})
