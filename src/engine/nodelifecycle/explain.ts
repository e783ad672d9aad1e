// Explanations for `kubectl why node`: one per node, and one for the cluster (zones, master disruption mode,
// the lease circuit breaker) holding a line per node. Every step names the upstream rule it re-executes.
import type {Explanation, NextStep, Severity, SourceDescription, Step} from '../../explanation.js'
import type {ClusterAnalysis, NodeAnalysis, ZoneAnalysis} from './analyze.js'
import {humanDuration, iso, isoMicros} from './time.js'
import type {NodeLifecycleSettings, Taint} from './types.js'

const NLC = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go'
const CONSISTENCY = 'staging/src/k8s.io/client-go/util/consistency/consistency.go'

import {NODE_SEVERITY} from './descriptor.js'
import {type NodeByRelease, type NodeReleaseAnswer, severityByRelease} from './by-release.js'
import {releaseRange} from '../../cluster/version.js'

export {NODE_SEVERITY}

/** Whether the cluster-level state (zones, master disruption, rates) rests on nodes the data may not hold. */
export function clusterUncertain(c: ClusterAnalysis): boolean {
  return c.evidence !== undefined && c.evidence.nodeSet !== 'complete'
}

/**
 * The node's severity: its verdict's, but never above info when it rests on missing evidence — a taint blocked by
 * master disruption or a zero zone rate judged from a node set that may be partial.
 */
export function nodeSeverity(a: NodeAnalysis, c: ClusterAnalysis): Severity {
  const s = NODE_SEVERITY[a.verdict]
  if (
    a.verdict === 'taintBlocked' &&
    clusterUncertain(c) &&
    (a.noExecute.blockedBecause === 'masterDisruption' || a.noExecute.blockedBecause === 'zoneRateZero')
  )
    return 'info'
  // A pending taint waits on its zone's rate, which a partial node set cannot fix (the zone may be larger).
  if (a.verdict === 'taintPending' && clusterUncertain(c)) return 'info'
  return s
}

/** "from the 3 nodes in the data" when the node set may be partial. */
function fromData(c: ClusterAnalysis): string {
  return clusterUncertain(c) ? ` (from the ${c.nodes.length} node${c.nodes.length === 1 ? '' : 's'} in the data, which may not hold every node)` : ''
}

/** What to do next about a node verdict: commands to run (never run by the tool), with why. */
export function nodeNext(a: NodeAnalysis): NextStep[] {
  const describe = {command: `kubectl describe node ${a.name}`, why: 'its conditions, taints and recent events (NodeNotReady, RegisteredNode)'}
  const lease = {command: `kubectl get lease ${a.name} -n kube-node-lease -o yaml`, why: "spec.renewTime is the kubelet's heartbeat; it should move every ~10s"}
  const kubelet = {
    command: `journalctl -u kubelet --since -15m   # on ${a.name}`,
    why: 'why the kubelet stopped posting status or renewing its lease (crashed, no network to the API server, certificates)',
  }
  const pods = {
    command: `kubectl get pods -A --field-selector spec.nodeName=${a.name} -o wide`,
    why: "the pods that a NoExecute taint on this node evicts; `kubectl why evicted pod/NAME -n NS` gives each one's deadline",
  }
  switch (a.verdict) {
    case 'healthy':
    case 'excluded':
      return []
    case 'unknown':
      return [
        lease,
        {
          command: 'kubectl why snapshot --out dump.json',
          why: "a snapshot records the kube-node-lease Leases (both views), so the node's health can be judged",
        },
      ]
    case 'withinGrace':
      return [lease, describe]
    case 'unhealthy':
    case 'taintPending':
      return [describe, kubelet, pods]
    case 'taintBlocked':
      return a.noExecute.blockedBecause === 'masterDisruption'
        ? [
            {
              command: 'kubectl get nodes -o wide',
              why: 'every zone looks down: check the network between the control plane and the nodes before the nodes themselves',
            },
            kubelet,
          ]
        : a.noExecute.blockedBecause === 'zoneRateZero'
          ? [
              {
                command: `kubectl get nodes -l topology.kubernetes.io/zone=${a.zoneName.split('/').pop()}`,
                why: 'a partially disrupted small zone is not tainted at all: bring its nodes back or drain them (kubectl drain)',
              },
              describe,
            ]
          : [
              {
                command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=200',
                why: 'the controller skipped the node (lease circuit breaker or a failed live lease read)',
              },
              describe,
            ]
    case 'circuitOpen':
      return [
        {
          command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=200',
          why: 'the lease circuit breaker closes when the controller\'s lease informer catches up; its log says "Skipping - no pods will be evicted"',
        },
        lease,
      ]
  }
}

export interface ExplainContext {
  now: number
  settings: NodeLifecycleSettings
  source: SourceDescription
  /** The release is not settled: the answers under each release set (issue 27.3). */
  byRelease?: NodeByRelease
}

