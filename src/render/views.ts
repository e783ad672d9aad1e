// The renderers of the replays' views, by the view keys their descriptors name (src/engine/<controller>/descriptor.ts
// `views`): the descriptors sit below render and name a view by key; this map, above them, draws it. A key a
// descriptor names with no renderer here has the audit's generic view (summary and steps).
import type {Explanation} from '../explanation.js'
import {renderHashExplanation} from './hash-workload.js'
import {renderNode} from './node.js'
import {renderEvicted} from './node-evicted.js'
import {renderReplicaSet} from './replicas.js'

export type FindingView = (e: Explanation, wide: boolean) => string

/** One finding's view (the audit's -o wide), by view key. */
export const FINDING_VIEWS: Readonly<Record<string, FindingView>> = {
  hash: renderHashExplanation as FindingView,
  node: renderNode as FindingView,
  evicted: renderEvicted as FindingView,
  replicas: renderReplicaSet as FindingView,
}

/** A replay's own view of one finding: the first of its views that has a renderer. */
export function findingView(views: readonly string[]): FindingView | undefined {
  for (const v of views) if (FINDING_VIEWS[v]) return FINDING_VIEWS[v]
  return undefined
}
