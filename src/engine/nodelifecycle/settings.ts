// Which kube-controller-manager settings the replays use, and where each came from: our own flags override the
// controller-manager's command line (its static pod in kube-system), which overrides the release's defaults.
import {type ChosenVersion, controlPlaneCandidates, versionSource} from '../../cluster/version.js'
import {UserError} from '../../errors.js'
import type {Problem} from '../../explanation.js'
import {formatGoDuration, parseGoDuration} from '../../settings/go-duration.js'
import type {SettingFlag, SettingsOverrides} from '../../settings/flags.js'
import {type ControllerManagerArgs, controllerEnabled, parseFeatureGates} from '../../settings/kcm.js'
import type {MinorVersion} from '../../util/parse.js'
import {MODELLED_RELEASES, NEWEST_MODELLED, versionDefaults} from './defaults.js'
import type {NodeLifecycleSettings} from './types.js'

export interface ResolveInput {
  version?: ChosenVersion
  kcm?: ControllerManagerArgs
  /** Why no controller-manager command line was used (not found, forbidden, ...). */
  kcmMissing?: string
  overrides: SettingsOverrides
}

export interface ResolvedSettings {
  settings: NodeLifecycleSettings
  described: Record<string, {value: unknown; from: string}>
  version: MinorVersion & {text: string; from: string}
  problems: Problem[]
  /**
   * The data does not settle the release (no --k8s-version, no server version; or only a kubelet's, which bounds it)
   * and the settings in force differ across the releases it leaves possible: each distinct set with its releases
   * (oldest first). `settings` is then only one of them (the newest possible), never the answer by itself.
   */
  candidates?: ReleaseSettings
}

export interface ReleaseSettings {
  /** Every release the data leaves possible. */
  versions: string[]
  why: string
  groups: {versions: string[]; settings: NodeLifecycleSettings; differs: Record<string, unknown>}[]
}

const DAY_MS = 86_400_000

type Kind = 'duration' | 'rate' | 'count' | 'fraction'

function parseValue(kind: Kind, text: string): number | undefined {
  if (kind === 'duration') {
    const ms = parseGoDuration(text)
    return ms !== undefined && ms > 0 && ms <= DAY_MS ? ms : undefined
  }
  if (!/^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim())) return undefined
  const n = Number(text)
  if (!Number.isFinite(n) || n < 0) return undefined
  if (kind === 'count') return Number.isInteger(n) && n <= 2 ** 31 - 1 ? n : undefined
  if (kind === 'fraction') return n <= 1 ? n : undefined
  return n
}

const EXPECTED: Record<Kind, string> = {
  duration: 'a duration like 40s or 1m0s (up to 24h)',
  rate: 'a non-negative number of nodes per second, e.g. 0.1',
  count: 'a non-negative whole number',
  fraction: 'a number between 0 and 1',
}

const NUMERIC: [SettingFlag, keyof NodeLifecycleSettings, Kind][] = [
  ['node-monitor-period', 'nodeMonitorPeriod', 'duration'],
  ['node-monitor-grace-period', 'nodeMonitorGracePeriod', 'duration'],
  ['node-startup-grace-period', 'nodeStartupGracePeriod', 'duration'],
  ['node-eviction-rate', 'nodeEvictionRate', 'rate'],
  ['secondary-node-eviction-rate', 'secondaryNodeEvictionRate', 'rate'],
  ['large-cluster-size-threshold', 'largeClusterSizeThreshold', 'count'],
  ['unhealthy-zone-threshold', 'unhealthyZoneThreshold', 'fraction'],
]

const NO_VERSION = 'no --k8s-version, no server version recorded, no Node whose kubelet bounds it'

