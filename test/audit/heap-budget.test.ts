// Fail early and clearly (issue 29): when the objects read cannot fit the heap, the audit stops with one line as the
// count passes what the heap holds — a snapshot as it is read, a live list page by page — never V8's dump minutes in.
// Figures worked by hand from heap-budget.ts's constants (20 MiB fixed, 1,200 bytes per object read live, 1,600 per
// object a snapshot holds, 48 MiB young space).
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, test} from 'node:test'
import {getHeapStatistics} from 'node:v8'
import {gather} from '../../src/audit/gather.js'
import {auditPlan} from '../../src/audit/run.js'
import {BUILTIN_KINDS} from '../../src/cluster/builtin-kinds.js'
import {HEAP_PER_SNAPSHOT_OBJECT, HeapBudget, HeapBudgetError, objectsThatFit, processHeapLimit} from '../../src/cluster/heap-budget.js'
import type {ClusterSource, KubeObject, ListRequest} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'
import {SyntheticCluster, writeSnapshot} from '../support/synthetic/index.js'

const MiB = 2 ** 20

test('objectsThatFit: (old space − 20 MiB) / 1,200 bytes (1,600 for a snapshot), the old space being the heap limit less 48 MiB of young space', () => {
  // --max-old-space-size=48 gives a heap_size_limit of 96 MiB: (48 − 20) MiB = 29,360,128 bytes / 1,200 = 24,466.8.
  assert.equal(objectsThatFit(96 * MiB), 24_466)
  // A snapshot's objects: 29,360,128 / 1,600 = 18,350.1.
  assert.equal(objectsThatFit(96 * MiB, HEAP_PER_SNAPSHOT_OBJECT), 18_350)
  // 1 GiB of old space (bin/heap.js gives 819 MiB in a 1 GiB cgroup; 1,024 here): (1,024 − 20) MiB = 1,052,770,304 bytes / 1,200 = 877,308.6.
  assert.equal(objectsThatFit(1072 * MiB), 877_308)
  // A heap smaller than the fixed part holds nothing.
  assert.equal(objectsThatFit(60 * MiB), 0)
})

test('processHeapLimit: the old space bin/heap.js gave (KUBECTL_WHY_HEAP_SIZED) and the young generation, else V8 limit', () => {
  // 819 MiB (a 1 GiB cgroup): 819 + 48 = 867 MiB, so that oldSpace gives back 819 (V8 itself said 831 there).
  assert.equal(processHeapLimit({KUBECTL_WHY_HEAP_SIZED: '819'}), 867 * MiB)
  assert.equal(processHeapLimit({}), getHeapStatistics().heap_size_limit)
  assert.equal(processHeapLimit({KUBECTL_WHY_HEAP_SIZED: 'x'}), getHeapStatistics().heap_size_limit)
})

