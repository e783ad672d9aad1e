// Who holds each finalizer of an object being deleted, and what would release it (issue 26 item 5; cleanups.md §2).
// Upstream: pkg/controller/volume/pvcprotection/pvc_protection_controller.go processPVC, isBeingUsed, podUsesPVC;
// pkg/controller/volume/pvprotection/pv_protection_controller.go isBeingUsed; pkg/controller/job/job_controller.go
// trackJobStatusAndRemoveFinalizers, canRemoveFinalizer, isPodFailed. foregroundDeletion and orphan are the garbage
// collector's (its own replay). Any other finalizer is named with the manager that wrote it (managedFields) and
// whether something of that name runs in the data. Pure.
import {getControllerOf} from '../../apimachinery/owner-references.js'
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'
import {IsJobFinished} from '../jobutil/utils.js'

export const PVCP = 'pkg/controller/volume/pvcprotection/pvc_protection_controller.go'
export const PVP = 'pkg/controller/volume/pvprotection/pv_protection_controller.go'
export const JOB = 'pkg/controller/job/job_controller.go'
export const PVC_PROTECTION = 'kubernetes.io/pvc-protection'
export const PV_PROTECTION = 'kubernetes.io/pv-protection'
/** batch.JobTrackingFinalizer (k8s.io/api batch/v1/types.go). */
export const JOB_TRACKING = 'batch.kubernetes.io/job-tracking'
const GC_FINALIZERS = new Set(['foregroundDeletion', 'orphan'])

export interface FinalizerWorld {
  /** Pods in the object's namespace (pvc-protection, a manager's pods); undefined: the data cannot show them. */
  pods?: KubeObject[]
  podsWhy?: string
  /**
   * Set when the pods given may not be all the namespace's pods (a dump that lacks some): "no pod uses the claim" then
   * rests on absence the data cannot prove (issue 27 point 4). The phrase says what the data lacks.
   */
  podsIncomplete?: string
  /** The Job that controls a pod (job-tracking); undefined: not in the data. */
  job?: KubeObject
  /** With job undefined: 'absent' when the data proves the Job gone (a live read, a complete list of Jobs). */
  jobKnown?: 'absent' | 'unknown'
  /** Workloads (Deployments, DaemonSets, StatefulSets) anywhere, to tell whether a finalizer's manager still runs. */
  workloads?: KubeObject[]
  /** Set when the workloads given may not be all there are: "does not run in the data" then proves nothing. */
  workloadsIncomplete?: string
  /** Set when the object's managedFields were not kept (the audit keeps none): why no writer is named. */
  managedFieldsDropped?: string
}

/**
 * What a finalizer's holder does next, for the pending-deletions list (issue 26 item 7): releases — it removes the
 * finalizer on its next pass; waits — it runs and waits for something the data shows (a pod using the claim); stuck —
 * the component that removes it is in the data and does not run (no ready replica); absent — the data holds every
 * workload and none of the writer's name; unknown — the data cannot tell.
 */
export type HolderState = 'releases' | 'waits' | 'stuck' | 'absent' | 'unknown'

export interface FinalizerReplay {
  actors: Actor[]
  steps: Step[]
  /** One clause per finalizer for the headline ("held by …"). */
  holds: string[]
  /** Per finalizer (not the collector's), in metadata.finalizers order, aligned with actors. */
  states: {finalizer: string; state: HolderState}[]
}

interface PodLike {
  metadata?: {name?: string; deletionTimestamp?: string | null; deletionGracePeriodSeconds?: number; ownerReferences?: {uid: string; kind: string}[]}
  spec?: {nodeName?: string; volumes?: {name: string; persistentVolumeClaim?: {claimName?: string}; ephemeral?: unknown}[]}
  status?: {phase?: string}
}

/**
 * podUsesPVC: the pod is scheduled and names the claim, or has a generic ephemeral volume whose claim
 * (<pod>-<volume>) is this PVC and the PVC is owned by the pod, unless the pod is shut down (deleted with grace 0).
 */
export function podUsesPVC(pod: KubeObject, pvc: KubeObject): boolean {
  const p = pod as PodLike
  if (!p.spec?.nodeName) return false
  const shutDown = !!p.metadata?.deletionTimestamp && p.metadata?.deletionGracePeriodSeconds === 0
  for (const v of p.spec.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName === pvc.metadata?.name) return true
    if (v.ephemeral && !shutDown && `${p.metadata?.name}-${v.name}` === pvc.metadata?.name) {
      const owned = (pvc.metadata?.ownerReferences ?? []).some((r) => r.kind === 'Pod' && r.controller === true && r.uid === (pod.metadata?.uid ?? ''))
      if (owned) return true
    }
  }
  return false
}

