// What the namespace controller's replay reads beyond the namespace's content: the Namespace whole and the
// APIServices whose availability decides discovery. Declared once, for every descriptor that composes the replay
// (the gc descriptor for `gc KIND/NAME`'s actors, the deletions descriptor for the audit's deleting check).
import {OBJECT_META, type ReplayRead} from '../../replay.js'

export const NAMESPACE_CONTROLLER_READS: readonly ReplayRead[] = [
  {
    key: 'namespaces',
    ref: {apiVersion: 'v1', kind: 'Namespace'},
    scope: 'cluster',
    detail: 'full',
    view: 'fresh',
    required: false,
    why: 'the namespace controller\'s inputs: spec.finalizers (its "kubernetes" token) and the conditions it writes',
    fields: [...OBJECT_META, 'spec.finalizers', 'status.{phase,conditions}'],
  },
  {
    key: 'apiservices',
    ref: {apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService'},
    scope: 'cluster',
    detail: 'full',
    view: 'fresh',
    required: false,
    why: 'an unavailable APIService fails discovery, which holds every Terminating namespace (namespace controller)',
    fields: [...OBJECT_META, 'spec.{group,version,service}', 'status.conditions'],
  },
]
