// kube-controller-manager defaults by release, for the settings the node lifecycle and taint-eviction replays use.
// Sources: --node-monitor-grace-period 50s from v1.32 (PR #126287; 40s before), the other defaults from
// cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go@025f2834:39-48; feature gates as the
// decisions document lists them (NodeControllerLeaseCircuitBreaker beta-on 1.37, SeparateTaintEvictionController
// beta-on 1.29 and GA 1.34: gate stages UNCERTAIN, read from a fork and an issue, not kube_features.go).
import type {MinorVersion} from '../../util/parse.js'
import type {NodeLifecycleSettings} from './types.js'

export const NEWEST_MODELLED: MinorVersion = {major: 1, minor: 37}
/**
 * The releases whose defaults are modelled, oldest first: 1.20 (as the hash layouts) to NEWEST_MODELLED. When the data
 * does not settle the release, the replays answer for each of these it leaves possible.
 */
export const MODELLED_RELEASES: readonly string[] = Array.from({length: NEWEST_MODELLED.minor - 20 + 1}, (_, i) => `1.${20 + i}`)

type TunableSettings = Pick<
  NodeLifecycleSettings,
  | 'nodeMonitorPeriod'
  | 'nodeMonitorGracePeriod'
  | 'nodeStartupGracePeriod'
  | 'nodeEvictionRate'
  | 'secondaryNodeEvictionRate'
  | 'largeClusterSizeThreshold'
  | 'unhealthyZoneThreshold'
>

export interface VersionDefaults extends TunableSettings {
  gates: {NodeControllerLeaseCircuitBreaker: boolean; SeparateTaintEvictionController: boolean; TaintTolerationComparisonOperators: boolean}
  /** Whether the release has the gate at all (setting an unknown gate is refused by kube-controller-manager). */
  knownGates: Set<string>
  taintOnCurrentReady: boolean
}

const atLeast = (v: MinorVersion, minor: number) => v.minor >= minor

export function versionDefaults(v: MinorVersion): VersionDefaults {
  const knownGates = new Set<string>()
  if (atLeast(v, 29)) knownGates.add('SeparateTaintEvictionController')
  if (atLeast(v, 36)) knownGates.add('NodeControllerLeaseCircuitBreaker')
  // Alpha in 1.35, off by default in every release modelled (decisions §9; UNCERTAIN like the other gate stages).
  if (atLeast(v, 35)) knownGates.add('TaintTolerationComparisonOperators')
  return {
    nodeMonitorPeriod: 5_000,
    nodeMonitorGracePeriod: atLeast(v, 32) ? 50_000 : 40_000,
    nodeStartupGracePeriod: 60_000,
    nodeEvictionRate: 0.1,
    secondaryNodeEvictionRate: 0.01,
    largeClusterSizeThreshold: 50,
    unhealthyZoneThreshold: 0.55,
    gates: {NodeControllerLeaseCircuitBreaker: atLeast(v, 37), SeparateTaintEvictionController: atLeast(v, 29), TaintTolerationComparisonOperators: false},
    knownGates,
    // monitorNodeHealth hands processTaintBaseEviction the Ready condition written in the same pass from v1.34.0
    // (kubernetes/kubernetes PR #120816, fixing issue #120815: "Reduce 5s delay of tainting
    // node.kubernetes.io/unreachable:NoExecute when a Node becomes unreachable", listed in CHANGELOG-1.34.md under
    // v1.34.0-alpha.1, "Changelog since v1.33.0", Bug or Regression; the stored CHANGELOG-1.34.md copy taken at
    // v1.34.0-beta.0 has it there and no other CHANGELOG in the index has it, so no 1.33 or older patch release carries
    // it as far as the stored text shows). The newest stored controller (nlc.go@2b96ebcf) has the new form; the older
    // stored copies (nlc.go@003e8629, nlc.go@0b1dcaba, and post-1.29 forks without the inline taint manager) pass
    // &observedReadyCondition, which taints one monitor period later. No tagged copy of the file was readable
    // (the kubernetes/kubernetes snapshot is over the fetch limit), so the boundary rests on the release notes.
    taintOnCurrentReady: atLeast(v, 34),
  }
}
