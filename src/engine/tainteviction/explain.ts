// The explanation for `kubectl why evicted pod/NAME`: the pod's node, its NoExecute taints, the first matching
// toleration of each, the minimum tolerationSeconds, and when (or why not) the taint-eviction controller deletes it.
import type {ClusterAnalysis, NodeAnalysis} from '../nodelifecycle/analyze.js'
import {noExecuteAfterPass} from '../nodelifecycle/analyze.js'
import {noExecuteTaints, UNREACHABLE_NO_EXECUTE} from '../nodelifecycle/taints.js'
import {humanDuration, iso} from '../nodelifecycle/time.js'
import type {NodeReleaseAnswer} from '../nodelifecycle/by-release.js'
import {nodeAnswersText} from '../nodelifecycle/explain.js'
import type {NodeLifecycleSettings, NodeLike} from '../nodelifecycle/types.js'
import type {Explanation, NextStep, SourceDescription, Step} from '../../explanation.js'
import {EVICTED_SEVERITY, type EvictedVerdict} from './descriptor.js'
import {collectEvidence, type EvictionEvidence, wasEvictedByTaintManager} from './evidence.js'
import {describeOrigin, tolerationOrigin} from './origins.js'
import {estimateEvictionTime, type EvictionTiming, type PodDecision, processPodOnNode} from './process.js'
import {foreverBecause, immediateBecause, secondsOf} from './toleration.js'
import type {EventLike, PodLike, Taint} from './types.js'
import {POD_TEMPLATE_HASH_LABEL} from '../../hash/template-records.js'

const TE = 'pkg/controller/tainteviction/taint_eviction.go'
const HELPERS = 'pkg/apis/core/v1/helper/helpers.go (GetMatchingTolerations); staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint)'

export type {EvictedVerdict}
export type NotEvictedReason = 'masterDisruption' | 'zoneRateZero' | 'circuitOpen' | 'taintEvictionDisabled' | 'leaseLookupError'

export {EVICTED_SEVERITY}

export interface EvictedInput {
  namespace: string
  name: string
  pod?: PodLike
  events: readonly EventLike[]
  node?: NodeLike
  nodeAnalysis?: NodeAnalysis
  cluster?: ClusterAnalysis
  now: number
  settings: NodeLifecycleSettings
  source: SourceDescription
  /**
   * When the data does not settle the control plane's release and the pod's node answers differently under the
   * releases it leaves possible (nodelifecycle/by-release.ts): why, and the node's answer under each.
   */
  nodeByRelease?: {why: string; answers: readonly NodeReleaseAnswer[]}
}

const tk = (x: Taint) => `${x.key}${x.value ? `=${x.value}` : ''}:${x.effect}`

interface Outcome {
  verdict: EvictedVerdict
  summary: string
  reason?: NotEvictedReason
  timing?: EvictionTiming & {estimatedFrom?: string}
  taints: Taint[]
  decision?: PodDecision
  hypothetical: boolean
}

