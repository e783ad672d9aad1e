// The kubelet's node-pressure eviction, replayed from what a dump shows (pkg/kubelet/eviction; decision spec
// evictions.md §2): the signal from the starved resource, the message and the node's pressure condition; the hard
// thresholds (the release's defaults per OS, marked as defaults: the kubelet's configuration is not in the data);
// and why this pod and not its neighbours — the rank functions (helpers.go rankMemoryPressure,
// rankDiskPressureFunc, rankPIDPressure) re-executed over the comparators' inputs the data holds.
import {getPodQOS, type PodQOSClass, podRequest, quantityValue} from '../../component-helpers/resource.js'
import {NODE_LOW_PREFIX} from './evidence.js'
import type {NodeLike, PodLike} from './types.js'

export const HELPERS = 'pkg/kubelet/eviction/helpers.go'

/** kubelettypes.IsCriticalPodBasedOnPriority: priority ≥ scheduling.SystemCriticalPriority (2 × 10^9). */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000

// ------------------------------------------------------------------ the message (helpers.go evictionMessage)

export interface ParsedEvictionMessage {
  /** nodeLowMessageFmt "The node was low on resource: %v. " */
  resource: string
  /** thresholdMetMessageFmt "Threshold quantity: %v, available: %v. " (newer kubelets) */
  threshold?: string
  available?: string
  /** podMessageFmt "Pod %v was using %v, request is %v, has larger consumption of %v. " (PodLevelResources) */
  pod?: {name: string; usage: string; request: string}
  /** containerMessageFmt "Container %s was using %s, request is %s, has larger consumption of %v. ", or the older
   * "Container %s was using %s, which exceeds its request of %s. " — only containers above their request appear. */
  containers: {name: string; usage: string; request: string}[]
}

/** Parse the eviction message the kubelet writes to status.message and the Evicted event (undefined: not one). */
export function parseEvictionMessage(message: string | undefined): ParsedEvictionMessage | undefined {
  if (!message?.startsWith(NODE_LOW_PREFIX)) return undefined
  const head = /^The node was low on resource: (.+?)\. /.exec(message) ?? /^The node was low on resource: (.+?)\.?$/.exec(message)
  if (!head) return undefined
  const out: ParsedEvictionMessage = {resource: head[1], containers: []}
  const t = /Threshold quantity: (\S+), available: (\S+?)\. /.exec(message)
  if (t) {
    out.threshold = t[1]
    out.available = t[2]
  }
  const p = /Pod (\S+) was using (\S+), request is (\S+), has larger consumption of \S+?\. /.exec(message)
  if (p) out.pod = {name: p[1], usage: p[2], request: p[3]}
  for (const m of message.matchAll(
    /Container (\S+) was using (\S+), (?:request is (\S+), has larger consumption of \S+?|which exceeds its request of (\S+?))\. /g,
  ))
    out.containers.push({name: m[1], usage: m[2], request: m[3] ?? m[4]})
  return out
}

// ------------------------------------------------------------------ signals and defaults (eviction/api/types.go)

export type Signal =
  | 'memory.available'
  | 'allocatableMemory.available'
  | 'nodefs.available'
  | 'nodefs.inodesFree'
  | 'imagefs.available'
  | 'imagefs.inodesFree'
  | 'containerfs.available'
  | 'containerfs.inodesFree'
  | 'pid.available'

/** helpers.go signalToResource, inverted: which signals starve each resource the message names. */
export const SIGNALS_OF_RESOURCE: Record<string, Signal[]> = {
  memory: ['memory.available', 'allocatableMemory.available'],
  'ephemeral-storage': ['nodefs.available', 'imagefs.available', 'containerfs.available'],
  inodes: ['nodefs.inodesFree', 'imagefs.inodesFree', 'containerfs.inodesFree'],
  pids: ['pid.available'],
}

/** helpers.go signalToNodeCondition, per resource. */
export const CONDITION_OF_RESOURCE: Record<string, string> = {
  memory: 'MemoryPressure',
  'ephemeral-storage': 'DiskPressure',
  inodes: 'DiskPressure',
  pids: 'PIDPressure',
}

