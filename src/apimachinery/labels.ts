// metav1.LabelSelectorAsSelector and labels.Selector.Matches (apimachinery pkg/apis/meta/v1/helpers.go,
// pkg/labels/selector.go): a nil selector matches nothing, an empty one matches everything.
import type {LabelSelector} from '../cluster/kube-types.js'

export type Selector = (labels: Record<string, string> | null | undefined) => boolean

export class SelectorError extends Error {}

const NOTHING: Selector = () => false
const EVERYTHING: Selector = () => true

export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): Selector {
  if (ps === null || ps === undefined) return NOTHING
  const matchLabels = ps.matchLabels ?? {}
  const expressions = ps.matchExpressions ?? []
  if (Object.keys(matchLabels).length === 0 && expressions.length === 0) return EVERYTHING
  const tests: ((l: Record<string, string>) => boolean)[] = []
  for (const [k, v] of Object.entries(matchLabels)) tests.push((l) => Object.hasOwn(l, k) && l[k] === v)
  for (const e of expressions) {
    const values = e.values ?? []
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) throw new SelectorError(`for '${e.operator}' operator, values set can't be empty`)
        tests.push(
          e.operator === 'In' ? (l) => Object.hasOwn(l, e.key) && values.includes(l[e.key]) : (l) => !Object.hasOwn(l, e.key) || !values.includes(l[e.key]),
        )
        break
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) throw new SelectorError(`values set must be empty for exists and does not exist`)
        tests.push(e.operator === 'Exists' ? (l) => Object.hasOwn(l, e.key) : (l) => !Object.hasOwn(l, e.key))
        break
      default:
        throw new SelectorError(`"${e.operator}" is not a valid label selector operator`)
    }
  }
  return (labels) => {
    const l = labels ?? {}
    return tests.every((t) => t(l))
  }
}

/** labels.Set(template.Labels).AsSelectorPreValidated(): every template label present with its value. */
export function setSelector(set: Record<string, string> | null | undefined): Selector {
  const entries = Object.entries(set ?? {})
  return (labels) => {
    const l = labels ?? {}
    return entries.every(([k, v]) => Object.hasOwn(l, k) && l[k] === v)
  }
}

/** kubectl-style rendering, for explanations. */
export function describeSelector(ps: LabelSelector | null | undefined): string {
  if (ps === null || ps === undefined) return '<nil: matches nothing>'
  const parts = Object.entries(ps.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`)
  for (const e of ps.matchExpressions ?? []) {
    if (e.operator === 'Exists') parts.push(e.key)
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`)
    else parts.push(`${e.key} ${e.operator.toLowerCase()} (${(e.values ?? []).join(',')})`)
  }
  return parts.length === 0 ? '<empty: matches everything>' : parts.join(',')
}

/**
 * The selector in the API's query syntax (?labelSelector=), or undefined for one that matches everything.
 * Used to let the API server narrow a pod list to what a replay can use.
 */
export function selectorQuery(ps: LabelSelector | null | undefined): string | undefined {
  if (ps === null || ps === undefined) return undefined
  const parts = Object.entries(ps.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`)
  for (const e of ps.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',')
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`)
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`)
    else if (e.operator === 'Exists') parts.push(e.key)
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`)
  }
  return parts.length === 0 ? undefined : parts.join(',')
}
