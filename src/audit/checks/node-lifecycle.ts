// The node lifecycle world the node and evicted checks share, built once by the controller's own driver
// (src/engine/nodelifecycle/drive.ts, the one `kubectl why node` and `kubectl why evicted` use) over the audit's
// gathered lists through the source façade: the controller-manager's mirror pod, every node, the kube-node-lease
// Leases as the watch cache holds them; the live lease GETs the circuit breaker makes go to the real source.
import {readFailure} from '../../cluster/read.js'
import {NODE_LEASE_NAMESPACE, type NodeLifecycleWorld, readNodeLifecycle} from '../../engine/nodelifecycle/drive.js'
import type {Problem} from '../../explanation.js'
import type {CheckContext} from '../context.js'
import {GatheredSource} from '../gathered-source.js'

export {NODE_LEASE_NAMESPACE}

// Without the source it was built over: the world outlives that check's lists (gather.ts forCheck), its source must not.
export type NodeLifecycleOutcome = {ok: true; world: NodeLifecycleWorld} | {ok: false; problems: Problem[]; why: string}

/** The façade over the gathered lists, describing the audit's source. */
export function gatheredSource(ctx: CheckContext): GatheredSource {
  return new GatheredSource(ctx, {serverVersion: async () => undefined, describe: () => ctx.base, defaultNamespace: () => ctx.namespace ?? 'default'})
}

export function nodeLifecycle(ctx: CheckContext): Promise<NodeLifecycleOutcome> {
  let p = ctx.shared.get('nodelifecycle') as Promise<NodeLifecycleOutcome> | undefined
  if (!p) {
    p = build(ctx)
    ctx.shared.set('nodelifecycle', p)
  }
  return p
}

async function build(ctx: CheckContext): Promise<NodeLifecycleOutcome> {
  const source = gatheredSource(ctx)
  try {
    const world = await readNodeLifecycle(source, {version: ctx.version, overrides: ctx.overrides})
    return {ok: true, world}
  } catch (err) {
    return {
      ok: false,
      problems: [{what: 'list v1 Node', reason: `${readFailure(err)}; without nodes there is nothing to replay`}],
      why: 'the nodes could not be listed',
    }
  }
}
