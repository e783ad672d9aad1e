// Who acted on this pod, read from what the pod itself records, before any replay (decision spec evictions.md §1):
// the DisruptionTarget condition each actor patches before it acts (reason names the actor), status.reason and
// status.message (the kubelet's Evicted / Terminated / Preempting, and its admission rejections, which are not
// evictions), the events the actors record (the kubelet's Evicted with its annotations, the scheduler's Preempted,
// TaintManagerEviction, Killing), and metadata.deletionTimestamp. Pure: objects in, findings out.
import type {ActorAction} from '../../explanation.js'
import {iso, parseMillis} from '../nodelifecycle/time.js'
import type {EventLike, PodLike} from './types.js'

/** Each way a pod is disrupted, by its actor (the --controllers name, or kubelet/scheduler/eviction-api). */
export type Mechanism =
  | 'nodePressure'
  | 'localStorage'
  | 'nodeShutdown'
  | 'criticalPodPreemption'
  | 'schedulerPreemption'
  | 'evictionApi'
  | 'podgc'
  | 'taintManager'

export const ACTOR_OF: Record<Mechanism, string> = {
  nodePressure: 'kubelet',
  localStorage: 'kubelet',
  nodeShutdown: 'kubelet',
  criticalPodPreemption: 'kubelet',
  schedulerPreemption: 'scheduler',
  evictionApi: 'eviction-api',
  podgc: 'podgc',
  taintManager: 'taint-eviction-controller',
}

/** The upstream function that acted, per mechanism (each Actor's rule). */
export const RULE_OF: Record<Mechanism, string> = {
  nodePressure: 'managerImpl.synchronize',
  localStorage: 'managerImpl.localStorageEviction',
  nodeShutdown: 'podManager.killPods',
  criticalPodPreemption: 'CriticalPodAdmissionHandler.evictPodsToFreeRequests',
  schedulerPreemption: 'Evaluator.Preempt',
  evictionApi: 'EvictionREST.Create',
  podgc: 'PodGCController.gcOrphaned',
  taintManager: 'Controller.handlePodUpdate',
}

export const UPSTREAM_OF: Record<Mechanism, string> = {
  nodePressure: 'pkg/kubelet/eviction/eviction_manager.go (synchronize, evictPod)',
  localStorage: 'pkg/kubelet/eviction/eviction_manager.go (localStorageEviction)',
  nodeShutdown: 'pkg/kubelet/nodeshutdown/nodeshutdown_manager.go (killPods)',
  criticalPodPreemption: 'pkg/kubelet/preemption/preemption.go (evictPodsToFreeRequests)',
  schedulerPreemption: 'pkg/scheduler/framework/preemption/executor.go (PreemptPod)',
  evictionApi: 'pkg/registry/core/pod/storage/eviction.go (addConditionAndDeletePod)',
  podgc: 'pkg/controller/podgc/gc_controller.go (gcOrphaned)',
  taintManager: 'pkg/controller/tainteviction/taint_eviction.go',
}

export interface Disruption {
  mechanism: Mechanism
  actor: string
  action: ActorAction
  at?: number
  /** Each piece of the pod's record that names this actor, one short line. */
  evidence: string[]
  /** The message the actor wrote (condition, status or event), for the replays to parse. */
  message?: string
}

/** The kubelet's Evicted event annotations (eviction_manager.go evictPod; helpers.go evictionMessage). */
export interface KubeletEvictedEvent {
  at?: number
  message: string
  starvedResource?: string
  offendingContainers: string[]
  offendingContainersUsage: string[]
}

export interface PreemptedEvent {
  at?: number
  message: string
  /** "Preempted by pod <uid> on node <node>" (1.29+), "Preempted by <ns>/<name> on node <node>" (≤ 1.26.0). */
  preemptorUid?: string
  preemptorRef?: string
  node?: string
  /** The event's related object (events.k8s.io/v1), when the dump keeps it. */
  related?: {namespace?: string; name?: string; uid?: string}
}

