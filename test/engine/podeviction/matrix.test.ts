// Issue 25's Done-when matrix: one hand-written dump per eviction path (test/fixtures/evictions/*.yaml, each file's
// header cites the upstream format strings its messages follow), read the way `kubectl why evicted pod/NAME -f FILE
// --now 2026-12-01T10:05:00Z` reads it (the snapshot source, readPod, readNodeLifecycle, explainPod). For each, the
// answer worked out by hand below: the actor (kube-controller-manager's --controllers name, or kubelet, scheduler,
// eviction-api), its action, the instant the record gives (the DisruptionTarget condition's lastTransitionTime, else
// the event's time; none where nothing records one), the rule, and a step citing the upstream file that rule is in.
// Across all of them: no pod whose status or conditions say it was disrupted, or that is being deleted, is
// notAffected.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {SnapshotSource} from '../../../src/cluster/snapshot/snapshot-source.js'
import {readNodeLifecycle} from '../../../src/engine/nodelifecycle/drive.js'
import {explainPod, readPod} from '../../../src/engine/tainteviction/drive.js'
import type {Actor, Explanation} from '../../../src/explanation.js'

const NOW = new Date('2026-12-01T10:05:00Z')
const fixture = (f: string) => fileURLToPath(new URL(`../../fixtures/evictions/${f}.yaml`, import.meta.url))

async function evicted(file: string, namespace: string, name: string): Promise<Explanation> {
  const source = await SnapshotSource.open(fixture(file), {now: NOW})
  const read = await readPod(source, namespace, name)
  const world = await readNodeLifecycle(source, {overrides: {}})
  return explainPod(world, namespace, name, read.pod, read.events, read.context)
}

interface Row {
  file: string
  namespace: string
  name: string
  verdict: string
  /** The actor the answer leads with: [actor, action, at or undefined, rule]. */
  actor: [string, Actor['action'], string | undefined, string]
  /** The upstream file the rule's step must cite. */
  upstream: RegExp
  /** Further checks on the answer, worked out by hand. */
  more?: (e: Explanation) => void
}

const step = (e: Explanation, rule: string) => e.steps.find((s) => s.rule === rule)

