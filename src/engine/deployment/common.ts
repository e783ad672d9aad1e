// What the three workload hash replays share: verdicts, reading a workload's collision count and template,
// the layout to compare with, and small object helpers.
import type {CompiledLayout} from '../../hash/compile.js'
import {layoutVersions} from '../../hash/layout-data.js'
import {getLayout} from '../../hash/layouts.js'
import type {Severity} from '../../explanation.js'
import {isObj} from '../../util/json.js'
import {WorkloadInputError} from './claim.js'
import type {HashSettings} from '../history/types.js'
import type {Workload} from './types.js'

/** The verdicts of `kubectl why hash`, in the order a reader should worry about them. */
export const VERDICTS = ['collision', 'rolloutPending', 'unreproducible', 'hashDrift', 'upToDate'] as const
export type HashVerdict = (typeof VERDICTS)[number]

export function ref(w: Workload): string {
  return `${w.metadata.namespace ?? ''}/${w.metadata.name}`
}

/** status.collisionCount as the controller reads it: null when unset; bad values are input errors. */
export function collisionCountOf(w: Workload): number | null {
  const c = w.status?.collisionCount
  if (c === undefined || c === null) return null
  if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c > 2_147_483_647) {
    throw new WorkloadInputError(`${w.kind ?? 'workload'} ${ref(w)}: status.collisionCount must be a non-negative int32, got ${JSON.stringify(String(c))}`)
  }
  return c
}

/** spec.template, which the API server always returns; a dump without one holds only part of the object. */
export function templateOf(w: Workload): Record<string, unknown> {
  const t = w.spec?.template
  if (!isObj(t)) throw new WorkloadInputError(`${w.kind ?? 'workload'} ${ref(w)} has no spec.template (the data holds only part of the object)`)
  return t
}

/** The layout semantic comparisons use: the cluster's, else the nearest one (equality rarely depends on it). */
export function comparisonLayout(settings: HashSettings): CompiledLayout {
  if (settings.version !== undefined) return getLayout(settings.version)
  const all = layoutVersions()
  return getLayout(settings.minor !== undefined && settings.minor > Number(all[all.length - 1].split('.')[1]) ? all[all.length - 1] : all[0])
}

export function severityOf(verdict: HashVerdict, opts: {unexplained?: boolean; failing?: boolean}): Severity {
  switch (verdict) {
    case 'collision':
      return 'warning'
    case 'rolloutPending':
      return opts.failing ? 'critical' : 'info'
    // Info, explained or not: the controller never recomputes existing labels, so nothing it does changes and no
    // person is needed (issue 15: a warning failed CI by default over a label no layout reproduces).
    case 'unreproducible':
      return 'info'
    case 'hashDrift':
      return 'info'
    default:
      return 'none'
  }
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}