/**
 * The node's severity with the release unsettled: when its answer depends on the release, a finding only under every
 * candidate (else info naming them), never above what its evidence carries (nodeSeverity's caps).
 */
export function nodeSeverityIn(a: NodeAnalysis, c: ClusterAnalysis, br: NodeByRelease | undefined): Severity {
  const own = nodeSeverity(a, c)
  const answers = br?.nodes[a.name]
  if (!answers) return own
  const by = severityByRelease(answers)
  return own !== 'none' && RANK.indexOf(own) < RANK.indexOf(by) ? own : by
}

/** "1.20–1.31 (node-monitor-grace-period 40s)": a release set and the settings that set it apart. */
function releasesText(versions: readonly string[], settings: Record<string, unknown>): string {
  const parts = Object.entries(settings).map(([k, v]) => `${k} ${typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v)}`)
  return `${releaseRange(versions)}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`
}

/** A node's answers by release, in words (also what `evicted` says of the pod's node). */
export function nodeAnswersText(answers: readonly NodeReleaseAnswer[]): string {
  return answers
    .map(
      (x) =>
        `under ${releasesText(x.versions, x.settings)}: ${x.verdict}, grace ${Date.parse(x.graceExpiresAt) <= 0 ? '-' : `expiring ${x.graceExpiresAt}`}${x.noExecute.expected ? `, ${x.noExecute.expected} ${x.noExecute.status}` : ''}`,
    )
    .join('; ')
}

/** What a node's summary says first when its answer depends on the release. */
function nodePreamble(br: NodeByRelease, answers: readonly NodeReleaseAnswer[], main: string | undefined): string {
  return `The Kubernetes version is not known (${br.why}), and this node's answer depends on it: ${nodeAnswersText(answers)}. --k8s-version X.Y (from \`kubectl version\`) settles it; the rest of this explanation is under ${main ?? 'the newest'}, one of them.`
}

/** What the cluster's summary says first when the release is not settled. */
function clusterPreamble(br: NodeByRelease): string {
  const affected = Object.keys(br.nodes)
  const groups = br.groups.map((g) => releasesText(g.versions, g.settings)).join('; ')
  const clusterText = br.cluster ? ` The cluster's verdict by release: ${br.cluster.map((x) => `${releaseRange(x.versions)}: ${x.verdict}`).join('; ')}.` : ''
  if (affected.length === 0 && br.cluster)
    return `The Kubernetes version is not known (${br.why}), and the cluster's verdict depends on it.${clusterText} --k8s-version X.Y (from \`kubectl version\`) settles it.`
  if (affected.length === 0)
    return `The Kubernetes version is not known (${br.why}), but every release it leaves possible (${releaseRange(br.candidates)}) gives the same answers here: the version did not matter.`
  return `The Kubernetes version is not known (${br.why}), and the answer depends on it for ${affected.length} node${affected.length === 1 ? '' : 's'} (${affected.slice(0, 5).join(', ')}${affected.length > 5 ? ', …' : ''}): settings by release ${groups}.${clusterText} --k8s-version X.Y (from \`kubectl version\`) settles it; each node gives its answer under each.`
}

const t = (x: Taint) => `${x.key}:${x.effect}`

/** Where the estimated last sign of life comes from, for people. */
const PROBE_FROM: Record<NodeAnalysis['sign']['probeFrom'], string> = {
  heartbeat: 'Ready lastHeartbeatTime',
  lease: 'lease renewTime',
  leaseAfterHeartbeat:
    'the monitor pass after the Ready heartbeat change, where the unchanged Lease counts as first seen (tryUpdateNodeHealth rebuilds the record without it)',
  leaseFirstSeen: 'Lease first seen (it has no renewTime): its creationTimestamp',
  creationTimestamp: "node's creationTimestamp, the controller's first sight",
}
const at = (ms: number | undefined) => (ms === undefined ? undefined : iso(ms))
/** An instant at the precision the replay compares it (µs where the data or --now had them): issue 31 point 3. */
const atUs = (us: number | undefined) => (us === undefined ? undefined : isoMicros(us))
const nowUs = (c: ClusterAnalysis, now: number) => c.nowMicros ?? now * 1000

export interface NodeTimeline {
  lastHeartbeat: string | null
  lastRenewal: string | null
  probeEstimate: string
  graceExpiry: string
  markedUnknown: string | null
  noExecuteTaintAdded: string | null
  /** This pass takes the controller's NoExecute taint off (entering master disruption mode). */
  noExecuteTaintRemoved: string | null
  expectedTaintBy: string | null
  now: string
}

/** When the taint this pass removes had been added (its timeAdded, the controller's clock). */
function removedAddedAt(a: NodeAnalysis): number | undefined {
  const added = a.noExecute.removedThisPass?.taints.map((x) => (x.timeAdded ? Date.parse(x.timeAdded) : Number.NaN)).filter((x) => !Number.isNaN(x))
  return added && added.length > 0 ? Math.min(...added) : undefined
}

