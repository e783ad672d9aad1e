// npm run bench:replicas-ties — what finding the order-dependent deletion choices costs (issue 18.2): getPodsToDelete
// over 500 active pods (one ReplicaSet, 10 nodes, ready times drawn from a few seconds so rules 6–8 tie and cycle),
// scaling down by 100, against the sort alone (what the replay did before: ActivePodsWithRanks with the deciding rule),
// in the same run. Figures are medians of repeated calls; the ratio is what to read.
import {gatesFor} from '../src/engine/replicaset/gates.js'
import {getPodsToDelete, rankPods} from '../src/engine/replicaset/pods-to-delete.js'
import {compareWithRanks} from '../src/engine/replicaset/ranking.js'
import type {Pod} from '../src/engine/replicaset/types.js'

const NOW = Date.parse('2026-11-29T10:00:00Z')
const gates = gatesFor({minor: 34})

function pods(n: number, seed: number): Pod[] {
  let s = seed
  const rand = (k: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s % k
  }
  return Array.from(
    {length: n},
    (_, i) =>
      ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `web-${i}`,
          namespace: 'shop',
          uid: `${rand(1e6).toString(16)}-${i}`,
          creationTimestamp: new Date(NOW - 86_400_000 - rand(5) * 1000).toISOString(),
          labels: {app: 'web'},
          ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true}],
        },
        spec: {nodeName: `n${rand(10)}`},
        status: {
          phase: 'Running',
          conditions: [{type: 'Ready', status: 'True', lastTransitionTime: new Date(NOW - 100_000_000 - rand(8) * 1000).toISOString()}],
          containerStatuses: [{name: 'c', restartCount: rand(3)}],
        },
      }) as Pod,
  )
}

function median(f: () => void, times: number): number {
  const out: number[] = []
  for (let i = 0; i < times; i++) {
    const t = process.hrtime.bigint()
    f()
    out.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return out.sort((a, b) => a - b)[Math.floor(times / 2)]
}

const N = 500
const DIFF = 100
const active = pods(N, 7)
const sortOnly = () => {
  const ranked = rankPods(active, active)
  ranked.sort((a, b) => (compareWithRanks(a, b, NOW, gates).less ? -1 : compareWithRanks(b, a, NOW, gates).less ? 1 : 0))
}
let tie: ReturnType<typeof getPodsToDelete>['tie']
const full = () => {
  tie = getPodsToDelete(active, active, DIFF, NOW, gates).tie
}
full()
const base = median(sortOnly, 15)
const withTies = median(full, 15)
console.log(
  `${N} active pods, ${DIFF} to delete: tie set ${tie ? `${tie.pods.length} pods for ${tie.slots} slots (${tie.reason})` : 'none (the choice is certain)'}`,
)
console.log(`sort alone (the replay before)     ${base.toFixed(1).padStart(7)} ms`)
console.log(`sort + tie analysis (n² Less, SCC) ${withTies.toFixed(1).padStart(7)} ms`)
console.log(`ratio: ${(withTies / base).toFixed(2)}× the sort alone; ${(((withTies - base) * 1e6) / (N * N)).toFixed(0)} ns per ordered pair`)
