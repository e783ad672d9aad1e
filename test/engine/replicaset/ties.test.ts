// Order-dependent deletion choices (issue 18.2) and the related-pod rank over a whole scope (issue 18.1): the issue's
// three-pod example worked by hand, and property tests (fast-check, fixed seed, bounded runs) against upstream's rules
// re-stated below from their source, over ties, equal timestamps and absent vs zero fields.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import fc from 'fast-check'
import {indexScope} from '../../../src/engine/replicaset/family.js'
import {gatesFor} from '../../../src/engine/replicaset/gates.js'
import {getIndirectlyRelatedPods, getPodsToDelete, rankPods} from '../../../src/engine/replicaset/pods-to-delete.js'
import {compareWithRanks, keyLess, rankKey} from '../../../src/engine/replicaset/ranking.js'
import type {Pod, ReplicaSet} from '../../../src/engine/replicaset/types.js'
import {NOW, pod, replicaSet} from './build.js'

const SEED = 1802
const RUNS = 250
const gates = gatesFor({minor: 34})

// ---- upstream, re-stated ----

interface Ref {
  name: string
  node: string
  phase: 'Pending' | 'Running'
  ready: boolean
  /** Seconds before NOW; null: Go's zero time (condition without lastTransitionTime, or no creationTimestamp). */
  readySince: number | null
  created: number | null
  restarts: number
  cost: number
  uid: string
}

/** afterOrZero (controller_utils.go:913): a zero time counts as the latest. */
function afterOrZero(t1: number | null, t2: number | null): boolean {
  if (t1 === null || t2 === null) return t1 === null
  return t1 > t2
}

/** logarithmicRankDiff (controller_utils.go:922): floor(log2(ns since t)), −1 when not in the past. */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6
  return d > 0 ? Math.floor(Math.log2(d)) : -1
}

/** ActivePodsWithRanks.Less (controller_utils.go:843), the rules in order, with Now set (1.34: always). */
function refLess(a: Ref, ra: number, b: Ref, rb: number, now: number): boolean {
  if (a.node !== b.node && (a.node === '' || b.node === '')) return a.node === '' // 1
  const ord = (p: Ref) => (p.phase === 'Running' ? 2 : 0)
  if (ord(a) !== ord(b)) return ord(a) < ord(b) // 2
  if (a.ready !== b.ready) return !a.ready // 3
  if (a.cost !== b.cost) return a.cost < b.cost // 4 (PodDeletionCost on)
  if (ra !== rb) return ra > rb // 5
  const times = (t1: number | null, t2: number | null): boolean => {
    if (t1 === null || t2 === null) return afterOrZero(t1, t2)
    const d = logRank(t1, now) - logRank(t2, now)
    return d === 0 ? a.uid < b.uid : d < 0
  }
  if (a.ready && b.ready) {
    const t1 = a.readySince === null ? null : now - a.readySince * 1000
    const t2 = b.readySince === null ? null : now - b.readySince * 1000
    if (t1 !== t2) return times(t1, t2) // 6
  }
  if (a.restarts !== b.restarts) return a.restarts > b.restarts // 7
  const c1 = a.created === null ? null : now - a.created * 1000
  const c2 = b.created === null ? null : now - b.created * 1000
  if (c1 !== c2) return times(c1, c2) // 8
  return false
}

/**
 * What getPodsToDelete can choose: Go's sort.Sort is pdqsort (src/sort/zsortinterface.go), which for 12 elements or
 * fewer is insertionSort — `for j := i; j > a && data.Less(j, j-1); j--` swapping pods and ranks together. Over every
 * list order the informer may hand it, the first `diff` after the sort.
 */
function refChoices(pods: Ref[], ranks: number[], diff: number, now: number): Set<string> {
  const out = new Set<string>()
  const idx = pods.map((_, i) => i)
  const permute = (rest: number[], acc: number[]): void => {
    if (rest.length === 0) {
      const a = [...acc]
      for (let i = 1; i < a.length; i++)
        for (let j = i; j > 0 && refLess(pods[a[j]], ranks[a[j]], pods[a[j - 1]], ranks[a[j - 1]], now); j--) [a[j], a[j - 1]] = [a[j - 1], a[j]]
      out.add(
        a
          .slice(0, diff)
          .map((i) => pods[i].name)
          .sort()
          .join(','),
      )
      return
    }
    for (let k = 0; k < rest.length; k++) permute([...rest.slice(0, k), ...rest.slice(k + 1)], [...acc, rest[k]])
  }
  permute(idx, [])
  return out
}