/** The managers whose managedFields set the finalizer (v:"<finalizer>" under f:metadata.f:finalizers). */
export function finalizerManagers(o: KubeObject, finalizer: string): {manager: string; operation?: string; time?: string}[] {
  const mf = (o.metadata as {managedFields?: unknown} | undefined)?.managedFields
  if (!Array.isArray(mf)) return []
  const key = `v:${JSON.stringify(finalizer)}`
  const out: {manager: string; operation?: string; time?: string}[] = []
  for (const e of mf as {manager?: string; operation?: string; time?: string; fieldsV1?: Record<string, Record<string, Record<string, unknown>>>}[]) {
    const set = e.fieldsV1?.['f:metadata']?.['f:finalizers'] as Record<string, unknown> | undefined
    if (set && key in set && e.manager) out.push({manager: e.manager, operation: e.operation, time: e.time})
  }
  return out
}

function actorName(manager: string): string {
  const s = manager
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
  return s || 'unknown'
}

function podText(p: KubeObject): string {
  const x = p as PodLike
  return `Pod ${x.metadata?.name} on ${x.spec?.nodeName} (${x.status?.phase ?? 'phase unknown'}${x.metadata?.deletionTimestamp ? ', terminating' : ''})`
}

/** isPodFailed (job_controller.go): Failed, or — when replacement is not limited to failed pods — deleted and not Succeeded. */
function isPodFailed(pod: KubeObject, job: KubeObject): boolean {
  const p = pod as PodLike
  if (p.status?.phase === 'Failed') return true
  const spec = (job.spec ?? {}) as {podFailurePolicy?: unknown; podReplacementPolicy?: string}
  const onlyFailed = spec.podFailurePolicy !== undefined || spec.podReplacementPolicy === 'Failed'
  return !onlyFailed && !!p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded'
}