export function nodeTimeline(a: NodeAnalysis, now: number, nowMicros = now * 1000): NodeTimeline {
  const marked = a.markedByController?.at ?? (a.stale && a.conditionsSetUnknown.length > 0 ? now : undefined)
  return {
    lastHeartbeat: atUs(a.sign.lastHeartbeatMicros) ?? null,
    lastRenewal: atUs(a.sign.lastRenewalMicros) ?? null,
    probeEstimate: isoMicros(a.sign.probeMicros),
    graceExpiry: isoMicros(a.graceExpiryMicros),
    markedUnknown: at(marked) ?? null,
    noExecuteTaintAdded: at(a.noExecute.removedThisPass ? removedAddedAt(a) : a.noExecute.addedAt) ?? null,
    noExecuteTaintRemoved: at(a.noExecute.removedThisPass?.at) ?? null,
    expectedTaintBy: a.noExecute.status === 'pending' && a.noExecute.pendingWithinMs !== undefined ? iso(now + a.noExecute.pendingWithinMs) : null,
    now: isoMicros(nowMicros),
  }
}

function summary(a: NodeAnalysis, c: ClusterAnalysis, ctx: ExplainContext): string {
  const zone = c.zones.find((z) => z.key === a.zone)
  const grace = `${a.gracePeriodKind} grace ${humanDuration(a.gracePeriod)}`
  switch (a.verdict) {
    case 'healthy':
      return `Healthy: last sign of life (${PROBE_FROM[a.sign.probeFrom]}) ${humanDuration(ctx.now - a.sign.probe)} ago, within the ${grace} until ${isoMicros(a.graceExpiryMicros)}.`
    case 'excluded':
      return `Healthy, and labelled node.kubernetes.io/exclude-disruption: it is not counted in zone ${a.zoneName}'s disruption state (it is still health-checked and tainted).`
    case 'withinGrace':
      return a.readyAfter
        ? `No sign of life for ${humanDuration(ctx.now - a.sign.probe)}, but still inside the ${grace}: it will be marked Unknown after ${isoMicros(a.graceExpiryMicros)}, in ${humanDuration(a.graceExpiry - ctx.now)} (within one ${humanDuration(ctx.settings.nodeMonitorPeriod)} monitor period) unless it reports.`
        : `Never posted a Ready condition; inside the startup grace (${humanDuration(a.gracePeriod)} from creation or the last lease renewal) until ${iso(a.graceExpiry)}.`
    case 'unhealthy':
      return `${readyText(a)}; it carries ${a.noExecute.present ? t(a.noExecute.present) : 'its NoExecute taint'}${a.noExecute.status === 'swapNextPass' ? ` (swapped to ${t(a.noExecute.expected!)} at the next monitor pass, without the rate limit)` : a.noExecute.addedAt ? ` since ${iso(a.noExecute.addedAt)}` : ''}: pods without a matching toleration are evicted.`
    case 'taintPending':
      return `${readyText(a)}; ${t(a.noExecute.expected!)} is not there yet: zone ${a.zoneName} taints at ${zone?.rate}/s, ${zone?.pendingTaints} node(s) waiting, so it will be added within about ${humanDuration(a.noExecute.pendingWithinMs ?? 0)}.`
    case 'taintBlocked':
      return a.noExecute.removedThisPass
        ? `${readyText(a)}, and this pass enters master disruption mode: the controller takes ${a.noExecute.removedThisPass.taints.map(t).join(', ')} off (handleDisruption: markNodeAsReachable on every node) and adds no NoExecute taint while every zone is down. Its pods' eviction timers are cancelled; the node lifecycle controller evicts nothing.`
        : `${readyText(a)}, but ${t(a.noExecute.expected!)} is not added: ${blockedText(a, zone)}. Its pods are not evicted by the node lifecycle controller.`
    case 'unknown':
      return `Ready is True as last posted ${humanDuration(ctx.now - a.sign.probe)} ago, but the data holds no Lease for it: a kubelet that renews its Lease posts status only every 5 minutes (nodeStatusReportFrequency), so an old status heartbeat is no sign of death. Not judged; the controller has not marked it (no NodeStatusUnknown, no NoExecute taint).`
    case 'circuitOpen':
      return c.circuit.open
        ? `Not evaluated: the lease circuit breaker is open (${c.circuit.message}); no node is evaluated until the lease cache catches up — the safe direction, nothing is tainted or evicted.${a.verdictOnceCaughtUp ? ` Once it has caught up: ${a.verdictOnceCaughtUp}.` : ''}`
        : `Skipped this pass: ${a.circuit?.message ?? 'the lease could not be verified'}; no pods are evicted from it this pass.`
  }
}

