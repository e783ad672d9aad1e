// Expectations live only in the controller's memory (controller_utils.go ControllerExpectations), so they are
// inferred here, with the evidence and how sure the inference is. The model (decisions §4.1, §5):
//  - manageReplicas calls ExpectCreations(n) / ExpectDeletions(keys) just before a burst of creates or
//    deletes; that is the only moment the 5-minute clock starts (SetExpectations, CU:230);
//  - a create is observed when the pod informer delivers the pod (addPod, replica_set.go:463); failed and
//    skipped creates are subtracted at once (RS:692); a create that fails with NamespaceTerminating counts
//    as a success (RS:680) and is never observed;
//  - a delete is observed when the informer delivers the pod with a deletionTimestamp or its removal, once
//    per chosen pod key (UIDTracking, CU:380), and only through the pod's current controllerRef (RS:581);
//  - the controller waits (skips manageReplicas, but still writes status) until every expected operation
//    is observed or 5 minutes pass; a leader change forgets everything.
import {EXPECTATIONS_TIMEOUT_MS} from './constants.js'
import type {ControllerAction} from './events.js'
import {num} from './pod-util.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import type {StatusComparison} from './status.js'
import {human, instant, iso} from './time.js'
import type {Pod, ReplicaSet, ReplicaSetCondition} from './types.js'

/** Operations further apart than this belong to different manageReplicas calls (slow-start batches run back to back). */
export const BURST_GAP_MS = 10_000

export type Confidence = 'certain' | 'likely' | 'possible'

export interface BurstOperation {
  op: 'create' | 'createFailed' | 'delete' | 'deleteFailed'
  at: string
  pod?: string
  count: number
  /** For successful operations: whether the controller's informer has (most likely) seen it. */
  observed?: boolean
  why: string
  source: 'event' | 'pod'
}

export interface Burst {
  kind: 'create' | 'delete'
  /** The first and last operation of the burst; the expectations were set a moment before `startedAt`. */
  startedAt: string
  lastAt: string
  succeeded: number
  failed: number
  operations: BurstOperation[]
}

export interface UnobservedOperation {
  op: 'create' | 'delete'
  pod: string
  why: string
  confidence: Confidence
}

export type ExpectationState = 'none' | 'fulfilled' | 'pending' | 'expired' | 'reset'

export interface ExpectationsInference {
  state: ExpectationState
  /** Whether syncReplicaSet skips manageReplicas right now (SatisfiedExpectations is false). */
  waiting: boolean
  confidence: Confidence
  burst?: Burst
  /** What the controller most likely still expects: add and del counters. */
  outstanding: {add: number; del: number}
  unobserved: UnobservedOperation[]
  /** The estimated moment the expectations were set, and when they expire (5 minutes later). */
  setAt?: string
  expiresAt?: string
  /** The status shows the controller synced this very state and did not act. */
  gatedSignature: boolean
  evidence: string[]
}

export interface InferenceInput {
  rs: ReplicaSet
  now: number
  /** Pods in the namespace as the controller's informer sees them (the watch-cache view). */
  pods: readonly Pod[]
  /** The quorum view when read separately (metadata is enough); undefined when it is the same read. */
  freshPods?: readonly Pod[]
  /** The controller's events for this ReplicaSet; undefined when they could not be read. */
  actions?: readonly ControllerAction[]
  /** Active claimed pods minus spec.replicas. */
  diff: number
  status: StatusComparison
  failure?: ReplicaSetCondition
  /** The namespace is terminating (creates fail with the NamespaceTerminating cause, silently). */
  namespaceTerminating?: boolean
  /** When the current controller-manager leader acquired its lease (expectations start empty then). */
  leaderSince?: number
}

interface Op {
  kind: BurstOperation['op']
  at: number
  pod?: string
  count: number
  source: 'event' | 'pod'
}

const family = (k: Op['kind']) => (k === 'create' || k === 'createFailed' ? 'create' : 'delete')

function collectOperations(input: InferenceInput): Op[] {
  const {rs} = input
  const ops: Op[] = []
  const named = new Set<string>()
  for (const a of input.actions ?? []) {
    // A repeated or aggregated event stands for `count` operations between its first and last time; only the
    // last one is at a known moment (and, for creates and deletes, names its pod).
    ops.push({kind: a.kind, at: a.last, pod: a.pod, count: 1, source: 'event'})
    if (a.pod !== undefined) named.add(`${a.kind}/${a.pod}`)
    if (a.count > 1) ops.push({kind: a.kind, at: a.first, count: a.count - 1, source: 'event'})
  }
  // Pods are the primary record of creates: events may have been dropped, aggregated or expired.
  const rsCreated = instant(rs.metadata.creationTimestamp) ?? -Infinity
  const seen = new Set<string>()
  for (const pod of [...input.pods, ...(input.freshPods ?? [])]) {
    const name = pod.metadata.name
    if (seen.has(name) || named.has(`create/${name}`)) continue
    seen.add(name)
    const created = instant(pod.metadata.creationTimestamp)
    if (created === null || created < rsCreated || getControllerOf(pod)?.uid !== rs.metadata.uid) continue
    ops.push({kind: 'create', at: created, pod: name, count: 1, source: 'pod'})
  }
  return ops.sort((a, b) => a.at - b.at)
}