export function replayFinalizers(o: KubeObject, world: FinalizerWorld): FinalizerReplay {
  const m = o.metadata ?? {}
  const out: FinalizerReplay = {actors: [], steps: [], holds: [], states: []}
  if (!m.deletionTimestamp) return out
  const ns = m.namespace ? ` -n ${m.namespace}` : ''
  for (const f of m.finalizers ?? []) {
    if (GC_FINALIZERS.has(f)) continue
    if (f === PVC_PROTECTION && o.kind === 'PersistentVolumeClaim') {
      if (!world.pods) {
        out.actors.push({
          actor: 'pvc-protection',
          action: 'blocksDeletion',
          rule: 'processPVC',
          evidence: [`${f}`, `pods in ${m.namespace}: ${world.podsWhy ?? 'not in the data'}`],
          next: [{command: `kubectl get pods${ns} -o wide`, why: 'a scheduled pod that mounts the claim holds it'}],
        })
        out.holds.push(
          `"${f}" (pvc-protection: the data shows no pods to tell whether one uses it): released once no scheduled pod in ${m.namespace} uses the claim`,
        )
        out.states.push({finalizer: f, state: 'unknown'})
        continue
      }
      const users = world.pods.filter((p) => podUsesPVC(p, o))
      out.steps.push({
        rule: 'isBeingUsed',
        upstream: `${PVCP} processPVC, isBeingUsed, podUsesPVC`,
        inputs: {pods: world.pods.length},
        result: users.length > 0 ? 'in use' : world.podsIncomplete ? 'not shown in use' : 'unused',
        why:
          users.length > 0
            ? `${users.map(podText).join('; ')} ${users.length === 1 ? 'uses' : 'use'} the claim (scheduled, with the claim as a volume; a Succeeded or Failed pod still counts while it exists)`
            : world.podsIncomplete
              ? `no scheduled pod in the data uses the claim, but ${world.podsIncomplete}: a pod the data lacks may use it`
              : 'no scheduled pod in the namespace uses the claim: the controller removes the finalizer on its next sync',
      })
      if (users.length > 0) {
        out.actors.push({
          actor: 'pvc-protection',
          action: 'blocksDeletion',
          rule: 'processPVC',
          evidence: users.map(podText),
          next: users.slice(0, 3).map((p) => ({
            command: `kubectl delete pod ${p.metadata?.name}${ns}`,
            why: 'the claim is released once no scheduled pod uses it (delete only if the pod is meant to go)',
          })),
        })
        out.holds.push(`"${f}": ${users.length} pod(s) still use the claim (${users.map((p) => p.metadata?.name).join(', ')}): released once they are gone`)
        out.states.push({finalizer: f, state: 'waits'})
      } else if (world.podsIncomplete) {
        // "No pod uses it" rests on absence: only a complete list of the namespace's pods shows it (issue 27 point 4).
        out.actors.push({
          actor: 'pvc-protection',
          action: 'blocksDeletion',
          rule: 'processPVC',
          evidence: [`no pod in the data uses the claim, but ${world.podsIncomplete}`],
          next: [{command: `kubectl get pods${ns} -o wide`, why: 'the pods of the namespace, every one: a scheduled pod that mounts the claim holds it'}],
        })
        out.holds.push(`"${f}" (pvc-protection: no pod in the data uses it, but ${world.podsIncomplete}): released once no scheduled pod uses the claim`)
        out.states.push({finalizer: f, state: 'unknown'})
      } else {
        out.actors.push({
          actor: 'pvc-protection',
          action: 'none',
          rule: 'processPVC',
          evidence: ['no pod uses the claim: the finalizer comes off on the next sync'],
          next: [],
        })
        out.states.push({finalizer: f, state: 'releases'})
      }
      continue
    }
    if (f === PV_PROTECTION && o.kind === 'PersistentVolume') {
      const phase = (o.status as {phase?: string} | undefined)?.phase
      const bound = phase === 'Bound'
      out.steps.push({
        rule: 'isBeingUsed',
        upstream: `${PVP} isBeingUsed`,
        inputs: {phase},
        result: bound ? 'in use' : 'unused',
        why: `status.phase ${phase ?? 'unset'}: ${bound ? 'Bound holds it' : 'not Bound, so the finalizer comes off on the next sync'}`,
      })
      const claim = (o.spec as {claimRef?: {namespace?: string; name?: string}} | undefined)?.claimRef
      out.actors.push({
        actor: 'pv-protection',
        action: bound ? 'blocksDeletion' : 'none',
        rule: 'isBeingUsed',
        evidence: [`status.phase ${phase ?? 'unset'}`, ...(claim ? [`claimRef ${claim.namespace}/${claim.name}`] : [])],
        next:
          bound && claim
            ? [
                {
                  command: `kubectl why gc pvc/${claim.name} -n ${claim.namespace}`,
                  why: 'the volume is released when its claim is deleted (the PV then leaves Bound)',
                },
              ]
            : [],
      })
      if (bound)
        out.holds.push(
          `"${f}": the volume is Bound${claim ? ` to ${claim.namespace}/${claim.name}` : ''}: released once the claim is deleted and the volume leaves Bound`,
        )
      out.states.push({finalizer: f, state: bound ? 'waits' : 'releases'})
      continue
    }
    if (f === JOB_TRACKING && o.kind === 'Pod') {
      // handleSingleOrphanPod (job_controller.go, stored copy index id 66920481658): a pod with no controller is an
      // orphan and loses the finalizer; one whose controller is not a batch/v1 Job keeps it ("Do not remove
      // finalizer"): the job controller never touches it, and nothing else in Kubernetes removes it.
      const ctrl = getControllerOf(o)
      if (ctrl?.kind !== 'Job' || ctrl.apiVersion !== 'batch/v1') {
        const orphan = !ctrl
        const owner = ctrl ? `${ctrl.kind} ${ctrl.name} (${ctrl.apiVersion})` : ''
        out.steps.push({
          rule: 'handleSingleOrphanPod',
          upstream: `${JOB} handleSingleOrphanPod`,
          result: orphan ? 'orphan: removable' : 'not a Job: kept',
          why: orphan
            ? 'the pod has no controller: the job controller removes the finalizer of an orphan pod on its orphan queue'
            : `its controller is ${owner}, not a batch/v1 Job: the job controller leaves its finalizer, and no other Kubernetes component removes it`,
        })
        out.actors.push({
          actor: 'job',
          action: orphan ? 'none' : 'blocksDeletion',
          rule: 'handleSingleOrphanPod',
          evidence: [orphan ? 'the pod has no controller' : `controller ${owner}`],
          next: orphan
            ? [
                {
                  command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 | grep -i job',
                  why: 'if the finalizer stays, the job controller is down or its patch fails',
                },
              ]
            : [
                {
                  command: `kubectl get pod ${m.name}${ns} -o jsonpath='{.metadata.ownerReferences}'`,
                  why: `the finalizer is the Job controller's, but ${owner} controls the pod: whoever added it must remove it`,
                },
              ],
        })
        if (!orphan) out.holds.push(`"${f}": its controller ${owner} is not a Job, so the job controller never removes it: whoever added it must`)
        out.states.push({finalizer: f, state: orphan ? 'releases' : 'stuck'})
        continue
      }
      const job = world.job
      if (!job) {
        // handleSingleOrphanPod removes the finalizer of a pod whose Job is gone: said only where the data proves it gone.
        const gone = world.jobKnown === 'absent'
        out.steps.push({
          rule: 'handleSingleOrphanPod',
          upstream: `${JOB} handleSingleOrphanPod`,
          result: gone ? 'orphan: removable' : 'Job not in the data',
          why: gone
            ? 'its Job does not exist: the job controller removes the finalizer of an orphan pod on its orphan queue'
            : 'its Job is not in the data, which does not prove it gone: an orphan pod loses the finalizer once the job controller sees its Job gone or finished',
        })
        out.actors.push({
          actor: 'job',
          action: gone ? 'none' : 'blocksDeletion',
          rule: gone ? 'handleSingleOrphanPod' : 'trackJobStatusAndRemoveFinalizers',
          evidence: [gone ? 'its Job does not exist' : 'its Job is not in the data'],
          next: gone
            ? [
                {
                  command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 | grep -i job',
                  why: 'if the finalizer stays, the job controller is down or its patch fails',
                },
              ]
            : [{command: `kubectl get jobs${ns}`, why: 'whether its Job still exists decides who removes the finalizer'}],
        })
        if (!gone) out.holds.push(`"${f}" (the job controller; its Job is not in the data): released once the pod ends or its Job finishes or is gone`)
        out.states.push({finalizer: f, state: gone ? 'releases' : 'unknown'})
        continue
      }
      const jm = job.metadata ?? {}
      const finished = IsJobFinished(job)
      const phase = (o.status as {phase?: string} | undefined)?.phase
      const reason = jm.deletionTimestamp
        ? 'its Job is being deleted'
        : finished
          ? 'its Job has finished'
          : phase === 'Succeeded'
            ? 'the pod Succeeded'
            : isPodFailed(o, job)
              ? 'the pod counts as failed'
              : undefined
      out.steps.push({
        rule: 'canRemoveFinalizer',
        upstream: `${JOB} trackJobStatusAndRemoveFinalizers, canRemoveFinalizer, isPodFailed`,
        result: reason ? 'removable' : 'kept',
        why: reason
          ? `${reason}: the job controller counts it and removes the finalizer on its next sync`
          : 'the pod is neither terminal nor counted as failed and its Job runs: the job controller keeps the finalizer',
      })
      out.actors.push({
        actor: 'job',
        action: reason ? 'none' : 'blocksDeletion',
        rule: 'trackJobStatusAndRemoveFinalizers',
        evidence: [`Job ${jm.namespace}/${jm.name}`, reason ?? `pod phase ${phase ?? 'unknown'}`],
        next: reason
          ? [
              {
                command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 | grep -i job',
                why: 'if the finalizer stays, the job controller is down or its patch fails',
              },
            ]
          : [{command: `kubectl why gc job.batch/${jm.name}${ns}`, why: 'the finalizer comes off when the pod ends or the Job finishes or is deleted'}],
      })
      if (!reason) out.holds.push(`"${f}": the job controller keeps it until the pod ends or Job ${jm.name} finishes`)
      out.states.push({finalizer: f, state: reason ? 'releases' : 'waits'})
      continue
    }
    // Any other finalizer: the manager that wrote it, and whether something of that name still runs.
    const managers = finalizerManagers(o, f)
    const running = managers.flatMap((mg) =>
      (world.workloads ?? []).filter((w) => {
        const n = w.metadata?.name ?? ''
        return n === mg.manager || n.startsWith(`${mg.manager}-`) || mg.manager.startsWith(n)
      }),
    )
    const runText = (w: KubeObject): string => {
      const s = (w.status ?? {}) as {readyReplicas?: number; numberReady?: number}
      return `${w.kind} ${w.metadata?.namespace}/${w.metadata?.name} (${s.readyReplicas ?? s.numberReady ?? 0} ready)`
    }
    const who = managers.length > 0 ? managers.map((x) => `${x.manager} (${x.operation ?? 'Update'}${x.time ? ` at ${x.time}` : ''})`).join(', ') : undefined
    out.steps.push({
      rule: 'managedFields',
      upstream: 'staging/src/k8s.io/apimachinery/pkg/util/managedfields (fieldsV1 set element v:"<finalizer>")',
      result: who ? 'written by' : 'writer unknown',
      why: who
        ? `metadata.finalizers "${f}" was set by ${who}${world.workloads ? (running.length > 0 ? `; in the data: ${running.map(runText).join(', ')}` : `; no Deployment, DaemonSet or StatefulSet of that name is in the data${world.workloadsIncomplete ? `, but ${world.workloadsIncomplete}` : ''}`) : ''}`
        : world.managedFieldsDropped
          ? `the data keeps no managedFields of it (${world.managedFieldsDropped}): its writer is not known here; the domain in its name points at its owner`
          : `no managedFields entry names "${f}" (they may have been stripped): the domain in its name points at its owner`,
    })
    const ready = (w: KubeObject): number =>
      ((w.status ?? {}) as {readyReplicas?: number; numberReady?: number}).readyReplicas ?? ((w.status ?? {}) as {numberReady?: number}).numberReady ?? 0
    const dead = running.length > 0 && running.every((w) => ready(w) === 0)
    out.actors.push({
      actor: managers.length > 0 ? actorName(managers[0].manager) : 'unknown',
      action: 'blocksDeletion',
      rule: 'finalizer',
      evidence: [
        `metadata.finalizers "${f}"`,
        ...(who
          ? [`set by ${who}`]
          : [world.managedFieldsDropped ? `no managedFields kept (${world.managedFieldsDropped})` : 'no managedFields entry names it']),
        ...running.map(runText),
      ],
      next: [
        ...running.slice(0, 2).map((w) =>
          dead
            ? {
                command: `kubectl get ${w.kind?.toLowerCase()} ${w.metadata?.name} -n ${w.metadata?.namespace}`,
                why: `it has no ready replica: nothing runs to remove "${f}"; bring it back and it finishes its cleanup`,
              }
            : {
                command: `kubectl logs -n ${w.metadata?.namespace} ${w.kind?.toLowerCase()}/${w.metadata?.name} --tail=200`,
                why: `the component that removes "${f}" says why it has not`,
              },
        ),
        // No writer named: the managedFields the data dropped (the audit keeps none) are the first thing to read.
        ...(who
          ? []
          : [
              {
                command: `kubectl get ${(o.kind ?? '').toLowerCase()} ${m.name}${ns} -o yaml --show-managed-fields`,
                why: `its managedFields name the manager that set "${f}"`,
              },
            ]),
        {
          change: `${o.kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name}: metadata.finalizers "${f}"`,
          why: `removing it by hand skips what ${managers[0]?.manager ?? 'its owner'} does before letting go`,
        },
      ],
    })
    // Absent only where the data holds every workload (issue 27 point 4); a writer may also run outside the cluster.
    const state: HolderState =
      !who || !world.workloads ? 'unknown' : running.length > 0 ? (dead ? 'stuck' : 'waits') : world.workloadsIncomplete ? 'unknown' : 'absent'
    const where =
      running.length > 0
        ? `; ${running.map(runText).join(', ')}`
        : !world.workloads
          ? ''
          : world.workloadsIncomplete
            ? `, not found in the data, but ${world.workloadsIncomplete}`
            : ', which does not run in the data (no Deployment, DaemonSet or StatefulSet of that name)'
    const writer = managers[0]?.manager
    const release =
      state === 'stuck'
        ? `nothing removes it until ${running.map((w) => `${w.kind} ${w.metadata?.namespace}/${w.metadata?.name}`).join(' or ')} has a ready replica again`
        : state === 'absent'
          ? `nothing in the data removes it: ${writer} would, once it runs again`
          : writer
            ? `released when ${writer} has done its cleanup`
            : 'released by the controller that owns it (the domain in its name)'
    out.holds.push(`"${f}"${who ? ` (written by ${writer}${where})` : ''}: ${release}`)
    out.states.push({finalizer: f, state})
  }
  return out
}
