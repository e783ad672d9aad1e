// The controller's own record of what it did: the events RealPodControl emits for a ReplicaSet
// (controller_utils.go createPods/DeletePod): "Created pod: <name>", "Deleted pod: <name>",
// "Error creating: <err>", "Error deleting: <err>". Events are lossy (spam filter, aggregation, 1 h TTL), so
// they attribute causes; the pods stay the primary record.
import {COMBINED_PREFIX, CONTROLLER_COMPONENT, REASON} from './constants.js'
import {num} from './pod-util.js'
import {instant} from './time.js'
import type {CoreEvent, ReplicaSet} from './types.js'

export type ActionKind = 'create' | 'createFailed' | 'delete' | 'deleteFailed'

export interface ControllerAction {
  kind: ActionKind
  /** The pod the message names (for aggregated events, the last one). */
  pod?: string
  /** Earliest and latest time the event covers, in ms. */
  first: number
  last: number
  /** How many operations the event stands for (count > 1 when repeated or aggregated). */
  count: number
  /** For failures: the API server's error text. */
  error?: string
  combined: boolean
  eventName?: string
}

export interface EventDigest {
  actions: ControllerAction[]
  /** Events about a ReplicaSet of the same name but another UID (an earlier incarnation). */
  otherIncarnation: number
}

const KIND_BY_REASON: Record<string, ActionKind> = {
  [REASON.SuccessfulCreate]: 'create',
  [REASON.FailedCreate]: 'createFailed',
  [REASON.SuccessfulDelete]: 'delete',
  [REASON.FailedDelete]: 'deleteFailed',
}

function eventTimes(e: CoreEvent): {first: number; last: number} | undefined {
  const last =
    instant(e.lastTimestamp) ??
    instant(e.series?.lastObservedTime) ??
    instant(e.eventTime) ??
    instant(e.firstTimestamp) ??
    instant(e.metadata?.creationTimestamp)
  const first = instant(e.firstTimestamp) ?? instant(e.eventTime) ?? last
  if (last === null || first === null) return undefined
  return {first: Math.min(first, last), last}
}

function fromController(e: CoreEvent): boolean {
  const component = e.source?.component || e.reportingComponent || ''
  return component === '' || component === CONTROLLER_COMPONENT
}

export function digestEvents(rs: ReplicaSet, events: readonly CoreEvent[]): EventDigest {
  const actions: ControllerAction[] = []
  let otherIncarnation = 0
  for (const e of events) {
    const kind = KIND_BY_REASON[e.reason ?? '']
    const io = e.involvedObject
    if (kind === undefined || io?.kind !== 'ReplicaSet' || io.name !== rs.metadata.name) continue
    if ((io.namespace ?? rs.metadata.namespace) !== rs.metadata.namespace || !fromController(e)) continue
    if (io.uid && rs.metadata.uid && io.uid !== rs.metadata.uid) {
      otherIncarnation++
      continue
    }
    const times = eventTimes(e)
    if (times === undefined) continue
    let message = e.message ?? ''
    const combined = message.startsWith(COMBINED_PREFIX)
    if (combined) message = message.slice(COMBINED_PREFIX.length)
    const count = Math.max(1, num(e.series?.count ?? e.count, 1))
    const action: ControllerAction = {kind, first: times.first, last: times.last, count, combined, eventName: e.metadata?.name}
    const named = /^(?:Created|Deleted) pod: (.+)$/.exec(message)
    if (named && (kind === 'create' || kind === 'delete')) action.pod = named[1].trim()
    const failed = /^Error (?:creating|deleting): ([\s\S]*)$/.exec(message)
    if (failed) action.error = failed[1]
    else if (kind === 'createFailed' || kind === 'deleteFailed') action.error = message
    actions.push(action)
  }
  actions.sort((a, b) => a.last - b.last || a.first - b.first)
  return {actions, otherIncarnation}
}

export type CreateFailureKind = 'quota' | 'webhook' | 'podSecurity' | 'serviceAccount' | 'limitRange' | 'forbidden' | 'invalid' | 'other'

/** What kind of admission or API failure a FailedCreate message reports (the error text is the API server's). */
export function classifyCreateError(error: string): {kind: CreateFailureKind; detail: string} {
  let m = /exceeded quota: ([^,]+)/.exec(error)
  if (m) return {kind: 'quota', detail: `ResourceQuota ${m[1]} is exhausted`}
  m = /failed quota: ([^:]+): (.*)/.exec(error)
  if (m) return {kind: 'quota', detail: `ResourceQuota ${m[1]} requires: ${m[2]}`}
  m = /admission webhook "([^"]+)" denied the request/.exec(error)
  if (m) return {kind: 'webhook', detail: `admission webhook ${m[1]} denies the pod`}
  m = /(failed calling webhook "[^"]+")/.exec(error)
  if (m) return {kind: 'webhook', detail: m[1]}
  if (/violates PodSecurity/.test(error)) return {kind: 'podSecurity', detail: 'Pod Security admission rejects the pod template'}
  m = /serviceaccount "([^"]+)" not found|error looking up service account ([^:]+)/.exec(error)
  if (m) return {kind: 'serviceAccount', detail: `service account ${m[1] ?? m[2]} is missing`}
  if (/maximum (cpu|memory)|minimum (cpu|memory)|LimitRange/i.test(error)) return {kind: 'limitRange', detail: 'a LimitRange rejects the pod'}
  if (/is forbidden/.test(error)) return {kind: 'forbidden', detail: 'the API server forbids the create'}
  if (/is invalid/.test(error)) return {kind: 'invalid', detail: 'the pod built from the template is invalid'}
  return {kind: 'other', detail: 'the create fails'}
}