const ROWS: Row[] = [
  {
    // DisruptionTarget TerminationByKubelet at 10:01:12 with the memory message; the Evicted event's annotations
    // (starved_resource memory, offending_containers orders). memory → rankMemoryPressure. The threshold 100Mi is
    // defaults_linux.go's memory.available. The neighbour analytics/batch-report-29311 (priority 1000 > 0) ranks
    // after it whatever its use.
    file: 'kubelet-memory',
    namespace: 'shop',
    name: 'orders-5c8f6d7b9-k2m4p',
    verdict: 'evictedByKubelet',
    actor: ['kubelet', 'evicted', '2026-12-01T10:01:12Z', 'rankMemoryPressure'],
    upstream: /pkg\/kubelet\/eviction\/helpers\.go .*rankMemoryPressure/,
    more: (e) => {
      assert.equal(step(e, 'DefaultEvictionHard')?.result, 'default')
      assert.match(e.actors?.[0].evidence.join('\n') ?? '', /starved_resource memory, offending_containers orders/)
      const n = (step(e, 'rankMemoryPressure')?.inputs as {neighbours: {pod: string; standing: string}[]} | undefined)?.neighbours ?? []
      assert.deepEqual(
        n.map((x) => [x.pod, x.standing]),
        [['analytics/batch-report-29311', 'rankedAfter']],
      )
      // Across namespaces, but a plain kubectl List proves no namespace complete: said, not taken for all.
      assert.match(step(e, 'rankMemoryPressure')?.why ?? '', /Only the pods of namespace\(s\) analytics, shop on ip-10-0-3-12 are in the data/)
    },
  },
  {
    // ephemeral-storage → the disk signals, rankDiskPressure. Threshold 10Gi = int64(100Gi capacity × 10%):
    // nodefs.available's default (the node's ephemeral-storage capacity is the nodefs capacity).
    file: 'kubelet-disk',
    namespace: 'search',
    name: 'search-indexer-0',
    verdict: 'evictedByKubelet',
    actor: ['kubelet', 'evicted', '2026-12-01T10:02:31Z', 'rankDiskPressure'],
    upstream: /pkg\/kubelet\/eviction\/helpers\.go .*rankDiskPressure/,
    more: (e) => {
      assert.equal(step(e, 'DefaultEvictionHard')?.result, 'default')
      assert.equal(step(e, 'rankDiskPressure')?.result, 'aboveRequest')
    },
  },
  {
    // pids → rankPIDPressure (priority, then process count: no "above request" step). pid.available has no
    // default on any OS, so the 1000 in the message was configured.
    file: 'kubelet-pid',
    namespace: 'search',
    name: 'crawler-7f9d8c6b5-zz4xq',
    verdict: 'evictedByKubelet',
    actor: ['kubelet', 'evicted', '2026-12-01T10:03:20Z', 'rankPIDPressure'],
    upstream: /pkg\/kubelet\/eviction\/helpers\.go .*rankPIDPressure/,
    more: (e) => {
      assert.equal(step(e, 'DefaultEvictionHard')?.result, 'configured')
      assert.match(e.actors?.[0].evidence.join('\n') ?? '', /starved_resource pids/)
    },
  },
  {
    // TerminationByKubelet with nodeShutdownMessage and reason Terminated: graceful node shutdown, killPods.
    file: 'node-shutdown',
    namespace: 'shop',
    name: 'checkout-6d5f4c3b2-w8n7r',
    verdict: 'terminatedByShutdown',
    actor: ['kubelet', 'evicted', '2026-12-01T10:01:00Z', 'podManager.killPods'],
    upstream: /pkg\/kubelet\/nodeshutdown\/nodeshutdown_manager\.go .*killPods/,
  },
  {
    // PreemptionByScheduler at 10:04:39; the Preempted event names uid 9b8c7d6e-pay-f5g6h, the pending
    // payments-api pod (priority 1000000 > 100), nominated to ip-10-0-3-12.
    file: 'scheduler-preemption',
    namespace: 'batch',
    name: 'nightly-etl-28871-q9v2d',
    verdict: 'preempted',
    actor: ['scheduler', 'evicted', '2026-12-01T10:04:39Z', 'SelectVictimsOnNode'],
    upstream: /pkg\/scheduler\/framework\/plugins\/defaultpreemption\/default_preemption\.go .*SelectVictimsOnNode/,
    more: (e) => {
      assert.match(e.summary, /batch\/payments-api-7c6b5a4d3-f5g6h \(priority 1000000 > 100\) on node ip-10-0-3-12/)
      // A plain kubectl dump holds only the pods it happened to include: the node choice is not replayed, and said so.
      const choice = step(e, 'pickOneNodeForPreemption')
      assert.equal(choice?.result, 'unknown')
      assert.match(choice?.why ?? '', /every node's pods/)
    },
  },
  {
    // EvictionByEvictionAPI at 10:04:20 on a cordoned node: a drain the budget allowed (disruptedPods holds it).
    file: 'eviction-api-allowed',
    namespace: 'shop',
    name: 'web-8b7c6d5e4-a1b2c',
    verdict: 'evictedByApi',
    actor: ['eviction-api', 'evicted', '2026-12-01T10:04:20Z', 'EvictionREST.Create'],
    upstream: /pkg\/registry\/core\/pod\/storage\/eviction\.go/,
    more: (e) => assert.match(e.summary, /on a cordoned node: a drain/),
  },
  {
    // Nothing disrupted the pod yet: the cordoned node's drain gets 429 from checkAndDecrement (disruptionsAllowed
    // 0; currentHealthy 2 ≤ desiredHealthy 2). No instant: refusals are recorded nowhere on the objects.
    file: 'eviction-api-blocked',
    namespace: 'shop',
    name: 'web-8b7c6d5e4-a1b2c',
    verdict: 'evictionBlocked',
    actor: ['eviction-api', 'refusesEviction', undefined, 'checkAndDecrement'],
    upstream: /pkg\/registry\/core\/pod\/storage\/eviction\.go .*checkAndDecrement/,
    more: (e) => assert.match(e.summary, /needs 2 healthy pods and has 2 currently/),
  },
  {
    // DeletionByPodGC at 10:03:41: its node ip-10-0-9-9 is gone (gcOrphaned).
    file: 'podgc-orphaned',
    namespace: 'batch',
    name: 'ingest-29500-p8q7r',
    verdict: 'deletedByPodGC',
    actor: ['podgc', 'deleted', '2026-12-01T10:03:41Z', 'gcOrphaned'],
    upstream: /pkg\/controller\/podgc\/gc_controller\.go .*gcOrphaned/,
  },
  {
    // Terminating and never bound: gcUnscheduledTerminating marks it Failed on its next pass (no instant: PodGC
    // records nothing before it acts); the Job's finalizer keeps the object.
    file: 'podgc-unscheduled-terminating',
    namespace: 'batch',
    name: 'ingest-29500-x1y2z',
    verdict: 'willBeCollected',
    actor: ['podgc', 'willDelete', undefined, 'gcUnscheduledTerminating'],
    upstream: /pkg\/controller\/podgc\/gc_controller\.go .*gcUnscheduledTerminating/,
    more: (e) => assert.match(e.summary, /batch\.kubernetes\.io\/job-tracking/),
  },
  {
    // The taint manager deleted it at 09:56:00 (unreachable since 09:51:00 + 300 s); the node is down with the
    // out-of-service taint, so PodGC's gcTerminating force-deletes it next: both actors, the taint manager first.
    file: 'podgc-out-of-service',
    namespace: 'shop',
    name: 'ledger-0',
    verdict: 'evicted',
    actor: ['taint-eviction-controller', 'evicted', '2026-12-01T09:56:00Z', 'processPodOnNode'],
    upstream: /pkg\/controller\/tainteviction\/taint_eviction\.go .*processPodOnNode/,
    more: (e) => {
      const gc = e.actors?.find((a) => a.actor === 'podgc')
      assert.deepEqual([gc?.action, gc?.rule], ['willDelete', 'gcTerminating'])
      assert.match(step(e, 'gcTerminating')?.upstream ?? '', /pkg\/controller\/podgc\/gc_controller\.go/)
    },
  },
  {
    // DeletionByTaintManager at 10:03:00 = the unreachable:NoExecute taint's timeAdded 09:58:00 + 300 s.
    file: 'taint-manager',
    namespace: 'shop',
    name: 'cart-5b4c3d2e1-r7s8t',
    verdict: 'evicted',
    actor: ['taint-eviction-controller', 'evicted', '2026-12-01T10:03:00Z', 'processPodOnNode'],
    upstream: /pkg\/controller\/tainteviction\/taint_eviction\.go .*processPodOnNode/,
  },
  ...(
    [
      ['render-a1', 'OutOfcpu'],
      ['render-b2', 'OutOfmemory'],
      ['train-c3', 'UnexpectedAdmissionError'],
      ['pinned-d4', 'NodeAffinity'],
    ] as const
  ).map(
    ([name, reason]): Row => ({
      // "Pod was rejected: …" with an admission reason: not an eviction; the kubelet's event gives the instant.
      file: 'admission-rejections',
      namespace: 'shop',
      name,
      verdict: 'rejectedAtAdmission',
      actor: ['kubelet', 'none', '2026-12-01T10:02:01Z', 'canAdmitPod'],
      upstream: /pkg\/kubelet\/kubelet\.go .*canAdmitPod/,
      more: (e) => {
        assert.match(e.summary, new RegExp(`^Not an eviction: .*\\(${reason}: `))
        assert.equal(step(e, 'canAdmitPod')?.inputs?.reason, reason)
      },
    }),
  ),
]

describe('evicted names the actor, the rule and the instant on one dump per path', () => {
  for (const row of ROWS)
    test(`${row.file}: ${row.namespace}/${row.name} → ${row.verdict}, ${row.actor[0]} ${row.actor[1]}`, async () => {
      const e = await evicted(row.file, row.namespace, row.name)
      assert.equal(e.verdict, row.verdict, e.summary)
      const a = e.actors?.[0]
      assert.ok(a, 'an actor is named')
      assert.deepEqual([a.actor, a.action, a.at, a.rule], row.actor)
      const s = step(e, a.rule)
      assert.ok(s, `a step replays ${a.rule}`)
      assert.match(s.upstream, row.upstream)
      assert.ok(a.next.length > 0 || a.action === 'willDelete', 'the actor has next steps of its own')
      row.more?.(e)
    })

  test('no pod whose status or conditions say it was disrupted, or that is being deleted, is notAffected', async () => {
    const seen: string[] = []
    for (const row of ROWS) {
      const source = await SnapshotSource.open(fixture(row.file), {now: NOW})
      const pods = (await source.list({apiVersion: 'v1', kind: 'Pod'})).items as {
        metadata?: {name?: string; namespace?: string; deletionTimestamp?: string}
        status?: {reason?: string; conditions?: {type: string; status: string}[]}
      }[]
      for (const p of pods) {
        const disrupted =
          !!p.metadata?.deletionTimestamp ||
          !!p.status?.reason ||
          (p.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.status === 'True')
        if (!disrupted) continue
        const e = await evicted(row.file, p.metadata?.namespace ?? '', p.metadata?.name ?? '')
        seen.push(`${p.metadata?.namespace}/${p.metadata?.name}`)
        assert.notEqual(e.verdict, 'notAffected', `${row.file} ${p.metadata?.name}: ${e.summary}`)
      }
    }
    // Every fixture's subject but the blocked drain's (which nothing has disrupted yet) is among them.
    assert.ok(seen.length >= ROWS.length - 1, seen.join(', '))
  })
})