function readyText(a: NodeAnalysis): string {
  const r = a.readyAfter ?? a.readyBefore
  if (a.conditionsSetUnknown.some((c) => c.type === 'Ready'))
    return `Ready becomes Unknown now: no sign of life since ${isoMicros(a.sign.probeMicros)} (grace ${humanDuration(a.gracePeriod)} ended ${isoMicros(a.graceExpiryMicros)})`
  if (a.markedByController)
    return `Ready is Unknown (${a.markedByController.reason}, written by the controller${a.markedByController.at ? ` at ${iso(a.markedByController.at)}` : ''})`
  return `Ready is ${r?.status}${r?.reason ? ` (${r.reason})` : ''}`
}

function blockedText(a: NodeAnalysis, zone: ZoneAnalysis | undefined): string {
  switch (a.noExecute.blockedBecause) {
    case 'masterDisruption':
      return 'master disruption mode (every zone is fully disrupted, so the controller assumes its own connectivity is the problem and stops all tainting)'
    case 'zoneRateZero':
      return `zone ${a.zoneName} is partially disrupted and has ${zone?.counted} counted nodes, not more than --large-cluster-size-threshold, so its rate is 0`
    case 'circuitOpen':
      return 'the lease circuit breaker is open'
    case 'leaseLookupError':
      return 'the controller could not verify the lease live and skipped the node'
    default:
      return 'blocked'
  }
}

