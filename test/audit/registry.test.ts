// The registry (src/audit/registry.ts) is the one list of checks: the schema's enums, the finding schemas it names,
// the severity table in schemas/audit-report.json and in the README, and the engines' own severity maps agree with
// it; every example's findings carry a severity the table allows for their verdict.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {CHECK_NAMES, DEFAULT_CHECKS, parseChecks} from '../../src/audit/checks.js'
import {runAudit} from '../../src/audit/run.js'
import {ENTRIES} from '../../src/audit/registry.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {chooseVersion} from '../../src/cluster/version.js'
import {VERDICTS as HASH_VERDICTS} from '../../src/engine/deployment/common.js'
import {GC_VERDICTS} from '../../src/engine/garbagecollector/model.js'
import {DELETION_VERDICTS} from '../../src/engine/deletions/pending.js'
import {EVICTED_SEVERITY} from '../../src/engine/tainteviction/explain.js'
import {NODE_SEVERITY} from '../../src/engine/nodelifecycle/explain.js'
import {VERDICTS as RS_VERDICTS} from '../../src/engine/replicaset/types.js'
import {UserError} from '../../src/errors.js'

const ROOT = new URL('../../', import.meta.url)
const json = (p: string) => JSON.parse(readFileSync(fileURLToPath(new URL(p, ROOT)), 'utf8'))
const schema = json('schemas/audit-report.json')

describe('the registry and the schema', () => {
  test("CheckName is the registry's names, in its order", () => {
    assert.deepEqual(
      schema.definitions.CheckName.enum,
      ENTRIES.map((e) => e.name),
    )
    assert.deepEqual(
      CHECK_NAMES,
      ENTRIES.map((e) => e.name),
    )
  })
  test("Finding.controller is every check's controllers, and each dispatches to the schema the registry names", () => {
    const finding = schema.definitions.Finding
    assert.deepEqual(
      finding.properties.controller.enum,
      ENTRIES.flatMap((e) => e.controllers),
    )
    for (const e of ENTRIES) {
      const ref = `https://kubectl-why.dev/schemas/${e.schema.file}.json#/definitions/${e.schema.definition}`
      const branch = finding.allOf.find((b: {then: {$ref: string}}) => b.then.$ref === ref)
      assert.ok(branch, `${e.name}: no branch to ${ref}`)
      const ctl = branch.if.properties.controller
      assert.deepEqual(ctl.enum ?? [ctl.const], [...e.controllers], e.name)
      assert.ok(json(`schemas/${e.schema.file}.json`).definitions[e.schema.definition], `${e.schema.file}.json defines ${e.schema.definition}`)
    }
  })
  test("VerdictSeverities is the registry's table", () => {
    assert.deepEqual(schema.definitions.VerdictSeverities.default, Object.fromEntries(ENTRIES.map((e) => [e.name, e.severities])))
  })
})

describe('the severity table', () => {
  test('lists every verdict of each engine', () => {
    const verdicts: Record<string, readonly string[]> = {
      hash: HASH_VERDICTS,
      gc: GC_VERDICTS,
      deleting: DELETION_VERDICTS,
      node: Object.keys(NODE_SEVERITY),
      evicted: Object.keys(EVICTED_SEVERITY),
      replicas: RS_VERDICTS,
    }
    for (const e of ENTRIES) assert.deepEqual(Object.keys(e.severities).sort(), [...verdicts[e.name]].sort(), e.name)
  })
  test("node and evicted: exactly the engines' own maps (no condition changes them)", () => {
    const of = (name: string) => Object.fromEntries(Object.entries(ENTRIES.find((e) => e.name === name)!.severities).map(([v, s]) => [v, s.severity]))
    assert.deepEqual(of('node'), NODE_SEVERITY)
    assert.deepEqual(of('evicted'), EVICTED_SEVERITY)
  })
  test("the README's table is the registry's", () => {
    const readme = readFileSync(fileURLToPath(new URL('README.md', ROOT)), 'utf8')
    const rows = [...readme.matchAll(/^\| `(\w+)` \| `(\w+)` \| (.+?) \| /gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`)
    const want = ENTRIES.flatMap((e) =>
      Object.entries(e.severities).map(
        ([v, s]) => `${e.name} ${v} ${s.severity}${s.when ? ` (${s.when.map((w) => `${w.severity} when ${w.if}`).join('; ')})` : ''}`,
      ),
    )
    assert.deepEqual(rows, want)
  })
  test("every example's findings have a severity the table allows for their verdict", async () => {
    const examples = [
      'incident.yaml',
      'gc-foreground-cycle.json',
      'gc-forbidden-owner.json',
      'gc-mixed-owners.json',
      'hash-collision.json',
      'hash-rollout-pending.json',
      'hash-unreproducible.json',
      'hash-drift-after-upgrade.json',
      'node-zone-outage.json',
      'node-lease-cache-lag.json',
      'replicas-adoption.yaml',
      'replicas-deletion-cost.yaml',
      'replicas-quota.yaml',
    ]
    for (const x of examples) {
      const source = await SnapshotSource.open(fileURLToPath(new URL(`examples/${x}`, ROOT)))
      const r = await runAudit(source, {
        checks: DEFAULT_CHECKS,
        version: chooseVersion(undefined, await source.serverVersion()),
        overrides: {},
        failOn: 'warning',
      })
      for (const f of r.findings) {
        const entry = ENTRIES.find((e) => e.controllers.includes(f.controller))!
        const s = entry.severities[f.verdict]
        assert.ok(s, `${x}: ${entry.name} ${f.verdict} is not in the table`)
        assert.ok([s.severity, ...(s.when ?? []).map((w) => w.severity)].includes(f.severity), `${x}: ${entry.name} ${f.verdict} ${f.severity}`)
      }
    }
  })
  test('hash unreproducible is info: nothing the controller does changes (issue 15)', () => {
    assert.equal(ENTRIES.find((e) => e.name === 'hash')!.severities.unreproducible.severity, 'info')
  })
})

describe('--checks and --skip-checks', () => {
  test("the registry's order whatever the order asked", () => {
    assert.deepEqual(parseChecks('replicas,gc'), ['gc', 'replicas'])
    assert.deepEqual(parseChecks(undefined, 'hash,evicted'), ['gc', 'deleting', 'node', 'replicas'])
    assert.deepEqual(parseChecks('gc,node', 'node'), ['gc'])
  })
  test('a mistyped check name gets cobra-style suggestions in the hint (within 2 edits, or a prefix)', () => {
    // "evicetd" → "evicted": e and t swapped, two substitutions; "rep" is a prefix of "replicas"; "hpa" is 3+ edits
    // from every check (gc: h→g, p→c, drop a = 3) and a prefix of none, so no suggestion.
    const hint = (typed: string) => {
      try {
        parseChecks(typed)
      } catch (e) {
        return (e as UserError).hint ?? ''
      }
      return 'no error'
    }
    assert.match(hint('evicetd'), /^did you mean "evicted"\? the checks are /)
    assert.match(hint('rep'), /^did you mean "replicas"\? /)
    assert.match(hint('hpa'), /^the checks are /)
  })
  test('unknown names and an empty result are usage errors', () => {
    assert.throws(
      () => parseChecks(undefined, 'hpa'),
      (e: Error) => e instanceof UserError && /--skip-checks: unknown check "hpa"/.test(e.message),
    )
    assert.throws(
      () => parseChecks('gc', 'gc'),
      (e: Error) => e instanceof UserError && /leaves no check/.test(e.message),
    )
  })
})
