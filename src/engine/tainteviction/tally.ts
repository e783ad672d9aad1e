// What a node's NoExecute taints (present, plus the one the node lifecycle controller owes it) mean for its pods,
// counted by processPodOnNode's decision: deleted at once, after N seconds, tolerated forever, or unaffected.
import {type NodeAnalysis, noExecuteAfterPass} from '../nodelifecycle/analyze.js'
import {findTaint} from '../nodelifecycle/taints.js'
import type {NodeLike} from '../nodelifecycle/types.js'
import {processPodOnNode} from './process.js'
import type {MatchOptions} from '../../component-helpers/tolerations.js'
import type {PodLike, Taint} from './types.js'

export interface PodTally {
  read: true
  againstTaints: string[]
  total: number
  evictedAtOnce: number
  /** tolerationSeconds (as text) → pods. */
  evictedAfterSeconds: Record<string, number>
  toleratedForever: number
  unaffected: number
}

export function tallyPods(node: NodeLike, analysis: NodeAnalysis, pods: readonly PodLike[], options: MatchOptions): PodTally {
  // As the replayed pass leaves them (entering master disruption mode strips the controller's in that pass).
  const taints: Taint[] = noExecuteAfterPass(node, analysis)
  // The owed taint counts unless master disruption mode keeps the controller from adding it (all queues stopped).
  const owed = analysis.noExecute.expected && analysis.noExecute.blockedBecause !== 'masterDisruption' ? analysis.noExecute.expected : undefined
  if (owed && !findTaint(taints, owed)) taints.push(owed)
  const out: PodTally = {
    read: true,
    againstTaints: taints.map((t) => `${t.key}:${t.effect}`),
    total: pods.length,
    evictedAtOnce: 0,
    evictedAfterSeconds: {},
    toleratedForever: 0,
    unaffected: 0,
  }
  for (const p of pods) {
    const d = processPodOnNode(taints, p.spec?.tolerations ?? [], options)
    if (d.kind === 'noTaints') out.unaffected++
    else if (d.kind === 'forever') out.toleratedForever++
    else if (d.kind === 'notAllTolerated' || d.minMs <= 0) out.evictedAtOnce++
    else {
      const k = String(d.minMs / 1000)
      out.evictedAfterSeconds[k] = (out.evictedAfterSeconds[k] ?? 0) + 1
    }
  }
  return out
}
