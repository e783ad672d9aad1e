// The Deployment controller's history limit (issue 26 item 3; cleanups.md §3, workloads.md §1.9). Upstream:
// pkg/controller/deployment/sync.go cleanupDeployment (called from sync when paused, rolloutRolling and rolloutRecreate
// once DeploymentComplete holds), deployment/util/deployment_util.go Revision, ReplicaSetsByRevision,
// HasRevisionHistoryLimit, DeploymentComplete. Pure.
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'
import {compareStrings} from '../../util/compare.js'

export const SYNC = 'pkg/controller/deployment/sync.go'
export const DU = 'pkg/controller/deployment/util/deployment_util.go'
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision'
const MAX_INT32 = 2147483647

interface RsLike {
  metadata?: {name?: string; annotations?: Record<string, string>; creationTimestamp?: string | null; deletionTimestamp?: string | null; generation?: number}
  spec?: {replicas?: number}
  status?: {replicas?: number; observedGeneration?: number}
}

/** deploymentutil.Revision: a missing annotation is revision 0; one that does not parse is an error (undefined). */
export function revision(rs: KubeObject): number | undefined {
  const v = (rs as RsLike).metadata?.annotations?.[REVISION_ANNOTATION]
  if (v === undefined) return 0
  return /^[+-]?\d+$/.test(v) ? Number(v) : undefined
}

/** controller.ReplicaSetsByCreationTimestamp: older first, then name. */
function byCreation(a: KubeObject, b: KubeObject): number {
  const ta = (a as RsLike).metadata?.creationTimestamp ?? ''
  const tb = (b as RsLike).metadata?.creationTimestamp ?? ''
  if (ta === tb) return compareStrings((a as RsLike).metadata?.name ?? '', (b as RsLike).metadata?.name ?? '')
  return Date.parse(ta || '0') - Date.parse(tb || '0')
}

/** deploymentutil.ReplicaSetsByRevision: revision ascending; a parse error or a tie falls back to creation time, then name. */
export function compareByRevision(a: KubeObject, b: KubeObject): number {
  const ra = revision(a)
  const rb = revision(b)
  if (ra === undefined || rb === undefined || ra === rb) return byCreation(a, b)
  return ra - rb
}

/** The old ReplicaSets cleanupDeployment deletes, in order (sync.go cleanupDeployment). */
export function cleanupDeployment(
  oldRSs: readonly KubeObject[],
  revisionHistoryLimit: number | undefined,
): {deleted: KubeObject[]; examined: KubeObject[]; skipped: KubeObject[]} {
  if (revisionHistoryLimit === undefined || revisionHistoryLimit === MAX_INT32) return {deleted: [], examined: [], skipped: []}
  const alive = oldRSs.filter((rs) => !(rs as RsLike).metadata?.deletionTimestamp)
  const diff = alive.length - revisionHistoryLimit
  if (diff <= 0) return {deleted: [], examined: [], skipped: []}
  const sorted = [...alive].sort(compareByRevision)
  const examined = sorted.slice(0, diff)
  const deleted: KubeObject[] = []
  const skipped: KubeObject[] = []
  for (const rs of examined) (busy(rs) ? skipped : deleted).push(rs)
  return {deleted, examined, skipped}
}

/** The skip predicate: replicas in spec or status, a generation not yet observed, or already being deleted. */
function busy(rs: KubeObject): boolean {
  const r = rs as RsLike
  return (
    (r.status?.replicas ?? 0) !== 0 ||
    (r.spec?.replicas ?? 1) !== 0 ||
    (r.metadata?.generation ?? 0) > (r.status?.observedGeneration ?? 0) ||
    !!r.metadata?.deletionTimestamp
  )
}

interface DeploymentLike {
  metadata?: {name?: string; namespace?: string; generation?: number; deletionTimestamp?: string | null; annotations?: Record<string, string>}
  spec?: {replicas?: number; paused?: boolean; revisionHistoryLimit?: number}
  status?: {replicas?: number; updatedReplicas?: number; availableReplicas?: number; observedGeneration?: number}
}

/** deploymentutil.DeploymentComplete. */
export function deploymentComplete(d: KubeObject): boolean {
  const x = d as DeploymentLike
  const want = x.spec?.replicas ?? 1
  const s = x.status ?? {}
  return (
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.observedGeneration ?? 0) >= (x.metadata?.generation ?? 0)
  )
}

export interface DeploymentHistoryReplay {
  actor: Actor
  steps: Step[]
  headline: string
}

/**
 * For one ReplicaSet owned by the Deployment: will cleanupDeployment delete it? The new ReplicaSet is the one whose
 * revision is the Deployment's own revision annotation (the controller copies it there), else the highest revision.
 */
