// Who acted on the pod, for `kubectl why evicted`: the driver's composition of the pod-eviction replays (no I/O; the
// reads are drive.ts's). The pod's own record names the actor first (../podeviction/evidence.ts); each named actor's
// decision is then replayed — the kubelet's node-pressure ranking, scheduler preemption, the Eviction API against
// the PodDisruptionBudgets, PodGC — and the taint-eviction replay stays as it was for the taint manager. The verdict
// never contradicts the record: a pod whose status or conditions say it was disrupted or is being deleted is never
// notAffected.
import type {Actor, Explanation, NextStep, Problem, Step} from '../../explanation.js'
import {DISRUPTION, EVICTION, evictionAnswer, type PdbLike, recomputePdbStatus, type ScaleOwner, selects} from '../disruption/pdb.js'
import {iso} from '../nodelifecycle/time.js'
import {type Disruption, type PodRecord, readPodRecord, RULE_OF, UPSTREAM_OF} from '../podeviction/evidence.js'
import {getPodQOS, quantityValue} from '../../component-helpers/resource.js'
import {CONFIGZ, type KubeletConfigRead, UNKNOWN_WITHOUT_CONFIGZ} from '../podeviction/configz.js'
import {HELPERS, PRESSURE_TRANSITION_PERIOD_MS, replayNodePressure} from '../podeviction/kubelet.js'
import {
  choosePreemptionNode,
  DEFAULT_PREEMPTION,
  describeShutdown,
  filterPodsWithPDBViolation,
  PREEMPTION,
  replayPreemption,
  SHUTDOWN,
} from '../podeviction/preemption.js'
import type {EventLike, NodeLike, PodLike, PriorityClassLike} from '../podeviction/types.js'
import {PODGC, podGcDecision} from '../podgc/gc.js'
import {EVICTED_SEVERITY, type EvictedVerdict} from './explain.js'

/** What the driver read beyond the pod and its events; each list absent when it was not (or could not be) read. */
export interface EvictionContext {
  node?: NodeLike
  /** Every pod bound to the pod's node, all namespaces (a spec.nodeName field-selector list). */
  podsOnNode?: PodLike[]
  /** podsOnNode holds every namespace's pods on that node (false: a dump of some namespaces only). */
  podsOnNodeComplete?: boolean
  namespacePods?: PodLike[]
  pdbs?: PdbLike[]
  priorityClasses?: PriorityClassLike[]
  owners?: ScaleOwner[]
  nodes?: NodeLike[]
  nodesComplete?: boolean
  /** The kubelet's configz of the pod's node (live only), or why it could not be read. */
  kubeletConfig?: KubeletConfigRead
  /** Every pod bound to any node, for the preemptor's node choice (choosePreemptionNode); allPodsComplete: all of them. */
  allPods?: PodLike[]
  allPodsComplete?: boolean
  /** Pending pods nominated to a node (status.nominatedNodeName): preemptors on their way; namespacePods' when absent. */
  nominated?: PodLike[]
  /** PodGC's --terminated-pod-gc-threshold from the controller-manager's pod (threshold unset: the default), and whence. */
  podGcThreshold?: {threshold?: number; from: string}
  problems?: Problem[]
}

export interface ActorInput {
  namespace: string
  name: string
  pod?: PodLike
  events: readonly EventLike[]
  now: number
  context?: EvictionContext
}

const TAINT_VERDICT_ACTION: Record<string, Actor['action']> = {
  evicted: 'evicted',
  evictedImmediately: 'willEvict',
  evictAt: 'willEvict',
  notEvictedBecause: 'none',
  toleratedForever: 'none',
}

const VERDICT_OF: Record<Disruption['mechanism'], EvictedVerdict> = {
  nodePressure: 'evictedByKubelet',
  localStorage: 'evictedByKubelet',
  nodeShutdown: 'terminatedByShutdown',
  criticalPodPreemption: 'preemptedByKubelet',
  schedulerPreemption: 'preempted',
  evictionApi: 'evictedByApi',
  podgc: 'deletedByPodGC',
  taintManager: 'evicted',
}

interface Replayed {
  actor: Actor
  steps: Step[]
  summary: string
}

const owner = (input: ActorInput) => {
  const o = input.pod?.metadata?.ownerReferences?.find((r) => r.controller)
  return o ? `the pod template of ${o.kind} ${input.namespace}/${o.name}` : `Pod ${input.namespace}/${input.name}`
}
const KUBELET_ADMISSION = 'pkg/kubelet/kubelet.go'
const EVICTION_MANAGER = 'pkg/kubelet/eviction/eviction_manager.go'
const when = (ms: number | undefined) => (ms !== undefined ? ` at ${iso(ms)}` : '')

/** The Actor for a recorded disruption: who and what from the record, the rule replayed, its evidence and next steps. */
const actorOf = (d: Disruption, rule: string, evidence: string[], next: NextStep[]): Actor => ({
  actor: d.actor,
  action: d.action,
  ...(d.at !== undefined ? {at: iso(d.at)} : {}),
  rule,
  evidence,
  next,
})

