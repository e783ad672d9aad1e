// Issue 13.8: one answer per cluster. On every node example and on a synthetic cluster with not-ready nodes, the node
// and evicted findings of `audit -A -o json` equal what `kubectl why node -o json` and `kubectl why evicted` say for
// the same subjects: same subjects, verdicts, severities, order. The evicted command is run as a process for every
// pod the audit reports (up to 6) and for a few pods on affected nodes it does not; for every other pod its code path
// (readPod, explainPod over the same driver) is run in-process. Run `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {openSource} from '../../src/cluster/open.js'
import type {KubeObject} from '../../src/cluster/source.js'
import {readNodeLifecycle} from '../../src/engine/nodelifecycle/drive.js'
import {explainPod, readPod} from '../../src/engine/tainteviction/drive.js'
import {runCli} from '../support/cli.js'
import {writeSnapshot} from '../support/synthetic/index.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))
const line = (e: Any) => `${e.subject.kind} ${e.subject.namespace ? `${e.subject.namespace}/` : ''}${e.subject.name} ${e.verdict} ${e.severity}`

async function json(args: string[]): Promise<Any> {
  const r = await runCli([...args, '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, `${args.join(' ')}: exit ${r.code}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

async function oneAnswer(file: string): Promise<void> {
  const audit = await json(['audit', '-A', '-f', file, '--checks', 'node,evicted'])
  const ofCheck = (c: string) => audit.findings.filter((f: Any) => f.controller === c)
  // Issue 16.4: every node and evicted finding says what to do next.
  for (const f of [...ofCheck('nodelifecycle'), ...ofCheck('tainteviction')]) assert.ok(f.next?.length > 0, `${line(f)}: no next step`)

  // node: the cluster view's node lines with a severity above none, in its order, are the audit's node findings.
  const cluster = await json(['node', '-f', file])
  const expected = cluster.nodes.filter((n: Any) => n.severity !== 'none').map((n: Any) => `Node ${n.name} ${n.verdict} ${n.severity}`)
  assert.deepEqual(ofCheck('nodelifecycle').map(line), expected)
  // ... and each of them is what `kubectl why node NAME` says.
  for (const f of ofCheck('nodelifecycle').slice(0, 3)) assert.equal(line(await json(['node', f.subject.name, '-f', file])), line(f))

  // evicted: every finding is what the command says for that pod, in the audit's order (the first 6 through the
  // CLI, the rest through its code path in-process, to bound the test's time).
  const findings = ofCheck('tainteviction')
  for (const f of findings.slice(0, 6)) assert.equal(line(await json(['evicted', `pod/${f.subject.name}`, '-n', f.subject.namespace, '-f', file])), line(f))
  const source = await openSource({snapshot: file})
  try {
    const world = await readNodeLifecycle(source, {overrides: {}})
    for (const f of findings.slice(6)) {
      const read = await readPod(source, f.subject.namespace, f.subject.name)
      assert.equal(line(explainPod(world, f.subject.namespace, f.subject.name, read.pod, read.events)), line(f))
    }
    // Every other pod: the command's own code path finds nothing to report either.
    const reported = new Set(findings.map((f: Any) => `${f.subject.namespace}/${f.subject.name}`))
    const pods = (await source.list({apiVersion: 'v1', kind: 'Pod'})).items as KubeObject[]
    let sampled = 0
    for (const p of pods) {
      const ns = p.metadata?.namespace ?? ''
      const name = p.metadata?.name ?? ''
      if (reported.has(`${ns}/${name}`)) continue
      const read = await readPod(source, ns, name)
      const e = explainPod(world, ns, name, read.pod, read.events)
      assert.equal(e.severity, 'none', `${ns}/${name}: the command says ${e.verdict} (${e.severity}), the audit reports nothing`)
      // A few of them through the CLI as well: the pods on nodes with a NoExecute taint present or owed.
      const node = world.analysis.nodes.find((n) => n.name === (p.spec as {nodeName?: string} | undefined)?.nodeName)
      if (node?.noExecute.expected && sampled < 3) {
        sampled++
        assert.equal((await json(['evicted', `pod/${name}`, '-n', ns, '-f', file])).severity, 'none')
      }
    }
  } finally {
    await source.close?.()
  }
}

describe("audit findings = the commands' answers", () => {
  for (const name of ['node-zone-outage.json', 'node-lease-cache-lag.json', 'node-small-zone-partial.json']) {
    test(`examples/${name}`, () => oneAnswer(example(name)))
  }

  let synthetic = ''
  before(async () => {
    synthetic = join(mkdtempSync(join(tmpdir(), 'why-one-answer-')), 'cluster.json')
    // 30 nodes over 3 zones, 6 not ready (some tainted, some not), pods with the usual tolerations.
    await writeSnapshot(synthetic, {seed: 13, nodes: 30, zones: 3, pods: 240, notReadyNodes: 6, notReadyTaints: 'mixed', notReadySeconds: [20, 900]})
  })
  test('a synthetic cluster (30 nodes, 6 not ready, 240 pods)', () => oneAnswer(synthetic))
})
