// Does an existing pod-template-hash (or DaemonSet controller-revision-hash) label equal the hash of its own
// template? If not, which known struct layouts and collision counts reproduce it (layout inference, src/hash/infer.ts),
// and if none does, what that means. The controllers never recompute existing labels (deployment_util.go
// EqualIgnoreHash finds ReplicaSets by template), so a mismatch is information, never a fault by itself.
import {hashPodTemplate} from '../../hash/compute-hash.js'
import {HashInputError, UnreproducibleHashError} from '../../hash/errors.js'
import {sum32, withCollisionCount} from '../../hash/fnv.js'
import {inferLayouts} from '../../hash/infer.js'
import {layoutVersions} from '../../hash/layout-data.js'
import {encodeSum32} from '../../hash/safe-encode.js'
import {OLDEST_LAYOUT_RELEASED} from './constants.js'
import type {HashSettings} from './types.js'

export type LabelResult = 'matches' | 'otherLayout' | 'unreproducible' | 'noLabel'
export type UnreproducibleReason = 'decimalLabel' | 'timestamp' | 'redacted' | 'predatesLayouts' | 'clusterPredatesLayouts' | 'invalidTemplate' | 'unknown'

export interface ReproducedBy {
  versions: string[]
  /** null: status.collisionCount was unset. */
  collisionCount: number | null
}

export interface LabelCheck {
  label?: string
  /** What a controller of the cluster's version computes for this template now (with the first count tried). */
  recomputed?: string
  result: LabelResult
  /** matches: the collision count that reproduces the label (null: unset). */
  collisionCount?: number | null
  /** otherLayout: the layouts and counts that do. */
  reproducedBy?: ReproducedBy[]
  reason?: UnreproducibleReason
  /** unreproducible: whether the reason is established (true) or only the likely causes are known (false). */
  explained?: boolean
  why: string
  /** JSON fields the cluster version's structs do not have (a newer writer, or an edit). */
  unknownFields?: string[]
}

export interface LabelCheckOptions {
  settings: HashSettings
  /** Collision counts to try with the cluster's layout, most likely first. */
  counts: (number | null)[]
  /** The object's creationTimestamp. */
  createdAt?: string
  /** The hash in the object's name, when the name carries one (a decimal label's name has its SafeEncoded form). */
  nameSuffix?: string
}

const minor = (v: string) => Number(v.split('.')[1])

export function describeCount(c: number | null | undefined): string {
  return c === null || c === undefined ? 'collisionCount unset' : `collisionCount ${c}`
}

/** "1.20–1.22", "1.28", or "1.20–1.22, 1.24". */
export function versionRange(versions: readonly string[]): string {
  const sorted = [...versions].sort((a, b) => minor(a) - minor(b))
  const runs: string[] = []
  let start = sorted[0]
  let prev = sorted[0]
  for (const v of [...sorted.slice(1), undefined]) {
    if (v !== undefined && minor(v) === minor(prev) + 1) {
      prev = v
      continue
    }
    runs.push(start === prev ? start : `${start}–${prev}`)
    start = v as string
    prev = v as string
  }
  return runs.join(', ')
}

function containsString(v: unknown, needle: RegExp, depth = 0): boolean {
  if (typeof v === 'string') return needle.test(v)
  if (depth > 64 || typeof v !== 'object' || v === null) return false
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (containsString(x, needle, depth + 1)) return true
  return false
}

const REDACTED = /\*\*\*(HIDDEN|REDACTED)\*\*\*/

/** Whether a template holds values a support-bundle redactor replaced: then no hash of it is the controller's. */
export function isRedacted(template: unknown): boolean {
  return containsString(template, REDACTED)
}