/**
 * DefaultEvictionHard per OS: defaults_linux.go (memory.available<100Mi, nodefs.available<10%,
 * nodefs.inodesFree<5%, imagefs.available<15%); defaults_windows.go (500Mi, nodefs 10%; newer kubelets drop
 * imagefs); defaults_others.go (100Mi, 10%, 15%). pid.available has no default anywhere.
 */
export const DEFAULT_EVICTION_HARD: Record<'linux' | 'windows', Partial<Record<Signal, string>>> = {
  linux: {'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%'},
  windows: {'memory.available': '500Mi', 'nodefs.available': '10%'},
}

/** defaults.go: evictionPressureTransitionPeriod 5m0s in every release. */
export const PRESSURE_TRANSITION_PERIOD_MS = 5 * 60_000

// ------------------------------------------------------------------ ranking (helpers.go)

/** What the comparators read of one pod: its priority, requests, and usage from the summary API when known. */
export interface RankPod {
  name: string
  /** corev1helpers.PodPriority: spec.priority, nil = 0. */
  priority: number
  /** GetResourceRequestQuantity per resource name (memory, ephemeral-storage, inodes). */
  requests: Partial<Record<string, number>>
  /** Absent: no stats for the pod (statsFunc found false). memory = working set; disk/inodes per the fs stats summed. */
  usage?: {memory?: number; disk?: number; inodes?: number; processes?: number}
}

type Cmp = (a: RankPod, b: RankPod) => number

/** cmpBool: true sorts first. */
const cmpBool = (a: boolean, b: boolean) => (a === b ? 0 : a ? -1 : 1)

/** exceedMemoryRequests: pods whose working set is above their memory request first; no stats first of all. */
export const exceedMemoryRequests: Cmp = (a, b) => {
  if (!a.usage || !b.usage) return cmpBool(!a.usage, !b.usage)
  return cmpBool((a.usage.memory ?? 0) > (a.requests.memory ?? 0), (b.usage.memory ?? 0) > (b.requests.memory ?? 0))
}

/** priority: lower spec.priority first. */
export const priority: Cmp = (a, b) => (a.priority === b.priority ? 0 : a.priority > b.priority ? 1 : -1)

/** memory: larger (working set − memory request) first. */
export const memory: Cmp = (a, b) => {
  if (!a.usage || !b.usage) return cmpBool(!a.usage, !b.usage)
  const x = (a.usage.memory ?? 0) - (a.requests.memory ?? 0)
  const y = (b.usage.memory ?? 0) - (b.requests.memory ?? 0)
  return Math.sign(y - x)
}

const diskUsage = (p: RankPod, resource: string) => (resource === 'inodes' ? p.usage?.inodes : p.usage?.disk) ?? 0

/** exceedDiskRequests(stats, fsStatsToMeasure, resource): usage above the request of the same resource name first. */
export const exceedDiskRequests =
  (resource: string): Cmp =>
  (a, b) => {
    if (!a.usage || !b.usage) return cmpBool(!a.usage, !b.usage)
    return cmpBool(diskUsage(a, resource) > (a.requests[resource] ?? 0), diskUsage(b, resource) > (b.requests[resource] ?? 0))
  }

/** disk(stats, fsStatsToMeasure, resource): larger (usage − ephemeral-storage request) first; the request is always
 * ephemeral-storage's, even for inodes (upstream's own quirk). */
export const disk =
  (resource: string): Cmp =>
  (a, b) => {
    if (!a.usage || !b.usage) return cmpBool(!a.usage, !b.usage)
    const x = diskUsage(a, resource) - (a.requests['ephemeral-storage'] ?? 0)
    const y = diskUsage(b, resource) - (b.requests['ephemeral-storage'] ?? 0)
    return Math.sign(y - x)
  }

/** process: larger process count first. */
export const process: Cmp = (a, b) => {
  if (!a.usage || !b.usage) return cmpBool(!a.usage, !b.usage)
  return Math.sign((b.usage.processes ?? 0) - (a.usage.processes ?? 0))
}

