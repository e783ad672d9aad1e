// What a person can do about each verdict of the ReplicaSet replay (issue 16.4): read-only commands to run, or the
// object and field to change, with why. Never a write the tool would run itself. Pure.
import type {NextStep} from '../../explanation.js'
import type {CreateFailures} from './failures.js'
import {selectorQuery} from '../../apimachinery/labels.js'
import type {ReplicaSet, Verdict} from './types.js'

export interface NextInput {
  verdict: Verdict
  rs: ReplicaSet
  createFailures?: CreateFailures
  claimError?: string
  adopt: string[]
  release: string[]
  chosen: string[]
  tie?: {pods: string[]; slots: number}
  unobserved: string[]
  expiresAt?: string
}

/** "exceeded quota: shop-quota, requested: …": the ResourceQuota an admission refusal names. */
export function quotaOf(error: string | undefined): string | undefined {
  return /exceeded quota: ([a-z0-9]([-a-z0-9.]*[a-z0-9])?)/.exec(error ?? '')?.[1]
}

export function nextSteps(x: NextInput): NextStep[] | undefined {
  const ns = x.rs.metadata.namespace ?? 'default'
  const name = x.rs.metadata.name
  const sel = selectorQuery(x.rs.spec?.selector)
  const pods = `kubectl get pods -n ${ns}${sel ? ` -l '${sel}'` : ''}`
  const events = `kubectl get events -n ${ns} --field-selector involvedObject.kind=ReplicaSet,involvedObject.name=${name}`
  switch (x.verdict) {
    case 'createsFailing': {
      const quota = quotaOf(x.createFailures?.error)
      if (quota) {
        return [
          {
            command: `kubectl describe resourcequota ${quota} -n ${ns}`,
            why: `every create is refused by ResourceQuota ${quota}: see what is used against spec.hard`,
          },
          {
            change: `ResourceQuota ${ns}/${quota}: spec.hard`,
            why: "raise the exhausted limit (or lower the pod template's requests, or free quota) and the next retry creates the pods",
          },
        ]
      }
      return [{command: `${events},reason=FailedCreate`, why: "the controller's FailedCreate events carry the API server's refusal of each create"}]
    }
    case 'waitingForExpectations':
      return [
        {
          command: `${pods} -o wide`,
          why: `the controller acts again once its informer observes the pods it created or deleted${x.unobserved.length ? ` (${x.unobserved.slice(0, 3).join(', ')})` : ''}, or when the expectations expire${x.expiresAt ? ` at ${x.expiresAt}` : ''}; nothing to change meanwhile`,
        },
      ]
    case 'adoptionPending':
      if (x.claimError)
        return [
          {
            command: `kubectl get rs ${name} -n ${ns} -o yaml`,
            why: `adoption is refused (${x.claimError}): the sync aborts until the ReplicaSet reads back alive`,
          },
        ]
      return [
        {
          command: `${pods} --show-labels`,
          why: `orphan pods match the selector and are adopted at the next sync (${x.adopt.slice(0, 3).join(', ')}); relabel them if they should stay unmanaged`,
        },
      ]
    case 'willDelete':
      if (x.tie) {
        return [
          {
            change: `Pod ${ns}/<one of ${x.tie.pods.slice(0, 3).join(', ')}${x.tie.pods.length > 3 ? ', …' : ''}>: metadata.annotations["controller.kubernetes.io/pod-deletion-cost"]`,
            why: `which ${x.tie.slots} of the tied pods go depends on the informer's list order; a lower pod-deletion-cost makes a pod go first for certain`,
          },
        ]
      }
      return [
        {
          command: `${pods} -o wide`,
          why: `the next sync deletes ${x.chosen.slice(0, 5).join(', ')}; set controller.kubernetes.io/pod-deletion-cost on a pod to change the order`,
        },
      ]
    case 'willCreate':
      return [{command: events, why: 'the next sync creates the missing pods; if they do not appear, the FailedCreate events say why'}]
    case 'beingDeleted':
      return [
        {
          command: `kubectl why gc replicaset/${name} -n ${ns}`,
          why: 'the garbage collector is removing the ReplicaSet and its pods: what it waits on, and why',
        },
      ]
    case 'converged':
      if (x.release.length === 0) return undefined
      return [
        {
          command: `kubectl get pods -n ${ns} ${x.release.slice(0, 5).join(' ')} --show-labels`,
          why: 'these pods left the selector and are released: no controller keeps them running any more; delete them or restore their labels',
        },
      ]
  }
}