export function resolveSettings(input: ResolveInput): ResolvedSettings {
  const at = (minor: number, from: string) => resolveAt(input, {major: 1, minor, text: `1.${minor}`, from})
  // The release is known: its defaults.
  if (input.version && input.version.lowerBound !== true)
    return resolveAt(input, {major: input.version.major, minor: input.version.minor, text: input.version.text, from: versionSource(input.version)})
  // Not known, or only bounded by a kubelet: the defaults of every release left possible, grouped where the settings
  // in force agree (flags and the controller-manager's command line override a default in every release alike).
  const possible = input.version ? controlPlaneCandidates(input.version.minor, MODELLED_RELEASES) : MODELLED_RELEASES
  const why = input.version ? `no server version recorded: ${input.version.how ?? 'the kubelets bound it'}` : NO_VERSION
  // The one the settings block shows (as before): the kubelets' bound itself, or the newest release modelled.
  const main = input.version
    ? resolveAt(input, {major: input.version.major, minor: input.version.minor, text: input.version.text, from: versionSource(input.version)})
    : at(NEWEST_MODELLED.minor, 'unknown server version: the newest release modelled')
  if (possible.length < 2) return main
  const groups: ReleaseSettings['groups'] = []
  const byKey = new Map<string, ReleaseSettings['groups'][number]>()
  const described: Record<string, ResolvedSettings['described']> = {}
  for (const release of possible) {
    const r = at(Number(release.split('.')[1]), 'candidate')
    described[release] = r.described
    const key = JSON.stringify(r.settings)
    const g = byKey.get(key)
    if (g) g.versions.push(release)
    else {
      const n = {versions: [release], settings: r.settings, differs: {}}
      byKey.set(key, n)
      groups.push(n)
    }
  }
  if (groups.length > 1) {
    // What differs between the groups, by the names the settings block uses.
    const names = Object.keys(described[possible[0]])
    // A name whose value varies inside a group does not change the settings in force (a gate whose only effect is
    // the same under both values): it sets no group apart.
    const value = (release: string, name: string) => JSON.stringify(described[release][name]?.value)
    for (const name of names) {
      if (groups.some((g) => g.versions.some((r) => value(r, name) !== value(g.versions[0], name)))) continue
      const values = new Set(groups.map((g) => value(g.versions[0], name)))
      if (values.size > 1) for (const g of groups) g.differs[name] = described[g.versions[0]][name]?.value
    }
  }
  return {...main, candidates: {versions: [...possible], why, groups}}
}