function toPod(r: Ref): Pod {
  const p = pod({
    name: r.name,
    namespace: 'shop',
    uid: r.uid,
    node: r.node || undefined,
    phase: r.phase,
    ready: r.phase === 'Running' ? r.ready : undefined,
    readySince: r.readySince === null ? null : NOW - r.readySince * 1000,
    created: r.created === null ? null : NOW - r.created * 1000,
    restarts: r.restarts === 0 && r.uid.endsWith('1') ? undefined : [r.restarts],
    labels: {app: 'web'},
    owner: {name: 'web-1', uid: 'rs-1'},
    annotations: r.cost === 0 && r.uid.endsWith('2') ? undefined : {'controller.kubernetes.io/pod-deletion-cost': String(r.cost)},
  })
  return p
}

describe("the issue's three pods (18.2)", () => {
  it('A and B ready at the same instant, C 7 s earlier, B 3 restarts, UIDs A < C < B: any of the three may go', () => {
    // By hand, with the pods on one node (equal ranks), Running, ready, no cost, ready about 27.8 hours ago:
    // ages 100000 s and 100007 s are both in log2 bucket 46 (2^46 ns ≈ 70369 s ≤ age < 2^47 ns ≈ 140737 s).
    //  A vs B: same ready time, rule 6 skipped; rule 7: B has 3 restarts, A 0 → Less(B, A): B before A.
    //  A vs C: ready times differ in the same bucket → UID: "a" < "c" → Less(A, C): A before C.
    //  C vs B: same bucket → UID: "c" < "m" → Less(C, B): C before B.
    // B < A < C < B is a cycle: with one pod to delete, insertion sort over the list orders picks each of them.
    const mk = (name: string, uid: string, age: number, restarts: number) =>
      pod({
        name,
        namespace: 'shop',
        uid,
        node: 'n1',
        ready: true,
        readySince: NOW - age * 1000,
        created: NOW - 200_000_000,
        restarts: [restarts],
        labels: {app: 'web'},
        owner: {name: 'web-1', uid: 'rs-1'},
      })
    const pods = [mk('A', 'a', 100_000, 0), mk('B', 'm', 100_000, 3), mk('C', 'c', 100_007, 0)]
    const plan = getPodsToDelete(pods, pods, 1, NOW, gates)
    assert.deepEqual(plan.tie?.pods.map((p) => p.metadata.name).sort(), ['A', 'B', 'C'])
    assert.equal(plan.tie?.slots, 1)
    assert.equal(plan.tie?.reason, 'notTransitive')
    assert.equal(plan.tie?.witness?.cycle, true)
  })
})

