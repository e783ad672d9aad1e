// The TTL-after-finished controller, replayed for one Job (issue 26 item 4; cleanups.md §6). Upstream:
// pkg/controller/ttlafterfinished/ttlafterfinished_controller.go needsCleanup, processTTL, timeLeft, jobFinishTime,
// getFinishAndExpireTime; the delete is Foreground with a UID precondition. Pure: the Job and the clock in.
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'
import {FinishedCondition} from '../jobutil/utils.js'

export const TTL = 'pkg/controller/ttlafterfinished/ttlafterfinished_controller.go'

export function ttlOf(job: KubeObject): number | undefined {
  const t = (job.spec as {ttlSecondsAfterFinished?: unknown} | undefined)?.ttlSecondsAfterFinished
  return typeof t === 'number' ? t : undefined
}

/** jobutil.FinishedCondition: the condition whose lastTransitionTime is the finish time. */
export const finishedCondition = FinishedCondition

export type TimeLeft = {ok: true; finishAt: string; expireAt: string; timeLeftSeconds: number} | {ok: false; error: string}

/**
 * timeLeft (ttlafterfinished_controller.go): an error unless the Job has a TTL and has finished; else expireAt =
 * jobFinishTime + ttl and the time from now until then (negative when expired). jobFinishTime is the
 * lastTransitionTime of the finished condition; a zero one is an error.
 */
export function timeLeft(job: KubeObject, now: Date): TimeLeft {
  const m = job.metadata ?? {}
  const ttl = ttlOf(job)
  const fin = finishedCondition(job)
  if (ttl === undefined || !fin) return {ok: false, error: `job ${m.namespace}/${m.name} should not be cleaned up`}
  if (!fin.lastTransitionTime) return {ok: false, error: `unable to find the time when the Job ${m.namespace}/${m.name} finished`}
  const finish = Date.parse(fin.lastTransitionTime)
  const expire = finish + ttl * 1000
  return {ok: true, finishAt: new Date(finish).toISOString(), expireAt: new Date(expire).toISOString(), timeLeftSeconds: (expire - now.getTime()) / 1000}
}

export interface TtlReplay {
  actor: Actor
  steps: Step[]
  /** One sentence for the headline. */
  headline: string
}

function humanSeconds(s: number): string {
  const a = Math.abs(Math.round(s))
  if (a < 120) return `${a}s`
  if (a < 7200) return `${Math.round(a / 60)}m`
  if (a < 172800) return `${Math.round(a / 3600)}h`
  return `${Math.round(a / 86400)}d`
}

