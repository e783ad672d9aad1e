// Which struct layout and controller version `kubectl why hash` replays: --k8s-version, else the server's version
// (live /version or the snapshot's record), else the newest layout. A server older than every layout is not an
// error here — its hashes are reported as not recomputable and the rest of the replay still runs.
import type {KubeObject, ServerVersion} from '../../cluster/source.js'
import {chooseVersion, controlPlaneCandidates} from '../../cluster/version.js'
import {templateOfRevision} from '../history/revision-data.js'
import {CONTROLLER_REVISION_HASH_LABEL, POD_TEMPLATE_HASH_LABEL} from '../history/constants.js'
import {withoutHashLabel} from '../deployment/equal-ignore-hash.js'
import {versionRange} from '../history/label-check.js'
import type {ControllerRevision, HashSettings} from '../history/types.js'
import {UserError} from '../../errors.js'
import {inferLayouts} from '../../hash/infer.js'
import {layoutVersions} from '../../hash/layout-data.js'
import {newestLayoutVersion, selectLayoutVersion} from '../../hash/versions.js'
import type {MinorVersion} from '../../util/parse.js'

export interface ResolvedHashSettings {
  settings: HashSettings
  /** For the Explanation's source.settings. */
  describe: {value: string; from: string}
}

export const DEFAULT_MAX_INFERRED_COLLISION_COUNT = 10

/** Why no version is known, when nothing at all tells it. */
const NO_VERSION =
  'no --k8s-version, no server version recorded, no Node whose kubelet bounds it, no ReplicaSet or DaemonSet revision whose hash label a known layout reproduces'

/** The control-plane releases a kubelet of this minor may run under (the skew policy), as layouts. */
export function kubeletCandidates(kubeletMinor: number): string[] {
  return controlPlaneCandidates(kubeletMinor, layoutVersions())
}

export function resolveHashSettings(
  override: MinorVersion | undefined,
  server: ServerVersion | undefined,
  gates?: Record<string, boolean>,
): ResolvedHashSettings {
  const base = {maxInferredCollisionCount: DEFAULT_MAX_INFERRED_COLLISION_COUNT, ...(gates ? {gates} : {})}
  const chosen = chooseVersion(override, server)
  if (!chosen) {
    // No version at all: every release is possible. Label checks compare with the newest layout; the answers that
    // depend on the release are given for each (candidates), never the newest one's alone.
    const v = newestLayoutVersion()
    const all = layoutVersions()
    return {
      settings: {
        ...base,
        version: v,
        versionAssumed: true,
        versionNote: `no server version known: label checks use the newest layout, ${v}; hashes are given for every release`,
        candidates: {versions: all, why: NO_VERSION},
      },
      describe: {value: v, from: `unknown (${NO_VERSION}): label checks use the newest layout, hashes are given for each release ${versionRange(all)}`},
    }
  }
  const patchText = chosen.from === 'server' ? /^v?\d+\.\d+\.(\d+)/.exec(server?.gitVersion ?? '')?.[1] : undefined
  const patch = patchText === undefined ? undefined : Number(patchText)
  let choice: ReturnType<typeof selectLayoutVersion>
  try {
    choice = selectLayoutVersion(chosen)
  } catch (err) {
    // --k8s-version older than every layout is refused, as for --template; a server that old is replayed without hashes.
    if (chosen.from === 'flag' || !(err instanceof UserError)) throw err
    const all = layoutVersions()
    return {
      settings: {
        ...base,
        minor: chosen.minor,
        ...(patch !== undefined ? {patch} : {}),
        versionNote: `the cluster runs ${chosen.text}, older than every known layout (${all[0]}–${all[all.length - 1]}): its controllers' hashes cannot be recomputed`,
      },
      describe: {value: chosen.text, from: 'server (older than every layout: no hashes recomputed)'},
    }
  }
  // The kubelets only bound the control plane from below: the releases it may run are that minor to the skew's limit.
  const bounded = chosen.lowerBound === true ? kubeletCandidates(chosen.minor) : undefined
  return {
    settings: {
      ...base,
      version: choice.version,
      minor: chosen.minor,
      ...(patch !== undefined ? {patch} : {}),
      ...(choice.warning ? {versionNote: choice.warning} : {}),
      ...(bounded && bounded.length > 1 ? {candidates: {versions: bounded, why: `no server version recorded: ${chosen.how ?? 'the kubelets bound it'}`}} : {}),
    },
    describe: {
      value: choice.version,
      from: `${chosen.from === 'flag' ? '--k8s-version' : `server ${server?.gitVersion ?? chosen.text}`}${choice.warning ? ' (newer than every layout: the newest is used)' : ''}`,
    },
  }
}

