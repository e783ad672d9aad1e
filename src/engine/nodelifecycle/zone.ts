// Zone keys, zone disruption state and the NoExecute tainting rate per zone.
import type {NodeCondition, NodeLifecycleSettings, NodeLike, ZoneState} from './types.js'

const ZONE_FAILURE_DOMAIN = 'failure-domain.beta.kubernetes.io/zone'
const ZONE_TOPOLOGY = 'topology.kubernetes.io/zone'
const REGION_FAILURE_DOMAIN = 'failure-domain.beta.kubernetes.io/region'
const REGION_TOPOLOGY = 'topology.kubernetes.io/region'

/** Nodes carrying this label key (any value) are not counted in their zone. nlc.go:817 */
export const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption'

/**
 * GetZoneKey (staging/src/k8s.io/component-helpers/node/topology/helpers.go): the beta label wins whenever
 * its key exists, even with an empty value; "" when neither region nor zone is set.
 */
export function getZoneKey(node: NodeLike): string {
  const labels = node.metadata?.labels ?? {}
  const zone = ZONE_FAILURE_DOMAIN in labels ? labels[ZONE_FAILURE_DOMAIN] : (labels[ZONE_TOPOLOGY] ?? '')
  const region = REGION_FAILURE_DOMAIN in labels ? labels[REGION_FAILURE_DOMAIN] : (labels[REGION_TOPOLOGY] ?? '')
  if (region === '' && zone === '') return ''
  return `${region}:\x00:${zone}`
}

/** The zone key as people write it: "region/zone", or "(no zone)". */
export function zoneDisplayName(key: string): string {
  if (key === '') return '(no zone)'
  const [region, zone] = key.split(':\x00:')
  return region ? `${region}/${zone}` : zone
}

export function isNodeExcludedFromDisruptionChecks(node: NodeLike): boolean {
  return Object.hasOwn(node.metadata?.labels ?? {}, LABEL_EXCLUDE_DISRUPTION)
}

/**
 * ComputeZoneState (nlc.go@2b96ebcf:1318-1336): a nil condition counts as not ready. The ratio is float32 in Go;
 * Math.fround on both sides reproduces its rounding (11/20 and 0.55 round to the same float32). `readyUnlisted`:
 * more Ready True conditions of the zone, given as a count (nodes not read whole, whose Ready the data proves True
 * after the pass, replay.ts ReplayInput.unlistedReady): upstream's loop only counts `Status == True`, so a count
 * gives the same numbers as that many conditions in the list.
 */
export function computeZoneState(
  conditions: readonly (NodeCondition | undefined)[],
  unhealthyZoneThreshold: number,
  readyUnlisted = 0,
): {notReady: number; ready: number; state: ZoneState} {
  let ready = readyUnlisted
  let notReady = 0
  for (const c of conditions) {
    if (c && c.status === 'True') ready++
    else notReady++
  }
  let state: ZoneState = 'Normal'
  if (ready === 0 && notReady > 0) state = 'FullDisruption'
  else if (notReady > 2 && Math.fround(Math.fround(notReady) / Math.fround(notReady + ready)) >= Math.fround(unhealthyZoneThreshold))
    state = 'PartialDisruption'
  return {notReady, ready, state}
}

/** ReducedQPSFunc (nlc.go:1253-1258): the threshold is compared with the zone's counted nodes, strictly. */
export function reducedQPS(zoneSize: number, settings: Pick<NodeLifecycleSettings, 'largeClusterSizeThreshold' | 'secondaryNodeEvictionRate'>): number {
  return zoneSize > settings.largeClusterSizeThreshold ? settings.secondaryNodeEvictionRate : 0
}

/** setLimiterInZone (nlc.go:1198-1211): the limiter QPS a zone gets on entering `state`. */
export function rateForState(state: ZoneState, zoneSize: number, settings: NodeLifecycleSettings): number | undefined {
  switch (state) {
    case 'Normal':
      return settings.nodeEvictionRate
    case 'PartialDisruption':
      return reducedQPS(zoneSize, settings)
    // HealthyQPSFunc: a fully disrupted zone keeps the normal rate (unless every zone is down: master disruption mode).
    case 'FullDisruption':
      return settings.nodeEvictionRate
    default:
      return undefined
  }
}
