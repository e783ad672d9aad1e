// Label and field selectors with the API server's grammar (k8s.io/apimachinery/pkg/labels/selector.go,
// pkg/fields/selector.go), so a snapshot answers a selector exactly as a live cluster would.
import {UserError} from '../errors.js'
import type {KubeObject} from './source.js'

type Requirement = {op: 'in' | 'notin'; key: string; values: string[]} | {op: 'exists' | '!'; key: string}

export type LabelSelector = (labels: Record<string, string> | undefined) => boolean

/** Parses "app=web,tier!=db,env in (a,b),!legacy,track". */
export function parseLabelSelector(text: string): LabelSelector {
  const reqs: Requirement[] = []
  const re = /\s*(!?)\s*([A-Za-z0-9._/-]+)\s*(?:(==|=|!=)\s*([A-Za-z0-9._-]*)|\s+(in|notin)\s*\(([^)]*)\))?\s*(?:,|$)/y
  let pos = 0
  const s = text.trim()
  while (pos < s.length) {
    re.lastIndex = pos
    const m = re.exec(s)
    if (!m || re.lastIndex === pos) throw new UserError(`invalid label selector "${text}"`, 'use the kubectl form, e.g. app=web,tier!=db or env in (a,b)')
    pos = re.lastIndex
    const [, not, key, eqOp, eqValue, setOp, setValues] = m
    if (not && (eqOp || setOp)) throw new UserError(`invalid label selector "${text}"`, '"!" only negates a bare key')
    if (eqOp) reqs.push({op: eqOp === '!=' ? 'notin' : 'in', key, values: [eqValue]})
    else if (setOp) reqs.push({op: setOp as 'in' | 'notin', key, values: setValues.split(',').map((v) => v.trim())})
    else reqs.push({op: not ? '!' : 'exists', key})
  }
  return (labels) =>
    reqs.every((r) => {
      const has = labels !== undefined && Object.hasOwn(labels, r.key)
      switch (r.op) {
        case 'exists':
          return has
        case '!':
          return !has
        case 'in':
          return has && r.values.includes(labels![r.key])
        case 'notin':
          return !has || !r.values.includes(labels![r.key])
        default:
          return false
      }
    })
}

function path(...keys: string[]): (o: KubeObject) => string {
  return (o) => {
    let v: unknown = o
    for (const k of keys) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined
    return v === undefined || v === null ? '' : String(v)
  }
}

/**
 * The field selectors the API server accepts that the engines use: metadata.name and
 * metadata.namespace for every kind, and the fields pods and events add (pkg/apis/core/v1/conversion.go:
 * AddFieldLabelConversionsForPod, ...ForEvent).
 */
const FIELDS: Record<string, (o: KubeObject) => string> = {
  'metadata.name': path('metadata', 'name'),
  'metadata.namespace': path('metadata', 'namespace'),
  'spec.nodeName': path('spec', 'nodeName'),
  'status.phase': path('status', 'phase'),
  'involvedObject.kind': path('involvedObject', 'kind'),
  'involvedObject.namespace': path('involvedObject', 'namespace'),
  'involvedObject.name': path('involvedObject', 'name'),
  'involvedObject.uid': path('involvedObject', 'uid'),
  'involvedObject.apiVersion': path('involvedObject', 'apiVersion'),
  'involvedObject.fieldPath': path('involvedObject', 'fieldPath'),
  reason: path('reason'),
  reportingComponent: path('reportingComponent'),
  source: path('source', 'component'),
  type: path('type'),
}

export type FieldSelector = (o: KubeObject) => boolean

export function parseFieldSelector(text: string): FieldSelector {
  const tests = text
    .split(',')
    .filter((t) => t.trim() !== '')
    .map((term) => {
      const m = /^\s*([A-Za-z.]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term)
      if (!m) throw new UserError(`invalid field selector "${text}"`, 'use the form metadata.name=x,spec.nodeName!=y')
      const get = FIELDS[m[1]]
      if (!get) throw new UserError(`field selector "${m[1]}" is not supported`, `supported: ${Object.keys(FIELDS).join(', ')}`)
      const negate = m[2] === '!='
      return (o: KubeObject) => (get(o) === m[3]) !== negate
    })
  return (o) => tests.every((t) => t(o))
}
