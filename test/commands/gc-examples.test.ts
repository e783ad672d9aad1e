// The examples/gc-* snapshots, offline: each gives the verdicts its readme line states (worked out by hand from
// gc.md), and every JSON output validates against schemas/gc.json.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {GC_VERDICTS} from '../../src/engine/garbagecollector/model.js'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const validate = validatorFor('gc')
const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
async function gc(file: string, args: string[]): Promise<{code: number; json: any}> {
  const r = await runCli(['gc', ...args, '-f', example(file), '-o', 'json'])
  assert.notEqual(r.code, 2, r.stderr)
  const json = JSON.parse(r.stdout)
  assert.ok(validate(json), `${file} ${args.join(' ')}: ${JSON.stringify(validate.errors, null, 1)}`)
  return {code: r.code, json}
}

// [file, args, verdict, policy?, exit code]
const CASES: [string, string[], string, string | undefined, number][] = [
  ['gc-recreated-deployment.json', ['rs/web-5d8f7b9c4', '-n', 'shop'], 'delete', 'Background', 1],
  ['gc-recreated-deployment.json', ['rs/web-7c9d6f5b8', '-n', 'shop'], 'keep', undefined, 0],
  ['gc-recreated-deployment.json', ['configmap/web-settings', '-n', 'shop'], 'noOwners', undefined, 0],
  ['gc-stuck-namespace.json', ['deployment/api', '-n', 'team-a'], 'waitForBlockingDependents', undefined, 1],
  ['gc-stuck-namespace.json', ['rs/api-6f7d8c9b5', '-n', 'team-a'], 'waitBeingDeleted', undefined, 0],
  ['gc-mixed-owners.json', ['configmap/storefront-config', '-n', 'shop'], 'patchRemoveOwnerRefs', undefined, 0],
  ['gc-foreground-cycle.json', ['pod/pod1', '-n', 'gc-cycle'], 'waitForBlockingDependents', undefined, 1],
  ['gc-foreground-cycle.json', ['pod/pod2', '-n', 'gc-cycle'], 'delete', 'Foreground', 1],
  ['gc-orphan.json', ['rc/frontend', '-n', 'legacy'], 'orphanDependentsThenRemoveFinalizer', undefined, 0],
  ['gc-unserved-apiversion.json', ['rs/report-7f9c', '-n', 'batch'], 'stuckRestMapping', undefined, 1],
  ['gc-cluster-scoped-child.json', ['clusterrole/tenant-a-reader'], 'stuckNamespacedOwnerOfClusterScopedObject', undefined, 1],
  ['gc-foreground-finished.json', ['job/build-42', '-n', 'ci'], 'removeFinalizer', undefined, 1],
  ['gc-foreground-finished.json', ['event/build-42.17f2a', '-n', 'ci'], 'notMonitored', undefined, 0],
  ['gc-forbidden-owner.json', ['job/nightly-29123', '-n', 'ops'], 'unknown', undefined, 1],
  ['gc-forbidden-owner.json', ['pod/nightly-29123-7xk2p', '-n', 'ops'], 'keep', undefined, 0],
]

describe('examples: one verdict each, as their readme says', () => {
  for (const [file, args, verdict, policy, code] of CASES) {
    test(`${file}: gc ${args.join(' ')} → ${verdict}${policy ? ` ${policy}` : ''}`, async () => {
      const r = await gc(file, args)
      assert.equal(r.json.verdict, verdict)
      assert.equal(r.json.propagationPolicy, policy)
      assert.equal(r.code, code)
      // Every verdict that asks something of a person says what (issue 16 item 4); keep and noOwners ask nothing, nor
      // does an Event the collector never watches.
      if (['keep', 'noOwners', 'notMonitored'].includes(verdict)) assert.equal(r.json.next, undefined)
      else {
        assert.ok(r.json.next?.length > 0, `${verdict} has a next step`)
        for (const n of r.json.next) assert.ok((n.command || n.change) && n.why)
      }
      const readme = JSON.parse(readFileSync(example(file), 'utf8')).kubectlWhy.readme as string
      assert.ok(readme.includes(verdict), `the readme of ${file} names ${verdict}`)
    })
  }
  test('every verdict has an example', () => {
    const covered = new Set(CASES.map((c) => c[2]))
    for (const v of GC_VERDICTS) assert.ok(covered.has(v), v)
  })
})

describe('reports and trees validate against the schema', () => {
  test('--all -A on an example', async () => {
    const {json} = await gc('gc-recreated-deployment.json', ['--all', '-A'])
    assert.equal(json.kind, 'GcReport')
    assert.deepEqual(
      json.findings.map((f: {subject: {name: string}}) => f.subject.name),
      ['web-5d8f7b9c4'],
    )
  })
  test('--tree', async () => {
    const {json} = await gc('gc-stuck-namespace.json', ['deployment/api', '-n', 'team-a', '--tree'])
    assert.equal(json.tree.object.children[0].subject.name, 'api-6f7d8c9b5')
    assert.equal(json.tree.object.children[0].edge.blockOwnerDeletion, true)
  })
  test('the schema rejects an unannounced field', () => {
    assert.equal(
      validate({
        subject: {kind: 'Pod', name: 'x'},
        controller: 'garbagecollector',
        verdict: 'keep',
        severity: 'none',
        summary: '',
        steps: [],
        evaluatedAt: '2026-11-29T03:00:00Z',
        source: {mode: 'live'},
        ownerReferences: [],
        collectorRequests: [],
        surprise: 1,
      }),
      false,
    )
  })
})
