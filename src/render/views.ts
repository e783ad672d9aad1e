// The renderers of the replays' views, by the view keys their descriptors name (src/engine/<controller>/descriptor.ts
// `views`): the descriptors sit below render and name a view by key; this map, above them, draws it. A key a
// descriptor names with no renderer here has the audit's generic view (summary and steps).
import type {Explanation} from '../explanation.js'
import {renderHashExplanation} from './hash-workload.js'
import type {SourceInForce} from './next-steps.js'
import {renderNode} from './node.js'
import {renderEvicted} from './node-evicted.js'
import {renderReplicaSet} from './replicas.js'

/**
 * A finding drawn in its command's view; src: the source in force its next steps carry (next-steps.ts); width: the
 * room it has (undefined: the terminal's).
 */
export type FindingView = (e: Explanation, wide: boolean, src: SourceInForce, width?: number) => string

/** One finding's view (the audit's -o wide), by view key. */
export const FINDING_VIEWS: Readonly<Record<string, FindingView>> = {
  hash: (e, wide, src, width) => renderHashExplanation(e, wide, width, src),
  node: (e, wide, src, width) => renderNode(e, wide, width, src),
  evicted: (e, wide, src, width) => renderEvicted(e, wide, width, src),
  replicas: (e, wide, src, width) => renderReplicaSet(e, wide, src, width),
}

/** A replay's own view of one finding: the first of its views that has a renderer. */
export function findingView(views: readonly string[]): FindingView | undefined {
  for (const v of views) if (FINDING_VIEWS[v]) return FINDING_VIEWS[v]
  return undefined
}
