// The kubelet's eviction settings, from its /configz (decision spec evictions.md §2.10): cmd/kubelet/app/server.go
// initConfigz/setConfigz serve {"kubeletconfig": <the v1beta1 KubeletConfiguration, defaults applied>}, so the values
// are the effective ones. Read live through the API server's node proxy (GET /api/v1/nodes/NAME/proxy/configz, RBAC
// nodes/proxy get); a dump holds none. When it cannot be read, the thresholds are the release's defaults, unverified.
import {ReadError} from '../../errors.js'
import type {ClusterSource} from '../../cluster/source.js'
import type {Signal} from './kubelet.js'

export const CONFIGZ = 'cmd/kubelet/app/server.go (initConfigz, setConfigz)'

/** The KubeletConfiguration fields the eviction manager reads (v1beta1 JSON names). */
export interface KubeletEvictionConfig {
  evictionHard?: Partial<Record<Signal, string>>
  evictionSoft?: Partial<Record<Signal, string>>
  evictionSoftGracePeriod?: Partial<Record<Signal, string>>
  evictionMinimumReclaim?: Partial<Record<Signal, string>>
  evictionPressureTransitionPeriod?: string
  evictionMaxPodGracePeriod?: number
  shutdownGracePeriod?: string
  shutdownGracePeriodCriticalPods?: string
  shutdownGracePeriodByPodPriority?: {priority: number; shutdownGracePeriodSeconds: number}[]
}

/** What reading the node's configz gave: the configuration, or why not (and what that leaves unknown). */
export type KubeletConfigRead =
  | {state: 'read'; node: string; config: KubeletEvictionConfig}
  | {state: 'refused'; node: string; status?: number; reason: string}
  | {state: 'unavailable'; node: string; reason: string}

const strMap = (v: unknown): Record<string, string> | undefined => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined
  const out: Record<string, string> = {}
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x
  return out
}

/** The configz body's eviction fields; undefined when it is not {"kubeletconfig": {...}}. */
export function parseConfigz(body: unknown): KubeletEvictionConfig | undefined {
  const k = (body as {kubeletconfig?: unknown} | null)?.kubeletconfig
  if (!k || typeof k !== 'object') return undefined
  const c = k as Record<string, unknown>
  const out: KubeletEvictionConfig = {}
  const hard = strMap(c.evictionHard)
  if (hard) out.evictionHard = hard
  const soft = strMap(c.evictionSoft)
  if (soft) out.evictionSoft = soft
  const grace = strMap(c.evictionSoftGracePeriod)
  if (grace) out.evictionSoftGracePeriod = grace
  const reclaim = strMap(c.evictionMinimumReclaim)
  if (reclaim) out.evictionMinimumReclaim = reclaim
  if (typeof c.evictionPressureTransitionPeriod === 'string') out.evictionPressureTransitionPeriod = c.evictionPressureTransitionPeriod
  if (typeof c.evictionMaxPodGracePeriod === 'number') out.evictionMaxPodGracePeriod = c.evictionMaxPodGracePeriod
  if (typeof c.shutdownGracePeriod === 'string') out.shutdownGracePeriod = c.shutdownGracePeriod
  if (typeof c.shutdownGracePeriodCriticalPods === 'string') out.shutdownGracePeriodCriticalPods = c.shutdownGracePeriodCriticalPods
  if (Array.isArray(c.shutdownGracePeriodByPodPriority))
    out.shutdownGracePeriodByPodPriority = c.shutdownGracePeriodByPodPriority as KubeletEvictionConfig['shutdownGracePeriodByPodPriority']
  return out
}

/** What is left unknown without the configuration: the settings the replay then takes from the release's defaults. */
export const UNKNOWN_WITHOUT_CONFIGZ =
  'evictionHard, evictionSoft and their grace periods, evictionMinimumReclaim, evictionPressureTransitionPeriod, evictionMaxPodGracePeriod'

/**
 * GET the node's configz through the API server (a GET only). A source without node proxy access (a dump) is
 * unavailable; 403 (no nodes/proxy get) and 404 (a kubelet that serves no configz, or the node is gone) are refused.
 */
export async function readKubeletConfig(source: ClusterSource, node: string): Promise<KubeletConfigRead> {
  if (!source.nodeProxyGet) return {state: 'unavailable', node, reason: 'the data is a snapshot: it holds no kubelet configuration'}
  try {
    const config = parseConfigz(await source.nodeProxyGet(node, 'configz'))
    if (!config) return {state: 'refused', node, reason: 'the kubelet answered, but not with {"kubeletconfig": …}'}
    return {state: 'read', node, config}
  } catch (err) {
    if (!(err instanceof ReadError)) throw err
    const status = err.status
    const why =
      status === 403
        ? 'forbidden: reading it needs get on nodes/proxy'
        : status === 404
          ? 'not found: the kubelet serves no /configz, or the node is gone'
          : `${err.reason}: ${err.message}`
    return {state: 'refused', node, ...(status !== undefined ? {status} : {}), reason: `GET /api/v1/nodes/${node}/proxy/configz: ${why}`}
  }
}
