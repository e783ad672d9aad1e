// Each replay's adapter over the audit's gathered lists, by the replay's name (src/engine/replays.ts): the replay's
// own driver, run through the source façade (gathered-source.ts), its answers made findings.
import type {ReplayName} from '../../engine/replays.js'
import type {Check, CheckEnvironment} from '../context.js'
import {deletionsCheck} from './deletions.js'
import {evictedCheck} from './evicted.js'
import {gcCheck} from './gc.js'
import {hashCheckWith} from './hash.js'
import {nodeCheck} from './node.js'
import {replicasCheck} from './replicas.js'

export const ADAPTERS: Record<ReplayName, (env: CheckEnvironment) => Check> = {
  hash: (env) => hashCheckWith(env.source),
  gc: () => gcCheck,
  deleting: () => deletionsCheck,
  node: () => nodeCheck,
  evicted: () => evictedCheck,
  replicas: () => replicasCheck,
}
