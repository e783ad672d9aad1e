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

/** The listed object behind each subject, by kind, namespace and name (the first list that has it). */
export function objectIndex(gathered: Gathered): (s: Subject) => KubeObject | undefined {
  let index: Map<string, KubeObject> | undefined
  return (s) => {
    if (!index) {
      index = new Map()
      for (const o of gathered.outcomes.values()) {
        for (const item of o.items) {
          const k = keyOf(o.list.type.kind, item.metadata?.namespace, item.metadata?.name ?? '')
          if (!index.has(k)) index.set(k, item)
        }
      }
    }
    return index.get(keyOf(s.kind, s.namespace, s.name))
  }
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
  const find = objectIndex(gathered)
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