function nodeSteps(a: NodeAnalysis, c: ClusterAnalysis, ctx: ExplainContext): Step[] {
  const s = ctx.settings
  const steps: Step[] = []
  steps.push({
    rule: 'tryUpdateNodeHealth',
    upstream: `${NLC} (tryUpdateNodeHealth)`,
    inputs: {
      lastHeartbeatTime: atUs(a.sign.lastHeartbeatMicros) ?? null,
      leaseRenewTime: atUs(a.sign.lastRenewalMicros) ?? null,
      probeEstimate: isoMicros(a.sign.probeMicros),
      gracePeriod: humanDuration(a.gracePeriod),
      gracePeriodKind: a.gracePeriodKind,
      graceExpiry: isoMicros(a.graceExpiryMicros),
      now: isoMicros(nowUs(c, ctx.now)),
    },
    result: a.verdict === 'unknown' ? 'notJudged' : a.stale ? 'stale' : 'fresh',
    why:
      a.verdict === 'unknown'
        ? `the data holds no Lease for this node (and its absence proves nothing): the status heartbeat ${at(a.sign.lastHeartbeat) ?? '(none)'} is older than the grace, but a kubelet renewing its Lease posts status only every 5 min (nodeStatusReportFrequency), so the node is taken as its Ready condition shows it`
        : `${a.stale ? `now (${isoMicros(nowUs(c, ctx.now))}) is after ${isoMicros(a.graceExpiryMicros)}` : `now (${isoMicros(nowUs(c, ctx.now))}) is not after ${isoMicros(a.graceExpiryMicros)} (exactly at the boundary is still healthy)`}: last sign of life ${isoMicros(a.sign.probeMicros)} from the ${PROBE_FROM[a.sign.probeFrom]} + ${a.gracePeriodKind === 'startup' ? '--node-startup-grace-period' : '--node-monitor-grace-period'} ${humanDuration(a.gracePeriod)}`,
    inferred: {
      evidence: `the controller measures from when IT noticed the heartbeat change or renewal (its in-memory probeTimestamp), not from the timestamps; estimated as a controller running throughout would have seen them (docs/node-lifecycle-model.md: the newer stamp, one --node-monitor-period after a heartbeat newer than the Lease, never before the node's creation)${a.sign.skew ? `; ${a.sign.skew}` : ''}${a.sign.fromRecord ? `; ${a.sign.fromRecord}` : ''}, so it is marked Unknown between ${isoMicros(a.graceExpiryMicros)} and ${isoMicros(a.graceExpiryMicros + s.nodeMonitorPeriod * 1000)}. A controller restart or leader change gives every node a fresh grace.`,
      confidence: 'likely',
    },
  })
  const live = a.liveCheck ?? a.circuit?.liveCheck
  steps.push({
    rule: 'NodeControllerLeaseCircuitBreaker',
    upstream: `${NLC} (tryUpdateNodeHealth steps 0 and 6); ${CONSISTENCY}`,
    inputs: {
      gate: s.leaseCircuitBreaker,
      cachedLeaseRV: live?.acceptedRV ?? null,
      liveLeaseRV: live?.liveRV ?? null,
      informerSyncRV: c.circuit.informerSyncRV ?? null,
    },
    result: !s.leaseCircuitBreaker ? 'gateOff' : a.circuit ? a.circuit.why : live ? live.outcome : 'notConsulted',
    why: !s.leaseCircuitBreaker
      ? 'the gate is off for this version/flags: a stale cached lease is acted on without a live check'
      : a.circuit
        ? a.circuit.message
        : !live
          ? 'the node is not stale, so the controller does not look at the live lease'
          : live.outcome === 'rvEqual'
            ? 'the live lease has the resourceVersion the controller last accepted: the stale verdict stands'
            : live.outcome === 'notFound'
              ? 'the lease does not exist live (NotFound is not a bail-out): the stale verdict stands'
              : live.outcome === 'unreadable'
                ? `the live lease could not be read here (${live.message}); assumed to agree with the cache`
                : live.outcome,
  })
  if (a.conditionsSetUnknown.length > 0 || a.markedByController) {
    steps.push({
      rule: 'tryUpdateNodeHealth: set conditions Unknown',
      upstream: `${NLC} (tryUpdateNodeHealth)`,
      inputs: {changes: a.conditionsSetUnknown},
      result:
        a.conditionsSetUnknown.length > 0
          ? a.conditionsSetUnknown.map((x) => `${x.type}→Unknown (${x.reason})`).join(', ')
          : `already written (${a.markedByController!.reason})`,
      why: 'Ready, MemoryPressure, DiskPressure and PIDPressure become Unknown (missing ones are added as NodeStatusNeverUpdated); NetworkUnavailable is left alone; the status is written only when Ready changes',
    })
  }
  const zone = c.zones.find((z) => z.key === a.zone)
  steps.push({
    rule: 'ComputeZoneState',
    upstream: `${NLC} (ComputeZoneState, handleDisruption)`,
    inputs: {
      zone: a.zoneName,
      counted: zone?.counted ?? 0,
      ready: zone?.ready ?? 0,
      notReady: zone?.notReady ?? 0,
      unhealthyZoneThreshold: s.unhealthyZoneThreshold,
      excluded: a.excluded,
    },
    result: zone?.state ?? 'notCounted',
    why: `${a.excluded ? 'this node has the node.kubernetes.io/exclude-disruption label and is not counted; ' : ''}FullDisruption when no counted node is ready; PartialDisruption when more than 2 are not ready and their share (float32) is at least ${s.unhealthyZoneThreshold}; Normal otherwise`,
  })
  steps.push({
    rule: 'setLimiterInZone',
    upstream: `${NLC} (setLimiterInZone, ReducedQPSFunc, HealthyQPSFunc)`,
    inputs: {
      state: zone?.state ?? null,
      counted: zone?.counted ?? 0,
      largeClusterSizeThreshold: s.largeClusterSizeThreshold,
      masterDisruption: c.masterDisruption,
    },
    result: `${zone?.rate ?? 0}/s`,
    why: zone?.rateWhy ?? 'zone not evaluated',
  })
  steps.push({
    rule: 'processTaintBaseEviction',
    upstream: `${NLC} (processTaintBaseEviction, doNoExecuteTaintingPass); pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go`,
    inputs: {
      ready: (a.readyAfter ?? a.readyBefore)?.status ?? null,
      expected: a.noExecute.expected ? t(a.noExecute.expected) : null,
      present: a.noExecute.present ? t(a.noExecute.present) : null,
      otherNoExecute: a.noExecute.others.map(t),
    },
    result: a.noExecute.removedThisPass
      ? 'removedOnMasterDisruptionEntry'
      : a.verdict === 'circuitOpen' && a.noExecute.status === 'notExpected'
        ? 'notEvaluated'
        : a.noExecute.status,
    why: a.noExecute.removedThisPass
      ? `every zone is FullDisruption after this pass and was not before: handleDisruption enters master disruption mode and calls markNodeAsReachable for every node (nlc.go@2b96ebcf:1033-1121), so ${a.noExecute.removedThisPass.taints.map(t).join(', ')} goes at ${iso(a.noExecute.removedThisPass.at)} and every zone queue is stopped`
      : a.verdict === 'circuitOpen' && a.noExecute.status === 'notExpected'
        ? 'not evaluated while the lease circuit breaker is open: no taint is added or removed'
        : a.noExecute.status === 'notExpected'
          ? 'Ready is True (or absent): the controller removes both NoExecute taints and takes the node out of its zone queue'
          : a.noExecute.status === 'present'
            ? `the taint is there${a.noExecute.addedAt ? ` (timeAdded ${iso(a.noExecute.addedAt)}, the controller's clock)` : ''}${a.noExecute.records ? `; ${a.noExecute.records}` : ''}`
            : a.noExecute.status === 'swapNextPass'
              ? 'the opposite NoExecute taint is there: the controller swaps it at once, outside the rate limit'
              : a.noExecute.status === 'pending'
                ? `queued in zone ${a.zoneName}; the queue drains one node per token (burst 1) every 100ms check: worst case ${humanDuration(a.noExecute.pendingWithinMs ?? 0)}`
                : blockedText(a, zone),
    ...(a.noExecute.status === 'pending'
      ? {
          inferred: {
            evidence:
              "the queue order is in the controller's memory (8 parallel workers re-queue untainted nodes every pass); the wait counts every pending node in the zone ahead of this one",
            confidence: 'possible' as const,
          },
        }
      : {}),
  })
  steps.push({
    rule: 'doNoScheduleTaintingPass',
    upstream: `${NLC} (doNoScheduleTaintingPass)`,
    inputs: {expected: a.noSchedule.expected.map(t), present: a.noSchedule.present.map(t)},
    result:
      a.noSchedule.missing.length === 0 && a.noSchedule.extra.length === 0
        ? 'inSync'
        : `add ${a.noSchedule.missing.map(t).join(', ') || 'nothing'}; remove ${a.noSchedule.extra.map(t).join(', ') || 'nothing'}`,
    why: 'condition-derived NoSchedule taints follow the conditions on every node update, with no rate limit and regardless of zone state',
  })
  return steps
}

export function explainNode(a: NodeAnalysis, c: ClusterAnalysis, ctx: ExplainContext): Explanation {
  const br = ctx.byRelease
  const answers = br?.nodes[a.name]
  const steps = nodeSteps(a, c, ctx)
  // The release is not settled (issue 27.3): the defaults that differ by release (defaults.ts) replayed under each.
  if (br)
    steps.push({
      rule: 'versionDefaults',
      upstream: 'cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go; pkg/features/kube_features.go',
      inputs: {versions: br.candidates},
      result: answers ? `${answers.length} answers by release` : 'the same under every release',
      why: answers
        ? `${br.why}; ${nodeAnswersText(answers)}`
        : `${br.why}; every release it leaves possible (${releaseRange(br.candidates)}) gives this node the same answer: the version did not matter`,
    })
  return {
    subject: {kind: 'Node', apiVersion: 'v1', name: a.name, uid: a.uid},
    controller: 'nodelifecycle',
    verdict: a.verdict,
    severity: nodeSeverityIn(a, c, br),
    summary: answers && br ? `${nodePreamble(br, answers, ctx.source.k8sVersion)} ${summary(a, c, ctx)}` : summary(a, c, ctx),
    ...(nodeNext(a).length > 0 ? {next: nodeNext(a)} : {}),
    steps,
    ...(answers && br ? {byRelease: {candidates: br.candidates, why: br.why, settle: br.settle, answers}} : {}),
    evaluatedAt: isoMicros(nowUs(c, ctx.now)),
    source: ctx.source,
    zone: {
      name: a.zoneName,
      key: a.zone,
      state: c.zones.find((z) => z.key === a.zone)?.state ?? null,
      rate: c.zones.find((z) => z.key === a.zone)?.rate ?? null,
    },
    excluded: a.excluded,
    masterDisruption: c.masterDisruption,
    circuitBreaker: {gate: c.circuit.gate, open: c.circuit.open},
    ...(a.verdictOnceCaughtUp ? {verdictOnceCaughtUp: a.verdictOnceCaughtUp} : {}),
    conditionsSetUnknown: a.conditionsSetUnknown,
    taints: {
      noExecute: {
        expected: a.noExecute.expected ? t(a.noExecute.expected) : null,
        present: a.noExecute.present ? t(a.noExecute.present) : null,
        status: a.noExecute.status,
        blockedBecause: a.noExecute.blockedBecause ?? null,
        others: a.noExecute.others.map(t),
        removedThisPass: a.noExecute.removedThisPass
          ? {taints: a.noExecute.removedThisPass.taints.map(t), at: iso(a.noExecute.removedThisPass.at), rule: a.noExecute.removedThisPass.rule}
          : null,
      },
      noSchedule: {
        expected: a.noSchedule.expected.map(t),
        present: a.noSchedule.present.map(t),
        missing: a.noSchedule.missing.map(t),
        extra: a.noSchedule.extra.map(t),
      },
    },
    timeline: nodeTimeline(a, ctx.now, nowUs(c, ctx.now)),
  }
}

const CLUSTER_SEVERITY = {healthy: 'none', degraded: 'info', masterDisruption: 'critical', circuitOpen: 'warning', noNodes: 'info'} as const

/** The worst of the cluster's own state and its nodes'; master disruption judged from a partial node set is info. */
export function clusterSeverity(c: ClusterAnalysis, br?: NodeByRelease): Severity {
  let own: Severity = c.verdict === 'masterDisruption' && clusterUncertain(c) ? 'info' : CLUSTER_SEVERITY[c.verdict]
  // The cluster's own state under some possible releases only: information naming them.
  if (br?.cluster?.some((x) => CLUSTER_SEVERITY[x.verdict as keyof typeof CLUSTER_SEVERITY] !== own) && own !== 'none') own = 'info'
  return RANK[Math.max(RANK.indexOf(own), ...c.nodes.map((n) => RANK.indexOf(nodeSeverityIn(n, c, br))))]
}

function clusterNext(c: ClusterAnalysis): NextStep[] {
  switch (c.verdict) {
    case 'noNodes':
      return [
        {
          command: 'kubectl get nodes -o yaml',
          why: c.evidence?.file
            ? 'the data holds no Node: add the nodes (kubectl why snapshot records them with their Leases)'
            : 'the cluster has no Node objects',
        },
      ]
    case 'masterDisruption':
      return [{command: 'kubectl get nodes -o wide', why: 'every zone looks down: check the network between the control plane and the nodes first'}]
    case 'circuitOpen':
      return [
        {
          command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=200',
          why: "the lease circuit breaker holds every node until the controller's lease informer catches up",
        },
      ]
    case 'degraded':
      return [{command: `kubectl why node ${orderedNodes(c)[0]?.name ?? 'NAME'}`, why: 'the worst node, with its timeline and what happens to its pods'}]
    default:
      return []
  }
}
const RANK: Severity[] = ['none', 'info', 'warning', 'critical']

/** The NoExecute column of the node table: which taint, since when, or why not. */
function noExecuteDetail(n: NodeAnalysis): string {
  const x = n.noExecute
  const short = (tt?: Taint) => (tt ? tt.key.replace('node.kubernetes.io/', '') : '')
  switch (x.status) {
    case 'notExpected':
      return x.others.length ? `others: ${x.others.map(t).join(', ')}` : '—'
    case 'present':
      return `${short(x.present)}${x.addedAt ? ` since ${iso(x.addedAt).slice(11, 19)}` : ''}`
    case 'swapNextPass':
      return `${short(x.present)} → ${short(x.expected)} next pass`
    case 'pending':
      return `${short(x.expected)} pending (≤ ${humanDuration(x.pendingWithinMs ?? 0)})`
    case 'blocked':
      return x.removedThisPass
        ? `${x.removedThisPass.taints.map(short).join(', ')} removed now (master disruption entry)`
        : `${short(x.expected)} blocked: ${x.blockedBecause}`
  }
}

/** Worst first; within a severity, in the order the nodes were listed (the API's name order). */
export function orderedNodes(c: ClusterAnalysis): NodeAnalysis[] {
  return [...c.nodes].sort((a, b) => RANK.indexOf(nodeSeverity(b, c)) - RANK.indexOf(nodeSeverity(a, c)))
}

function clockNote(c: ClusterAnalysis, now: number): string {
  const k = c.evidence?.clock
  return k && k.trust === 'estimated' ? ` Evaluated at ${iso(now)}, an estimated clock: ${k.from}.` : ''
}

export function clusterSummary(c: ClusterAnalysis, now?: number): string {
  const clock = now === undefined ? '' : clockNote(c, now)
  if (c.verdict === 'noNodes') return `No nodes in the data${c.evidence?.file ? '' : ' (the cluster has no Node objects)'}: nothing to replay.${clock}`
  const counts = new Map<string, number>()
  for (const n of c.nodes) counts.set(n.verdict, (counts.get(n.verdict) ?? 0) + 1)
  const parts = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([v, n]) => `${n} ${v}`)
    .join(', ')
  const zones = c.zones.map((z) => `${z.name} ${z.state} (${z.rate}/s)`).join('; ')
  const unknown = counts.get('unknown') ?? 0
  const attention = c.nodes.some((n) => !['healthy', 'excluded', 'unknown'].includes(n.verdict))
  const head =
    c.verdict === 'circuitOpen'
      ? `Lease circuit breaker open (tripped by node ${c.circuit.trippedBy}): no node is evaluated until the lease cache catches up; nothing is tainted or evicted meanwhile.`
      : c.verdict === 'masterDisruption'
        ? `Master disruption mode${fromData(c)}: every zone is fully disrupted, NoExecute tainting is stopped everywhere.`
        : attention
          ? 'Some nodes need attention.'
          : unknown > 0
            ? `The data cannot tell whether ${unknown} node(s) are alive: it holds no Lease for them and their status heartbeats are older than the grace period (a kubelet with a lease posts status only every 5 min).`
            : 'All nodes healthy.'
  // With every Node listed there are no nodes outside the data: the other explanations for the taint are named.
  const complete = c.evidence === undefined || c.evidence.nodeSet === 'complete'
  const refused = c.contradicted
    ? ` Not master disruption mode: ${c.contradicted.node} carries ${c.contradicted.taint} added at ${iso(c.contradicted.addedAt)}, after every zone in the data was down (${iso(c.contradicted.disruptionFrom)}) — the controller adds no NoExecute taint in that mode, so ${
        complete
          ? 'the data, which lists every Node, does not show how: another actor may have added a taint of that key and effect (kubectl taint, a node-problem remediator), or the controller restarted or changed leader (a new process gives every node a fresh grace, so its zone states need not follow the Ready conditions as the data shows them)'
          : 'nodes outside the data are ready'
      }.`
    : ''
  const leases =
    c.evidence && c.evidence.leases !== 'present' && !c.evidence.leaseAbsenceIsProof
      ? ` The data holds ${c.evidence.leases === 'absent' ? 'no' : 'only some'} node Leases.`
      : ''
  return `${head}${refused} ${c.nodes.length} node${c.nodes.length === 1 ? '' : 's'}: ${parts || 'none'}. Zones${fromData(c)}: ${zones || 'none'}.${leases}${clock}`
}