/** Objects whose labels can say which controller version wrote them: ReplicaSets and DaemonSet revisions. */
function labelSample(o: KubeObject): {template: unknown; label: string} | undefined {
  if (o.kind === 'ReplicaSet') {
    const t = (o.spec as {template?: {metadata?: {labels?: Record<string, string>}}} | undefined)?.template
    const label = t?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL]
    return label === undefined ? undefined : {template: withoutHashLabel(t), label}
  }
  if (o.kind === 'ControllerRevision' && (o.metadata?.ownerReferences ?? []).some((r) => r?.controller === true && r.kind === 'DaemonSet')) {
    const template = templateOfRevision(o as ControllerRevision)
    const label = o.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL]
    return template && label ? {template, label} : undefined
  }
  return undefined
}

const SAMPLE_LIMIT = 25

/**
 * No server version recorded (a plain dump): the newest object whose label some layout reproduces tells which
 * versions its controller could have been; the newest of those is assumed, and the explanation says so.
 */
export function inferVersionFromLabels(objects: readonly KubeObject[]): {versions: string[]; from: string} | undefined {
  const created = (o: KubeObject) => Date.parse(o.metadata?.creationTimestamp ?? '') || 0
  const candidates = objects
    .filter((o) => labelSample(o) !== undefined)
    .sort((a, b) => created(b) - created(a))
    .slice(0, SAMPLE_LIMIT)
  for (const o of candidates) {
    const {template, label} = labelSample(o)!
    let found: string[] = []
    try {
      found = [...new Set(inferLayouts(template, label, {maxCollisionCount: DEFAULT_MAX_INFERRED_COLLISION_COUNT}).matches.flatMap((m) => m.versions))]
    } catch (err) {
      if (err instanceof UserError) continue
      throw err
    }
    if (found.length > 0) {
      found.sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]))
      return {versions: found, from: `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`}
    }
  }
  return undefined
}

/** resolveHashSettings, with the labels of the data as the last resort when no version is known. */
export function resolveHashSettingsFor(
  override: MinorVersion | undefined,
  server: ServerVersion | undefined,
  objects: readonly KubeObject[],
  kubeletVersion?: string,
): ResolvedHashSettings {
  const chosen = chooseVersion(override, server)
  // A version read off the kubelets is only a lower bound (a control plane is never older than its kubelets): the
  // labels the controller wrote say more, when they name that version or a newer one.
  const lowerBound = chosen?.lowerBound === true
  if (chosen && !lowerBound) return resolveHashSettings(override, server)
  const inferred = inferVersionFromLabels(objects)
  if (lowerBound && (!inferred || Number(inferred.versions[inferred.versions.length - 1].split('.')[1]) < chosen.minor))
    return resolveHashSettings(override, server)
  if (!inferred) {
    const r = resolveHashSettings(override, server)
    if (kubeletVersion === undefined) return r
    const m = /^v?1\.(\d+)/.exec(kubeletVersion)
    const bounded = m ? kubeletCandidates(Number(m[1])) : []
    const why = `no server version recorded; the newest kubelet in the data is ${kubeletVersion}, which only bounds it (a control plane is never older than its kubelets)`
    return {
      ...r,
      settings: {
        ...r.settings,
        kubeletVersion,
        ...(bounded.length > 0 && r.settings.candidates ? {candidates: {versions: bounded, why}} : {}),
      },
      describe: {...r.describe, from: `${r.describe.from}; the newest kubelet in the data is ${kubeletVersion}`},
    }
  }
  const v = inferred.versions[inferred.versions.length - 1]
  // Under a kubelet's bound, only the releases at or above it.
  const possible = lowerBound ? inferred.versions.filter((x) => Number(x.split('.')[1]) >= chosen.minor) : inferred.versions
  const range = versionRange(inferred.versions)
  const note = `no server version recorded: the labels of ${inferred.from}, the newest labelled object, reproduce with ${range}; label checks compare with ${v}`
  return {
    settings: {
      maxInferredCollisionCount: DEFAULT_MAX_INFERRED_COLLISION_COUNT,
      version: v,
      minor: Number(v.split('.')[1]),
      versionNote: note,
      // The labels leave several releases: an answer that depends on which is given for each.
      ...(possible.length > 1
        ? {
            candidates: {
              versions: possible,
              why: `no server version recorded: the labels of ${inferred.from}, the newest labelled object, reproduce with ${range}`,
            },
          }
        : {}),
    },
    describe: {value: v, from: `inferred (${note})`},
  }
}

/** The newest kubelet version the Nodes report: a hint of the control plane's age when nothing else tells it. */
export function newestKubelet(nodes: readonly KubeObject[]): string | undefined {
  let best: string | undefined
  let bestMinor = -1
  for (const n of nodes) {
    const v = (n.status as {nodeInfo?: {kubeletVersion?: string}} | undefined)?.nodeInfo?.kubeletVersion
    const m = v === undefined ? null : /^v?1\.(\d+)/.exec(v)
    if (m && Number(m[1]) > bestMinor) {
      bestMinor = Number(m[1])
      best = v
    }
  }
  return best
}