/** Undefined when the Job has no ttlSecondsAfterFinished: the controller never looks at it. */
export function replayTtlAfterFinished(job: KubeObject, now: Date): TtlReplay | undefined {
  const ttl = ttlOf(job)
  if (ttl === undefined) return undefined
  const m = job.metadata ?? {}
  const ref = `job.batch/${m.name} -n ${m.namespace}`
  const fin = finishedCondition(job)
  const steps: Step[] = []
  const base = (action: Actor['action'], evidence: string[], at?: string, next: Actor['next'] = []): Actor => ({
    actor: 'ttl-after-finished',
    action,
    ...(at ? {at} : {}),
    rule: 'processTTL',
    evidence: [`spec.ttlSecondsAfterFinished: ${ttl}`, ...evidence],
    next,
  })
  if (m.deletionTimestamp) {
    // needsCleanup skips Jobs being deleted; the delete it sends is Foreground, so a Job it deleted shows foregroundDeletion.
    const fg = (m.finalizers ?? []).includes('foregroundDeletion')
    const t = timeLeft(job, now)
    const byTtl = fg && t.ok && Date.parse(t.expireAt) <= Date.parse(m.deletionTimestamp) + 1000
    steps.push({
      rule: 'needsCleanup',
      upstream: `${TTL} needsCleanup, processTTL`,
      result: byTtl ? 'deleted' : 'being deleted',
      why: byTtl
        ? `being deleted since ${m.deletionTimestamp} with foregroundDeletion, after its TTL expired at ${t.ok ? t.expireAt : '?'}: the controller's Foreground delete`
        : `being deleted since ${m.deletionTimestamp}: the controller skips Jobs being deleted`,
      ...(byTtl
        ? {inferred: {evidence: 'the deletion came after expireAt and carries foregroundDeletion, as the controller deletes', confidence: 'likely' as const}}
        : {}),
    })
    return {
      actor: base(
        byTtl ? 'deleted' : 'none',
        [`deletionTimestamp ${m.deletionTimestamp}`, ...(t.ok ? [`expired at ${t.expireAt}`] : [])],
        byTtl ? m.deletionTimestamp : undefined,
      ),
      steps,
      headline: byTtl
        ? `The ttl-after-finished controller deleted it (Foreground) at ${m.deletionTimestamp}, ${ttl}s after it finished; it stays until its pods are gone.`
        : `It is being deleted (since ${m.deletionTimestamp}).`,
    }
  }
  if (!fin) {
    steps.push({
      rule: 'needsCleanup',
      upstream: `${TTL} needsCleanup`,
      result: 'not finished',
      why: `no Complete or Failed condition with status True: the controller waits (SuccessCriteriaMet or FailureTarget alone do not count)`,
    })
    return {
      actor: base('none', ['no Complete/Failed condition yet']),
      steps,
      headline: `The ttl-after-finished controller will delete it ${ttl}s after it finishes (it has not finished).`,
    }
  }
  const t = timeLeft(job, now)
  if (!t.ok) {
    steps.push({
      rule: 'timeLeft',
      upstream: `${TTL} timeLeft, jobFinishTime`,
      result: 'error',
      why: `${t.error}: the controller retries with backoff and never deletes it`,
    })
    return {
      actor: base('none', [t.error]),
      steps,
      headline: `The ttl-after-finished controller cannot tell when it finished (${t.error}) and does not delete it.`,
    }
  }
  const skew = Date.parse(t.finishAt) > now.getTime()
  steps.push({
    rule: 'timeLeft',
    upstream: `${TTL} timeLeft, getFinishAndExpireTime`,
    inputs: {finishedCondition: fin.type, finishAt: t.finishAt, ttlSecondsAfterFinished: ttl},
    result: t.timeLeftSeconds > 0 ? `${Math.round(t.timeLeftSeconds)}s left` : 'expired',
    why: `finished (${fin.type}) at ${t.finishAt}; expireAt = finish + ${ttl}s = ${t.expireAt}${skew ? '; the finish time is after now: likely clock skew in the cluster, cleanup is deferred to expireAt by the controller clock' : ''}`,
  })
  steps.push({
    rule: 'processTTL',
    upstream: `${TTL} processTTL`,
    result: 'DELETE Foreground',
    why: 'at expireAt the controller GETs the Job live, checks again, and deletes it with propagationPolicy Foreground and a UID precondition: the Job stays (foregroundDeletion) until its pods are gone',
  })
  const pending = t.timeLeftSeconds > 0
  return {
    actor: base(
      'willDelete',
      [`${fin.type}=True at ${t.finishAt}`, `expireAt ${t.expireAt}`],
      t.expireAt,
      pending
        ? [{change: `Job ${m.namespace}/${m.name}: spec.ttlSecondsAfterFinished`, why: 'raise it (or remove it) to keep the Job longer'}]
        : [
            {
              command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 | grep -i ttl',
              why: 'expired and still here: the ttl-after-finished controller is not running, lagging, or its delete fails',
            },
          ],
    ),
    steps,
    headline: pending
      ? `The ttl-after-finished controller deletes it at ${t.expireAt} (in ${humanSeconds(t.timeLeftSeconds)}), ${ttl}s after it finished, with Foreground propagation.`
      : `The ttl-after-finished controller should already have deleted it: its TTL expired at ${t.expireAt} (${humanSeconds(t.timeLeftSeconds)} ago; kubectl get ${ref}).`,
  }
}