function kubeletPressure(input: ActorInput, d: Disruption, record: PodRecord): Replayed {
  const pod = input.pod ?? {}
  const ctx = input.context ?? {}
  const message = d.message ?? record.kubeletEvicted?.message ?? pod.status?.message
  const r = replayNodePressure({pod, message, starvedResource: record.kubeletEvicted?.starvedResource, node: ctx.node, podsOnNode: ctx.podsOnNode ?? []})
  const evidence = [...d.evidence]
  if (r.condition)
    evidence.push(`node ${pod.spec?.nodeName}: ${r.condition.type}=${r.condition.status}${r.condition.since ? ` since ${r.condition.since}` : ''}`)
  const steps: Step[] = []
  const defaultsText = Object.entries(r.defaults)
    .map(([s, v]) => `${s}<${v}`)
    .join(', ')
  steps.push({
    rule: 'evictionMessage',
    upstream: `${HELPERS} (evictionMessage: nodeLowMessageFmt, thresholdMetMessageFmt, containerMessageFmt)`,
    inputs: {message: message ?? null, starvedResource: record.kubeletEvicted?.starvedResource ?? null},
    result: r.resource,
    why: `the kubelet was reclaiming ${r.resource} (signals ${r.signals.join(' / ') || 'unknown'}; node condition ${r.condition ? `${r.condition.type}=${r.condition.status}` : 'not in the data'})${r.message?.threshold ? `; threshold ${r.message.threshold}, available ${r.message.available}` : ''}${r.message?.containers.length ? `; above request: ${r.message.containers.map((c) => `${c.name} using ${c.usage}, request ${c.request}`).join('; ')}` : ''}`,
  })
  steps.push(thresholdStep(r, ctx.kubeletConfig, defaultsText))
  steps.push({
    rule: r.rank,
    upstream: `${HELPERS} (${r.rank}: ${r.rank === 'rankMemoryPressure' ? 'exceedMemoryRequests, priority, memory' : r.rank === 'rankPIDPressure' ? 'priority, process' : 'exceedDiskRequests, priority, disk'})`,
    inputs: {
      qosClass: r.qosClass,
      priority: r.priority,
      request: r.request,
      aboveRequest: r.aboveRequest ?? null,
      neighbours: r.neighbours.map((n) => ({pod: n.name, qosClass: n.qosClass, priority: n.priority, request: n.request, standing: n.standing})),
    },
    result: r.aboveRequest === true ? 'aboveRequest' : r.aboveRequest === false ? 'withinRequest' : 'unknown',
    why: `${r.aboveRequest === true ? 'the pod was above its request, so it ranked with the first group' : r.aboveRequest === false ? 'the pod was within its request: every other pod was too (or critical)' : 'whether the pod was above its request is not in the data'}; then lower priority first, then the larger use above request. QoS ${r.qosClass} is not an input itself: it shows through the requests${r.neighbours.length ? `. Neighbours: ${r.neighbours.map((n) => n.why).join('; ')}` : input.context?.podsOnNode ? '. No other active pod on the node in the data' : '. The other pods on the node were not read'}${neighboursScope(input)}`,
    inferred: {
      evidence: 'usage stats (the summary API at the time) are not in the data: the order is what requests, priorities and the message allow',
      confidence: 'likely',
    },
  })
  const next: NextStep[] = []
  if (r.resource === 'memory' || r.resource === 'ephemeral-storage') {
    const used = r.message?.containers.map((c) => `${c.name}: ${r.resource} request ≥ ${c.usage}`).join(', ')
    next.push({
      change: `${owner(input)}: spec.containers[].resources.requests.${r.resource}${used ? ` (${used})` : ''} and a matching limit`,
      why: `pods above their ${r.resource} request are evicted first; requests = limits (Guaranteed) puts the pod last`,
    })
  }
  if (pod.spec?.nodeName)
    next.push({command: `kubectl describe node ${pod.spec.nodeName}`, why: `the ${r.condition?.type ?? 'pressure'} condition and what else runs there`})
  return {
    actor: actorOf(d, r.rank, evidence, next),
    steps,
    summary: `Evicted by the kubelet on ${pod.spec?.nodeName ?? 'its node'} under ${r.resource} pressure${when(d.at)} (node-pressure eviction, ${r.rank})${r.aboveRequest ? `: ${r.qosClass} pod above its ${r.resource} request` : ''}${r.message?.threshold ? `; threshold ${r.message.threshold}${r.thresholdIsDefault && ctx.kubeletConfig?.state !== 'read' ? ' (the default, unverified)' : ''}, available ${r.message.available}` : ''}. The kubelet does not delete the pod object: it stays Failed until its controller or PodGC removes it; the node condition lingers ${PRESSURE_TRANSITION_PERIOD_MS / 60_000} min (evictionPressureTransitionPeriod) after the last crossing.`,
  }
}

/**
 * The thresholds the kubelet applied: its configz when read live (the effective evictionHard / evictionSoft, compared
 * with the threshold quantity in the message), else the release's DefaultEvictionHard for that OS, said to be
 * defaults, unverified — with why the configuration is missing (a dump holds none; 403 needs nodes/proxy get; 404).
 */