/** orderedBy(cmp...).Sort: the first comparator that tells two pods apart decides. */
export function orderedBy(...cmps: Cmp[]): (pods: RankPod[]) => RankPod[] {
  return (pods) =>
    [...pods].sort((a, b) => {
      for (const c of cmps) {
        const r = c(a, b)
        if (r !== 0) return r
      }
      return 0
    })
}

export const rankMemoryPressure = orderedBy(exceedMemoryRequests, priority, memory)
export const rankDiskPressure = (resource: 'ephemeral-storage' | 'inodes') => orderedBy(exceedDiskRequests(resource), priority, disk(resource))
export const rankPIDPressure = orderedBy(priority, process)

// ------------------------------------------------------------------ the replay over a dump

export interface Neighbour {
  name: string
  qosClass: PodQOSClass
  priority: number
  request: number
  /** Where it stands against the evicted pod in the rank function, as far as the data (no usage stats) can say. */
  standing: 'critical' | 'rankedAfter' | 'precedesIfAboveRequest' | 'dependsOnUsage'
  why: string
}

export interface PressureReplay {
  resource: string
  message?: ParsedEvictionMessage
  signals: Signal[]
  condition?: {type: string; status: string; since?: string}
  os: 'linux' | 'windows'
  /** The default hard threshold of each candidate signal on that OS (the kubelet config is not in the data). */
  defaults: Partial<Record<Signal, string>>
  /** The threshold in the message matches a default of that OS, or not (a configured evictionHard/evictionSoft). */
  thresholdIsDefault?: boolean
  rank: 'rankMemoryPressure' | 'rankDiskPressure' | 'rankPIDPressure'
  qosClass: PodQOSClass
  priority: number
  request: number
  /** The evicted pod was above its request: a container fragment in the message, or no request at all. */
  aboveRequest: boolean | undefined
  neighbours: Neighbour[]
}

const podPriority = (p: PodLike) => p.spec?.priority ?? 0
const isCritical = (p: PodLike) =>
  podPriority(p) >= SYSTEM_CRITICAL_PRIORITY ||
  (p.metadata as {annotations?: Record<string, string>} | undefined)?.annotations?.['kubernetes.io/config.mirror'] !== undefined

/** The request resource a rank function compares usage with. */
const REQUEST_RESOURCE: Record<string, string> = {memory: 'memory', 'ephemeral-storage': 'ephemeral-storage', inodes: 'ephemeral-storage', pids: ''}

