// schemas/audit-report.json is the contract of -o json / -o yaml: every report on the examples validates (findings
// against the engines' own schemas), and the schema refuses an unannounced change of shape anywhere in the report.
import assert from 'node:assert/strict'
import {readdirSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import {runCli} from '../support/cli.js'
import {type Any, auditSchema} from './schema.js'

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
const valid = auditSchema()
const snapshots = readdirSync(EXAMPLES)
  .filter((f) => /\.(json|yaml)$/.test(f))
  .sort()

async function report(file: string, scope: string[] = ['-A']): Promise<Any> {
  const r = await runCli(['audit', ...scope, '-f', `${EXAMPLES}${file}`, '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  return JSON.parse(r.stdout)
}

describe('schemas/audit-report.json', () => {
  for (const file of snapshots) {
    test(`${file}: the report validates`, async () => {
      const j = await report(file)
      assert.ok(valid(j), JSON.stringify(valid.errors, null, 1))
    })
  }

  test('-o yaml prints the same document', async () => {
    const json = await report('incident.yaml')
    const r = await runCli(['audit', '-A', '-f', `${EXAMPLES}incident.yaml`, '-o', 'yaml'])
    const yaml = parse(r.stdout)
    assert.deepEqual(yaml, json)
    assert.ok(valid(yaml))
  })

  test('-n and --checks reports validate (scope, notSelected checks)', async () => {
    const j = await report('incident.yaml', ['-n', 'shop', '--checks', 'gc,replicas'])
    assert.deepEqual(j.scope, {namespace: 'shop'})
    assert.deepEqual(
      j.summary.checks.map((c: Any) => [c.name, c.status]),
      [
        ['hash', 'notSelected'],
        ['gc', 'complete'],
        ['deleting', 'notSelected'],
        ['node', 'notSelected'],
        ['evicted', 'notSelected'],
        ['replicas', 'complete'],
      ],
    )
    assert.ok(valid(j), JSON.stringify(valid.errors, null, 1))
  })

  test('unannounced changes of shape fail', async () => {
    const base = await report('incident.yaml')
    const changes: [string, (j: Any) => void][] = [
      ['a new top-level field', (j) => (j.extra = 1)],
      ['a new summary field', (j) => (j.summary.total = 4)],
      ['a new check field', (j) => (j.summary.checks[1].durationMs = 5)],
      ['a check status outside the enum', (j) => (j.summary.checks[1].status = 'skipped')],
      ['a new field in a gc finding', (j) => (j.findings.find((f: Any) => f.controller === 'garbagecollector').check = 'gc')],
      ['a node finding missing its timeline', (j) => delete j.findings.find((f: Any) => f.controller === 'nodelifecycle').timeline],
      ['a finding from an unknown engine', (j) => (j.findings[0].controller = 'hpa')],
      ['a severity count missing', (j) => delete j.summary.findings.none],
      ['a wrong kind', (j) => (j.kind = 'GcReport')],
    ]
    for (const [what, change] of changes) {
      const j = structuredClone(base)
      change(j)
      assert.equal(valid(j), false, what)
    }
  })
})