function thresholdStep(r: ReturnType<typeof replayNodePressure>, k: KubeletConfigRead | undefined, defaultsText: string): Step {
  if (k?.state === 'read') {
    const c = k.config
    const pick = (m: Partial<Record<string, string>> | undefined) =>
      r.signals
        .filter((s) => m?.[s] !== undefined)
        .map((s) => `${s}<${m?.[s]}${c.evictionSoftGracePeriod?.[s] && m === c.evictionSoft ? ` for ${c.evictionSoftGracePeriod[s]}` : ''}`)
    const hard = pick(c.evictionHard)
    const soft = pick(c.evictionSoft)
    const inMessage = r.message?.threshold
    const match = (m: Partial<Record<string, string>> | undefined) =>
      inMessage !== undefined && r.signals.some((s) => m?.[s] !== undefined && quantityValue(m[s]) === quantityValue(inMessage))
    const which = match(c.evictionHard) ? 'hard' : match(c.evictionSoft) ? 'soft' : undefined
    return {
      rule: 'evictionHard',
      upstream: `${CONFIGZ}; ${HELPERS} (ParseThresholdConfig, thresholdsMet)`,
      inputs: {node: k.node, evictionHard: hard, evictionSoft: soft, threshold: inMessage ?? null},
      result: which ?? (inMessage ? 'percentageOrOther' : 'configured'),
      why: `the kubelet's configuration (configz, the effective values): hard ${hard.join(', ') || 'none for this signal'}; soft ${soft.join(', ') || 'none'}${c.evictionPressureTransitionPeriod ? `; evictionPressureTransitionPeriod ${c.evictionPressureTransitionPeriod}` : ''}${which ? ` — the threshold ${inMessage} in the message is the ${which} one` : inMessage ? ` — the threshold ${inMessage} in the message is a percentage of the capacity at the time, or another signal's` : ''}`,
    }
  }
  const missing =
    k?.state === 'refused' ? `the kubelet configuration could not be read (${k.reason})` : 'the kubelet configuration (configz) is not in the data'
  return {
    rule: 'DefaultEvictionHard',
    upstream:
      r.os === 'linux'
        ? 'pkg/kubelet/eviction/defaults_linux.go@2b02db1b:23-28 (DefaultEvictionHard)'
        : 'pkg/kubelet/eviction/defaults_windows.go@0519458e (DefaultEvictionHard)',
    inputs: {os: r.os, threshold: r.message?.threshold ?? null},
    result: r.thresholdIsDefault === undefined ? 'unknown' : r.thresholdIsDefault ? 'default' : 'configured',
    why: `defaults, unverified: ${missing}, which leaves ${UNKNOWN_WITHOUT_CONFIGZ} unknown. The release's default hard thresholds on ${r.os}: ${defaultsText || 'none for this signal'}${r.thresholdIsDefault === true ? ' — the threshold in the message is the default' : r.thresholdIsDefault === false ? ' — the threshold in the message is not the default: evictionHard/evictionSoft is configured' : ''}`,
    inferred: {evidence: `defaults: ${missing}`, confidence: 'likely'},
  }
}

/** What the neighbour ranking covers: every namespace's pods on the node, or only those the data held. */
function neighboursScope(input: ActorInput): string {
  const ctx = input.context ?? {}
  if (!ctx.podsOnNode || ctx.podsOnNodeComplete !== false) return ''
  const namespaces = [...new Set(ctx.podsOnNode.map((p) => p.metadata?.namespace ?? ''))].sort()
  return `. Only the pods of ${namespaces.length ? `namespace(s) ${namespaces.join(', ')}` : 'no namespace'} on ${input.pod?.spec?.nodeName ?? 'the node'} are in the data (the dump does not hold every namespace's pods): pods of other namespaces there are not ranked`
}

function simpleKubelet(input: ActorInput, d: Disruption): Replayed {
  const pod = input.pod ?? {}
  const steps: Step[] = []
  const next: NextStep[] = []
  let summary: string
  if (d.mechanism === 'localStorage') {
    steps.push({
      rule: RULE_OF[d.mechanism],
      upstream: `${EVICTION_MANAGER} (localStorageEviction: emptyDirLimitEviction, podEphemeralStorageLimitEviction, containerEphemeralStorageLimitEviction); ${HELPERS} (emptyDirMessageFmt, podEphemeralStorageMessageFmt, containerEphemeralStorageMessageFmt)`,
      inputs: {message: d.message ?? null},
      result: 'evicted',
      why: 'a local-storage limit was passed; this path writes no DisruptionTarget condition and runs before any pressure ranking',
    })
    next.push({
      change: `${owner(input)}: the ephemeral-storage limit or the emptyDir sizeLimit named in the message`,
      why: 'the kubelet evicts a pod as soon as its local storage use passes a limit it set',
    })
    summary = `Evicted by the kubelet${when(d.at)} for exceeding a local-storage limit (localStorageEviction): "${(d.message ?? '').trim()}". No DisruptionTarget condition is written on this path.`
  } else if (d.mechanism === 'nodeShutdown') {
    steps.push({
      rule: RULE_OF[d.mechanism],
      upstream: `${SHUTDOWN} (migrateConfig, groupByPriority, killPods)`,
      inputs: {priority: pod.spec?.priority ?? 0},
      result: 'killed',
      why: describeShutdown(pod),
    })
    next.push({
      change: `KubeletConfiguration of node ${pod.spec?.nodeName ?? '(its node)'}: shutdownGracePeriod / shutdownGracePeriodCriticalPods or shutdownGracePeriodByPodPriority`,
      why: 'how long each priority group gets when the node shuts down',
    })
    summary = `Terminated by the kubelet${when(d.at)} in response to an imminent node shutdown (graceful node shutdown, killPods): phase Failed, reason Terminated.`
  } else {
    steps.push({
      rule: RULE_OF[d.mechanism],
      upstream: 'pkg/kubelet/preemption/preemption.go (HandleAdmissionFailure, evictPodsToFreeRequests, getPodsToPreempt)',
      inputs: {qosClass: getPodQOS(pod), priority: pod.spec?.priority ?? 0},
      result: 'preempted',
      why: 'a critical pod could not be admitted for lack of resources; the kubelet stopped the fewest, lowest-QoS pods that free them (the critical pod is not in the data)',
    })
    next.push({change: `${owner(input)}: spec.priorityClassName`, why: 'the kubelet preempts lower-QoS, lower-priority pods to admit a critical pod'})
    summary = `Preempted by the kubelet${when(d.at)} to admit a critical pod (CriticalPodAdmissionHandler).`
  }
  return {
    actor: actorOf(d, RULE_OF[d.mechanism], d.evidence, next),
    steps,
    summary,
  }
}