/** Why no known layout reproduces a label: the established causes first, then the likely ones. */
export function diagnose(
  template: unknown,
  label: string,
  opts: LabelCheckOptions,
  unknownFields: string[] = [],
): Pick<LabelCheck, 'reason' | 'explained' | 'why'> {
  const all = layoutVersions()
  const range = `${all[0]}–${all[all.length - 1]}`
  if (
    /^\d+$/.test(label) &&
    (/[013]/.test(label) || (opts.nameSuffix !== undefined && opts.nameSuffix !== label && encodeSum32(Number(label)) === opts.nameSuffix))
  ) {
    return {
      reason: 'decimalLabel',
      explained: true,
      why: `the label is a decimal hash (${label}), as controllers before 1.11 wrote it while naming the object with its SafeEncoded form; no layout that old is known (layouts cover ${range})`,
    }
  }
  if (containsString(template, REDACTED)) {
    return {
      reason: 'redacted',
      explained: true,
      why: 'the template holds redacted values (***HIDDEN***, as support-bundle redactors write them): it is not the template the controller hashed',
    }
  }
  const spec = (template as {spec?: {containers?: unknown}} | undefined)?.spec
  if (!Array.isArray(spec?.containers) || spec.containers.length === 0) {
    return {
      reason: 'invalidTemplate',
      explained: true,
      why: 'the template has no containers, which every pod template the API server accepts has: the data holds a stub or a part of the object, not the template the controller hashed',
    }
  }
  const created = opts.createdAt ? Date.parse(opts.createdAt) : Number.NaN
  if (!Number.isNaN(created) && created < Date.parse(OLDEST_LAYOUT_RELEASED)) {
    return {
      reason: 'predatesLayouts',
      explained: true,
      why: `created ${opts.createdAt}, before Kubernetes 1.20 was released (2020-12-08): a 1.19 or older controller wrote the label, and layouts begin at 1.20`,
    }
  }
  if (opts.settings.minor !== undefined && opts.settings.minor < minor(all[0])) {
    return {
      reason: 'clusterPredatesLayouts',
      explained: true,
      why: `the cluster runs 1.${opts.settings.minor}, older than every known layout (${range}): its controllers' hashes cannot be recomputed`,
    }
  }
  const kubelet = opts.settings.kubeletVersion === undefined ? undefined : /^v?1\.(\d+)/.exec(opts.settings.kubeletVersion)
  if (kubelet && Number(kubelet[1]) < minor(all[0])) {
    return {
      reason: 'clusterPredatesLayouts',
      explained: true,
      why: `no server version was recorded, but the newest kubelet in the data is ${opts.settings.kubeletVersion}; a control plane runs at most two minors ahead of its kubelets, so it was 1.${kubelet[1]}–1.${Number(kubelet[1]) + 2}, and every layout from ${all[0]} on was tried: an older controller wrote the label`,
    }
  }
  const newer =
    unknownFields.length > 0
      ? `; the template has fields the ${opts.settings.version ?? all[all.length - 1]} structs lack (${unknownFields.slice(0, 3).join(', ')}${unknownFields.length > 3 ? ', …' : ''}), so a newer or patched writer is likely`
      : ''
  return {
    reason: 'unknown',
    explained: false,
    why: `no known layout (${range}, collisionCount unset or 0–${Math.max(opts.settings.maxInferredCollisionCount, ...opts.counts.map((c) => c ?? 0))}) reproduces it: the template or the label was changed after creation (a hand edit, an admission webhook, redaction), or a version outside ${range} or a vendor fork wrote it${newer}`,
  }
}

export function checkTemplateLabel(template: unknown, label: string | undefined, opts: LabelCheckOptions): LabelCheck {
  const v = opts.settings.version
  const counts = opts.counts.length > 0 ? opts.counts : [null]
  let recomputed: string | undefined
  let unknownFields: string[] = []
  if (v !== undefined) {
    try {
      const h = hashPodTemplate(template, {version: v, collisionCount: null})
      unknownFields = h.unknownFields
      const hashes = counts.map((c) => encodeSum32(sum32(withCollisionCount(h.state, c))))
      recomputed = hashes[0]
      const at = label === undefined ? -1 : hashes.indexOf(label)
      if (at >= 0) {
        return {
          label,
          recomputed,
          result: 'matches',
          collisionCount: counts[at],
          why: `equals the hash a ${v} controller computes for its own template with ${describeCount(counts[at])}`,
        }
      }
    } catch (err) {
      if (err instanceof UnreproducibleHashError) {
        return {
          label,
          result: label === undefined ? 'noLabel' : 'unreproducible',
          reason: 'timestamp',
          explained: true,
          why: `${err.message}: the hash depends on the controller-manager's time zone, so it cannot be recomputed offline`,
        }
      }
      if (err instanceof HashInputError) {
        return {
          label,
          result: label === undefined ? 'noLabel' : 'unreproducible',
          reason: 'invalidTemplate',
          explained: true,
          why: `the template is not one the API server would return (${err.message}), so no controller hashed it as shown`,
        }
      }
      throw err
    }
  }
  if (label === undefined) return {recomputed, result: 'noLabel', why: 'the object has no hash label to compare with'}
  const maxCollisionCount = Math.max(opts.settings.maxInferredCollisionCount, ...counts.map((c) => c ?? 0))
  const {matches} = inferLayouts(template, label, {maxCollisionCount})
  const atVersion = v === undefined ? undefined : matches.find((m) => m.versions.includes(v))
  if (atVersion) {
    return {
      label,
      recomputed,
      result: 'matches',
      collisionCount: atVersion.collisionCount,
      why: `equals the hash a ${v} controller computes for its own template with ${describeCount(atVersion.collisionCount)}`,
    }
  }
  if (matches.length > 0) {
    const reproducedBy = matches.map((m) => ({versions: m.versions, collisionCount: m.collisionCount}))
    const first = matches[0]
    const lo = Math.min(...first.versions.map(minor))
    const side =
      v === undefined
        ? ''
        : lo > minor(v)
          ? ' (newer than the cluster: a skewed or downgraded control plane)'
          : ' (an older controller; the cluster was upgraded since)'
    return {
      label,
      recomputed,
      result: 'otherLayout',
      reproducedBy,
      ...(unknownFields.length > 0 ? {unknownFields} : {}),
      why: `written by a ${versionRange(first.versions)} controller with ${describeCount(first.collisionCount)}${side}`,
    }
  }
  return {label, recomputed, result: 'unreproducible', ...diagnose(template, label, opts, unknownFields), ...(unknownFields.length > 0 ? {unknownFields} : {})}
}

/** The part of a generated name after its last dash: the hash a controller named the object with. */
export function suffixOf(name: string): string {
  return name.slice(name.lastIndexOf('-') + 1)
}
