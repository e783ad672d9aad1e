// The node check: `kubectl why node`'s findings — the same driver (src/engine/nodelifecycle/drive.ts), the same rule
// for what is a finding and the same order (nodeFindings) — over the audit's gathered lists.
import {nodeFindings} from '../../engine/nodelifecycle/drive.js'
import {clusterSummary} from '../../engine/nodelifecycle/explain.js'
import {type Check, type CheckContext, type CheckResult, notRun, readNeed} from '../context.js'
import {nodeLifecycle} from './node-lifecycle.js'

export const nodeCheck: Check = {
  name: 'node',
  async run(ctx: CheckContext): Promise<CheckResult> {
    const outcome = await nodeLifecycle(ctx)
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
    notes.push(clusterSummary(world.analysis, world.now))
    if (world.liveLeaseGets > 0) {
      notes.push(
        world.evidence.file
          ? `${world.liveLeaseGets} stale node(s): their leases' quorum view was read from the data, as the circuit breaker's live GET would`
          : `${world.liveLeaseGets} stale node(s): their leases were read live, as the circuit breaker does`,
      )
    }
    const {findings, verdicts, evaluated} = nodeFindings(world, names)
    return {check: 'node', status: problems.length > 0 ? 'partial' : 'complete', evaluated, verdicts, findings, problems, notes}
  },
}
