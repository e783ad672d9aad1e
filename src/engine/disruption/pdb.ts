// The disruption controller's arithmetic and the Eviction API's answer, replayed (decision spec evictions.md §5, §6):
// the PodDisruptionBudget's currentHealthy / desiredHealthy / expectedPods / disruptionsAllowed recomputed from the
// pods it selects (pkg/controller/disruption/disruption.go getExpectedPodCount, countHealthyPods,
// buildDisruptedPodMap, updatePdbStatus) and compared with the status the controller recorded; and what
// POST pods/eviction returns for the pod (pkg/registry/core/pod/storage/eviction.go EvictionREST.Create,
// checkAndDecrement): 200, the 429 a drain retries forever, or the 500 of two budgets. Pure.
import type {LabelSelector} from '../../cluster/kube-types.js'
import {labelSelectorAsSelector, SelectorError} from '../../apimachinery/labels.js'
import {parseMillis} from '../nodelifecycle/time.js'

export const DISRUPTION = 'pkg/controller/disruption/disruption.go'
export const EVICTION = 'pkg/registry/core/pod/storage/eviction.go'

/** DeletionTimeout: a disruptedPods entry older than 2 minutes no longer counts (disruption.go). */
export const DELETION_TIMEOUT_MS = 2 * 60_000
/** MaxDisruptedPodSize (eviction.go). */
export const MAX_DISRUPTED_POD_SIZE = 2000

export interface PdbLike {
  metadata?: {name?: string; namespace?: string; generation?: number}
  spec?: {
    selector?: LabelSelector | null
    minAvailable?: number | string | null
    maxUnavailable?: number | string | null
    unhealthyPodEvictionPolicy?: string | null
  }
  status?: {
    observedGeneration?: number
    currentHealthy?: number
    desiredHealthy?: number
    expectedPods?: number
    disruptionsAllowed?: number
    disruptedPods?: Record<string, string> | null
    conditions?: {type: string; status: string; reason?: string; message?: string}[] | null
  }
}

export interface PdbPod {
  metadata?: {
    name?: string
    namespace?: string
    uid?: string
    labels?: Record<string, string> | null
    deletionTimestamp?: string | null
    ownerReferences?: {kind: string; name: string; uid?: string; controller?: boolean; apiVersion?: string}[]
  }
  status?: {phase?: string; conditions?: {type: string; status: string}[] | null}
}

/** A workload the finders resolve (getPodReplicationController, getPodDeployment, getPodReplicaSet, getPodStatefulSet). */
export interface ScaleOwner {
  kind: string
  name: string
  uid?: string
  replicas?: number | null
  ownerReferences?: {kind: string; name: string; uid?: string; controller?: boolean}[]
}

/** podutil.IsPodReady: the Ready condition True. */
export const isPodReady = (p: PdbPod) => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')

/**
 * The pods a PDB selects: the disruption controller's getPodsForPdb and the eviction handler's getPodDisruptionBudgets
 * agree for a valid selector — nil matches nothing, {} matches every pod of the namespace; an invalid one nothing.
 */
export function selects(pdb: PdbLike, pod: PdbPod): boolean {
  if ((pdb.metadata?.namespace ?? '') !== (pod.metadata?.namespace ?? '')) return false
  try {
    return labelSelectorAsSelector(pdb.spec?.selector)(pod.metadata?.labels ?? {})
  } catch (err) {
    if (err instanceof SelectorError) return false
    throw err
  }
}

/** intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true). */
export function scaledValue(v: number | string, total: number): number | undefined {
  if (typeof v === 'number') return v
  const m = /^(\d+)%$/.exec(v.trim())
  if (m) return Math.ceil((Number(m[1]) * total) / 100)
  const n = Number(v)
  return Number.isInteger(n) ? n : undefined
}

export interface PdbStatusReplay {
  expectedPods: number
  desiredHealthy: number
  currentHealthy: number
  disruptionsAllowed: number
  /** Selected pods without a controllerRef (the UnmanagedPods warning). */
  unmanaged: string[]
  /** Why the expected count could not be worked out from the data (a controller not in it, a custom /scale). */
  unknown?: string
  /** The recorded status differs from the recomputation: stale controller, or data taken mid-update. */
  mismatches: string[]
  /** observedGeneration < generation: the eviction API answers 429 "still being processed". */
  stale: boolean
}