export interface PodRecord {
  /** Best evidence first: the DisruptionTarget condition, then status, then events. */
  disruptions: Disruption[]
  /** A kubelet admission rejection: the pod never ran there; not an eviction. */
  rejection?: {reason: string; message: string; at?: number; evidence: string[]}
  deletionAt?: number
  /** DisruptionTarget=True with a reason no actor here is known by (a newer release's, or a third party's). */
  unknownDisruption?: {reason?: string; message?: string; at?: number}
  /** DisruptionTarget=False: an actor announced a disruption that did not happen; the disruption controller reset it. */
  staleDisruption?: {at?: number}
  kubeletEvicted?: KubeletEvictedEvent
  preempted?: PreemptedEvent
  /** Killing events: the kubelet stopping the containers (any cause). */
  killing: {at?: number; message: string}[]
  /** What was looked at, for the answer that names no actor. */
  examined: string[]
}

// types.go: the DisruptionTarget reasons (PodReasonPreemptionByScheduler, …); evictions.md §1.1.
const CONDITION_REASONS: Record<string, Mechanism> = {
  PreemptionByScheduler: 'schedulerPreemption',
  DeletionByTaintManager: 'taintManager',
  EvictionByEvictionAPI: 'evictionApi',
  DeletionByPodGC: 'podgc',
}

// nodeshutdown_manager.go: nodeShutdownReason / nodeShutdownMessage; preemption.go: the kubelet's condition message.
export const SHUTDOWN_MESSAGE = 'Pod was terminated in response to imminent node shutdown.'
const CRITICAL_PREEMPTION_MESSAGE = 'Pod was preempted by Kubelet to accommodate a critical pod.'
// helpers.go nodeLowMessageFmt "The node was low on resource: %v. "
export const NODE_LOW_PREFIX = 'The node was low on resource: '
// kubelet.go rejectPod: "Pod was rejected: " + message (admission failures).
const REJECTED_PREFIX = 'Pod was rejected: '
// helpers.go nodeConditionMessageFmt "The node had condition: %v. " (managerImpl.Admit).
const NODE_CONDITION_PREFIX = 'The node had condition: '
// helpers.go emptyDirMessageFmt, podEphemeralStorageMessageFmt, containerEphemeralStorageMessageFmt.
const LOCAL_STORAGE = [
  /^Usage of EmptyDir volume ".*" exceeds the limit ".*"\. ?/,
  /^Pod ephemeral local storage usage exceeds the total limit of containers /,
  /^Container \S+ exceeded its local ephemeral storage limit /,
]

/** status.reason values the kubelet's admission writes (lifecycle/predicate.go, kubelet.go): never an eviction. */
const ADMISSION_REASONS = new Set([
  'NodeAffinity',
  'UnexpectedAdmissionError',
  'NodeShutdown',
  'InvalidNodeInfo',
  'PodOSSelectorNodeLabelDoesNotMatch',
  'PodOSNotSupported',
  'SupplementalGroupsPolicyNotSupported',
  'UnknownReason',
  'UnexpectedPredicateFailureType',
  'InitContainerRestartPolicyForbidden',
  'TaintToleration',
  'NodePorts',
  'NodeName',
])

const isAdmissionReason = (r: string | undefined) => !!r && (ADMISSION_REASONS.has(r) || r.startsWith('OutOf'))

export function eventTime(e: EventLike): number | undefined {
  return parseMillis(e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp, 'event time')
}

function isAbout(e: EventLike, namespace: string, name: string): boolean {
  const o = e.involvedObject ?? e.regarding
  return (o?.kind ?? 'Pod') === 'Pod' && o?.name === name && (o?.namespace ?? e.metadata?.namespace) === namespace
}

function kubeletMechanism(message: string | undefined, reason: string | undefined): Mechanism | undefined {
  const m = message ?? ''
  if (m.startsWith(NODE_LOW_PREFIX)) return 'nodePressure'
  if (LOCAL_STORAGE.some((re) => re.test(m))) return 'localStorage'
  if (m === SHUTDOWN_MESSAGE || reason === 'Terminated' || reason === 'Shutdown') return 'nodeShutdown'
  if (m === CRITICAL_PREEMPTION_MESSAGE || reason === 'Preempting') return 'criticalPodPreemption'
  return undefined
}

