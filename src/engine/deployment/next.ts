// What a person can do about a workload hash verdict (Deployment, DaemonSet, StatefulSet). Only reads are suggested;
// the tool runs none of them. Drift and upToDate need nothing: labels are written once, at creation, and never
// recomputed, so a label of another version changes nothing the controller does.
import type {NextStep} from '../../explanation.js'
import type {HashVerdict} from './common.js'

export type WorkloadKind = 'Deployment' | 'DaemonSet' | 'StatefulSet'

export function workloadNextSteps(kind: WorkloadKind, namespace: string | undefined, name: string, verdict: HashVerdict): NextStep[] | undefined {
  const ns = namespace ? ` -n ${namespace}` : ''
  const resource = kind.toLowerCase()
  const history = kind === 'Deployment' ? 'replicasets' : 'controllerrevisions'
  switch (verdict) {
    case 'collision':
      return [
        {
          command: `kubectl get ${history}${ns} -o wide`,
          why: `the ${kind === 'Deployment' ? 'ReplicaSet' : 'ControllerRevision'} holding the computed name has another template: the controller bumps status.collisionCount and tries the next name on its next sync; if the count keeps rising, compare that object's template with the ${kind}'s`,
        },
      ]
    case 'rolloutPending':
      return [
        {
          command: `kubectl rollout status ${resource}/${name}${ns}`,
          why: `the controller creates the new ${kind === 'Deployment' ? 'ReplicaSet' : 'revision'} on its next sync${kind === 'Deployment' ? ' (a paused Deployment waits for `kubectl rollout resume`)' : ''}`,
        },
      ]
    case 'unreproducible':
      return [
        {
          command: `kubectl get ${history}${ns} -o yaml | kubectl why hash --template - --show-serialization`,
          why: 'shows the exact text hashed for each: a label no known layout reproduces was written by a controller this tool has no layout for, or the object was edited after it was created; nothing the controller does changes because of it',
        },
      ]
    default:
      return undefined
  }
}

/** The `next` field when there is one (absent when nothing needs doing). */
export function nextOf(steps: NextStep[] | undefined): {next?: NextStep[]} {
  return steps && steps.length > 0 ? {next: steps} : {}
}