function decide(input: EvictedInput, ev: EvictionEvidence): Outcome {
  const {pod, node, nodeAnalysis: na, settings, now} = input
  const ref = `${input.namespace}/${input.name}`
  if (!pod && !wasEvictedByTaintManager(ev)) {
    return {
      verdict: 'notAffected',
      taints: [],
      hypothetical: false,
      summary: `Pod ${ref} no longer exists and no TaintManagerEviction event or DisruptionTarget condition says the taint-eviction controller deleted it (as far as the remaining events go; they expire after an hour by default).`,
    }
  }
  if (!pod || wasEvictedByTaintManager(ev)) {
    const mark = ev.marked.at(-1)
    const when = ev.disruptionTarget?.at ?? mark?.at
    // With the pod and its node still there, replay the decision too: does the deadline agree with what happened?
    const taints = pod && node ? noExecuteTaints(node) : []
    const gate = {comparisonOperators: settings.taintTolerationComparisonOperators}
    const d = taints.length > 0 ? processPodOnNode(taints, pod?.spec?.tolerations ?? [], gate) : undefined
    const timing = d && pod ? estimateEvictionTime(pod, taints, pod.spec?.tolerations ?? [], gate) : undefined
    const agrees =
      timing && when !== undefined ? ` — the replay expects ≈ ${iso(timing.deadline)} (${humanDuration(timing.minMs)} after ${timing.seenFrom})` : ''
    return {
      verdict: 'evicted',
      taints,
      decision: d,
      timing,
      hypothetical: false,
      summary: `Evicted by the taint-eviction controller${when ? ` at ${iso(when)}` : ''}${ev.disruptionTarget ? ' (DisruptionTarget condition, reason DeletionByTaintManager)' : ''}${mark ? ` ("${mark.message}")` : ''}${agrees}${!pod ? '; the pod no longer exists' : ''}.`,
    }
  }
  const tolerations = pod.spec?.tolerations ?? []
  const gate = {comparisonOperators: settings.taintTolerationComparisonOperators}
  if (!pod.spec?.nodeName)
    return {verdict: 'notAffected', taints: [], hypothetical: false, summary: `Pod ${ref} is not bound to a node: taint eviction ignores it.`}
  if (!node)
    return {
      verdict: 'notAffected',
      taints: [],
      hypothetical: false,
      summary: `Node ${pod.spec.nodeName} no longer exists: the taint-eviction controller forgets it (pending timers are not cancelled); the pod garbage collector handles pods of deleted nodes.`,
    }
  // The node's NoExecute taints as the node lifecycle replay leaves them: entering master disruption mode in this pass
  // takes the controller's off (handleDisruption), which cancels the pod's timer (handleNodeUpdate, no taints left).
  const taints = noExecuteAfterPass(node, na)
  if (taints.length > 0) {
    // The verdict is the replayed timer's, not today's taint set's: a timer that fired before a later untolerated
    // taint, or one that a later 0 s toleration leaves standing, decides (estimateEvictionTime).
    const d = processPodOnNode(taints, tolerations, gate)
    const timing = estimateEvictionTime(pod, taints, tolerations, gate)
    if (!timing)
      return {
        verdict: 'toleratedForever',
        taints,
        decision: d,
        hypothetical: false,
        summary: `Every NoExecute taint on ${node.metadata?.name} is tolerated ${foreverBecause(d.kind === 'forever' ? d.matches.map((m) => m.toleration!) : [])}: the pod stays, however long the taints last.`,
      }
    if (!settings.taintEvictionEnabled)
      return {
        verdict: 'notEvictedBecause',
        reason: 'taintEvictionDisabled',
        taints,
        decision: d,
        timing,
        hypothetical: false,
        summary: `Node ${node.metadata?.name} has ${taints.map(tk).join(', ')}, but the taint-eviction controller is not running (--controllers): NoExecute taints are not enforced.`,
      }
    if (timing.immediate) {
      const last = timing.history.at(-1)
      const untolerated =
        d.kind === 'notAllTolerated' && last?.minMs === undefined ? d.matches.filter((m) => m.index === undefined).map((m) => tk(m.taint)) : []
      const why =
        untolerated.length > 0
          ? `${untolerated.join(', ')} is not tolerated`
          : `${immediateBecause(d.kind === 'timed' ? d.matches.map((m) => m.toleration!) : [])} and no timer was running`
      return {
        verdict: 'evictedImmediately',
        taints,
        decision: d,
        timing,
        hypothetical: false,
        summary: `${why}: deleted as soon as the taint-eviction controller saw it (≈ ${iso(timing.seenAt)})${pod.metadata?.deletionTimestamp ? '' : '; the pod is still there, so the controller has not acted (not running, or its 5 attempts failed)'}.`,
      }
    }
    const overdue = timing.deadline <= now
    const stood = timing.history.some((h) => h.action === 'kept')
      ? ' Later taints did not move it: a running timer stands (processPodOnNode keeps it when its start + the new minimum is earlier).'
      : ''
    const fired = timing.history.some((h) => h.action === 'fired') ? ' It fired before the later taints arrived, so they changed nothing.' : ''
    return {
      verdict: 'evictAt',
      taints,
      decision: d,
      timing,
      hypothetical: false,
      summary: overdue
        ? `Evicted at ≈ ${iso(timing.deadline)}: ${humanDuration(timing.minMs)} (the smallest first-match tolerationSeconds when the timer was armed) after the controller first saw it with the taint (≈ ${iso(timing.seenAt)}, ${timing.seenFrom}); that was ${humanDuration(now - timing.deadline)} ago and the pod is still there — a restarted controller restarts its timers.${fired}${stood}`
        : `Will be evicted at ≈ ${iso(timing.deadline)}, in ${humanDuration(timing.deadline - now)}: ${humanDuration(timing.minMs)} (the smallest first-match tolerationSeconds when the timer was armed) after the controller first saw it with the taint (≈ ${iso(timing.seenAt)}, ${timing.seenFrom}).${stood}`,
    }
  }
  // No NoExecute taint: does the node lifecycle controller owe one, and what would it do to this pod?
  if (na?.verdict === 'circuitOpen' && na.verdictOnceCaughtUp && !['healthy', 'excluded', 'withinGrace'].includes(na.verdictOnceCaughtUp)) {
    // Not evaluated while the breaker is open; once the cache has caught up its stale lease makes it Unknown.
    const owed = UNREACHABLE_NO_EXECUTE
    const d = processPodOnNode([owed], tolerations, gate)
    if (d.kind === 'forever')
      return {
        verdict: 'toleratedForever',
        taints: [owed],
        decision: d,
        hypothetical: true,
        summary: `Node ${node.metadata?.name} will be marked Unknown once the lease cache catches up; the pod tolerates ${tk(owed)} forever.`,
      }
    return {
      verdict: 'notEvictedBecause',
      reason: 'circuitOpen',
      taints: [owed],
      decision: d,
      hypothetical: true,
      summary: `Node ${node.metadata?.name} has stopped renewing its lease, but the lease circuit breaker is open: no node is evaluated until the lease cache catches up, so it is not marked Unknown or tainted yet. Once it is (${na.verdictOnceCaughtUp}), ${tk(owed)} applies to this pod.`,
    }
  }
  const expected = na?.noExecute.expected
  if (!na || !expected)
    return {
      verdict: 'notAffected',
      taints,
      hypothetical: false,
      summary: `Node ${node.metadata?.name} carries no NoExecute taint and is ${na?.verdict ?? 'not evaluated'}: nothing evicts this pod.`,
    }
  const d = processPodOnNode([expected], tolerations, gate)
  if (d.kind === 'forever')
    return {
      verdict: 'toleratedForever',
      taints: [expected],
      decision: d,
      hypothetical: true,
      summary: `Node ${node.metadata?.name} is not ready; even once it carries ${tk(expected)} the pod tolerates it forever (${foreverBecause(d.matches.map((m) => m.toleration!))}).`,
    }
  const status = na.noExecute.status
  if (status === 'blocked') {
    const reason = na.noExecute.blockedBecause as NotEvictedReason
    const text =
      reason === 'masterDisruption'
        ? `master disruption mode (every zone is fully disrupted): the node lifecycle controller adds no NoExecute taints${na.noExecute.removedThisPass ? `, and entering the mode in this pass it takes ${na.noExecute.removedThisPass.taints.map(tk).join(', ')} off the node (handleDisruption: markNodeAsReachable on every node), which cancels the pod's timer` : ''}`
        : reason === 'zoneRateZero'
          ? `zone ${na.zoneName} is partially disrupted and small (≤ --large-cluster-size-threshold counted nodes): its taint rate is 0`
          : reason === 'circuitOpen'
            ? 'the lease circuit breaker is open: no node is evaluated until the lease cache catches up'
            : "the controller could not verify the node's lease and skipped it"
    return {
      verdict: 'notEvictedBecause',
      reason,
      taints: [expected],
      decision: d,
      hypothetical: true,
      summary: `Node ${node.metadata?.name} is not ready but has no ${tk(expected)}: ${text}. The pod is not evicted while that lasts.`,
    }
  }
  if (status === 'pending' && na.noExecute.pendingWithinMs !== undefined) {
    const taintBy = now + na.noExecute.pendingWithinMs
    const minMs = d.kind === 'timed' ? d.minMs : 0
    return {
      verdict: 'evictAt',
      taints: [expected],
      decision: d,
      hypothetical: true,
      timing: {
        seenAt: taintBy,
        seenFrom: `the expected taint time (zone queue: within ${humanDuration(na.noExecute.pendingWithinMs)})`,
        deadline: taintBy + minMs,
        minMs,
        immediate: minMs <= 0,
        confidence: 'possible',
        history: [],
      },
      summary: `Node ${node.metadata?.name} is queued for ${tk(expected)} (within ≈ ${humanDuration(na.noExecute.pendingWithinMs)}); then the pod will be evicted after ${humanDuration(minMs)}: by ≈ ${iso(taintBy + minMs)} at the latest, in ${humanDuration(taintBy + minMs - now)}.`,
    }
  }
  return {
    verdict: 'notAffected',
    taints,
    hypothetical: false,
    summary: `Node ${node.metadata?.name} carries no NoExecute taint (${na.verdict}): nothing evicts this pod now.`,
  }
}