/** The last manageReplicas call that left a trace: the newest run of same-kind operations. */
function lastBurst(ops: Op[]): Op[] {
  if (ops.length === 0) return []
  const out = [ops[ops.length - 1]]
  const kind = family(out[0].kind)
  for (let i = ops.length - 2; i >= 0; i--) {
    const op = ops[i]
    if (family(op.kind) !== kind || out[0].at - op.at > BURST_GAP_MS) break
    out.unshift(op)
  }
  return out
}

function byName(pods: readonly Pod[] | undefined): Map<string, Pod> {
  return new Map((pods ?? []).map((p) => [p.metadata.name, p]))
}

export function inferExpectations(input: InferenceInput): ExpectationsInference {
  const {rs, now} = input
  const evidence: string[] = []
  const view = byName(input.pods)
  const fresh = input.freshPods === undefined ? undefined : byName(input.freshPods)
  const lagEvidence = fresh !== undefined
  const ops = collectOperations(input)
  const burstOps = lastBurst(ops)
  const unobserved: UnobservedOperation[] = []
  const operations: BurstOperation[] = []
  let burst: Burst | undefined
  if (input.actions === undefined) evidence.push("the controller's events could not be read: creates are dated from pods only, deletes are not seen")

  if (burstOps.length > 0) {
    const kind = family(burstOps[0].kind)
    let succeeded = 0
    let failed = 0
    for (const op of burstOps) {
      const at = iso(op.at)
      if (op.kind === 'createFailed' || op.kind === 'deleteFailed') {
        failed += op.count
        operations.push({op: op.kind, at, count: op.count, source: op.source, why: 'failed calls are subtracted from the expectations at once'})
        continue
      }
      succeeded += op.count
      if (op.pod === undefined) {
        operations.push({
          op: op.kind,
          at,
          count: op.count,
          observed: true,
          source: op.source,
          why: 'aggregated event: the pods are not named, assumed observed',
        })
        continue
      }
      const seen = op.kind === 'create' ? observeCreate(op.pod, view, fresh, lagEvidence) : observeDelete(op.pod, rs, view, fresh, lagEvidence)
      operations.push({op: op.kind, at, pod: op.pod, count: 1, observed: seen.observed, source: op.source, why: seen.why})
      if (!seen.observed) unobserved.push({op: op.kind, pod: op.pod, why: seen.why, confidence: seen.confidence})
    }
    burst = {kind, startedAt: iso(burstOps[0].at), lastAt: iso(burstOps[burstOps.length - 1].at), succeeded, failed, operations}
  }

  const burstStart = burstOps.length > 0 ? burstOps[0].at : undefined
  const windowOpen = burstStart !== undefined && now - burstStart <= EXPECTATIONS_TIMEOUT_MS
  const setAt = burstStart === undefined ? undefined : iso(burstStart)
  const expiresAt = burstStart === undefined ? undefined : iso(burstStart + EXPECTATIONS_TIMEOUT_MS)

  // The status shows the controller synced exactly this state and did not act: it was gated.
  const current = input.status.generationObserved && input.status.countsMatch
  const gatedSignature = input.diff !== 0 && current && input.failure === undefined && !rs.metadata.deletionTimestamp
  const gatedNote = `status is current (observedGeneration = generation, replicas = ${num(rs.status?.replicas)} active pods) yet the ${input.diff < 0 ? 'deficit' : 'surplus'} of ${Math.abs(input.diff)} persists and no ReplicaFailure condition is set: the controller has synced this state and skipped manageReplicas`

  const outstanding = {
    add: unobserved.filter((u) => u.op === 'create').length,
    del: unobserved.filter((u) => u.op === 'delete').length,
  }
  const base = {burst, outstanding, unobserved, setAt, expiresAt, gatedSignature}

  if (burstStart !== undefined && input.leaderSince !== undefined && input.leaderSince > burstStart) {
    evidence.push(
      `the controller-manager leader acquired its lease at ${iso(input.leaderSince)}, after the last burst (${setAt}): a new leader starts with no expectations`,
    )
    return {...base, state: 'reset', waiting: false, confidence: 'likely', outstanding: {add: 0, del: 0}, evidence}
  }

  if (input.namespaceTerminating && input.diff < 0) {
    if (gatedSignature) evidence.push(gatedNote)
    evidence.push(
      'the namespace is terminating: creates fail with the NamespaceTerminating cause, which manageReplicas counts as successes (no event, never observed), so every attempt leaves expectations that only the 5-minute expiry clears',
    )
    return {...base, state: 'pending', waiting: true, confidence: 'likely', evidence, setAt: undefined, expiresAt: undefined}
  }

  if (burst === undefined) {
    if (gatedSignature) {
      evidence.push(gatedNote)
      evidence.push(
        'no create or delete of this ReplicaSet is on record (events expire after 1 h by default), so when the expectations were set cannot be told',
      )
      return {...base, state: 'pending', waiting: true, confidence: 'possible', evidence}
    }
    evidence.push("no create or delete of this ReplicaSet in its events or its pods' creation times: nothing to wait for")
    return {...base, state: 'none', waiting: false, confidence: input.actions === undefined ? 'possible' : 'likely', evidence}
  }

  if (gatedSignature) evidence.push(gatedNote)
  evidence.unshift(
    `last burst: ${burst.succeeded} ${burst.kind === 'create' ? 'create' : 'delete'}(s)${burst.failed ? ` and ${burst.failed} failed call(s)` : ''} from ${burst.startedAt} to ${burst.lastAt}; the expectations were set just before ${burst.startedAt}`,
  )

  if (!windowOpen) {
    const since = human(now - (burstStart as number) - EXPECTATIONS_TIMEOUT_MS)
    if (unobserved.length === 0 && !gatedSignature) {
      evidence.push(`every operation of the burst is observed, and its 5-minute window ended ${since} ago anyway`)
      return {...base, state: 'fulfilled', waiting: false, confidence: 'likely', evidence}
    }
    evidence.push(`the 5-minute window ended at ${expiresAt} (${since} ago): SatisfiedExpectations is true whatever is still unobserved`)
    if (gatedSignature) {
      evidence.push(
        'the status was last written while the window was still open and nothing has re-synced the ReplicaSet since: expiry does not enqueue it; it acts on its next sync (any change to it or its pods, or the informer resync every 12–24 h)',
      )
    }
    return {...base, state: 'expired', waiting: false, confidence: 'likely', evidence}
  }

  if (unobserved.length > 0) {
    evidence.push(
      `${unobserved.length} operation(s) of the burst not yet observed by the controller's informer: ${unobserved.map((u) => `${u.op} ${u.pod}`).join(', ')}`,
    )
    // A gated status corroborates an operation that is only possibly unobserved.
    const confidence: Confidence = gatedSignature || unobserved.some((u) => u.confidence === 'likely') ? 'likely' : 'possible'
    return {...base, state: 'pending', waiting: true, confidence, evidence}
  }

  if (gatedSignature) {
    evidence.push(
      'every operation on record is observed, so what the controller still waits for left no trace: typically a pod created and deleted before its ADD reached the informer, a watch gap, or creates refused with NamespaceTerminating',
    )
    return {...base, state: 'pending', waiting: true, confidence: 'likely', evidence}
  }

  evidence.push(`every operation of the burst is observed: the expectations are fulfilled (add ≤ 0, del ≤ 0)`)
  return {...base, state: 'fulfilled', waiting: false, confidence: 'likely', evidence}
}