function scheduler(input: ActorInput, d: Disruption, record: PodRecord): Replayed {
  const pod = input.pod ?? {}
  const ctx = input.context ?? {}
  const r = replayPreemption({victim: pod, event: record.preempted, pods: ctx.namespacePods ?? [], priorityClasses: ctx.priorityClasses})
  // filterPodsWithPDBViolation over this victim alone (the other victims of the same preemption are not known): with
  // one victim each budget's decrement is independent, so these are the budgets it alone takes below zero.
  const violated = (ctx.pdbs ?? []).filter((b) => filterPodsWithPDBViolation([pod], [b]).violating.length > 0).map((b) => b.metadata?.name ?? '')
  const why = [...r.why]
  if (violated.length)
    why.push(
      `PDB ${violated.join(', ')} allowed no disruption: the victim counted as a PDB violation (filterPodsWithPDBViolation); the scheduler preempts through a budget when no node has fewer violations`,
    )
  if (r.missingClasses.length) why.push(`PriorityClass ${r.missingClasses.join(', ')} not in the data`)
  const steps: Step[] = [
    {
      rule: 'SelectVictimsOnNode',
      upstream: `${DEFAULT_PREEMPTION} (SelectVictimsOnNode, PodEligibleToPreemptOthers); pkg/scheduler/framework/preemption/preemption.go (pickOneNodeForPreemption)`,
      inputs: {victimPriority: r.victimPriority, preemptor: r.preemptor ?? null, node: r.node ?? null, pdbsViolated: violated},
      result: r.preemptor ? (r.lowerPriority ? 'victim' : 'inconsistent') : 'preemptorUnknown',
      why: why.join('; ') || 'the preemptor is not in the data',
      ...(r.preemptor?.found === 'nominated'
        ? {inferred: {evidence: 'the preemptor is taken from nominatedNodeName, not from the event', confidence: 'likely' as const}}
        : {}),
    },
  ]
  steps.push(nodeChoice(input, r.preemptor?.ref))
  const next: NextStep[] = [
    {change: `${owner(input)}: spec.priorityClassName (a class with a higher value)`, why: 'only pods of strictly lower priority are preemption victims'},
  ]
  if (r.preemptor)
    next.push({
      change: `PriorityClass ${r.preemptor.priorityClassName ?? '(of the preemptor)'}: preemptionPolicy: Never`,
      why: 'a pod with preemptionPolicy Never waits for room instead of preempting',
    })
  return {
    actor: actorOf(d, 'SelectVictimsOnNode', [...d.evidence, ...(r.preemptor ? [`preemptor ${r.preemptor.ref} priority ${r.preemptor.priority}`] : [])], next),
    steps,
    summary: `Preempted by the scheduler${when(d.at)}${r.preemptor ? ` for ${r.preemptor.ref} (priority ${r.preemptor.priority} > ${r.victimPriority})` : ''}${r.node ? ` on node ${r.node}` : ''}: lower-priority pods are removed to make room for a pending higher-priority one.`,
  }
}

/**
 * Which node the preemptor chose or would choose (choosePreemptionNode: SelectVictimsOnNode with NodeResourcesFit on
 * every node it may use, then pickOneNodeForPreemption), only when the data holds every node's pods, the budgets and
 * the preemptor; otherwise the step says what is missing and names no node.
 */
function nodeChoice(input: ActorInput, preemptorRef: string | undefined): Step {
  const ctx = input.context ?? {}
  const rule = 'pickOneNodeForPreemption'
  const upstream = `${PREEMPTION} (pickOneNodeForPreemption); ${DEFAULT_PREEMPTION} (SelectVictimsOnNode, filterPodsWithPDBViolation); pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest)`
  const pools = [...(ctx.allPods ?? []), ...(ctx.nominated ?? []), ...(ctx.namespacePods ?? [])]
  const preemptor = preemptorRef ? pools.find((p) => `${p.metadata?.namespace}/${p.metadata?.name}` === preemptorRef) : undefined
  const missing: string[] = []
  if (!preemptor) missing.push('the preemptor')
  if (!ctx.nodes) missing.push('the Nodes')
  if (!ctx.allPods || !ctx.allPodsComplete) missing.push("every node's pods (a list of all pods in every namespace)")
  if (!ctx.pdbs) missing.push('the PodDisruptionBudgets')
  if (missing.length > 0 || !preemptor)
    return {
      rule,
      upstream,
      inputs: {preemptor: preemptorRef ?? null, missing},
      result: 'unknown',
      why: `which node the preemptor chose cannot be replayed: the data lacks ${missing.join(', ')}${input.pod?.spec?.nodeName ? `; the victim was on ${input.pod.spec.nodeName}` : ''}`,
    }
  const c = choosePreemptionNode({preemptor, nodes: ctx.nodes ?? [], pods: ctx.allPods ?? [], podsComplete: true, pdbs: ctx.pdbs, now: input.now})
  const victim = `${input.namespace}/${input.name}`
  const onChosen = c.candidates.find((x) => x.node === c.chosen)
  const nominated = preemptor.status?.nominatedNodeName
  const why =
    c.missing.length > 0
      ? `the data lacks ${c.missing.join(', ')}: no node is named`
      : c.decidedBy === 'fitsWithoutPreemption'
        ? `the preemptor fits ${c.fitsWithoutPreemption?.join(', ')} as the data stands (the victims are gone or terminating pods left): it binds there without preempting more`
        : c.chosen
          ? `of ${c.candidates.length} candidate node(s) (${c.candidates.map((x) => `${x.node}: ${x.victims.length} victim(s), ${x.numPDBViolations} PDB violation(s)`).join('; ')}), pickOneNodeForPreemption picks ${c.chosen} by ${c.decidedBy}${onChosen ? `, victims ${onChosen.victims.join(', ') || 'none'}${onChosen.victims.includes(victim) ? ' — this pod among them' : ' — this pod not among them: the scheduler that acted saw other pods or other filters'}` : ''}${nominated ? `; the preemptor's nominatedNodeName is ${nominated}${nominated === c.chosen ? ', the same' : ', another: the cluster changed since, or a filter not replayed here decided'}` : ''}`
          : 'no node can hold the preemptor even with every lower-priority pod removed (NodeResourcesFit)'
  return {
    rule,
    upstream,
    inputs: {preemptor: preemptorRef ?? null, candidates: c.candidates, nominatedNodeName: nominated ?? null},
    result: c.chosen ?? 'none',
    why,
    inferred: {
      evidence:
        'only NodeUnschedulable, TaintToleration (NoSchedule/NoExecute) and NodeResourcesFit (cpu, memory, pods) are replayed; affinity, ports, volumes, topology spread and nominated pods are not',
      confidence: 'likely',
    },
  }
}