export function replayDeploymentHistory(rs: KubeObject, deployment: KubeObject, owned: readonly KubeObject[]): DeploymentHistoryReplay {
  const d = deployment as DeploymentLike
  const name = (rs as RsLike).metadata?.name ?? ''
  const dName = `${d.metadata?.namespace}/${d.metadata?.name}`
  const limit = d.spec?.revisionHistoryLimit
  const dRev = d.metadata?.annotations?.[REVISION_ANNOTATION]
  const newRS =
    owned.find((x) => dRev !== undefined && (x as RsLike).metadata?.annotations?.[REVISION_ANNOTATION] === dRev) ?? [...owned].sort(compareByRevision).at(-1)
  const steps: Step[] = []
  const actor = (action: Actor['action'], evidence: string[], next: Actor['next'] = []): Actor => ({
    actor: 'deployment',
    action,
    rule: 'cleanupDeployment',
    evidence,
    next,
  })
  const limitText = `revisionHistoryLimit ${limit ?? 'unset'}`
  if ((newRS as RsLike | undefined)?.metadata?.name === name) {
    steps.push({
      rule: 'cleanupDeployment',
      upstream: `${SYNC} cleanupDeployment`,
      result: 'new',
      why: `it is the Deployment's current ReplicaSet (revision ${revision(rs)}): never a candidate`,
    })
    return {
      actor: actor('none', [`the current ReplicaSet of Deployment ${dName}`]),
      steps,
      headline: `It is the current ReplicaSet of Deployment ${dName}: the deployment controller keeps it.`,
    }
  }
  const old = owned.filter((x) => x !== newRS)
  const plan = cleanupDeployment(old, limit)
  const complete = deploymentComplete(deployment)
  const paused = d.spec?.paused === true
  const runs = !d.metadata?.deletionTimestamp && (paused || complete)
  const order = [...old].sort(compareByRevision).map((x) => `${(x as RsLike).metadata?.name} (revision ${revision(x) ?? '?'})`)
  steps.push({
    rule: 'cleanupDeployment',
    upstream: `${SYNC} cleanupDeployment; ${DU} ReplicaSetsByRevision`,
    inputs: {revisionHistoryLimit: limit ?? null, oldReplicaSets: order},
    result: plan.deleted.some((x) => (x as RsLike).metadata?.name === name)
      ? 'delete'
      : plan.skipped.some((x) => (x as RsLike).metadata?.name === name)
        ? 'skipped'
        : 'kept',
    why: `${old.length} old ReplicaSet(s), ${limitText}: the first ${Math.max(0, old.filter((x) => !(x as RsLike).metadata?.deletionTimestamp).length - (limit ?? old.length))} by revision are examined, and those at 0 replicas (spec and status) with their generation observed are deleted; busy ones are skipped, not replaced`,
  })
  steps.push({
    rule: 'cleanupDeployment: when',
    upstream: `${SYNC} sync, rolloutRolling; pkg/controller/deployment/recreate.go rolloutRecreate; ${DU} DeploymentComplete`,
    result: runs ? 'runs' : 'not now',
    why: d.metadata?.deletionTimestamp
      ? 'the Deployment is being deleted: the controller only updates its status'
      : paused
        ? 'the Deployment is paused: sync cleans up its history'
        : complete
          ? 'the rollout is complete (updated, total and available replicas equal spec.replicas, generation observed): the next sync cleans up'
          : 'the rollout is not complete: cleanup waits until it is',
  })
  const mine = plan.deleted.find((x) => (x as RsLike).metadata?.name === name)
  if (mine) {
    const evidence = [`${limitText}`, `${old.length} old ReplicaSets, oldest revision first: ${order.join(', ')}`, 'spec.replicas 0, status.replicas 0']
    if (!runs)
      return {
        actor: actor(
          'none',
          [...evidence, complete || paused ? 'the Deployment is being deleted' : 'the rollout is not complete yet'],
          [{command: `kubectl rollout status deployment/${d.metadata?.name} -n ${d.metadata?.namespace}`, why: 'cleanup runs once the rollout completes'}],
        ),
        steps,
        headline: `Beyond Deployment ${dName}'s ${limitText}: the deployment controller deletes it once the rollout completes.`,
      }
    return {
      actor: actor('willDelete', evidence, [{change: `Deployment ${dName}: spec.revisionHistoryLimit`, why: `raise it above ${limit} to keep this revision`}]),
      steps,
      headline: `The deployment controller deletes it on its next sync: it is among the oldest old ReplicaSets beyond Deployment ${dName}'s ${limitText} (${plan.deleted.length} to go).`,
    }
  }
  if (plan.skipped.some((x) => (x as RsLike).metadata?.name === name))
    return {
      actor: actor('none', [limitText, 'beyond the limit but not at 0 replicas (or generation not observed, or being deleted): skipped']),
      steps,
      headline: `Beyond Deployment ${dName}'s ${limitText}, but skipped by the deployment controller's cleanup while it still has replicas.`,
    }
  return {
    actor: actor('none', [`${limitText}: within the limit`]),
    steps,
    headline: `Within Deployment ${dName}'s ${limitText}: the deployment controller keeps it.`,
  }
}