export function replayNodePressure(input: {
  pod: PodLike
  message?: string
  starvedResource?: string
  node?: NodeLike
  podsOnNode: readonly PodLike[]
}): PressureReplay {
  const parsed = parseEvictionMessage(input.message)
  const resource = parsed?.resource ?? input.starvedResource ?? 'memory'
  const os: 'linux' | 'windows' =
    (input.node?.status?.nodeInfo?.operatingSystem ?? input.node?.metadata?.labels?.['kubernetes.io/os']) === 'windows' ? 'windows' : 'linux'
  const signals = SIGNALS_OF_RESOURCE[resource] ?? []
  const defaults: Partial<Record<Signal, string>> = {}
  for (const s of signals) if (DEFAULT_EVICTION_HARD[os][s]) defaults[s] = DEFAULT_EVICTION_HARD[os][s]
  const condType = CONDITION_OF_RESOURCE[resource]
  const c = condType ? input.node?.status?.conditions?.find((x) => x.type === condType) : undefined
  let thresholdIsDefault: boolean | undefined
  if (parsed?.threshold !== undefined) {
    const q = quantityValue(parsed.threshold)
    // A percentage becomes int64(capacity × percent) at the time (helpers.go GetThresholdQuantity). The nodefs
    // capacity is what the node reports as its ephemeral-storage capacity (the kubelet's rootfs); imagefs's is not
    // on the Node, so an imagefs percentage cannot be compared.
    const capacity = quantityValue(String((input.node?.status?.capacity as Record<string, unknown> | undefined)?.['ephemeral-storage'] ?? ''))
    const candidates: number[] = []
    for (const [signal, v] of Object.entries(defaults)) {
      if (!v) continue
      if (!v.endsWith('%')) candidates.push(quantityValue(v) ?? Number.NaN)
      else if (signal === 'nodefs.available' && capacity !== undefined) candidates.push(Math.trunc(capacity * (Number(v.slice(0, -1)) / 100)))
    }
    if (q !== undefined && candidates.some((c) => c === q)) thresholdIsDefault = true
    // No default threshold for these signals at all (pid.available has none on any OS): a threshold in the message
    // was configured.
    else if (q !== undefined && Object.keys(defaults).length === 0) thresholdIsDefault = false
    else if (q !== undefined && candidates.length === Object.keys(defaults).length && candidates.length > 0) thresholdIsDefault = false
  }
  const rank = resource === 'memory' ? 'rankMemoryPressure' : resource === 'pids' ? 'rankPIDPressure' : 'rankDiskPressure'
  const reqRes = REQUEST_RESOURCE[resource] ?? ''
  const request = reqRes ? podRequest(input.pod, reqRes) : 0
  const prio = podPriority(input.pod)
  // Only containers above their request are written into the message; with none and no request, any use is above.
  const aboveRequest =
    rank === 'rankPIDPressure'
      ? undefined
      : parsed && (parsed.containers.length > 0 || parsed.pod)
        ? true
        : request === 0 && parsed
          ? true
          : parsed && resource !== 'inodes'
            ? false
            : undefined
  const name = input.pod.metadata?.name
  const neighbours: Neighbour[] = []
  for (const n of input.podsOnNode) {
    if (n.metadata?.name === name && n.metadata?.namespace === input.pod.metadata?.namespace) continue
    const phase = n.status?.phase
    if (phase === 'Succeeded' || phase === 'Failed') continue // only active pods are ranked (activePodsFunc)
    const np = podPriority(n)
    const nr = reqRes ? podRequest(n, reqRes) : 0
    const ref = `${n.metadata?.namespace}/${n.metadata?.name}`
    let standing: Neighbour['standing']
    let why: string
    if (isCritical(n)) {
      standing = 'critical'
      why = `${ref} is critical (priority ≥ ${SYSTEM_CRITICAL_PRIORITY} or a static/mirror pod): evictPod refuses it`
    } else if (rank === 'rankPIDPressure') {
      standing = np > prio ? 'rankedAfter' : np < prio ? 'precedesIfAboveRequest' : 'dependsOnUsage'
      why =
        np > prio
          ? `${ref} has priority ${np} > ${prio}: ranked after it (priority decides first under PID pressure)`
          : np < prio
            ? `${ref} has priority ${np} < ${prio}: it ranks first unless it had ended or was critical — the data cannot say why it was passed over`
            : `${ref} has the same priority: the larger process count goes first (stats not in the data)`
    } else if (aboveRequest === true) {
      standing = np > prio ? 'rankedAfter' : np < prio ? 'precedesIfAboveRequest' : 'dependsOnUsage'
      why =
        np > prio
          ? `${ref} (priority ${np} > ${prio}) ranks after the evicted pod whether or not it was above its request`
          : np < prio
            ? `${ref} (priority ${np} < ${prio}) would have ranked first had it been above its request (${nr === 0 ? 'it requests nothing, so any use is above' : `request ${nr}`}): it was within it at the time`
            : `${ref} has the same priority: both above their requests, the larger (usage − request) goes first; usage is not in the data`
    } else {
      standing = 'precedesIfAboveRequest'
      why = `${ref} would have ranked first had it been above its request (${nr === 0 ? 'it requests nothing' : `request ${nr}`}): the evicted pod was within its own, so every neighbour was within theirs`
    }
    neighbours.push({name: ref, qosClass: getPodQOS(n), priority: np, request: nr, standing, why})
  }
  return {
    resource,
    message: parsed,
    signals,
    condition: c ? {type: c.type, status: c.status, since: c.lastTransitionTime ?? undefined} : undefined,
    os,
    defaults,
    thresholdIsDefault,
    rank,
    qosClass: getPodQOS(input.pod),
    priority: prio,
    request,
    aboveRequest,
    neighbours,
  }
}