function resolveAt(input: ResolveInput, v: MinorVersion & {text: string; from: string}): ResolvedSettings {
  const problems: Problem[] = []
  const d = versionDefaults(v)
  const defaultFrom = `default for Kubernetes ${v.text} (${v.from})`
  const kcmFrom = (flag: string) => `kube-controller-manager pod kube-system/${input.kcm?.pod} --${flag}`
  const described: ResolvedSettings['described'] = {}
  const settings = {
    nodeMonitorPeriod: d.nodeMonitorPeriod,
    nodeMonitorGracePeriod: d.nodeMonitorGracePeriod,
    nodeStartupGracePeriod: d.nodeStartupGracePeriod,
    nodeEvictionRate: d.nodeEvictionRate,
    secondaryNodeEvictionRate: d.secondaryNodeEvictionRate,
    largeClusterSizeThreshold: d.largeClusterSizeThreshold,
    unhealthyZoneThreshold: d.unhealthyZoneThreshold,
    leaseCircuitBreaker: d.gates.NodeControllerLeaseCircuitBreaker,
    taintEvictionEnabled: true,
    nodeLifecycleEnabled: true,
    taintOnCurrentReady: d.taintOnCurrentReady,
    taintTolerationComparisonOperators: false,
  } satisfies NodeLifecycleSettings as NodeLifecycleSettings

  /** Our flag (UserError when bad), else the controller-manager's (a problem when bad), else the default. */
  const pick = (flag: SettingFlag): {text: string; from: string; ours: boolean} | undefined => {
    const ours = input.overrides[flag]
    if (ours !== undefined) return {text: ours, from: `--${flag} (our flag)`, ours: true}
    const theirs = input.kcm?.flags.get(flag)
    if (theirs !== undefined) return {text: theirs, from: kcmFrom(flag), ours: false}
    return undefined
  }

  for (const [flag, key, kind] of NUMERIC) {
    const p = pick(flag)
    let value = settings[key] as number
    let from = defaultFrom
    if (p) {
      const parsed = parseValue(kind, p.text)
      if (parsed === undefined) {
        if (p.ours) throw new UserError(`--${flag}: "${p.text}" is not usable`, `give ${EXPECTED[kind]}`)
        problems.push({what: `kube-controller-manager --${flag}=${p.text}`, reason: `not ${EXPECTED[kind]}; the default is used`})
      } else {
        value = parsed
        from = p.from
      }
    }
    ;(settings[key] as number) = value
    described[flag] = {value: kind === 'duration' ? formatGoDuration(value) : value, from}
  }

  // Feature gates: ours replace the controller-manager's per gate.
  const gates = {...d.gates}
  const gateFrom: Record<string, string> = {
    NodeControllerLeaseCircuitBreaker: defaultFrom,
    SeparateTaintEvictionController: defaultFrom,
    TaintTolerationComparisonOperators: defaultFrom,
  }
  for (const [text, from, ours] of [
    [input.kcm?.flags.get('feature-gates'), kcmFrom('feature-gates'), false],
    [input.overrides['feature-gates'], '--feature-gates (our flag)', true],
  ] as const) {
    if (text === undefined) continue
    const parsed = parseFeatureGates(text)
    if (!parsed) {
      if (ours) throw new UserError(`--feature-gates: "${text}" is not a gate list`, 'write it as Name=true,Other=false')
      problems.push({what: `kube-controller-manager --feature-gates=${text}`, reason: 'not a gate list; defaults are used'})
      continue
    }
    for (const [gate, on] of parsed) {
      if (gate in gates) {
        gates[gate as keyof typeof gates] = on
        gateFrom[gate] = from
      }
    }
  }
  settings.leaseCircuitBreaker = gates.NodeControllerLeaseCircuitBreaker
  described.NodeControllerLeaseCircuitBreaker = {
    value: gates.NodeControllerLeaseCircuitBreaker,
    from:
      d.knownGates.has('NodeControllerLeaseCircuitBreaker') || gateFrom.NodeControllerLeaseCircuitBreaker !== defaultFrom
        ? gateFrom.NodeControllerLeaseCircuitBreaker
        : `${defaultFrom}: the gate does not exist before 1.36`,
  }
  described.SeparateTaintEvictionController = {value: gates.SeparateTaintEvictionController, from: gateFrom.SeparateTaintEvictionController}
  // Lt/Gt tolerations match only with this gate on; the taint-eviction controller runs in kube-controller-manager,
  // so its --feature-gates is the one that counts.
  settings.taintTolerationComparisonOperators = gates.TaintTolerationComparisonOperators
  described.TaintTolerationComparisonOperators = {
    value: gates.TaintTolerationComparisonOperators,
    from:
      gateFrom.TaintTolerationComparisonOperators !== defaultFrom
        ? gateFrom.TaintTolerationComparisonOperators
        : `${defaultFrom}: ${d.knownGates.has('TaintTolerationComparisonOperators') ? 'alpha, off by default' : 'the gate does not exist before 1.35'} (Lt/Gt tolerations match nothing while it is off)`,
  }

  // Controllers: "*" by default.
  const c = pick('controllers')
  const list = (c?.text ?? '*')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  settings.nodeLifecycleEnabled = controllerEnabled(list, 'node-lifecycle-controller')
  // With the separate controller, NoExecute taints are enforced only if it runs; without it, by the node
  // lifecycle controller's own taint manager.
  settings.taintEvictionEnabled = gates.SeparateTaintEvictionController ? controllerEnabled(list, 'taint-eviction-controller') : settings.nodeLifecycleEnabled
  described.controllers = {value: list.join(','), from: c?.from ?? defaultFrom}
  described['taint-eviction'] = {
    value: settings.taintEvictionEnabled,
    from: gates.SeparateTaintEvictionController
      ? 'taint-eviction-controller in --controllers'
      : "the node lifecycle controller's built-in taint manager (SeparateTaintEvictionController off)",
  }
  described['taint-on-current-ready'] = {
    value: settings.taintOnCurrentReady,
    from: `${defaultFrom}: the current Ready condition from 1.34 (PR #120816, CHANGELOG-1.34.md v1.34.0-alpha.1), the observed one before`,
  }

  if (!input.kcm)
    described['kube-controller-manager'] = {
      value: null,
      from: input.kcmMissing ?? 'no kube-controller-manager pod is visible in kube-system: defaults are used',
    }
  else {
    described['kube-controller-manager'] = {value: `kube-system/${input.kcm.pod}`, from: 'its static pod command line'}
    if (input.kcm.flags.has('config'))
      problems.push({
        what: `kube-controller-manager --config=${input.kcm.flags.get('config')}`,
        reason: 'settings in that file are not visible; command-line values and defaults are used',
      })
    if (input.kcm.differingPods.length > 0)
      problems.push({
        what: 'kube-controller-manager pods',
        reason: `flags differ between kube-system/${input.kcm.pod} and ${input.kcm.differingPods.map((p) => `kube-system/${p}`).join(', ')}; the first is used`,
      })
  }
  return {settings, described, version: v, problems}
}