const csv = (s: string | undefined) => (s ? s.split(',').filter((x) => x !== '') : [])

/** "Preempted by pod <uid> on node <node>", the ≤ 1.26.0 "Preempted by <ns>/<name> on node <node>", or "by a pod". */
export function parsePreemptedMessage(message: string): Pick<PreemptedEvent, 'preemptorUid' | 'preemptorRef' | 'node'> {
  const uid = /^Preempted by pod (\S+) on node (\S+?)(?: \(in kube-scheduler memory\))?\.?$/.exec(message)
  if (uid) return {preemptorUid: uid[1], node: uid[2]}
  const ref = /^Preempted by (\S+\/\S+) on node (\S+)$/.exec(message)
  if (ref) return {preemptorRef: ref[1], node: ref[2]}
  const anon = /^Preempted by a pod on node (\S+)$/.exec(message)
  return anon ? {node: anon[1]} : {}
}

/**
 * Read the pod's record: §1.5's order — a True DisruptionTarget names the actor (for TerminationByKubelet the
 * message and status.reason say which kubelet path), then status.reason/message (admission rejections set apart),
 * then the events. One Disruption per mechanism, its evidence merged; the best-evidenced first.
 */
export function readPodRecord(namespace: string, name: string, pod: PodLike | undefined, events: readonly EventLike[]): PodRecord {
  const out: PodRecord = {disruptions: [], killing: [], examined: []}
  const add = (mechanism: Mechanism, line: string, at: number | undefined, message?: string) => {
    const d = out.disruptions.find((x) => x.mechanism === mechanism)
    if (d) {
      // The kubelet writes one message to the condition, the status and the event: quote it once.
      const m = message?.trim()
      d.evidence.push(m && d.message?.trim() === m ? line.replace(`"${m}"`, '(the same message)') : line)
      d.at ??= at
      d.message ??= message
      return
    }
    out.disruptions.push({
      mechanism,
      actor: ACTOR_OF[mechanism],
      action: mechanism === 'podgc' ? 'deleted' : 'evicted',
      at,
      evidence: [line],
      message,
    })
  }
  const conditions = pod?.status?.conditions ?? []
  const dt = conditions.find((c) => c.type === 'DisruptionTarget')
  if (pod) out.examined.push(dt ? `DisruptionTarget=${dt.status}${dt.reason ? ` (${dt.reason})` : ''}` : 'no DisruptionTarget condition')
  if (dt?.status === 'True') {
    const at = parseMillis(dt.lastTransitionTime, 'DisruptionTarget lastTransitionTime')
    const line = `condition DisruptionTarget=True, reason ${dt.reason ?? '(none)'}${dt.message ? `: "${dt.message}"` : ''}${at !== undefined ? ` at ${iso(at)}` : ''}`
    const byReason = dt.reason ? CONDITION_REASONS[dt.reason] : undefined
    if (byReason) add(byReason, line, at, dt.message)
    else if (dt.reason === 'TerminationByKubelet') add(kubeletMechanism(dt.message, pod?.status?.reason) ?? 'nodePressure', line, at, dt.message)
    else out.unknownDisruption = {reason: dt.reason, message: dt.message, at}
  } else if (dt?.status === 'False') out.staleDisruption = {at: parseMillis(dt.lastTransitionTime, 'DisruptionTarget lastTransitionTime')}

  const reason = pod?.status?.reason
  const message = pod?.status?.message ?? ''
  if (pod) out.examined.push(`status phase ${pod.status?.phase ?? '(none)'}${reason ? `, reason ${reason}` : ', no status.reason'}`)
  if (reason) {
    const line = `status.reason ${reason}${message ? `, status.message "${message.trim()}"` : ''}`
    if (message.startsWith(REJECTED_PREFIX) || isAdmissionReason(reason)) {
      out.rejection = {reason, message: message.startsWith(REJECTED_PREFIX) ? message.slice(REJECTED_PREFIX.length) : message, evidence: [line]}
    } else if (reason === 'Evicted' || reason === 'Terminated' || reason === 'Shutdown' || reason === 'Preempting') {
      const m = kubeletMechanism(message, reason)
      // An Evicted status whose message is none of the kubelet's eviction formats is still the eviction manager's.
      add(m ?? 'nodePressure', line, undefined, message)
    }
  }
  const deletion = parseMillis(pod?.metadata?.deletionTimestamp, 'deletionTimestamp')
  if (deletion !== undefined) {
    out.deletionAt = deletion
    out.examined.push(`deletionTimestamp ${iso(deletion)}`)
  } else if (pod) out.examined.push('no deletionTimestamp')

  let podEvents = 0
  for (const e of events) {
    if (!isAbout(e, namespace, name)) continue
    podEvents++
    const msg = e.message ?? e.note ?? ''
    const at = eventTime(e)
    const when = at !== undefined ? ` at ${iso(at)}` : ''
    switch (e.reason) {
      case 'Evicted': {
        if (msg.startsWith(NODE_CONDITION_PREFIX)) {
          // managerImpl.Admit's rejection: the event carries the unprefixed message.
          out.rejection ??= {reason: 'Evicted', message: msg, at, evidence: []}
          out.rejection.at ??= at
          out.rejection.evidence.push(`event Evicted${when}: "${msg.trim()}" (an admission rejection)`)
          break
        }
        const a = e.metadata?.annotations ?? {}
        const k: KubeletEvictedEvent = {
          at,
          message: msg,
          starvedResource: a.starved_resource,
          offendingContainers: csv(a.offending_containers),
          offendingContainersUsage: csv(a.offending_containers_usage),
        }
        if (!out.kubeletEvicted || (at ?? 0) >= (out.kubeletEvicted.at ?? 0)) out.kubeletEvicted = k
        const notes = k.starvedResource
          ? ` (starved_resource ${k.starvedResource}${k.offendingContainers.length ? `, offending_containers ${k.offendingContainers.join(',')}` : ''})`
          : ''
        add(kubeletMechanism(msg, undefined) ?? 'nodePressure', `event Evicted${when}: "${msg.trim()}"${notes}`, at, msg)
        break
      }
      case 'Preempted': {
        const p: PreemptedEvent = {at, message: msg, ...parsePreemptedMessage(msg)}
        if (e.related?.name || e.related?.uid) p.related = {namespace: e.related.namespace, name: e.related.name, uid: e.related.uid}
        out.preempted = p
        add('schedulerPreemption', `event Preempted${when}: "${msg}"`, at, msg)
        break
      }
      case 'Preempting':
        add('criticalPodPreemption', `event Preempting${when}: "${msg}"`, at, msg)
        break
      case 'TaintManagerEviction':
        if (!msg.startsWith('Cancelling')) add('taintManager', `event TaintManagerEviction${when}: "${msg}"`, at, msg)
        break
      case 'Killing':
        out.killing.push({at, message: msg})
        break
      default:
        if (e.type !== 'Warning' || !isAdmissionReason(e.reason)) break
        // kubelet.go rejectPod records the event and writes the status together: the event holds the instant the
        // status lacks.
        if (!out.rejection) out.rejection = {reason: e.reason!, message: msg, at, evidence: [`event ${e.reason}${when}: "${msg}"`]}
        else if (out.rejection.reason === e.reason) {
          out.rejection.at ??= at
          out.rejection.evidence.push(`event ${e.reason}${when}${msg.trim() === out.rejection.message.trim() ? ' (the same message)' : `: "${msg}"`}`)
        }
    }
  }
  out.examined.push(`${podEvents} event(s) about the pod`)
  // The rejection's own reason can be Evicted ("The node had condition"): it is never also a kubelet eviction.
  if (out.rejection)
    out.disruptions = out.disruptions.filter((d) => !(d.mechanism === 'nodePressure' && d.evidence.every((l) => l.startsWith('status.reason'))))
  return out
}

/** The actor that acted, when the record names one: the first disruption (the condition's, when there is one). */
export function primaryDisruption(r: PodRecord): Disruption | undefined {
  return r.disruptions[0]
}