test('HeapBudget: quiet while the count fits, one UserError (exit 2) naming the count, the need and the heap once it does not', () => {
  const budget = new HeapBudget(96 * MiB, 'reading x.json')
  budget.check(24_000)
  assert.throws(
    () => budget.check(26_000),
    (err: Error) => {
      assert.ok(err instanceof HeapBudgetError)
      // 20 MiB + 26,000 × 1,200 bytes = 20,971,520 + 31,200,000 = 52,171,520 bytes ≈ 49.8 MiB; old space 48 MiB.
      assert.match(
        err.message,
        /^the data will not fit in memory: 26,000 objects read so far \(reading x\.json\) need about 50 MiB of heap \(an estimate: 20 MiB and about 1,200 bytes per object, .* this process has 48 MiB$/,
      )
      return true
    },
  )
})

/**
 * A source of `n` pods, in pages (a quorum list) or in one piece (the watch cache); `remaining`: each page says how
 * many follow it, as an API server's remainingItemCount does, and how many pages were handed out is counted.
 */
function podSource(n: number, remaining = false): ClusterSource & {pagesRead: number; podLists: number} {
  const pods = (): KubeObject[] =>
    Array.from({length: n}, (_, i) => ({apiVersion: 'v1', kind: 'Pod', metadata: {name: `p-${i}`, namespace: 'shop', uid: `u-${i}`}}))
  const empty = (r: ListRequest) => r.kind !== 'Pod'
  const source = {
    pagesRead: 0,
    podLists: 0,
    discovery: async () => BUILTIN_KINDS,
    list: async (r: ListRequest) => {
      if (!empty(r)) source.podLists++
      return {items: empty(r) ? [] : pods()}
    },
    async *pages(r: ListRequest) {
      if (empty(r)) return
      const all = pods()
      for (let i = 0; i < all.length; i += 500) {
        // This page and those after it, as the live source counts them (its remainingItemCount and the page).
        if (remaining) r.onRemaining?.(all.length - i)
        source.pagesRead++
        yield all.slice(i, i + 500)
      }
    },
  }
  return source as unknown as ClusterSource & {pagesRead: number; podLists: number}
}

test('gather: a live read stops at the page where the count passes the heap, with the list named; under it, it reads all', async () => {
  const plan = auditPlan(['replicas'], BUILTIN_KINDS, undefined)
  // Room for 1,000 objects: 48 MiB young + 20 MiB fixed + 1,000 × 1,200 bytes.
  const limit = 48 * MiB + 20 * MiB + 1000 * 1200
  await assert.rejects(gather(podSource(3000), plan, undefined, {}, new HeapBudget(limit)), (err: Error) => {
    assert.ok(err instanceof HeapBudgetError)
    assert.match(err.message, /objects read so far \(listing v1 Pod in all namespaces\)/)
    return true
  })
  const read = await gather(podSource(900), plan, undefined, {}, new HeapBudget(limit))
  assert.equal(read.objects, 900)
})

test("gather: a paged list's own count (remainingItemCount, each page) is spent as its pages are read, never counted twice", async () => {
  // Room for 1,000 objects; 900 pods, 500 a page, each page saying it and those after it hold 900, then 400: counted
  // before reading (900), then read (500 read + 400 to come, then 900 + 0): never more than 900, read whole. The
  // evicted check's pods are a quorum list, paged (the replicas check's come from the watch cache, in one piece).
  const plan = auditPlan(['evicted'], BUILTIN_KINDS, undefined)
  const limit = 48 * MiB + 20 * MiB + 1000 * 1200
  assert.equal((await gather(podSource(900, true), plan, undefined, {}, new HeapBudget(limit))).objects, 900)
  // 1,100 would not fit: refused before a page is read.
  await assert.rejects(gather(podSource(1100, true), plan, undefined, {}, new HeapBudget(limit)), /0 objects read and 1,100 more to read/)
})

test('gather: a watch-cache list is counted before anything is read, by a quorum page of one (its remainingItemCount)', async () => {
  // The replicas check's pods come from the watch cache, in one piece: nothing says how many before they are all read,
  // but for the page of one object's metadata the audit asks for first. 3,000 pods > room for 1,000.
  const plan = auditPlan(['replicas'], BUILTIN_KINDS, undefined)
  const limit = 48 * MiB + 20 * MiB + 1000 * 1200
  const source = podSource(3000, true)
  // 20 MiB + 3,000 × 1,200 bytes = 20,971,520 + 3,600,000 = 24,571,520 bytes ≈ 23 MiB.
  await assert.rejects(
    gather(source, plan, undefined, {}, new HeapBudget(limit)),
    /^HeapBudgetError: the data will not fit in memory: 0 objects read and 3,000 more to read \(as the API server counts them: remainingItemCount\) \(counted before reading: a page of one object of each of \d+ lists\) need about 23 MiB/,
  )
  assert.equal(source.podLists, 0, 'the watch-cache list is not read')
  // Room enough: counted, then read, once.
  const fits = podSource(900, true)
  assert.equal((await gather(fits, plan, undefined, {}, new HeapBudget(limit))).objects, 900)
  assert.equal(fits.podLists, 1)
})

test('gather: objects kept compressed weigh as much as whole ones (a check takes back its fields of all of them)', async () => {
  const plan = auditPlan(['replicas'], BUILTIN_KINDS, undefined)
  const limit = 48 * MiB + 20 * MiB + 1000 * 1200
  // Compressed from the first object, room for 1,000 still: 900 fit; 3,000 do not (they did when a compressed object
  // was taken to weigh 500 of 1,700 bytes, and a 10,000-node audit in 1 GiB then died with V8's dump).
  const read = await gather(podSource(900), plan, undefined, {}, new HeapBudget(limit), {at: 0})
  assert.equal(read.objects, 900)
  assert.equal(read.spilled, true)
  await assert.rejects(gather(podSource(3000), plan, undefined, {}, new HeapBudget(limit), {at: 0}), HeapBudgetError)
})

const dir = mkdtempSync(join(tmpdir(), 'heap-budget-'))
after(() => rmSync(dir, {recursive: true, force: true}))

/** A refusal as the user sees it: exit 2, no report, one line matching `line`, no stack and no V8 dump. */
function refusedInOneLine(r: {code: number; stdout: string; stderr: string}, line: RegExp): void {
  assert.equal(r.code, 2, r.stderr.slice(0, 400))
  assert.equal(r.stdout, '')
  const lines = r.stderr.trimEnd().split('\n')
  assert.equal(lines.length, 1, r.stderr.slice(0, 400))
  assert.match(lines[0], line)
  assert.doesNotMatch(r.stderr, /\n\s+at |<--- Last few GCs|FATAL ERROR|not JSON/)
}

test('audit -f on a generated 300-node cluster with a 40 MiB heap: exit 2, one line, no stack (it died with exit 134 before)', async () => {
  const file = join(dir, 'c300.json')
  // 17,564 objects at 1,600 bytes (a snapshot holds them): (40 − 20) MiB = 20,971,520 bytes hold 13,107; the count is
  // compared every 1,024, so 12,288 pass and 13,312 are refused: 20 MiB + 13,312 × 1,600 = 42,270,720 bytes ≈ 40 MiB.
  await writeSnapshot(file, {seed: 11, nodes: 300, notReadyNodes: 3, danglingOwners: 6, stuckForeground: 1})
  const r = await runCli(['audit', '-A', '-f', file, '-o', 'json'], {env: {NODE_OPTIONS: '--max-old-space-size=40'}})
  refusedInOneLine(
    r,
    /^error: the data will not fit in memory: 13,312 objects read so far \(reading .*c300\.json\) need about 40 MiB of heap \(an estimate: 20 MiB and about 1,600 bytes per object/,
  )
})

test('audit live on a generated 400-node cluster with a 40 MiB heap: exit 2, one line naming the list (it ended partial, exit 1, before)', async () => {
  // 23,414 objects at 1,200 bytes: (40 − 20) MiB = 20,971,520 bytes hold 17,476. The count used to be checked only
  // inside the reader's projection (the pods come from the watch cache in one piece), where the refusal was taken for
  // a body that is not JSON: the pod list failed and the audit went on without it.
  const options = {seed: 11, nodes: 400, notReadyNodes: 4, danglingOwners: 8, stuckForeground: 1}
  const cluster = new SyntheticCluster(options)
  const server = await FakeApiServer.start({objects: cluster.objects(), version: cluster.plan.o.kubernetesVersion})
  try {
    const kubeconfig = server.writeKubeconfig(mkdtempSync(join(dir, 'live-')))
    const r = await runCli(['audit', '-A', '--kubeconfig', kubeconfig, '--now', cluster.plan.o.now, '-o', 'json'], {
      env: {NODE_OPTIONS: '--max-old-space-size=40'},
    })
    // Before anything is read: the largest lists and the watch cache's, each counted by a page of one (their
    // remainingItemCount, which the fake server gives, as the real one does, on a paged list without selectors).
    refusedInOneLine(
      r,
      /^error: the data will not fit in memory: 0 objects read and [\d,]+ more to read \(as the API server counts them: remainingItemCount\) \(counted before reading: a page of one object of each of \d+ lists\) need about \d+ MiB of heap \(an estimate: 20 MiB and about 1,200 bytes per object/,
    )
  } finally {
    await server.close()
  }
})

test("README's size table follows the per-object figure: each row's objects and nodes from objectsThatFit at bin/heap.js's heap", () => {
  const {heapFor} = createRequire(import.meta.url)('../../bin/heap.js') as {heapFor: (limit: number, total: number, flags: string) => number}
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const rows = [...readme.matchAll(/^\| (\d+)Gi[^|]*\| ([\d,]+) MiB \| about ([\d,]+) \(([\d,]+) objects\) \| about ([\d,]+) \(([\d,]+) objects\) \|$/gm)]
  assert.equal(rows.length, 4)
  const num = (t: string) => Number(t.replace(/,/g, ''))
  // Two significant figures, as the table rounds.
  const round2 = (n: number) => {
    const p = 10 ** (Math.floor(Math.log10(n)) - 1)
    return Math.round(n / p) * p
  }
  for (const [, gi, heap, liveNodes, liveObjects, snapshotNodes, snapshotObjects] of rows) {
    const old = heapFor(Number(gi) * 1024 * MiB, 1024 * 1024 * MiB, '')
    assert.equal(num(heap), old)
    for (const [what, nodes, objects, perObject] of [
      ['live', liveNodes, liveObjects, undefined],
      ['snapshot', snapshotNodes, snapshotObjects, HEAP_PER_SNAPSHOT_OBJECT],
    ] as const) {
      const fit = objectsThatFit(old * MiB + 48 * MiB, perObject)
      assert.equal(num(objects), round2(fit), `${gi}Gi ${what} objects`)
      // 58.5 objects per node: the benchmark's cluster (58,514 objects at 1,000 nodes).
      assert.equal(num(nodes), round2(fit / 58.5), `${gi}Gi ${what} nodes`)
    }
  }
  // By hand, the 1Gi row: 819 MiB of old space less 20 = 837,812,224 bytes; / 1,200 = 698,176 objects (11,934 nodes),
  // / 1,600 = 523,632 (8,951 nodes).
  assert.deepEqual(rows[0].slice(3).map(num), [12_000, 700_000, 9_000, 520_000])
})
