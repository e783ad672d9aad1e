// kube-controller-manager settings as flags of `kubectl why node` and `kubectl why evicted`, with upstream's
// names: each one overrides what the controller-manager's command line says (or the release default).
import * as Flags from '@oclif/core/flags'

const group = 'CONTROLLER-MANAGER SETTINGS'

export const controllerManagerFlags = {
  'node-monitor-period': Flags.string({description: 'How often the node lifecycle controller checks node health (default 5s).', helpGroup: group}),
  'node-monitor-grace-period': Flags.string({
    description: 'How long a node may go without a heartbeat or lease renewal before it is marked Unknown (default 50s from 1.32, 40s before).',
    helpGroup: group,
  }),
  'node-startup-grace-period': Flags.string({description: 'Grace for a node that never posted status, from its creation (default 60s).', helpGroup: group}),
  'node-eviction-rate': Flags.string({description: 'Nodes per second per zone that get a NoExecute taint in a healthy zone (default 0.1).', helpGroup: group}),
  'secondary-node-eviction-rate': Flags.string({
    description: 'The rate for a partially disrupted zone larger than --large-cluster-size-threshold (default 0.01).',
    helpGroup: group,
  }),
  'large-cluster-size-threshold': Flags.string({
    description: 'Counted nodes a zone needs to keep tainting when partially disrupted (strictly more than this; default 50).',
    helpGroup: group,
  }),
  'unhealthy-zone-threshold': Flags.string({
    description: 'Share of not-ready nodes (at least 3) that makes a zone partially disrupted (default 0.55).',
    helpGroup: group,
  }),
  'feature-gates': Flags.string({description: 'Gates as kube-controller-manager takes them, e.g. NodeControllerLeaseCircuitBreaker=false.', helpGroup: group}),
  controllers: Flags.string({description: "kube-controller-manager's --controllers list, e.g. *,-taint-eviction-controller.", helpGroup: group}),
}

/** A controller-manager flag by its upstream name; the node lifecycle replay resolves each (engine/nodelifecycle/settings.ts). */
export type SettingFlag = keyof typeof controllerManagerFlags
/** The flags given on our command line, as text: each one overrides the controller-manager's value or the default. */
export type SettingsOverrides = Partial<Record<SettingFlag, string>>

export function settingsOverrides(flags: Partial<Record<keyof typeof controllerManagerFlags, string | undefined>>): SettingsOverrides {
  const out: SettingsOverrides = {}
  for (const key of Object.keys(controllerManagerFlags) as (keyof typeof controllerManagerFlags)[]) {
    const v = flags[key]
    if (v !== undefined) out[key] = v
  }
  return out
}