/**
 * The object whose pod template a change belongs in. A ReplicaSet named `<deployment>-<pod-template-hash>` is the
 * Deployment controller's (pkg/controller/deployment/sync.go getNewReplicaSet: `Name: d.Name + "-" + podTemplateSpecHash`),
 * and that controller overwrites the ReplicaSet's template, so the change goes to the Deployment. The name is the
 * evidence (the ReplicaSet's own owner reference is not read here), and the text says so.
 */
function templateHolder(input: EvictedInput): {where: string; note: string} {
  const owner = input.pod?.metadata?.ownerReferences?.find((r) => r.controller)
  if (!owner) return {where: `Pod ${input.namespace}/${input.name}`, note: ''}
  const hash = (input.pod?.metadata as {labels?: Record<string, string>} | undefined)?.labels?.[POD_TEMPLATE_HASH_LABEL]
  if (owner.kind === 'ReplicaSet' && hash && owner.name.endsWith(`-${hash}`) && owner.name.length > hash.length + 1) {
    const deployment = owner.name.slice(0, -(hash.length + 1))
    return {
      where: `the pod template of Deployment ${input.namespace}/${deployment}`,
      note: ` (ReplicaSet ${owner.name} is named as the Deployment controller names its ReplicaSets, and that controller overwrites their templates)`,
    }
  }
  return {where: `the pod template of ${owner.kind} ${input.namespace}/${owner.name}`, note: ''}
}

