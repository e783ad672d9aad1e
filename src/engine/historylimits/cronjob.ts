// The CronJob controller's history limits (issue 26 item 3; cleanups.md §5). Upstream:
// pkg/controller/cronjob/cronjob_controllerv2.go cleanupFinishedJobs, removeOldestJobs, getFinishedStatus;
// pkg/controller/cronjob/utils.go byJobStartTime. Run at the start of every sync of the CronJob. Pure.
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'
import {compareStrings} from '../../util/compare.js'
import {FinishedCondition} from '../jobutil/utils.js'

export const CJ = 'pkg/controller/cronjob/cronjob_controllerv2.go'
export const CJU = 'pkg/controller/cronjob/utils.go'

interface JobLike {
  metadata?: {name?: string; uid?: string; ownerReferences?: {uid: string; controller?: boolean}[]}
  status?: {startTime?: string | null}
}

/** getFinishedStatus: the first Complete or Failed condition with status True. */
export function finishedType(job: KubeObject): 'Complete' | 'Failed' | undefined {
  return FinishedCondition(job)?.type as 'Complete' | 'Failed' | undefined
}

/** byJobStartTime.Less: no start time sorts last; equal start times (both nil too) by name. */
export function compareByJobStartTime(a: KubeObject, b: KubeObject): number {
  const sa = (a as JobLike).status?.startTime ?? undefined
  const sb = (b as JobLike).status?.startTime ?? undefined
  if (sa === undefined && sb !== undefined) return 1
  if (sb === undefined && sa !== undefined) return -1
  if (sa === sb || (sa !== undefined && sb !== undefined && Date.parse(sa) === Date.parse(sb)))
    return compareStrings((a as JobLike).metadata?.name ?? '', (b as JobLike).metadata?.name ?? '')
  return Date.parse(sa!) - Date.parse(sb!)
}

/** removeOldestJobs over one list: the first len − limit by start time. */
export function removeOldestJobs(jobs: readonly KubeObject[], limit: number): KubeObject[] {
  const n = jobs.length - limit
  if (n <= 0) return []
  return [...jobs].sort(compareByJobStartTime).slice(0, n)
}

/** Jobs whose controller ownerRef is the CronJob (the jobControllerUID index). */
export function jobsOf(cronJobUid: string, jobs: readonly KubeObject[]): KubeObject[] {
  return jobs.filter((j) => ((j as JobLike).metadata?.ownerReferences ?? []).some((r) => r.controller === true && r.uid === cronJobUid))
}

/** cleanupFinishedJobs: what it deletes from each list (a nil limit leaves its list alone). */
export function cleanupFinishedJobs(cronJob: KubeObject, jobs: readonly KubeObject[]): {successful: KubeObject[]; failed: KubeObject[]; deleted: KubeObject[]} {
  const spec = (cronJob.spec ?? {}) as {successfulJobsHistoryLimit?: number; failedJobsHistoryLimit?: number}
  const mine = jobsOf(cronJob.metadata?.uid ?? '', jobs)
  const successful = mine.filter((j) => finishedType(j) === 'Complete')
  const failed = mine.filter((j) => finishedType(j) === 'Failed')
  const deleted: KubeObject[] = []
  if (typeof spec.successfulJobsHistoryLimit === 'number') deleted.push(...removeOldestJobs(successful, spec.successfulJobsHistoryLimit))
  if (typeof spec.failedJobsHistoryLimit === 'number') deleted.push(...removeOldestJobs(failed, spec.failedJobsHistoryLimit))
  return {successful, failed, deleted}
}

export interface CronJobHistoryReplay {
  actor: Actor
  steps: Step[]
  headline: string
}

export function replayCronJobHistory(job: KubeObject, cronJob: KubeObject, jobs: readonly KubeObject[]): CronJobHistoryReplay {
  const name = job.metadata?.name
  const cj = `${cronJob.metadata?.namespace}/${cronJob.metadata?.name}`
  const spec = (cronJob.spec ?? {}) as {successfulJobsHistoryLimit?: number; failedJobsHistoryLimit?: number}
  const plan = cleanupFinishedJobs(cronJob, jobs)
  const type = finishedType(job)
  const list = type === 'Complete' ? plan.successful : type === 'Failed' ? plan.failed : []
  const limit = type === 'Complete' ? spec.successfulJobsHistoryLimit : type === 'Failed' ? spec.failedJobsHistoryLimit : undefined
  const field = type === 'Failed' ? 'failedJobsHistoryLimit' : 'successfulJobsHistoryLimit'
  const order = [...list].sort(compareByJobStartTime).map((j) => `${j.metadata?.name} (start ${(j as JobLike).status?.startTime ?? 'none'})`)
  const deleted = plan.deleted.some((j) => j.metadata?.name === name)
  const steps: Step[] = [
    {
      rule: 'cleanupFinishedJobs',
      upstream: `${CJ} cleanupFinishedJobs, removeOldestJobs; ${CJU} byJobStartTime`,
      inputs: {[field]: limit ?? null, finished: type ?? 'no', jobs: order},
      result: deleted ? 'delete' : 'kept',
      why: !type
        ? 'not finished (no Complete or Failed condition with status True): history limits count only finished Jobs'
        : limit === undefined
          ? `${field} is unset: that list is never trimmed`
          : `${list.length} ${type === 'Complete' ? 'successful' : 'failed'} Job(s) of CronJob ${cj}, limit ${limit}: the ${Math.max(0, list.length - limit)} with the oldest start time go (DELETE, propagationPolicy Background)`,
    },
  ]
  const actor = (action: Actor['action'], evidence: string[], next: Actor['next'] = []): Actor => ({
    actor: 'cronjob',
    action,
    rule: 'cleanupFinishedJobs',
    evidence,
    next,
  })
  if (deleted)
    return {
      actor: actor(
        'willDelete',
        [`${field} ${limit}`, `${list.length} ${type} Jobs, oldest start first: ${order.join(', ')}`],
        [{change: `CronJob ${cj}: spec.${field}`, why: `raise it above ${limit} to keep more finished Jobs`}],
      ),
      steps,
      headline: `The cronjob controller deletes it on its next sync of CronJob ${cj}: ${list.length} ${type === 'Complete' ? 'successful' : 'failed'} Jobs exceed ${field} ${limit} and it is among the oldest.`,
    }
  return {
    actor: actor('none', [type ? `${field} ${limit ?? 'unset'}: within it` : 'not finished']),
    steps,
    headline: type
      ? `Within CronJob ${cj}'s ${field} (${limit ?? 'unset'}): the cronjob controller keeps it.`
      : `Not finished: CronJob ${cj}'s history limits do not count it yet.`,
  }
}
