// The node check: every node the node lifecycle controller would act on or is kept from acting on (not ready,
// tainted or owed a NoExecute taint, blocked by zone rate, master disruption or the lease circuit breaker).
// With -n, the nodes the namespace's pods run on.
import type {ResourceType} from '../../cluster/source.js'
import {clusterSummary, explainNode, NODE_SEVERITY} from '../../engine/nodelifecycle/explain.js'
import type {Explanation} from '../../explanation.js'
import {type Check, type CheckContext, type CheckResult, count, notRun, readNeed} from '../context.js'
import type {CheckNeeds} from '../needs.js'
import {nodeLifecycle, nodeLifecycleNeeds} from './node-lifecycle.js'

export const nodeCheck: Check = {
  name: 'node',
  needs(_types: readonly ResourceType[]): CheckNeeds {
    return {
      lists: [
        ...nodeLifecycleNeeds('node'),
        {check: 'node', key: 'pods', ref: {apiVersion: 'v1', kind: 'Pod'}, scope: 'audit', detail: 'full', view: 'fresh', required: false, why: 'with -n: which nodes the namespace\'s pods run on'},
      ],
      gets: [{check: 'node', ref: {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'}, why: 'the live lease double-check of stale nodes (circuit breaker)'}],
    }
  },

  async run(ctx: CheckContext): Promise<CheckResult> {
    const outcome = await nodeLifecycle(ctx, 'node')
    if (!outcome.ok) return notRun('node', outcome.problems, outcome.why)
    const {world} = outcome
    const problems = [...world.problems]
    let names: Set<string> | undefined
    const notes: string[] = []
    if (ctx.namespace !== undefined) {
      const pods = readNeed(ctx, 'node', 'pods', problems, 'every node is reported')
      if (pods.ok) {
        names = new Set(pods.items.map((p) => (p.spec as {nodeName?: string} | undefined)?.nodeName).filter((n): n is string => Boolean(n)))
        notes.push(`namespace ${ctx.namespace}: the ${names.size} node(s) its pods run on`)
      }
    }
    notes.push(clusterSummary(world.analysis))
    if (world.liveLeaseGets > 0) notes.push(`${world.liveLeaseGets} stale node(s): their leases were read live, as the circuit breaker does`)
    const ctxExplain = {now: world.now, settings: world.settings.settings, source: world.source}
    const verdicts: Record<string, number> = {}
    const findings: Explanation[] = []
    let evaluated = 0
    for (const a of world.analysis.nodes) {
      if (names && !names.has(a.name)) continue
      evaluated++
      count(verdicts, a.verdict)
      if (NODE_SEVERITY[a.verdict] !== 'none') findings.push(explainNode(a, world.analysis, ctxExplain))
    }
    return {check: 'node', status: problems.length > 0 ? 'partial' : 'complete', evaluated, verdicts, findings, problems, notes}
  },
}
