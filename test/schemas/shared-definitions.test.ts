// Subject, Step, Problem, Source, NextStep, Severity and the other shared definitions live in schemas/explanation.json
// only: every other schema that names one refers to it (alone, or under allOf with what that command adds, such as
// node's required settings; evicted takes node's Source), so a change to the shared shape reaches every command's
// contract. Every schema compiles in the tests' one strict loader.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {type Any, SCHEMAS, schemaJson, validatorFor} from '../support/schemas.js'

const SHARED = ['Severity', 'Subject', 'Step', 'Problem', 'Source', 'Setting', 'NextStep', 'Evidence', 'KindCoverage', 'Time', 'Count', 'ApiVersion', 'Scope']
const refersToShared = (name: string, d: Any): boolean => {
  // explanation.json's, or another schema's of the same name (evicted's Source is node's), itself checked here.
  const shared = (r: unknown) =>
    typeof r === 'string' && /^(https:\/\/kubectl-why\.dev\/schemas\/)?[a-z-]+\.json#\/definitions\//.test(r) && r.endsWith(`/${name}`)
  if (shared(d.$ref)) return true
  return Array.isArray(d.allOf) && d.allOf.some((x: Any) => shared(x.$ref)) && d.type === undefined && d.properties === undefined
}

describe('shared definitions', () => {
  for (const name of SCHEMAS) {
    test(`schemas/${name}.json compiles in the strict loader`, () => {
      validatorFor(name)
    })
    if (name === 'explanation') continue
    test(`schemas/${name}.json refers to explanation.json for the shared definitions it names`, () => {
      const defs = schemaJson(name).definitions ?? {}
      for (const s of SHARED) if (defs[s]) assert.ok(refersToShared(s, defs[s]), `${name}.json defines its own ${s}: ${JSON.stringify(defs[s]).slice(0, 200)}`)
    })
  }

  test('a narrowed Subject still holds the shared one (no unknown field), and the narrowing', () => {
    const v = validatorFor('replicas', 'Subject')
    assert.ok(v({kind: 'ReplicaSet', name: 'web'}))
    assert.equal(v({kind: 'Deployment', name: 'web'}), false, 'kind narrowed')
    assert.equal(v({kind: 'ReplicaSet', name: 'web', extra: 1}), false, 'the shared Subject is closed')
    assert.equal(v({kind: 'ReplicaSet'}), false, 'name required by the shared Subject')
  })

  test("node's Source requires the settings on top of the shared one", () => {
    const v = validatorFor('node', 'Source')
    assert.equal(v({mode: 'live'}), false)
    assert.equal(validatorFor('explanation', 'Source')({mode: 'live'}), true)
  })

  test('the Source is closed, as SourceDescription is: an unannounced field fails in every command', () => {
    for (const [schema, definition] of [
      ['explanation', 'Source'],
      ['gc', 'Source'],
      ['hash', 'Source'],
      ['replicas', 'Source'],
    ]) {
      const v = validatorFor(schema, definition)
      assert.ok(v({mode: 'snapshot', file: 'x.json'}), `${schema} ${JSON.stringify(v.errors)}`)
      assert.equal(v({mode: 'snapshot', file: 'x.json', cluster: 'prod'}), false, schema)
    }
  })
})