/**
 * A longer toleration for the taint that will evict the pod. Where the pod's toleration is the one the
 * DefaultTolerationSeconds admission plugin appended (origins.ts), the template holds none to raise: the step is to
 * add one, which the plugin then leaves alone (it appends only when no toleration covers the key).
 */
function longerToleration(input: EvictedInput, o: Outcome, taint: Taint, where: string, note: string): NextStep {
  const tolerations = input.pod?.spec?.tolerations ?? []
  const match = o.decision && o.decision.kind !== 'noTaints' ? o.decision.matches.find((m) => m.taint.key === taint.key && m.index !== undefined) : undefined
  const t = match?.index !== undefined ? tolerations[match.index] : undefined
  const why = 'a longer toleration gives the node longer to come back; it takes effect for pods created after the change, not for a running timer'
  if (t && input.pod && tolerationOrigin(t, input.pod) === 'admissionDefault') {
    return {
      change: `${where}: spec.tolerations += {key: ${taint.key}, operator: Exists, effect: NoExecute, tolerationSeconds: <more than ${t.tolerationSeconds}>}`,
      why: `the pod's ${t.tolerationSeconds} s toleration was likely ${describeOrigin('admissionDefault')}, so the template has none to raise; ${why}${note}`,
    }
  }
  return {change: `${where}: spec.tolerations (the first one matching ${taint.key}): raise tolerationSeconds`, why: `${why}${note}`}
}

