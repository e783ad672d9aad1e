// The files written from the registry of checks (scripts/gen-audit.ts, `npm run gen:audit`) are what the registry
// writes today: deploy/clusterrole.yaml, the check lists of schemas/audit-report.json, the README's severity table.
// A check added to the registry fails this test until `npm run gen:audit` has been run.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import {auditReportSchema, GENERATED, readmeWithTable} from '../../scripts/gen-audit.js'

const read = (file: string) => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8')

describe('npm run gen:audit has been run', () => {
  for (const [file, make] of Object.entries(GENERATED)) {
    test(file, () => assert.equal(make(read(file)), read(file), `${file} differs from what the registry writes: run npm run gen:audit`))
  }
  test("the ClusterRole is valid YAML with the role's rules", () => {
    const role = parse(GENERATED['deploy/clusterrole.yaml']())
    assert.equal(role.kind, 'ClusterRole')
    assert.ok(role.rules.length > 0)
  })
  test('the generators replace only their part: a changed enum and table are put back, the rest untouched', () => {
    const schema = read('schemas/audit-report.json')
    const broken = schema.replace('"CheckName": {"enum": ["hash", "gc", "deleting", "node", "evicted", "replicas"]}', '"CheckName": {"enum": ["hash"]}')
    assert.notEqual(broken, schema)
    assert.equal(auditReportSchema(broken), schema)
    const readme = read('README.md')
    const stale = readme.replace(/^\| `hash` \| `unreproducible` \| info \|/m, '| `hash` | `unreproducible` | warning |')
    assert.notEqual(stale, readme)
    assert.equal(readmeWithTable(stale), readme)
  })
})
