// `kubectl why replicas` end to end on the examples/replicas-* snapshots and the engine fixtures: each example
// gives what its .md line says (worked out by hand in the file's header), every JSON output validates against
// schemas/replicas.json, and bad input exits 2 with one line.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const validate = validatorFor('replicas')
const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/replicaset/${name}`, import.meta.url))

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

async function replicas(file: string, args: string[]): Promise<{code: number; json: Any}> {
  const r = await runCli(['replicas', ...args, '-f', file, '-o', 'json'])
  assert.notEqual(r.code, 2, r.stderr)
  const json = JSON.parse(r.stdout)
  assert.ok(validate(json), `${file} ${args.join(' ')}: ${JSON.stringify(validate.errors, null, 1)}`)
  return {code: r.code, json}
}

describe('examples, as their .md lines say', () => {
  test('replicas-quota: createsFailing, the quota error, batches [1, 1], 17 failed calls', async () => {
    const {code, json} = await replicas(example('replicas-quota.yaml'), ['rs/cart-7c9d8f6b5', '-n', 'shop'])
    assert.equal(json.verdict, 'createsFailing')
    assert.equal(json.severity, 'critical')
    assert.equal(code, 1)
    assert.match(json.replicaSet.createFailures.error, /exceeded quota: shop-quota/)
    assert.deepEqual(json.replicaSet.manage.batches, [1, 1])
    assert.equal(json.replicaSet.createFailures.failedCalls, 17)
    assert.equal(json.replicaSet.createFailures.firstAt, '2026-11-29T09:20:05Z')
    // The next step names the quota the error names (issue 16.4), and the field to raise.
    assert.equal(json.next[0].command, 'kubectl describe resourcequota shop-quota -n shop')
    assert.equal(json.next[1].change, 'ResourceQuota shop/shop-quota: spec.hard')
    assert.match(readFileSync(example('replicas-quota.md'), 'utf8'), /createsFailing/)
  })

  test('replicas-deletion-cost: willDelete e5, c3, b2; keeps d4, a1', async () => {
    const {code, json} = await replicas(example('replicas-deletion-cost.yaml'), ['rs/checkout-6b7f9d5c4d', '-n', 'shop'])
    assert.equal(json.verdict, 'willDelete')
    assert.equal(code, 0)
    const order = json.replicaSet.manage.deleteOrder.map((d: Any) => `${d.name.slice(-2)}:${d.chosen ? 'delete' : 'keep'}`)
    assert.deepEqual(order, ['e5:delete', 'c3:delete', 'b2:delete', 'd4:keep', 'a1:keep'])
    assert.match(readFileSync(example('replicas-deletion-cost.md'), 'utf8'), /willDelete/)
  })

  test('replicas-unobserved-deletes: waitingForExpectations, eeee5 unobserved, window 09:59:15 → 10:04:15', async () => {
    const {code, json} = await replicas(example('replicas-unobserved-deletes.yaml'), ['rs/api-5f6d7c8b9', '-n', 'shop'])
    assert.equal(json.verdict, 'waitingForExpectations')
    assert.equal(code, 1)
    const x = json.replicaSet.expectations
    assert.deepEqual(
      x.unobserved.map((u: Any) => u.pod),
      ['api-5f6d7c8b9-eeee5'],
    )
    assert.equal(x.setAt, '2026-11-29T09:59:15Z')
    assert.equal(x.expiresAt, '2026-11-29T10:04:15Z')
    assert.equal(json.replicaSet.manage.action, 'none')
    assert.match(json.summary, /status is still updated while it waits/)
    assert.match(readFileSync(example('replicas-unobserved-deletes.md'), 'utf8'), /waitingForExpectations/)
  })

  test('replicas-adoption: adoptionPending, 3 pods, then nothing to create; deployment/web gives an array', async () => {
    const one = await replicas(example('replicas-adoption.yaml'), ['rs/web-7d4b9c6f5', '-n', 'shop'])
    assert.equal(one.json.verdict, 'adoptionPending')
    assert.equal(one.json.replicaSet.claims.adopt.length, 3)
    assert.equal(one.json.replicaSet.manage.action, 'none')
    const dep = await replicas(example('replicas-adoption.yaml'), ['deployment/web', '-n', 'shop'])
    assert.ok(Array.isArray(dep.json))
    assert.deepEqual(
      dep.json.map((e: Any) => e.verdict),
      ['adoptionPending'],
    )
    assert.match(readFileSync(example('replicas-adoption.md'), 'utf8'), /adoptionPending/)
  })
})

describe('the other verdicts through the CLI', () => {
  const cases: [string, string, string, number][] = [
    ['being-deleted.yaml', 'batch-8f7e6d5c4', 'beingDeleted', 0],
    ['will-create.yaml', 'auth-6c5b4a3f2', 'willCreate', 0],
    ['created-then-deleted.yaml', 'search-4b3a2c1d0', 'waitingForExpectations', 1],
  ]
  for (const [file, rs, verdict, code] of cases) {
    test(`${file}: ${verdict}`, async () => {
      const r = await replicas(fixture(file), [`replicaset/${rs}`, '-n', 'shop'])
      assert.equal(r.json.verdict, verdict)
      assert.equal(r.code, code)
    })
  }
  test('a real dump without a capture time: converged under --now and --k8s-version', async () => {
    const r = await replicas(fixture('realworld-coredns-pending.yaml'), [
      'rs/coredns-5dd5756b68',
      '-n',
      'kube-system',
      '--now',
      '2024-10-25T18:00:00Z',
      '--k8s-version',
      '1.28',
    ])
    assert.equal(r.json.verdict, 'converged')
    assert.equal(r.json.source.k8sVersion, '1.28')
  })
})

describe('--all', () => {
  test('lists what is not converged, worst first, and validates', async () => {
    const r = await replicas(example('replicas-unobserved-deletes.yaml'), ['--all', '-A'])
    assert.equal(r.json.kind, 'ReplicasReport')
    assert.deepEqual(r.json.counts, {waitingForExpectations: 1})
    assert.equal(r.json.findings[0].subject.name, 'api-5f6d7c8b9')
  })
})

describe('table output', () => {
  test('the deletion order as a table and the expectations as a timeline', async () => {
    const r = await runCli(['replicas', 'rs/checkout-6b7f9d5c4d', '-n', 'shop', '-f', example('replicas-deletion-cost.yaml')])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /Deletion order/)
    assert.match(r.stdout, /checkout-6b7f9d5c4d-e5 .*Pending.*delete/)
    assert.match(r.stdout, /Expectations \(fulfilled/)
  })
})

describe('bad input: one line, exit 2', () => {
  const cases: [string[], RegExp][] = [
    // kubectl's spellings of the two kinds are taken (src/cluster/target.ts); another kind is refused by name.
    [['pod/x'], /kubectl why replicas is about a ReplicaSet or a Deployment, not "pod"/],
    [['rs/nope', '-n', 'shop'], /replicasets.apps "nope" not found in namespace shop/],
    [[], /which ReplicaSet\?/],
    [['rs/x', '--all'], /not both/],
    [['rs/x', '-A'], /across all namespaces/],
  ]
  for (const [args, message] of cases) {
    test(args.join(' ') || '(no target)', async () => {
      const r = await runCli(['replicas', ...args, '-f', example('replicas-quota.yaml')])
      assert.equal(r.code, 2)
      assert.match(r.stderr, message)
      assert.equal(r.stderr.trim().split('\n').length, 1)
    })
  }
})

describe('replicas --all in a pipe (issue 28.3)', () => {
  test('no next step is cut with "…": each command stands whole on its own line, its why as comments under it', async () => {
    // examples/replicas-quota.yaml: the quota exhausted, so the engine's next steps are `kubectl describe resourcequota
    // shop-quota -n shop` and a change to ResourceQuota shop/shop-quota, whose object opens with `kubectl edit`. Before,
    // the table's NEXT column joined them and cut the line at 70 characters ("…").
    const r = await runCli(['replicas', '--all', '-A', '-f', example('replicas-quota.yaml')])
    assert.equal(r.code, 1)
    assert.equal(r.stdout.includes('…'), false)
    const lines = r.stdout.split('\n')
    assert.ok(lines.includes('  kubectl describe resourcequota shop-quota -n shop'), r.stdout)
    assert.ok(lines.includes('  kubectl edit resourcequota shop-quota -n shop'), r.stdout)
    const i = lines.indexOf('  kubectl describe resourcequota shop-quota -n shop')
    assert.match(lines[i + 1], /^ {4}# /)
  })
})
