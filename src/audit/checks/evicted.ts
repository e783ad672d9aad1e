// The evicted check: `kubectl why evicted`'s replay of every pod in scope — the same driver
// (src/engine/tainteviction/drive.ts sweepEvictions, explainPod) over the audit's gathered lists: pods the
// taint-eviction controller deletes, has deleted (its DisruptionTarget condition, its TaintManagerEviction events)
// or is kept from deleting.
import {readFailure} from '../../cluster/read.js'
import {sweepEvictions} from '../../engine/tainteviction/drive.js'
import {type Check, type CheckContext, type CheckResult, notRun} from '../context.js'
import {gatheredSource, nodeLifecycle} from './node-lifecycle.js'

export const evictedCheck: Check = {
  name: 'evicted',
  async run(ctx: CheckContext): Promise<CheckResult> {
    const outcome = await nodeLifecycle(ctx)
    if (!outcome.ok) return notRun('evicted', outcome.problems, outcome.why)
    const {world} = outcome
    try {
      // Over this check's own lists (the world may have been built over the node check's: gather.ts forCheck).
      const sweep = await sweepEvictions(gatheredSource(ctx), world, ctx.namespace)
      const problems = [...world.problems, ...sweep.problems]
      return {
        check: 'evicted',
        status: problems.length > 0 ? 'partial' : 'complete',
        evaluated: sweep.evaluated,
        verdicts: sweep.verdicts,
        findings: sweep.findings,
        problems,
        notes: sweep.notes,
      }
    } catch (err) {
      return notRun(
        'evicted',
        [...world.problems, {what: 'list v1 Pod', reason: `${readFailure(err)}; no pod can be replayed`}],
        'the pods could not be listed',
      )
    }
  },
}