/**
 * getExpectedScale: per distinct controller of the selected pods, the finder chain's spec.replicas (RC, Deployment via
 * its ReplicaSet, ReplicaSet, StatefulSet). A controller the data does not hold (or a custom resource's /scale) is
 * reported as unknown rather than guessed.
 */
function expectedScale(pods: readonly PdbPod[], owners: readonly ScaleOwner[]): {scale: number; unmanaged: string[]; unknown?: string} {
  const seen = new Set<string>()
  let scale = 0
  const unmanaged: string[] = []
  for (const p of pods) {
    const ref = p.metadata?.ownerReferences?.find((r) => r.controller)
    if (!ref) {
      unmanaged.push(p.metadata?.name ?? '')
      continue
    }
    let owner = owners.find((o) => o.kind === ref.kind && o.name === ref.name && (!ref.uid || !o.uid || o.uid === ref.uid))
    if (owner?.kind === 'ReplicaSet') {
      const dref = owner.ownerReferences?.find((r) => r.controller && r.kind === 'Deployment')
      if (dref) {
        const d = owners.find((o) => o.kind === 'Deployment' && o.name === dref.name && (!dref.uid || !o.uid || o.uid === dref.uid))
        if (!d) return {scale, unmanaged, unknown: `Deployment ${dref.name} (owner of ReplicaSet ${owner.name}) is not in the data`}
        owner = d
      }
    }
    if (!owner)
      return {scale, unmanaged, unknown: `${ref.kind} ${ref.name} (controller of pod ${p.metadata?.name}) is not in the data, or resolves through /scale`}
    const key = `${owner.kind}/${owner.uid ?? owner.name}`
    if (seen.has(key)) continue
    seen.add(key)
    scale += owner.replicas ?? 1
  }
  return {scale, unmanaged}
}

/** trySync's arithmetic over the pods the PDB selects, as of now. */
export function recomputePdbStatus(pdb: PdbLike, namespacePods: readonly PdbPod[], owners: readonly ScaleOwner[], now: number): PdbStatusReplay {
  const pods = namespacePods.filter((p) => selects(pdb, p))
  const spec = pdb.spec ?? {}
  let expectedPods = 0
  let desiredHealthy = 0
  let unmanaged: string[] = []
  let unknown: string | undefined
  // getExpectedPodCount
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const s = expectedScale(pods, owners)
    expectedPods = s.scale
    unmanaged = s.unmanaged
    unknown = s.unknown
    const mu = scaledValue(spec.maxUnavailable, expectedPods) ?? 0
    desiredHealthy = Math.max(0, expectedPods - mu)
  } else if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number' || /^\d+$/.test(String(spec.minAvailable))) {
      expectedPods = pods.length
      desiredHealthy = Number(spec.minAvailable)
    } else {
      const s = expectedScale(pods, owners)
      expectedPods = s.scale
      unmanaged = s.unmanaged
      unknown = s.unknown
      desiredHealthy = scaledValue(spec.minAvailable, expectedPods) ?? 0
    }
  }
  // buildDisruptedPodMap: entries for pods still selected, not terminating, within DeletionTimeout.
  const disrupted = new Set<string>()
  for (const [name, t] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    const p = pods.find((x) => x.metadata?.name === name)
    const at = parseMillis(t, `PodDisruptionBudget ${pdb.metadata?.name} disruptedPods[${name}]`)
    if (p && !p.metadata?.deletionTimestamp && at !== undefined && at + DELETION_TIMEOUT_MS >= now) disrupted.add(name)
  }
  // countHealthyPods
  let currentHealthy = 0
  for (const p of pods) {
    if (p.metadata?.deletionTimestamp) continue
    if (disrupted.has(p.metadata?.name ?? '')) continue
    if (isPodReady(p)) currentHealthy++
  }
  // updatePdbStatus: negative → 0, and 0 whenever expectedPods ≤ 0.
  let disruptionsAllowed = currentHealthy - desiredHealthy
  if (expectedPods <= 0 || disruptionsAllowed < 0) disruptionsAllowed = 0
  const mismatches: string[] = []
  const st = pdb.status ?? {}
  if (!unknown) {
    for (const [k, v] of [
      ['currentHealthy', currentHealthy],
      ['desiredHealthy', desiredHealthy],
      ['expectedPods', expectedPods],
      ['disruptionsAllowed', disruptionsAllowed],
    ] as const) {
      if (st[k] !== undefined && st[k] !== v) mismatches.push(`status.${k} ${st[k]}, recomputed ${v}`)
    }
  }
  const stale = (st.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)
  return {expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed, unmanaged, unknown, mismatches, stale}
}