describe('properties', () => {
  const ref = fc.record({
    node: fc.constantFrom('', 'n1', 'n2'),
    phase: fc.constantFrom<'Pending' | 'Running'>('Running', 'Running', 'Pending'),
    ready: fc.boolean(),
    // Equal timestamps are likely; null is Go's zero time (absent).
    readySince: fc.option(fc.constantFrom(100_000, 100_007, 100_003, 5, 90_000), {nil: null}),
    created: fc.option(fc.constantFrom(200_000, 200_001, 400_000), {nil: null}),
    restarts: fc.constantFrom(0, 0, 1, 3),
    cost: fc.constantFrom(0, 0, 0, -5, 10),
    uid: fc.constantFrom('u1', 'u2', 'u3', 'u4', 'u5', 'u6'),
  })
  // A Pending pod carries no Ready condition here (toPod), so it is not ready.
  const pods = fc
    .uniqueArray(ref, {minLength: 2, maxLength: 5, selector: (r) => r.uid})
    .map((rs) => rs.map((r, i) => ({...r, ready: r.phase === 'Running' && r.ready, name: `p${i}`})))

  it('the tie set covers every choice any list order can give; no tie only when every order gives the same choice', () => {
    fc.assert(
      fc.property(pods, fc.nat(), (refs, d) => {
        const diff = 1 + (d % (refs.length - 1))
        const ps = refs.map(toPod)
        // Ranks: every pod is related (one ReplicaSet), active ones counted per node name.
        const ranks = rankPods(ps, ps).map((r) => r.rank)
        const want = refChoices(refs, ranks, diff, NOW)
        const plan = getPodsToDelete(ps, ps, diff, NOW, gates)
        const chosen = plan.chosen.map((p) => p.metadata.name)
        if (!plan.tie) {
          assert.equal(want.size, 1, `no tie reported, yet the list order changes the choice: ${[...want].join(' | ')}`)
          assert.deepEqual([...want], [chosen.sort().join(',')])
          return
        }
        const tie = new Set(plan.tie.pods.map((p) => p.metadata.name))
        const certain = chosen.filter((n) => !tie.has(n))
        assert.equal(certain.length, diff - plan.tie.slots)
        for (const choice of want) {
          const names = choice.split(',')
          for (const n of certain) assert.ok(names.includes(n), `${n} is reported certain to go, but ${choice} is possible`)
          for (const n of names) assert.ok(tie.has(n) || certain.includes(n), `${n} can go (${choice}) but is neither certain nor in the tie`)
        }
      }),
      {seed: SEED, numRuns: RUNS},
    )
  })

  it("the tie analysis's precomputed Less (keyLess) is compareWithRanks(...).less on every pair", () => {
    fc.assert(
      fc.property(pods, fc.boolean(), (refs, zeroNow) => {
        const ranked = rankPods(refs.map(toPod), refs.map(toPod))
        const now = zeroNow ? null : NOW
        for (const a of ranked)
          for (const b of ranked) assert.equal(keyLess(rankKey(a, now), rankKey(b, now), now, gates), compareWithRanks(a, b, now, gates).less)
      }),
      {seed: SEED, numRuns: RUNS},
    )
  })

  it('--all hands the replay every related pod: ranks over the scope index equal ranks over every pod (18.1)', () => {
    // getIndirectlyRelatedPods (replica_set.go:915): for every ReplicaSet with rs's controller UID, the pods matching
    // its selector, whoever controls them, de-duplicated by UID; the rank is the active related pods on the node.
    const owners = fc.constantFrom<string | undefined>(undefined, 'rs-a', 'rs-b', 'rs-c')
    const scenario = fc.array(
      fc.record({node: fc.constantFrom('', 'n1', 'n2'), owner: owners, app: fc.constantFrom('web', 'api'), hash: fc.constantFrom('a', 'b', 'c')}),
      {maxLength: 12},
    )
    fc.assert(
      fc.property(scenario, (specs) => {
        const rsOf = (name: string, hash: string, owner?: string): ReplicaSet =>
          replicaSet({name, namespace: 'shop', uid: name, selector: {app: 'web', hash}, owner: owner ? {name: owner, uid: owner} : null})
        const family = [rsOf('rs-a', 'a', 'dep-web'), rsOf('rs-b', 'b', 'dep-web'), rsOf('rs-c', 'c', 'dep-other')]
        const all = specs.map((s, i) =>
          pod({
            name: `p${i}`,
            namespace: 'shop',
            uid: `pod-${i}`,
            node: s.node || undefined,
            labels: {app: s.app, hash: s.hash},
            owner: s.owner ? {name: s.owner, uid: s.owner} : null,
          }),
        )
        const index = indexScope(family, all)
        for (const rs of family) {
          const handed = index.podsFor(rs)
          const own = handed.filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid)
          const viaIndex = rankPods(own, getIndirectlyRelatedPods(rs, index.familyOf(rs), handed)).map((r) => r.rank)
          const viaAll = rankPods(own, getIndirectlyRelatedPods(rs, family, all)).map((r) => r.rank)
          assert.deepEqual(viaIndex, viaAll, rs.metadata.name)
        }
      }),
      {seed: SEED, numRuns: RUNS},
    )
  })
})
