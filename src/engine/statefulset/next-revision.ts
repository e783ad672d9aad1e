// The StatefulSet controller's own revision numbering (pkg/controller/statefulset/stateful_set_utils.go).
import type {Rev} from '../history/controller-history.js'

/** nextRevision (stateful_set_utils.go): the latest revision + 1, or 1. */
export function nextRevision(sorted: readonly Rev[]): number {
  return sorted.length === 0 ? 1 : sorted[sorted.length - 1].revision + 1
}
