// Issue 27.3 for `kubectl why node`: a Node and its Lease with no version anywhere
// (test/fixtures/nodelifecycle/no-version-45s.yaml). Worked by hand: the last sign of life is 10:00:00 (heartbeat
// and lease renewTime); evaluated at 10:00:45 it is 45 s old. kube-controller-manager's default
// --node-monitor-grace-period is 40 s before 1.32 and 50 s from 1.32 (PR #126287), so the grace expires at 10:00:40
// under 1.20–1.31 (past: the controller marks the node Unknown and wants unreachable:NoExecute) and at 10:00:50 under
// 1.32–1.37 (5 s ahead: within grace). The answers differ, so the node says so first, gives both with their releases,
// and carries no severity the data cannot: not the 1.20–1.31 finding, but info. With --k8s-version each is the one
// answer; a kubelet v1.33 in the data bounds the release to 1.33–1.36 (skew: up to three minors older), all 50 s: the
// version did not matter.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

const FIXTURE = fileURLToPath(new URL('../fixtures/nodelifecycle/no-version-45s.yaml', import.meta.url))
const NOW = ['--now', '2026-11-29T10:00:45Z']
const validate = validatorFor('node')
const range = (from: number, to: number) => Array.from({length: to - from + 1}, (_, i) => `1.${from + i}`)

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, read field by field
type Any = any

async function json(args: string[]): Promise<Any> {
  const r = await runCli([...args, ...NOW, '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  const e = JSON.parse(r.stdout)
  assert.ok(validate(e), JSON.stringify(validate.errors))
  return e
}

describe('kubectl why node with no version in the data', () => {
  test("node worker-3: both answers with their releases, first; info, not the older releases' finding", async () => {
    const e = await json(['node', 'worker-3', '-f', FIXTURE])
    assert.match(e.summary, /^The Kubernetes version is not known \(no --k8s-version, no server version recorded/)
    const [old, recent] = e.byRelease.answers
    assert.equal(e.byRelease.answers.length, 2)
    assert.deepEqual(old.versions, range(20, 31))
    assert.equal(old.settings['node-monitor-grace-period'], '40s')
    assert.equal(old.graceExpiresAt, '2026-11-29T10:00:40Z')
    assert.equal(old.noExecute.expected, 'node.kubernetes.io/unreachable:NoExecute')
    assert.deepEqual(recent.versions, range(32, 37))
    assert.equal(recent.settings['node-monitor-grace-period'], '50s')
    assert.equal(recent.graceExpiresAt, '2026-11-29T10:00:50Z')
    assert.equal(recent.verdict, 'withinGrace')
    assert.notEqual(old.severity, 'none')
    assert.equal(e.severity, 'info')
    assert.match(e.byRelease.settle.join('\n'), /--k8s-version/)
  })

  test('node (the cluster): says it first and names the node whose answer depends on it', async () => {
    const e = await json(['node', '-f', FIXTURE])
    assert.match(e.summary, /^The Kubernetes version is not known .*answer depends on it for 1 node \(worker-3\)/)
    assert.deepEqual(Object.keys(e.byRelease.nodes), ['worker-3'])
    assert.equal(e.nodes[0].severity, 'info')
  })

  test('--k8s-version settles it: 1.31 expired at 10:00:40, 1.32 within grace until 10:00:50', async () => {
    const v131 = await json(['node', 'worker-3', '-f', FIXTURE, '--k8s-version', '1.31'])
    assert.equal(v131.byRelease, undefined)
    assert.doesNotMatch(v131.summary, /version is not known/)
    assert.notEqual(v131.verdict, 'withinGrace')
    const v132 = await json(['node', 'worker-3', '-f', FIXTURE, '--k8s-version', '1.32'])
    assert.equal(v132.byRelease, undefined)
    assert.equal(v132.verdict, 'withinGrace')
  })

  test('a kubelet v1.33.2 bounds it to 1.33–1.36, where the grace is 50 s alike: one answer, the version did not matter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-no-version-'))
    const file = join(dir, 'kubelet-1.33.yaml')
    writeFileSync(
      file,
      readFileSync(FIXTURE, 'utf8').replace(
        "      lastTransitionTime: '2026-11-01T08:01:00Z'\n",
        "      lastTransitionTime: '2026-11-01T08:01:00Z'\n    nodeInfo: {kubeletVersion: v1.33.2}\n",
      ),
    )
    const e = await json(['node', 'worker-3', '-f', file])
    assert.equal(e.byRelease, undefined)
    assert.equal(e.verdict, 'withinGrace')
    const step = e.steps.find((s: Any) => s.rule === 'versionDefaults')
    assert.match(step.why, /every release it leaves possible \(1\.33–1\.36\) gives this node the same answer: the version did not matter/)
    const c = await json(['node', '-f', file])
    assert.match(c.summary, /the version did not matter/)
  })
})