/** What to do next about an eviction verdict: a toleration to add, a node to look at (never done by the tool). */
function evictedNext(input: EvictedInput, o: Outcome): NextStep[] {
  const ref = `-n ${input.namespace}`
  const nodeName = input.pod?.spec?.nodeName
  const node = nodeName ? [{command: `kubectl why node ${nodeName}`, why: 'why the node is tainted (or owed a taint) and since when'}] : []
  const {where, note} = templateHolder(input)
  const untolerated = o.decision && o.decision.kind !== 'noTaints' ? o.decision.matches.filter((m) => m.index === undefined).map((m) => m.taint) : []
  switch (o.verdict) {
    case 'evictedImmediately':
      return [
        ...untolerated.map((t) => ({
          change: `${where}: spec.tolerations += {key: ${t.key}, operator: Exists, effect: NoExecute, tolerationSeconds: 300}`,
          why: `nothing tolerates ${tk(t)}; a toleration with tolerationSeconds keeps the pod that long, without it forever (only for pods that must stay on a failed node)${note}`,
        })),
        ...node,
      ]
    case 'evictAt': {
      const first = o.taints[0]
      return [...(first ? [longerToleration(input, o, first, where, note)] : []), ...node]
    }
    case 'evicted':
      return [
        {
          command: `kubectl get events ${ref} --field-selector involvedObject.name=${input.name}`,
          why: 'the TaintManagerEviction and NodeNotReady events around the eviction',
        },
        ...node,
      ]
    case 'notEvictedBecause':
      return node.length > 0 ? node : [{command: 'kubectl why node', why: 'what keeps the controller from tainting'}]
    default:
      return []
  }
}

export interface EvictedTimeline {
  lastHeartbeat: string | null
  lastRenewal: string | null
  graceExpiry: string | null
  taintAdded: string | null
  controllerSawTaint: string | null
  evictionDeadline: string | null
  markedForDeletion: string | null
  now: string
}

