// pkg/controller/job/util/utils.go, the helpers the TTL-after-finished, CronJob and Job controllers share:
// FinishedCondition and IsJobFinished. Written once here for the replays that need them.
import type {KubeObject} from '../../cluster/source.js'

export interface JobCondition {
  type: string
  status: string
  lastTransitionTime?: string | null
}

export function jobConditions(job: KubeObject): JobCondition[] {
  const cs = (job.status as {conditions?: unknown} | undefined)?.conditions
  return Array.isArray(cs) ? (cs as JobCondition[]) : []
}

/** FinishedCondition: the first Complete or Failed condition with status True (SuccessCriteriaMet, FailureTarget do not count). */
export function FinishedCondition(job: KubeObject): JobCondition | undefined {
  return jobConditions(job).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')
}

/** IsJobFinished. */
export function IsJobFinished(job: KubeObject): boolean {
  return FinishedCondition(job) !== undefined
}
