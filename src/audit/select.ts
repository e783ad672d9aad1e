// -l/--selector and --field-selector, as kubectl has them, choose which subjects the audit reports. They do not narrow
// what is read: the replays need the whole world (an owner, a sibling, a node) to reach the controller's verdict, so
// the selectors apply to each check's subjects after the replay — a subject's labels and fields are those of the
// object the audit listed. A subject the audit did not list (a pod known only from its eviction events) matches no
// selector, as it would not be listed by kubectl either.
import {parseFieldSelector, parseLabelSelector} from '../cluster/selectors.js'
import type {KubeObject} from '../cluster/source.js'
import type {Subject} from '../explanation.js'
import type {CheckName} from './checks.js'
import type {CheckResult} from './context.js'
import type {Gathered} from './gather.js'

export interface Selection {
  labelSelector?: string
  fieldSelector?: string
}

export interface SelectionSummary {
  labelSelector?: string
  fieldSelector?: string
  /** Findings of each check whose subject the selectors left out. */
  excluded: Partial<Record<CheckName, number>>
}

const keyOf = (kind: string, namespace: string | undefined, name: string) => `${kind}\u0000${namespace ?? ''}\u0000${name}`

/**
 * The listed object behind each of `subjects`, by kind, namespace and name (the first list that has it). Only those
 * are indexed, a list (or a compressed chunk) at a time: the lists kept compressed are not taken back whole.
 */
export function objectIndex(gathered: Gathered, subjects: Iterable<Subject>): (s: Subject) => KubeObject | undefined {
  const index = new Map<string, KubeObject | undefined>()
  for (const s of subjects) index.set(keyOf(s.kind, s.namespace, s.name), undefined)
  let left = index.size
  for (const {list, items} of gathered.each()) {
    if (left === 0) break
    for (const item of items) {
      const k = keyOf(list.type.kind, item.metadata?.namespace, item.metadata?.name ?? '')
      if (index.has(k) && index.get(k) === undefined) {
        index.set(k, item)
        left--
      }
    }
  }
  return (s) => index.get(keyOf(s.kind, s.namespace, s.name))
}

/** Validates both selectors now (a usage error before anything is read). */
export function checkSelection(s: Selection): void {
  if (s.labelSelector !== undefined) parseLabelSelector(s.labelSelector)
  if (s.fieldSelector !== undefined) parseFieldSelector(s.fieldSelector)
}

export function applySelection(results: CheckResult[], gathered: Gathered, s: Selection): SelectionSummary | undefined {
  if (s.labelSelector === undefined && s.fieldSelector === undefined) return undefined
  const labels = s.labelSelector !== undefined ? parseLabelSelector(s.labelSelector) : undefined
  const fields = s.fieldSelector !== undefined ? parseFieldSelector(s.fieldSelector) : undefined
  const find = objectIndex(
    gathered,
    results.flatMap((r) => [...r.findings.map((f) => f.subject), ...(r.subjects ?? []).map((x) => x.subject)]),
  )
  const matches = (subject: Subject): boolean => {
    const o = find(subject)
    if (!o) return false
    return (!labels || labels(o.metadata?.labels as Record<string, string> | undefined)) && (!fields || fields({...o, kind: o.kind ?? subject.kind}))
  }
  const summary: SelectionSummary = {...s, excluded: {}}
  for (const r of results) {
    const kept = r.findings.filter((f) => matches(f.subject))
    summary.excluded[r.check] = r.findings.length - kept.length
    r.findings = kept
    if (r.subjects) r.subjects = r.subjects.filter((x) => matches(x.subject))
  }
  return summary
}