export type EvictionAnswer =
  | {code: 200; why: string; decrements?: string}
  | {code: 429; message: string; cause: string; why: string; pdb: string}
  | {code: 403; message: string; why: string; pdb: string}
  | {code: 500; message: string; why: string; pdbs: string[]}

/**
 * The 429's cause when the budget allows no disruption: newer eviction.go's disruptionDeniedMessage (the sync
 * failure, then the health counts, then the DisruptionAllowed condition); older releases always print the health
 * counts form, which the second case gives for the usual budget (currentHealthy ≤ desiredHealthy).
 */
export function disruptionDeniedMessage(pdb: PdbLike): string {
  const name = pdb.metadata?.name ?? ''
  const st = pdb.status ?? {}
  const c = (st.conditions ?? []).find((x) => x.type === 'DisruptionAllowed') as {status: string; reason?: string; message?: string} | undefined
  if (c && c.status === 'False' && c.message && c.reason === 'SyncFailed')
    return `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${c.message}`
  if ((st.currentHealthy ?? 0) <= (st.desiredHealthy ?? 0))
    return `The disruption budget ${name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently`
  if (c && c.status === 'False' && c.message) return `The disruption budget ${name} does not allow evicting pods currently (${c.reason}): ${c.message}`
  return `The disruption budget ${name} does not allow evicting pods currently`
}

/** The top message of every 429 (eviction.go createTooManyRequestsError). */
export const TOO_MANY_REQUESTS = "Cannot evict pod as it would violate the pod's disruption budget."

/**
 * EvictionREST.Create for the pod, as the API server answers a drain: the recorded PDB status is what it reads (it
 * does not recompute), so the answer uses status, as upstream does.
 */
export function evictionAnswer(pod: PdbPod, pdbs: readonly PdbLike[]): EvictionAnswer {
  const phase = pod.status?.phase
  // canIgnorePDB: terminal, Pending, or already terminating.
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata?.deletionTimestamp)
    return {code: 200, why: `the pod is ${pod.metadata?.deletionTimestamp ? 'already terminating' : phase}: canIgnorePDB, deleted without a budget check`}
  const matching = pdbs.filter((b) => selects(b, pod))
  if (matching.length > 1)
    return {
      code: 500,
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      why: `${matching.length} PodDisruptionBudgets select the pod: every eviction fails, no retry helps`,
      pdbs: matching.map((b) => b.metadata?.name ?? ''),
    }
  if (matching.length === 0) return {code: 200, why: 'no PodDisruptionBudget selects the pod: deleted at once'}
  const pdb = matching[0]
  const name = pdb.metadata?.name ?? ''
  const st = pdb.status ?? {}
  if (!isPodReady(pod)) {
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow')
      return {code: 200, why: `the pod is not Ready and ${name} has unhealthyPodEvictionPolicy AlwaysAllow: deleted without touching the budget`}
    if ((st.currentHealthy ?? 0) >= (st.desiredHealthy ?? 0) && (st.desiredHealthy ?? 0) > 0)
      return {
        code: 200,
        why: `the pod is not Ready and ${name} is healthy (currentHealthy ${st.currentHealthy} ≥ desiredHealthy ${st.desiredHealthy}): deleted without a decrement`,
      }
  }
  // checkAndDecrement
  if ((st.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0))
    return {
      code: 429,
      message: TOO_MANY_REQUESTS,
      cause: `The disruption budget ${name} is still being processed by the server.`,
      why: `status.observedGeneration ${st.observedGeneration ?? 0} < metadata.generation ${pdb.metadata?.generation}: the disruption controller has not synced the budget's spec`,
      pdb: name,
    }
  if ((st.disruptionsAllowed ?? 0) < 0) return {code: 403, message: 'pdb disruptions allowed is negative', why: 'a negative budget', pdb: name}
  if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE)
    return {
      code: 403,
      message: 'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      why: 'the controller is not confirming evictions',
      pdb: name,
    }
  if ((st.disruptionsAllowed ?? 0) === 0)
    return {
      code: 429,
      message: TOO_MANY_REQUESTS,
      cause: disruptionDeniedMessage(pdb),
      why: `${name} allows 0 disruptions (status.disruptionsAllowed): every eviction is refused until another selected pod is Ready`,
      pdb: name,
    }
  return {code: 200, why: `${name} allows ${st.disruptionsAllowed} disruption(s)`, decrements: name}
}