interface Observation {
  observed: boolean
  why: string
  confidence: Confidence
}

function observeCreate(name: string, view: Map<string, Pod>, fresh: Map<string, Pod> | undefined, lagEvidence: boolean): Observation {
  if (view.has(name))
    return {observed: true, why: "the pod is in the informer's view: addPod called CreationObserved", confidence: lagEvidence ? 'certain' : 'likely'}
  if (fresh?.has(name)) {
    return {observed: false, why: 'the pod exists (quorum read) but the watch cache, which the informer mirrors, does not show it yet', confidence: 'likely'}
  }
  return {
    observed: false,
    why: 'created, then deleted: if its ADD never reached the informer (a watch gap), the deletion does not lower the creation count',
    confidence: 'possible',
  }
}

function observeDelete(name: string, rs: ReplicaSet, view: Map<string, Pod>, fresh: Map<string, Pod> | undefined, lagEvidence: boolean): Observation {
  const pod = view.get(name)
  if (pod === undefined) return {observed: true, why: "the pod is gone from the informer's view: deletePod called DeletionObserved", confidence: 'likely'}
  const ref = getControllerOf(pod)
  if (ref?.uid !== rs.metadata.uid) {
    return {
      observed: false,
      why: `the pod no longer names this ReplicaSet as controller (${ref ? `${ref.kind}/${ref.name}` : 'orphaned'}): deletePod resolves the pod's current controllerRef, so this deletion is never counted`,
      confidence: 'likely',
    }
  }
  if (pod.metadata.deletionTimestamp) {
    const grace = pod.metadata.deletionGracePeriodSeconds
    return {
      observed: true,
      why: `the informer shows its deletionTimestamp (${pod.metadata.deletionTimestamp}${grace !== undefined ? `, grace ${grace}s` : ''}): a graceful delete counts once, when the timestamp appears`,
      confidence: lagEvidence ? 'certain' : 'likely',
    }
  }
  const f = fresh?.get(name)
  if (fresh !== undefined && (f === undefined || f.metadata.deletionTimestamp)) {
    return {
      observed: false,
      why: `deleted (${f ? `terminating since ${f.metadata.deletionTimestamp} in a quorum read` : 'gone in a quorum read'}) but the watch cache, which the informer mirrors, still shows it running`,
      confidence: 'likely',
    }
  }
  return {
    observed: false,
    why: 'the controller deleted it, yet the pod shows no deletionTimestamp: the informer has not seen the deletion',
    confidence: 'likely',
  }
}
