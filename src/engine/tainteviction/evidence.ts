// What the cluster still shows about a taint-manager eviction: the DisruptionTarget condition the controller
// patches before deleting (reason DeletionByTaintManager), the pod's deletionTimestamp, and the controller's
// TaintManagerEviction events ("Marking for deletion Pod ns/name", "Cancelling deletion of Pod ns/name").
import {parseMillis} from '../nodelifecycle/time.js'
import type {EventLike, PodLike} from './types.js'

export interface EvictionEvidence {
  disruptionTarget?: {reason?: string; message?: string; at?: number}
  deletionRequestedAt?: number
  marked: {at?: number; message: string}[]
  cancelled: {at?: number; message: string}[]
  /** Warning NodeNotReady on the pod: the node lifecycle controller marked it not ready. */
  markedNotReady: {at?: number; message: string}[]
}

export function eventTime(e: EventLike): number | undefined {
  return parseMillis(e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp, 'event time')
}

function isAbout(e: EventLike, namespace: string, name: string): boolean {
  const o = e.involvedObject ?? e.regarding
  return (o?.kind ?? 'Pod') === 'Pod' && o?.name === name && (o?.namespace ?? e.metadata?.namespace) === namespace
}

export function collectEvidence(namespace: string, name: string, pod: PodLike | undefined, events: readonly EventLike[]): EvictionEvidence {
  const dt = (pod?.status?.conditions ?? []).find((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'DeletionByTaintManager')
  const out: EvictionEvidence = {
    disruptionTarget: dt ? {reason: dt.reason, message: dt.message, at: parseMillis(dt.lastTransitionTime, 'DisruptionTarget lastTransitionTime')} : undefined,
    deletionRequestedAt: parseMillis(pod?.metadata?.deletionTimestamp, 'deletionTimestamp'),
    marked: [],
    cancelled: [],
    markedNotReady: [],
  }
  for (const e of events) {
    if (!isAbout(e, namespace, name)) continue
    const message = e.message ?? e.note ?? ''
    if (e.reason === 'TaintManagerEviction') {
      if (message.startsWith('Cancelling')) out.cancelled.push({at: eventTime(e), message})
      else out.marked.push({at: eventTime(e), message})
    } else if (e.reason === 'NodeNotReady') out.markedNotReady.push({at: eventTime(e), message})
  }
  const byTime = (a: {at?: number}, b: {at?: number}) => (a.at ?? 0) - (b.at ?? 0)
  out.marked.sort(byTime)
  out.cancelled.sort(byTime)
  out.markedNotReady.sort(byTime)
  return out
}

/** Evicted by the taint manager: the condition it patches, or its marking event not followed by a cancellation. */
export function wasEvictedByTaintManager(ev: EvictionEvidence): boolean {
  if (ev.disruptionTarget) return true
  const lastMark = ev.marked.at(-1)?.at
  const lastCancel = ev.cancelled.at(-1)?.at
  return ev.marked.length > 0 && (lastCancel === undefined || (lastMark ?? 0) >= lastCancel)
}

/** "Successfully assigned ns/pod to node-x": the scheduler's Scheduled event names the node of a vanished pod. */
export function nodeFromEvents(events: readonly EventLike[], name: string): string | undefined {
  for (const e of events) {
    if (e.reason !== 'Scheduled' || (e.involvedObject ?? e.regarding)?.name !== name) continue
    const m = / to (\S+)$/.exec(e.message ?? e.note ?? '')
    if (m) return m[1]
  }
  return undefined
}