function pdbReplay(input: ActorInput): {steps: Step[]; answer?: ReturnType<typeof evictionAnswer>; evidence: string[]; next: NextStep[]} {
  const ctx = input.context ?? {}
  const pod = input.pod
  if (pod && !ctx.pdbs && ctx.namespacePods)
    return {
      steps: [
        {
          rule: 'EvictionREST.Create',
          upstream: `${EVICTION} (getPodDisruptionBudgets)`,
          inputs: {pdbs: null},
          result: 'unknown',
          why: `the data holds no PodDisruptionBudget of ${input.namespace}: whether an eviction (a drain) is refused cannot be said — absence in a dump is no proof that none exists`,
        },
      ],
      evidence: [],
      next: [],
    }
  if (!pod || !ctx.pdbs) return {steps: [], evidence: [], next: []}
  const matching = ctx.pdbs.filter((b) => selects(b, pod))
  const steps: Step[] = []
  const evidence: string[] = []
  const next: NextStep[] = []
  for (const b of matching) {
    const r = recomputePdbStatus(b, ctx.namespacePods ?? [pod], ctx.owners ?? [], input.now)
    const st = b.status ?? {}
    evidence.push(
      `PodDisruptionBudget ${b.metadata?.name}: disruptionsAllowed ${st.disruptionsAllowed ?? 0}, currentHealthy ${st.currentHealthy ?? 0}/desiredHealthy ${st.desiredHealthy ?? 0}`,
    )
    steps.push({
      rule: 'trySync',
      upstream: `${DISRUPTION} (getExpectedPodCount, countHealthyPods, updatePdbStatus)`,
      inputs: {
        pdb: b.metadata?.name,
        minAvailable: b.spec?.minAvailable ?? null,
        maxUnavailable: b.spec?.maxUnavailable ?? null,
        recorded: {
          currentHealthy: st.currentHealthy ?? null,
          desiredHealthy: st.desiredHealthy ?? null,
          expectedPods: st.expectedPods ?? null,
          disruptionsAllowed: st.disruptionsAllowed ?? null,
        },
      },
      result: `disruptionsAllowed ${r.disruptionsAllowed}`,
      why: `recomputed: expectedPods ${r.expectedPods}, desiredHealthy ${r.desiredHealthy}, currentHealthy ${r.currentHealthy} → disruptionsAllowed ${r.disruptionsAllowed}${r.unknown ? ` (${r.unknown})` : ''}${r.mismatches.length ? `; differs from the recorded status: ${r.mismatches.join(', ')}` : '; agrees with the recorded status'}${r.stale ? '; observedGeneration < generation: not synced' : ''}${r.unmanaged.length ? `; ${r.unmanaged.length} selected pod(s) without a controller (UnmanagedPods)` : ''}`,
    })
    if ((st.disruptionsAllowed ?? 0) <= 0) {
      next.push(
        b.spec?.maxUnavailable !== undefined && b.spec?.maxUnavailable !== null
          ? {
              change: `PodDisruptionBudget ${input.namespace}/${b.metadata?.name}: spec.maxUnavailable (${b.spec.maxUnavailable})`,
              why: 'allows no disruption now; a larger value, or more Ready replicas, lets the drain proceed',
            }
          : {
              change: `PodDisruptionBudget ${input.namespace}/${b.metadata?.name}: spec.minAvailable (${b.spec?.minAvailable ?? 'unset'})`,
              why: 'allows no disruption now; a lower value, or more Ready replicas, lets the drain proceed',
            },
      )
      if (b.spec?.unhealthyPodEvictionPolicy !== 'AlwaysAllow')
        next.push({
          change: `PodDisruptionBudget ${input.namespace}/${b.metadata?.name}: spec.unhealthyPodEvictionPolicy: AlwaysAllow`,
          why: 'lets not-Ready pods be evicted whatever the budget (IfHealthyBudget, the default, counts them)',
        })
    }
  }
  const answer = evictionAnswer(pod, ctx.pdbs)
  steps.push({
    // 429 and 403 come from checkAndDecrement; 200 and the several-budgets 500 from Create itself.
    rule: answer.code === 429 || answer.code === 403 ? 'checkAndDecrement' : 'EvictionREST.Create',
    upstream: `${EVICTION} (canIgnorePDB, checkAndDecrement)`,
    inputs: {
      pdbs: matching.map((b) => b.metadata?.name),
      ready: (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
      phase: pod.status?.phase ?? null,
    },
    result: String(answer.code),
    why:
      answer.code === 429
        ? `${answer.why}: 429 "${answer.message}" (cause: "${answer.cause}")`
        : answer.code === 500 || answer.code === 403
          ? `${answer.why}: ${answer.code} "${answer.message}"`
          : answer.why,
  })
  return {steps, answer, evidence, next}
}

function evictionApi(input: ActorInput, d: Disruption): Replayed {
  const p = pdbReplay(input)
  const cordoned = input.context?.node?.spec?.unschedulable
  return {
    actor: actorOf(
      d,
      'EvictionREST.Create',
      [...d.evidence, ...p.evidence, ...(cordoned ? [`node ${input.pod?.spec?.nodeName} is cordoned (spec.unschedulable): a drain`] : [])],
      [
        {
          command: 'kubectl get events -A --field-selector reason=Killing',
          why: 'the API server records no event for an eviction; the audit log names the caller',
        },
      ],
    ),
    steps: p.steps,
    summary: `Evicted through the Eviction API${when(d.at)} (POST pods/eviction${cordoned ? ', on a cordoned node: a drain' : ''}); the budget allowed it. The API server records no event: the caller is in the audit log.`,
  }
}

function podgc(input: ActorInput, d: Disruption): Replayed {
  return {
    actor: actorOf(d, 'gcOrphaned', d.evidence, [{command: 'kubectl get nodes', why: 'the node the pod was bound to no longer exists'}]),
    steps: [
      {
        rule: 'gcOrphaned',
        upstream: `${PODGC} (gcOrphaned, markFailedAndDeletePodWithCondition)`,
        inputs: {node: input.pod?.spec?.nodeName ?? null},
        result: 'deleted',
        why: 'the node was gone after the 40 s quarantine: DisruptionTarget DeletionByPodGC, phase Failed, force delete (grace 0)',
      },
    ],
    summary: `Deleted by PodGC${when(d.at)}: its node ${input.pod?.spec?.nodeName ?? ''} no longer exists (gcOrphaned; force delete, grace 0).`,
  }
}

export interface ActorsOutcome {
  actors: Actor[]
  verdict?: EvictedVerdict
  summary?: string
  steps: Step[]
  next?: NextStep[]
}

/** Overlay the actors onto the taint-eviction Explanation: the recorded actor decides the verdict. */
export function withActors(taint: Explanation, input: ActorInput): Explanation {
  const record = readPodRecord(input.namespace, input.name, input.pod, input.events)
  const o = decideActors(taint, input, record)
  const verdict = o.verdict ?? (taint.verdict as EvictedVerdict)
  const evidenceStep: Step = {
    rule: 'DisruptionTarget',
    upstream: [
      'staging/src/k8s.io/api/core/v1/types.go (DisruptionTarget, PodReason*); pkg/kubelet/kubelet.go (rejectPod)',
      ...record.disruptions.map((d) => UPSTREAM_OF[d.mechanism]),
    ].join('; '),
    inputs: {examined: record.examined},
    result: record.disruptions[0]?.actor ?? (record.rejection ? 'admissionRejection' : record.deletionAt !== undefined ? 'deleting' : 'none'),
    why: record.disruptions.length
      ? record.disruptions.map((d) => `${d.actor}: ${d.evidence.join('; ')}`).join(' | ')
      : record.rejection
        ? `kubelet admission rejection ${record.rejection.reason}: ${record.rejection.evidence.join('; ')}`
        : `nothing in the pod's record names an actor (${record.examined.join(', ')})`,
  }
  if (record.staleDisruption)
    evidenceStep.why += `; DisruptionTarget=False${when(record.staleDisruption.at)}: an announced disruption that did not happen (the disruption controller resets it after 2 min)`
  const steps = [evidenceStep, ...o.steps, ...taint.steps]
  const out: Explanation = {
    ...taint,
    verdict,
    severity: o.verdict ? EVICTED_SEVERITY[o.verdict] : taint.severity,
    summary: o.summary ?? taint.summary,
    steps,
    actors: o.actors,
  }
  if (o.next) {
    if (o.next.length > 0) out.next = o.next
    else delete out.next
  }
  // The named actor's instant on the timeline (the HTML report draws every timeline field).
  const acted = o.verdict && o.verdict !== 'atRisk' ? o.actors.find((a) => a.at && a.actor !== 'taint-eviction-controller')?.at : undefined
  if (acted && typeof taint.timeline === 'object' && taint.timeline !== null)
    out.timeline = {...(taint.timeline as Record<string, unknown>), disruptedAt: acted}
  return out
}

function decideActors(taint: Explanation, input: ActorInput, record: PodRecord): ActorsOutcome {
  const actors: Actor[] = []
  const steps: Step[] = []
  const taintAction = TAINT_VERDICT_ACTION[taint.verdict]
  const taintActor = (): Actor => ({
    actor: 'taint-eviction-controller',
    action: taintAction ?? 'none',
    ...(typeof (taint.timeline as {evictionDeadline?: string | null} | undefined)?.evictionDeadline === 'string'
      ? {at: (taint.timeline as {evictionDeadline: string}).evictionDeadline}
      : typeof (taint.timeline as {markedForDeletion?: string | null} | undefined)?.markedForDeletion === 'string'
        ? {at: (taint.timeline as {markedForDeletion: string}).markedForDeletion}
        : {}),
    rule: taint.verdict === 'evictAt' || taint.verdict === 'evictedImmediately' || taint.verdict === 'evicted' ? 'processPodOnNode' : 'getMinTolerationTime',
    evidence: [taint.summary],
    next: taint.next ?? [],
  })
  const primary = record.disruptions[0]
  if (primary) {
    let main: Replayed | undefined
    for (const d of record.disruptions) {
      let r: Replayed | undefined
      if (d.mechanism === 'taintManager') {
        actors.push(taintActor())
        continue
      }
      if (d.mechanism === 'nodePressure') r = kubeletPressure(input, d, record)
      else if (d.mechanism === 'localStorage' || d.mechanism === 'nodeShutdown' || d.mechanism === 'criticalPodPreemption') r = simpleKubelet(input, d)
      else if (d.mechanism === 'schedulerPreemption') r = scheduler(input, d, record)
      else if (d.mechanism === 'evictionApi') r = evictionApi(input, d)
      else if (d.mechanism === 'podgc') r = podgc(input, d)
      if (!r) continue
      actors.push(r.actor)
      steps.push(...r.steps)
      main ??= d === primary ? r : undefined
    }
    // PodGC runs over every pod whoever acted first: a pod the taint manager deleted on a node that is down stays
    // terminating until gcTerminating (out-of-service taint) force-deletes it.
    const gc = primary.mechanism === 'podgc' ? undefined : podGcNext(input)
    if (gc?.actor) {
      steps.push(gc.step)
      actors.push(gc.actor)
    }
    if (primary.mechanism === 'taintManager') return {actors, steps}
    if (taintAction && taint.verdict !== 'evicted' && !actors.some((a) => a.actor === 'taint-eviction-controller')) actors.push(taintActor())
    return {actors, steps, verdict: VERDICT_OF[primary.mechanism], summary: main?.summary, next: main?.actor.next ?? []}
  }
  if (record.rejection) {
    const rj = record.rejection
    steps.push({
      rule: 'canAdmitPod',
      upstream: `${KUBELET_ADMISSION} (canAdmitPod, rejectPod); pkg/kubelet/lifecycle/predicate.go (predicateAdmitHandler.Admit); ${EVICTION_MANAGER} (managerImpl.Admit)`,
      inputs: {reason: rj.reason, message: rj.message},
      result: 'rejected',
      why: `the kubelet refused the pod before starting it (${rj.reason}): rejectPod writes phase Failed and "Pod was rejected: " + the message; no container ran, so nothing was evicted`,
    })
    return {
      actors: [
        {
          actor: 'kubelet',
          action: 'none',
          ...(rj.at !== undefined ? {at: iso(rj.at)} : {}),
          rule: 'canAdmitPod',
          evidence: rj.evidence,
          next: [
            {
              command: `kubectl describe node ${input.pod?.spec?.nodeName ?? ''}`.trim(),
              why: 'the node condition or resources that made the kubelet refuse the pod',
            },
          ],
        },
      ],
      steps,
      verdict: 'rejectedAtAdmission',
      summary: `Not an eviction: the kubelet${input.pod?.spec?.nodeName ? ` on ${input.pod.spec.nodeName}` : ''} rejected the pod at admission (${rj.reason}: "${rj.message.trim()}"); it never ran there. Its controller creates a replacement; the Failed pod stays until PodGC's threshold or its controller removes it.`,
      next: [
        {
          command: `kubectl describe node ${input.pod?.spec?.nodeName ?? ''}`.trim(),
          why: 'the node condition or resources that made the kubelet refuse the pod',
        },
      ],
    }
  }
  if (taintAction) actors.push(taintActor())
  // Why would it not be evicted: the Eviction API against the budgets (a drain), then PodGC.
  const p = pdbReplay(input)
  steps.push(...p.steps)
  const cordoned = !!input.context?.node?.spec?.unschedulable
  let verdict: EvictedVerdict | undefined
  let summary: string | undefined
  let next: NextStep[] | undefined
  if (p.answer && p.answer.code !== 200) {
    const a = p.answer
    actors.push({
      actor: 'eviction-api',
      action: 'refusesEviction',
      rule: a.code === 429 || a.code === 403 ? 'checkAndDecrement' : 'EvictionREST.Create',
      evidence: [...p.evidence, ...(cordoned ? [`node ${input.pod?.spec?.nodeName} is cordoned (spec.unschedulable)`] : [])],
      next: p.next,
    })
    if (cordoned && taint.verdict === 'notAffected') {
      verdict = 'evictionBlocked'
      summary = `Node ${input.pod?.spec?.nodeName} is cordoned, but an eviction of this pod is refused: ${a.code} "${a.message}"${a.code === 429 ? ` (${a.cause})` : ''}. A drain retries every 5 s and never finishes until ${a.code === 500 ? 'only one budget selects the pod' : 'the budget allows a disruption'}.`
      next = p.next
    }
  }
  const gc = podGcNext(input)
  if (gc) {
    const g = gc.decision
    steps.push(gc.step)
    if (gc.actor) {
      actors.push(gc.actor)
      if (!verdict && taint.verdict === 'notAffected') {
        verdict = 'willBeCollected'
        summary = `PodGC will force-delete the pod (${g.pass}): ${g.why}.`
        next = []
      }
    }
  }
  if (!verdict && taint.verdict === 'notAffected' && record.unknownDisruption) {
    const u = record.unknownDisruption
    verdict = 'disrupted'
    summary = `The pod's DisruptionTarget condition is True${u.at !== undefined ? ` since ${iso(u.at)}` : ''} with reason ${u.reason ?? '(none)'}${u.message ? ` ("${u.message}")` : ''}, which names no actor this tool replays: something announced it is removing the pod.${record.deletionAt !== undefined ? ` Deletion requested at ${iso(record.deletionAt)}.` : ''}`
    next = [
      {
        command: `kubectl get events -n ${input.namespace} --field-selector involvedObject.name=${input.name}`,
        why: 'the events around the condition name who set it',
      },
    ]
  }
  if (!verdict && taint.verdict === 'notAffected' && record.deletionAt === undefined) {
    const risk = atRisk(input)
    if (risk) {
      actors.push(risk.actor)
      steps.push(risk.step)
      verdict = 'atRisk'
      summary = risk.summary
      next = risk.actor.next
    }
  }
  if (!verdict && taint.verdict === 'notAffected' && record.deletionAt !== undefined) {
    verdict = 'beingDeleted'
    summary = `The pod is being deleted (deletionTimestamp ${iso(record.deletionAt)}), and nothing in its record names who asked: no DisruptionTarget condition, no eviction or preemption event — a plain DELETE (a user, its controller scaling down, or the garbage collector). Examined: ${record.examined.join(', ')}.`
    next = [
      {
        command: `kubectl why gc pod/${input.name} -n ${input.namespace}`,
        why: 'owner references and finalizers: the garbage collector or a controller deleting it',
      },
    ]
  }
  if (!verdict && taint.verdict === 'notAffected') summary = `${taint.summary} Nothing else names an actor: examined ${record.examined.join(', ')}.`
  return {actors, steps, verdict, summary, next}
}

/**
 * PodGC's passes over the pod (../podgc/gc.ts), when the nodes were read: the step, and PodGC's actor when a pass
 * will act. Pods are counted from the namespace read only (gcTerminated counts cluster-wide), so that pass is never
 * more than unknown here.
 */
function podGcNext(input: ActorInput): {decision: ReturnType<typeof podGcDecision>; step: Step; actor?: Actor} | undefined {
  if (!input.pod || !input.context?.nodes) return undefined
  const g = podGcDecision({
    pod: input.pod,
    nodes: input.context.nodes,
    nodesComplete: input.context.nodesComplete ?? false,
    allPods: input.context.namespacePods ?? [input.pod],
    podsComplete: false,
    threshold: input.context.podGcThreshold?.threshold,
    thresholdFrom: input.context.podGcThreshold?.from,
  })
  const step: Step = {
    rule: g.pass ?? 'gc',
    upstream: `${PODGC} (gcTerminated, gcTerminating, gcOrphaned, gcUnscheduledTerminating, markFailedAndDeletePodWithCondition)`,
    inputs: {threshold: g.threshold, terminated: g.terminated ?? null},
    result: g.action,
    why: g.why,
  }
  if (g.action !== 'willDelete') return {decision: g, step}
  return {
    decision: g,
    step,
    actor: {
      actor: 'podgc',
      action: 'willDelete',
      rule: g.pass!,
      evidence: [g.why],
      next:
        g.pass === 'gcTerminating'
          ? [{command: `kubectl get node ${input.pod.spec?.nodeName ?? ''}`.trim(), why: 'the out-of-service taint and the NotReady condition PodGC acts on'}]
          : [],
    },
  }
}

/**
 * A pod nothing has acted on yet, but next in line: a pod of lower priority than a pending pod nominated to its node
 * (SelectVictimsOnNode takes only strictly lower priorities), or a BestEffort pod on a node under memory, disk or PID
 * pressure (any use exceeds its zero request: rankMemoryPressure / rankDiskPressure put it in the first group; under
 * PID pressure, priority alone decides first).
 */
function atRisk(input: ActorInput): {actor: Actor; step: Step; summary: string} | undefined {
  const pod = input.pod
  const nodeName = pod?.spec?.nodeName
  if (!pod || !nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return undefined
  const prio = pod.spec?.priority ?? 0
  const pending = (input.context?.nominated ?? input.context?.namespacePods ?? []).filter(
    (p) => p.status?.nominatedNodeName === nodeName && !p.spec?.nodeName && (p.spec?.priority ?? 0) > prio && p.spec?.preemptionPolicy !== 'Never',
  )
  if (pending.length > 0) {
    const top = [...pending].sort((a, b) => (b.spec?.priority ?? 0) - (a.spec?.priority ?? 0))[0]
    const ref = `${top.metadata?.namespace}/${top.metadata?.name}`
    const why = `pending ${ref} (priority ${top.spec?.priority ?? 0}) is nominated to ${nodeName}; this pod's priority ${prio} is strictly lower, so it is a potential victim`
    return {
      actor: {
        actor: 'scheduler',
        action: 'willEvict',
        rule: 'SelectVictimsOnNode',
        evidence: [`${ref}: status.nominatedNodeName ${nodeName}, priority ${top.spec?.priority ?? 0}`],
        next: [
          {change: `${owner(input)}: spec.priorityClassName (a class with a higher value)`, why: 'only pods of strictly lower priority are preemption victims'},
        ],
      },
      step: {
        rule: 'SelectVictimsOnNode',
        upstream: `${DEFAULT_PREEMPTION} (SelectVictimsOnNode)`,
        inputs: {preemptor: ref, node: nodeName, priority: prio},
        result: 'potentialVictim',
        why,
      },
      summary: `At risk of preemption: ${why}; the scheduler removes only as many as the preemptor needs, lowest priority first.`,
    }
  }
  const pressure = (input.context?.node?.status?.conditions ?? []).find(
    (c) => ['MemoryPressure', 'DiskPressure', 'PIDPressure'].includes(c.type) && c.status === 'True',
  )
  // The QoS class only from what the pod shows: its recorded status.qosClass, or its containers (absent from a
  // projection that dropped them, where computing it would call every pod BestEffort).
  const qosKnown = !!pod.status?.qosClass || (pod.spec?.containers ?? []).length > 0
  if (pressure && qosKnown && getPodQOS(pod) === 'BestEffort' && pressure.type !== 'PIDPressure') {
    const rank = pressure.type === 'MemoryPressure' ? 'rankMemoryPressure' : 'rankDiskPressure'
    const why = `node ${nodeName} has ${pressure.type}=True${pressure.lastTransitionTime ? ` since ${pressure.lastTransitionTime}` : ''} and the pod is BestEffort: any use exceeds its zero request, so ${rank} puts it in the first group (then lower priority, then the larger use)`
    return {
      actor: {
        actor: 'kubelet',
        action: 'willEvict',
        rule: rank,
        evidence: [`node ${nodeName}: ${pressure.type}=True`, 'QoS BestEffort (no cpu or memory request or limit)'],
        next: [{change: `${owner(input)}: spec.containers[].resources.requests`, why: 'a pod within its requests ranks after every pod above them'}],
      },
      step: {
        rule: rank,
        upstream: `${HELPERS} (${rank})`,
        inputs: {node: nodeName, condition: pressure.type, qosClass: 'BestEffort', priority: prio},
        result: 'firstGroup',
        why,
      },
      summary: `At risk of node-pressure eviction: ${why}.`,
    }
  }
  return undefined
}
