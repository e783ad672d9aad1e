// `kubectl why hash TYPE/NAME | --all` end to end through the built CLI on the examples (snapshot mode): each example's
// hand-worked conclusion (examples/hash-*.md), exit codes against --fail-on, the table view, usage errors, and
// `--all -A` over every example: no unreproducible verdict except where an example is built to show one.
import assert from 'node:assert/strict'
import {readdirSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))

async function json(args: string[]): Promise<{code: number; out: Any; stderr: string}> {
  const r = await runCli(['hash', ...args, '-o', 'json'])
  let out: Any
  try {
    out = JSON.parse(r.stdout)
  } catch {
    assert.fail(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`)
  }
  return {code: r.code, out, stderr: r.stderr}
}

describe('kubectl why hash TYPE/NAME on the examples', () => {
  test('hash-up-to-date: upToDate, exit 0', async () => {
    const r = await json(['deployment/web', '-n', 'shop', '-f', `${EXAMPLES}hash-up-to-date.json`])
    assert.equal(r.code, 0)
    assert.equal(r.out.verdict, 'upToDate')
    assert.equal(r.out.deployment.newReplicaSet, 'web-d556bf558')
    assert.equal(r.out.source.k8sVersion, '1.31')
    assert.match(r.out.source.settings.k8sVersion.from, /^server v1\.31\.2/)
  })

  test('hash-rollout-pending: creates web-d556bf558 as revision 2', async () => {
    const r = await json(['deploy/web', '-n', 'shop', '-f', `${EXAMPLES}hash-rollout-pending.json`])
    assert.equal(r.code, 0)
    assert.equal(r.out.verdict, 'rolloutPending')
    assert.equal(r.out.deployment.create.creates, 'web-d556bf558')
    assert.equal(r.out.deployment.nextRevision, '2')
  })

  test('hash-collision: collision, exit 1; with --fail-on critical exit 0', async () => {
    const r = await json(['deployments/web', '-n', 'shop', '-f', `${EXAMPLES}hash-collision.json`])
    assert.equal(r.code, 1)
    assert.equal(r.out.verdict, 'collision')
    assert.equal(r.out.deployment.create.creates, 'web-6d68758fc5')
    const lenient = await runCli(['hash', 'deployment/web', '-n', 'shop', '-f', `${EXAMPLES}hash-collision.json`, '--fail-on', 'critical'])
    assert.equal(lenient.code, 0)
  })

  test('hash-drift-after-upgrade: both workloads hashDrift; as a 1.28 cluster, both upToDate', async () => {
    const r = await json(['--all', '-n', 'shop', '-f', `${EXAMPLES}hash-drift-after-upgrade.json`])
    assert.equal(r.code, 0)
    assert.deepEqual(r.out.results.map((e: Any) => [e.subject.kind, e.verdict]).sort(), [
      ['DaemonSet', 'hashDrift'],
      ['Deployment', 'hashDrift'],
    ])
    assert.deepEqual(r.out.labels, {checked: 2, matches: 0, otherLayout: 2, unreproducible: 0, noLabel: 0})
    const as128 = await json(['--all', '-n', 'shop', '-f', `${EXAMPLES}hash-drift-after-upgrade.json`, '--k8s-version', '1.28'])
    assert.deepEqual(
      as128.out.results.map((e: Any) => e.verdict),
      ['upToDate', 'upToDate'],
    )
  })

  // Info, exit 0 since issue 15 (was warning, exit 1): the label changes nothing the controller does.
  test('hash-unreproducible: unreproducible, info, exit 0 (exit 1 with --fail-on info)', async () => {
    const r = await json(['deployment/web', '-n', 'shop', '-f', `${EXAMPLES}hash-unreproducible.json`])
    assert.equal(r.code, 0)
    assert.equal(r.out.severity, 'info')
    assert.equal((await json(['deployment/web', '-n', 'shop', '-f', `${EXAMPLES}hash-unreproducible.json`, '--fail-on', 'info'])).code, 1)
    assert.equal(r.out.verdict, 'unreproducible')
    assert.equal(r.out.deployment.replicaSets[0].label.reason, 'unknown')
  })

  test('hash-statefulset-rollout: pods on two revisions', async () => {
    const r = await json(['sts/web', '-n', 'shop', '-f', `${EXAMPLES}hash-statefulset-rollout.json`])
    assert.equal(r.out.verdict, 'upToDate')
    assert.equal(r.out.statefulSet.updateRevision, 'web-8668c76b8d')
    assert.equal(r.out.statefulSet.currentRevision, 'web-6474c55d7f')
  })

  test('hash-statefulset-1.34-upgrade: hashDrift on 1.34.2; with --k8s-version 1.34 (no patch) the gate is unknown and said so', async () => {
    const r = await json(['statefulset/test', '-n', 'test', '-f', `${EXAMPLES}hash-statefulset-1.34-upgrade.json`])
    assert.equal(r.out.verdict, 'hashDrift')
    assert.equal(r.out.statefulSet.gate.enabled, true)
    const unknownPatch = await json(['statefulset/test', '-n', 'test', '-f', `${EXAMPLES}hash-statefulset-1.34-upgrade.json`, '--k8s-version', '1.34'])
    assert.equal(unknownPatch.out.statefulSet.gate.enabled, null)
    assert.match(unknownPatch.out.statefulSet.gate.why, /1\.34\.2 and later/)
  })

  test('hash-daemonset-collision-count: upToDate, the count explained', async () => {
    const r = await json(['ds/agent', '-n', 'shop', '-f', `${EXAMPLES}hash-daemonset-collision-count.json`])
    assert.equal(r.out.verdict, 'upToDate')
    assert.deepEqual(r.out.daemonSet.collisionCountHistory.evidence, [{holder: 'agent-d556bf558', from: null}])
  })

  test('the table view: verdict line, summary, the ReplicaSet table', async () => {
    const r = await runCli(['hash', 'deployment/web', '-n', 'shop', '-f', `${EXAMPLES}hash-collision.json`])
    assert.match(r.stdout, /^Deployment\/shop\/web {2}collision \(warning\)/)
    assert.match(r.stdout, /web-d556bf558 \(collisionCount unset, taken\) → web-6d68758fc5 \(collisionCount 1\)/)
    assert.match(r.stdout, /REPRODUCED BY/)
  })
})

describe('--all -A on every example', () => {
  test('no unreproducible verdict, and no unexplained label, except in hash-unreproducible', async () => {
    const files = readdirSync(EXAMPLES).filter((f) => /\.(json|ya?ml)$/.test(f))
    assert.ok(files.length >= 8)
    for (const f of files) {
      const r = await json(['--all', '-A', '-f', EXAMPLES + f, '--fail-on', 'none'])
      assert.equal(r.code, 0, `${f}: ${r.stderr}`)
      const bad = r.out.results.filter((e: Any) => e.verdict === 'unreproducible').map((e: Any) => e.subject.name)
      const unexplained = (r.out.unowned ?? []).filter((u: Any) => u.label.result === 'unreproducible' && !u.label.explained).map((u: Any) => u.name)
      if (f === 'hash-unreproducible.json') assert.deepEqual(bad, ['web'], f)
      else assert.deepEqual([...bad, ...unexplained], [], f)
    }
  })
})

describe('usage errors (exit 2, one line)', () => {
  const cases: [string, string[], RegExp][] = [
    ['no target', ['hash', '-f', `${EXAMPLES}hash-up-to-date.json`], /which workload\?/],
    ['target and --all', ['hash', 'deployment/web', '--all', '-f', `${EXAMPLES}hash-up-to-date.json`], /either TYPE\/NAME or --all/],
    ['a ReplicaSet', ['hash', 'rs/web-d556bf558', '-f', `${EXAMPLES}hash-up-to-date.json`], /not ReplicaSet/],
    ['a name with -A', ['hash', 'deployment/web', '-A', '-f', `${EXAMPLES}hash-up-to-date.json`], /across all namespaces/],
    [
      '--collision-count without --template',
      ['hash', 'deployment/web', '-n', 'shop', '--collision-count', '2', '-f', `${EXAMPLES}hash-up-to-date.json`],
      /--collision-count applies to --template only/,
    ],
    ['not found', ['hash', 'deployment/nope', '-n', 'shop', '-f', `${EXAMPLES}hash-up-to-date.json`], /deployments\.apps "nope" not found in namespace shop/],
    ['an incomplete object', ['hash', 'deployment/web', '-n', 'shop', '-f', `${EXAMPLES}replicas-adoption.yaml`], /has no spec\.template/],
    [
      '--k8s-version older than every layout',
      ['hash', 'deployment/web', '-n', 'shop', '--k8s-version', '1.14', '-f', `${EXAMPLES}hash-up-to-date.json`],
      /older than the oldest struct layout/,
    ],
  ]
  for (const [name, args, message] of cases) {
    test(name, async () => {
      const r = await runCli(args)
      assert.equal(r.code, 2, r.stdout)
      assert.match(r.stderr, message)
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    })
  }
})
