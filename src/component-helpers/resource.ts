// Pod resource helpers, once, named after upstream: the QoS class (pkg/apis/core/v1/helper/qos/qos.go GetPodQOS,
// ComputePodQOS), the pod's effective requests (staging/src/k8s.io/component-helpers/resource/helpers.go
// PodRequests, as pkg/api/v1/resource GetResourceRequestQuantity reads them) and a Quantity as a number
// (k8s.io/apimachinery pkg/api/resource Quantity.Value / MilliValue) for comparisons.
import {ParseQuantity, QuantityError} from '../apimachinery/quantity.js'

export type ResourceList = Record<string, string | number | null | undefined>

export interface ContainerLike {
  name?: string
  resources?: {requests?: ResourceList | null; limits?: ResourceList | null} | null
  restartPolicy?: string | null
}

export interface PodResourcesLike {
  spec?: {
    containers?: ContainerLike[] | null
    initContainers?: ContainerLike[] | null
    overhead?: ResourceList | null
    resources?: {requests?: ResourceList | null; limits?: ResourceList | null} | null
    [k: string]: unknown
  }
  status?: {qosClass?: string | null; [k: string]: unknown}
  [k: string]: unknown
}

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort'

/**
 * A quantity's value as a number (bytes for memory and storage, cores for cpu; fractions kept), or undefined when the
 * text is not a Quantity. Comparisons only: the exact int64 rounding of Value() does not change which is larger for
 * the magnitudes pods use.
 */
export function quantityValue(text: string | number | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined
  if (typeof text === 'number') return text
  try {
    const q = ParseQuantity(text.trim())
    if (q.d) return Number(q.d.unscaled) / 10 ** q.d.scale
    return Number(q.i.value) * 10 ** q.i.scale
  } catch (err) {
    if (err instanceof QuantityError) return undefined
    throw err
  }
}

const QOS_RESOURCES = new Set(['cpu', 'memory'])

function addPositive(into: Map<string, number>, list: ResourceList | null | undefined, found?: Set<string>): void {
  for (const [name, text] of Object.entries(list ?? {})) {
    if (!QOS_RESOURCES.has(name)) continue // isSupportedQoSComputeResource
    const v = quantityValue(text)
    if (v === undefined || v <= 0) continue // quantity.Cmp(zeroQuantity) == 1
    found?.add(name)
    into.set(name, (into.get(name) ?? 0) + v)
  }
}

/**
 * GetPodQOS: status.qosClass when the kubelet/apiserver recorded it, else ComputePodQOS — BestEffort without any cpu
 * or memory request or limit; Guaranteed when every container (init ones too) limits both cpu and memory and the
 * summed requests equal the summed limits; Burstable otherwise. With pod-level resources (PodLevelResources), the
 * pod's own requests and limits decide.
 */
export function getPodQOS(pod: PodResourcesLike): PodQOSClass {
  const recorded = pod.status?.qosClass
  if (recorded === 'Guaranteed' || recorded === 'Burstable' || recorded === 'BestEffort') return recorded
  return computePodQOS(pod)
}

export function computePodQOS(pod: PodResourcesLike): PodQOSClass {
  const requests = new Map<string, number>()
  const limits = new Map<string, number>()
  let isGuaranteed = true
  const podLevel = pod.spec?.resources
  if (podLevel && (Object.keys(podLevel.requests ?? {}).length > 0 || Object.keys(podLevel.limits ?? {}).length > 0)) {
    const found = new Set<string>()
    addPositive(requests, podLevel.requests)
    addPositive(limits, podLevel.limits, found)
    if (!found.has('memory') || !found.has('cpu')) isGuaranteed = false
  } else {
    for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
      const found = new Set<string>()
      addPositive(requests, c.resources?.requests)
      addPositive(limits, c.resources?.limits, found)
      if (!found.has('memory') || !found.has('cpu')) isGuaranteed = false
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort'
  if (isGuaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name)
      if (lim === undefined || lim !== req) {
        isGuaranteed = false
        break
      }
    }
  }
  return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable'
}

/**
 * PodRequests for one resource: the regular containers' sum, restartable (sidecar) init containers added to it and
 * to every later init container's need, the largest init need if larger, plus spec.overhead. Pod-level requests,
 * when set for that resource, replace the container sum (PodLevelResources). 0 when nothing requests it.
 */
export function podRequest(pod: PodResourcesLike, resource: string): number {
  const of = (c: ContainerLike) => quantityValue(c.resources?.requests?.[resource]) ?? 0
  let reqs = 0
  for (const c of pod.spec?.containers ?? []) reqs += of(c)
  let restartable = 0
  let init = 0
  for (const c of pod.spec?.initContainers ?? []) {
    let need = of(c)
    if (c.restartPolicy === 'Always') {
      reqs += need
      restartable += need
      need = restartable
    } else need += restartable
    init = Math.max(init, need)
  }
  reqs = Math.max(reqs, init)
  const podLevel = quantityValue(pod.spec?.resources?.requests?.[resource])
  if (podLevel !== undefined) reqs = podLevel
  return reqs + (quantityValue(pod.spec?.overhead?.[resource]) ?? 0)
}