export function explainEvicted(input: EvictedInput): Explanation {
  const ev = collectEvidence(input.namespace, input.name, input.pod, input.events)
  const o = decide(input, ev)
  const pod = input.pod
  const tolerations = pod?.spec?.tolerations ?? []
  const matches = o.decision && o.decision.kind !== 'noTaints' ? o.decision.matches : []
  const steps: Step[] = []
  if (input.nodeAnalysis) {
    const na = input.nodeAnalysis
    steps.push({
      rule: 'node lifecycle',
      upstream: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go',
      inputs: {node: na.name, verdict: na.verdict, zone: na.zoneName},
      result: na.verdict,
      why: `NoExecute taint ${na.noExecute.expected ? tk(na.noExecute.expected) : 'not expected'}: ${na.noExecute.status}${na.noExecute.blockedBecause ? ` (${na.noExecute.blockedBecause})` : ''}`,
    })
  }
  if (matches.length > 0) {
    steps.push({
      rule: 'GetMatchingTolerations',
      upstream: HELPERS,
      inputs: {taints: o.taints.map(tk), tolerations: tolerations.length},
      result: matches.every((m) => m.index !== undefined) ? 'allTolerated' : 'notAllTolerated',
      why: matches
        .map((m) =>
          m.index === undefined
            ? `${tk(m.taint)}: no toleration matches`
            : `${tk(m.taint)}: toleration #${m.index} (${secondsOf(m.toleration) === undefined ? 'forever' : `${secondsOf(m.toleration)}s`}) is the first match in spec order — ${describeOrigin(tolerationOrigin(m.toleration!, pod ?? {}))}`,
        )
        .join('; '),
      ...(o.hypothetical
        ? {
            inferred: {
              evidence: 'the node does not carry this taint yet: matched against the taint the node lifecycle controller owes it',
              confidence: 'likely' as const,
            },
          }
        : {}),
    })
  }
  if (tolerations.some((x) => x.operator === 'Lt' || x.operator === 'Gt')) {
    const on = input.settings.taintTolerationComparisonOperators
    steps.push({
      rule: 'TaintTolerationComparisonOperators',
      upstream: 'staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint, compareNumericValues)',
      inputs: {gate: on, from: (input.source.settings?.TaintTolerationComparisonOperators?.from as string | undefined) ?? null},
      result: on ? 'numericMatch' : 'noMatch',
      why: on
        ? 'the gate is on: Lt/Gt compare the values as canonical int64 decimals'
        : 'the gate is off (alpha, off by default): Lt/Gt tolerations match no taint, so they protect nothing',
    })
  }
  if (o.decision?.kind === 'timed' || o.decision?.kind === 'forever') {
    const min = o.decision.kind === 'timed' ? o.decision.minMs : -1
    steps.push({
      rule: 'getMinTolerationTime',
      upstream: `${TE} (getMinTolerationTime)`,
      inputs: {tolerationSeconds: matches.map((m) => secondsOf(m.toleration) ?? null)},
      result: min < 0 ? 'forever' : `${min / 1000}s`,
      why: 'the minimum over the first-match tolerations only; any value ≤ 0 means at once, none set means never',
    })
  }
  if (o.timing) {
    steps.push({
      rule: 'processPodOnNode',
      upstream: `${TE} (processPodOnNode); pkg/controller/tainteviction/timed_workers.go`,
      inputs: {seenAt: iso(o.timing.seenAt), minTolerationSeconds: o.timing.minMs / 1000},
      result: iso(o.timing.deadline),
      why: `the timer runs from the taint-eviction controller's own clock when it first saw the pod with the taint; the taint's timeAdded is not used by the controller; once armed, later tolerationSeconds changes do not move it${o.timing.history.length > 1 ? `. Replayed: ${o.timing.history.map((h) => `${iso(h.at)} ${h.action}${h.minMs !== undefined ? ` (${humanDuration(h.minMs)})` : ''}${h.taints.length ? ` [${h.taints.join(', ')}]` : ''}`).join('; ')}` : ''}`,
      inferred: {
        evidence: `estimated from ${o.timing.seenFrom}; informer latency adds about a second, a swapped taint (unreachable↔not-ready) or a controller restart moves the real start`,
        confidence: o.timing.confidence,
      },
    })
  }
  if (ev.marked.length || ev.cancelled.length || ev.disruptionTarget) {
    steps.push({
      rule: 'evidence',
      upstream: `${TE} (deletePodHandler: TaintManagerEviction event, DisruptionTarget condition)`,
      inputs: {
        marked: ev.marked.map((m) => ({at: m.at ? iso(m.at) : null, message: m.message})),
        cancelled: ev.cancelled.map((m) => ({at: m.at ? iso(m.at) : null, message: m.message})),
        disruptionTarget: ev.disruptionTarget ?? null,
      },
      result: wasEvictedByTaintManager(ev) ? 'evicted' : 'cancelled',
      why: 'what the controller left behind: the event it records before deleting and the condition it patches',
    })
  }
  const na = input.nodeAnalysis
  const next = evictedNext(input, o)
  const timeline: EvictedTimeline = {
    lastHeartbeat: na?.sign.lastHeartbeat !== undefined ? iso(na.sign.lastHeartbeat) : null,
    lastRenewal: na?.sign.lastRenewal !== undefined ? iso(na.sign.lastRenewal) : null,
    graceExpiry: na ? iso(na.graceExpiry) : null,
    taintAdded:
      o.taints
        .map((x) => x.timeAdded)
        .filter(Boolean)
        .sort()[0] ?? null,
    controllerSawTaint: o.timing ? iso(o.timing.seenAt) : null,
    evictionDeadline: o.timing ? iso(o.timing.deadline) : null,
    markedForDeletion:
      ev.marked.at(-1)?.at !== undefined ? iso(ev.marked.at(-1)!.at!) : ev.disruptionTarget?.at !== undefined ? iso(ev.disruptionTarget.at) : null,
    now: iso(input.now),
  }
  // The release matters to this pod only through the taint its node is owed: a NoExecute taint the node carries
  // runs the same timer under every release (processPodOnNode reads the taint, not the grace period).
  const br = input.nodeByRelease
  const byRelease = br && !(o.taints.length > 0 && !o.hypothetical) && new Set(br.answers.map((a) => JSON.stringify(a.noExecute))).size > 1 ? br : undefined
  if (byRelease)
    steps.unshift({
      rule: 'release',
      upstream: 'kube-controller-manager defaults by release (src/engine/nodelifecycle/defaults.ts)',
      inputs: {releases: byRelease.answers.map((a) => a.versions.join(','))},
      result: 'depends',
      why: `the node's answer under each release the data leaves possible: ${nodeAnswersText(byRelease.answers)}; this pod's answer is under ${input.source.k8sVersion ?? 'the newest'}`,
    })
  const ownSeverity =
    // A deadline for a taint not there yet rests on the zone's rate, unknown when the data may not hold every node.
    o.hypothetical && input.cluster?.evidence && input.cluster.evidence.nodeSet !== 'complete' && EVICTED_SEVERITY[o.verdict] !== 'none'
      ? 'info'
      : EVICTED_SEVERITY[o.verdict]
  return {
    subject: {kind: 'Pod', apiVersion: 'v1', namespace: input.namespace, name: input.name, uid: pod?.metadata?.uid},
    controller: 'tainteviction',
    verdict: o.verdict,
    // A finding only when every release owes the node its taint (then only the timing differs); when some owe none, the
    // pod is evicted under the others only: info, whichever release this answer is under.
    severity:
      !byRelease || byRelease.answers.every((a) => a.noExecute.expected !== null)
        ? ownSeverity
        : ownSeverity !== 'none' || byRelease.answers.some((a) => a.noExecute.expected !== null)
          ? 'info'
          : 'none',
    summary: byRelease
      ? `The Kubernetes version is not known (${byRelease.why}), and this pod's node's NoExecute taint depends on it: ${nodeAnswersText(byRelease.answers)}. --k8s-version X.Y (from \`kubectl version\`) settles it; this answer is under ${input.source.k8sVersion ?? 'the newest'}, one of them. ${o.summary}`
      : o.summary,
    ...(next.length > 0 ? {next} : {}),
    steps,
    evaluatedAt: iso(input.now),
    source: input.source,
    node: pod?.spec?.nodeName ?? null,
    notEvictedBecause: o.reason ?? null,
    taints: o.taints.map((x) => ({key: x.key, value: x.value ?? null, effect: x.effect, timeAdded: x.timeAdded ?? null, present: !o.hypothetical})),
    tolerations: matches.map((m) => ({
      taint: tk(m.taint),
      index: m.index ?? null,
      toleration: m.toleration ?? null,
      tolerationSeconds: secondsOf(m.toleration) ?? null,
      origin: m.toleration ? tolerationOrigin(m.toleration, pod ?? {}) : null,
    })),
    minTolerationSeconds:
      o.timing && !o.hypothetical
        ? o.timing.minMs / 1000
        : o.decision?.kind === 'timed'
          ? o.decision.minMs / 1000
          : o.decision?.kind === 'forever'
            ? null
            : o.decision
              ? 0
              : null,
    estimate: o.timing ? {seenAt: iso(o.timing.seenAt), seenFrom: o.timing.seenFrom, deadline: iso(o.timing.deadline), confidence: o.timing.confidence} : null,
    timeline,
  }
}