export function explainCluster(c: ClusterAnalysis, ctx: ExplainContext, name: string): Explanation {
  const s = ctx.settings
  const steps: Step[] = [
    {
      rule: 'handleDisruption',
      upstream: `${NLC} (handleDisruption)`,
      inputs: {zones: c.zones.map((z) => ({zone: z.name, state: z.state}))},
      result: c.masterDisruption ? 'masterDisruption' : 'normalOperation',
      why: c.masterDisruption
        ? c.masterDisruptionChange === 'entered'
          ? 'every zone is FullDisruption after this pass and was not before: the controller enters master disruption mode now, takes the NoExecute taints off every node in this pass (markNodeAsReachable, nlc.go@2b96ebcf:1033-1121) and stops all queues'
          : 'every zone is FullDisruption: taints are stripped once on entry and all queues stopped; leaving the mode gives every node a fresh grace'
        : 'at least one zone has a ready node: each zone taints at its own rate',
    },
    {
      rule: 'NodeControllerLeaseCircuitBreaker',
      upstream: `${NLC}; ${CONSISTENCY}`,
      inputs: {gate: s.leaseCircuitBreaker, recordedRV: c.circuit.recordedRV ?? null, informerSyncRV: c.circuit.informerSyncRV ?? null},
      result: !s.leaseCircuitBreaker ? 'gateOff' : c.circuit.open ? 'open' : 'closed',
      why: !s.leaseCircuitBreaker
        ? 'the gate is off: no live lease double-check'
        : c.circuit.open
          ? `${c.circuit.message}: the controller records the live RV and refuses every node until its lease informer has synced that far; skipped nodes drop out of zone counting`
          : 'no stale cached lease disagrees with its live read',
    },
  ]
  if (c.panic)
    steps.push({
      rule: 'handleDisruption (exit master disruption mode)',
      upstream: `${NLC} (handleDisruption); kubernetes/kubernetes#141572`,
      result: 'panic',
      why: c.panic,
    })
  return {
    subject: {kind: 'Cluster', name},
    controller: 'nodelifecycle',
    verdict: c.verdict,
    // The worst of the cluster's own state and its nodes'.
    severity: clusterSeverity(c, ctx.byRelease),
    // Said first when an answer depends on the release; when none does, said last (the answers lead).
    summary:
      !ctx.byRelease || c.verdict === 'noNodes'
        ? clusterSummary(c, ctx.now)
        : Object.keys(ctx.byRelease.nodes).length > 0 || ctx.byRelease.cluster
          ? `${clusterPreamble(ctx.byRelease)} ${clusterSummary(c, ctx.now)}`
          : `${clusterSummary(c, ctx.now)} ${clusterPreamble(ctx.byRelease)}`,
    ...(ctx.byRelease && c.verdict !== 'noNodes' ? {byRelease: ctx.byRelease} : {}),
    steps,
    evaluatedAt: isoMicros(nowUs(c, ctx.now)),
    source: ctx.source,
    masterDisruption: c.masterDisruption,
    masterDisruptionChange: c.masterDisruptionChange,
    circuitBreaker: {
      gate: c.circuit.gate,
      open: c.circuit.open,
      trippedBy: c.circuit.trippedBy ?? null,
      recordedRV: c.circuit.recordedRV ?? null,
      informerSyncRV: c.circuit.informerSyncRV ?? null,
    },
    zones: c.zones.map((z) => ({
      name: z.name,
      key: z.key,
      state: z.state,
      counted: z.counted,
      ready: z.ready,
      notReady: z.notReady,
      rate: z.rate,
      rateWhy: z.rateWhy,
      pendingTaints: z.pendingTaints,
    })),
    ...(clusterNext(c).length > 0 ? {next: clusterNext(c)} : {}),
    nodes: orderedNodes(c).map((n) => ({
      name: n.name,
      zone: n.zoneName,
      verdict: n.verdict,
      severity: nodeSeverityIn(n, c, ctx.byRelease),
      ready: (n.readyAfter ?? n.readyBefore)?.status ?? null,
      lastSignOfLife: isoMicros(n.sign.probeMicros),
      graceExpiry: isoMicros(n.graceExpiryMicros),
      noExecute: n.noExecute.status,
      noExecuteDetail: noExecuteDetail(n),
      ...(n.verdictOnceCaughtUp ? {verdictOnceCaughtUp: n.verdictOnceCaughtUp} : {}),
      summary: summary(n, c, ctx),
    })),
  }
}
