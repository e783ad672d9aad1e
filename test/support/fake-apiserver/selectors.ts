// Label and field selectors, written from the grammar of k8s.io/apimachinery/pkg/labels/selector.go
// and pkg/fields/selector.go (not from the project's own parser: that is what these tests check),
// plus the per-kind field-label tables of pkg/apis/core/v1/conversion.go and friends.
import {badRequest, quote, StatusError} from './status.js'
import type {KubeObject} from '../../../src/cluster/source.js'

type LabelOp = 'exists' | '!' | '=' | '==' | '!=' | 'in' | 'notin' | 'gt' | 'lt'

interface Requirement {
  key: string
  op: LabelOp
  values: string[]
}

export type LabelSelector = (labels: Record<string, string> | undefined) => boolean

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<'])

/** The lexer of labels.Parse: identifiers are runs of anything but whitespace and special symbols. */
function lex(input: string): string[] {
  const tokens: string[] = []
  let i = 0
  while (i < input.length) {
    const c = input[i]
    if (/\s/.test(c)) {
      i++
    } else if (SPECIAL.has(c)) {
      const two = input.slice(i, i + 2)
      if (two === '==' || two === '!=') {
        tokens.push(two)
        i += 2
      } else {
        tokens.push(c)
        i++
      }
    } else {
      let j = i
      while (j < input.length && !/\s/.test(input[j]) && !SPECIAL.has(input[j])) j++
      tokens.push(input.slice(i, j))
      i = j
    }
  }
  return tokens
}

const isIdentifier = (t: string | undefined) => t !== undefined && !SPECIAL.has(t) && t !== '==' && t !== '!='

// validation.IsQualifiedName / IsValidLabelValue, reduced to their regular expressions.
const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/

function validKey(key: string): boolean {
  const slash = key.indexOf('/')
  const name = slash === -1 ? key : key.slice(slash + 1)
  const prefix = slash === -1 ? undefined : key.slice(0, slash)
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return false
  return name.length <= 63 && NAME_PART.test(name)
}

const fail = (message: string): never => {
  throw badRequest(message)
}

function parseRequirements(input: string): Requirement[] {
  const tokens = lex(input)
  const reqs: Requirement[] = []
  let p = 0
  const peek = (): string | undefined => tokens[p]
  const expect = (what: string): never => fail(`unable to parse requirement: found '${peek() ?? ''}', expected: ${what}`)
  while (p < tokens.length) {
    let key: string
    let op: LabelOp
    let values: string[] = []
    if (peek() === '!') {
      p++
      if (!isIdentifier(peek())) expect("identifier after '!'")
      key = tokens[p++]
      op = '!'
    } else {
      if (!isIdentifier(peek())) expect('identifier')
      key = tokens[p++]
      const t = peek()
      if (t === undefined || t === ',') {
        op = 'exists'
      } else {
        p++
        if (t === '=' || t === '==' || t === '!=') op = t
        else if (t === 'in' || t === 'notin') op = t
        else if (t === '>') op = 'gt'
        else if (t === '<') op = 'lt'
        else {
          p--
          op = expect('=, !=, ==, in, notin, >, <')
        }
        if (op === 'in' || op === 'notin') {
          if (peek() !== '(') expect("'('")
          p++
          while (true) {
            // "in (a,,b)" and "in ()" carry empty values, which labels.Parse accepts
            if (isIdentifier(peek())) values.push(tokens[p++])
            else values.push('')
            if (peek() === ',') {
              p++
              continue
            }
            if (peek() === ')') {
              p++
              break
            }
            expect("',' or ')'")
          }
          if (values.length === 1 && values[0] === '') values = []
        } else {
          values = isIdentifier(peek()) ? [tokens[p++]] : ['']
        }
      }
    }
    if (!validKey(key))
      fail(
        `unable to parse requirement: key: Invalid value: ${quote(key)}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      )
    for (const v of values) {
      if (v.length > 63 || !LABEL_VALUE.test(v))
        fail(
          `unable to parse requirement: values[0][${key}]: Invalid value: ${quote(v)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
        )
    }
    if ((op === 'gt' || op === 'lt') && !/^-?\d+$/.test(values[0] ?? ''))
      fail(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`)
    if ((op === 'in' || op === 'notin') && values.length === 0)
      fail(`unable to parse requirement: values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`)
    reqs.push({key, op, values})
    if (p < tokens.length) {
      if (peek() !== ',') expect("','")
      p++
      if (p >= tokens.length) expect('identifier')
    }
  }
  return reqs
}

function matches(r: Requirement, labels: Record<string, string> | undefined): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key)
  const value = has ? labels![r.key] : undefined
  switch (r.op) {
    case 'exists':
      return has
    case '!':
      return !has
    case '=':
    case '==':
    case 'in':
      return has && r.values.includes(value!)
    case '!=':
    case 'notin':
      return !has || !r.values.includes(value!)
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value!)) return false
      const a = BigInt(value!)
      const b = BigInt(r.values[0])
      return r.op === 'gt' ? a > b : a < b
    }
  }
}

/** Parses `?labelSelector=`; a 400 BadRequest StatusError when it does not parse. */
export function parseLabelSelector(input: string | null | undefined): LabelSelector | undefined {
  if (!input || input.trim() === '') return undefined
  const reqs = parseRequirements(input)
  return (labels) => reqs.every((r) => matches(r, labels))
}

interface FieldTerm {
  field: string
  op: '=' | '==' | '!='
  value: string
}

/** fields.ParseSelector: comma-separated terms, `\` escapes, operators tried as !=, ==, =. */
function parseFieldTerms(input: string): FieldTerm[] {
  const parts: string[] = []
  let cur = ''
  for (let i = 0; i < input.length; i++) {
    const c = input[i]
    if (c === '\\' && i + 1 < input.length) {
      cur += c + input[++i]
    } else if (c === ',') {
      parts.push(cur)
      cur = ''
    } else {
      cur += c
    }
  }
  parts.push(cur)
  const unescapeValue = (s: string) => s.replace(/\\(.)/g, '$1')
  const terms: FieldTerm[] = []
  for (const part of parts) {
    if (part === '') continue
    let found: FieldTerm | undefined
    for (let i = 0; i < part.length && !found; i++) {
      if (part[i] === '\\') {
        i++
        continue
      }
      for (const op of ['!=', '==', '='] as const) {
        if (part.startsWith(op, i)) {
          found = {field: unescapeValue(part.slice(0, i)), op, value: unescapeValue(part.slice(i + op.length))}
          break
        }
      }
    }
    if (!found) fail(`invalid selector: '${input}'; can't understand '${part}'`)
    terms.push(found!)
  }
  return terms
}

type FieldKind = 'string' | 'bool' | 'int'

/**
 * Field labels a kind accepts beyond its metadata, as the API server's conversion funcs list them
 * (pkg/apis/core/v1/conversion.go, apps/v1, batch/v1, certificates/v1). Kinds not listed use
 * runtime.DefaultMetaV1FieldSelectorConversion: metadata.name and metadata.namespace only.
 */
const FIELD_LABELS: Record<string, {fields: Record<string, FieldKind>; noNamespace?: boolean}> = {
  '/pods': {
    fields: {
      'spec.nodeName': 'string',
      'spec.restartPolicy': 'string',
      'spec.schedulerName': 'string',
      'spec.serviceAccountName': 'string',
      'spec.hostNetwork': 'bool',
      'status.phase': 'string',
      'status.podIP': 'string',
      'status.nominatedNodeName': 'string',
    },
  },
  '/nodes': {fields: {'spec.unschedulable': 'bool'}, noNamespace: true},
  '/namespaces': {fields: {'status.phase': 'string'}, noNamespace: true},
  '/secrets': {fields: {type: 'string'}},
  '/replicationcontrollers': {fields: {'status.replicas': 'int'}},
  '/events': {
    fields: {
      'involvedObject.kind': 'string',
      'involvedObject.namespace': 'string',
      'involvedObject.name': 'string',
      'involvedObject.uid': 'string',
      'involvedObject.apiVersion': 'string',
      'involvedObject.resourceVersion': 'string',
      'involvedObject.fieldPath': 'string',
      reason: 'string',
      reportingComponent: 'string',
      source: 'string',
      type: 'string',
    },
  },
  'apps/replicasets': {fields: {'status.replicas': 'int'}},
  'batch/jobs': {fields: {'status.successful': 'int'}},
  'certificates.k8s.io/certificatesigningrequests': {fields: {'spec.signerName': 'string'}},
}

/** Where a field label's value lives when it is not simply its dotted path. */
const FIELD_PATHS: Record<string, string> = {source: 'source.component', reportingComponent: 'reportingComponent'}

function fieldValue(obj: KubeObject, field: string, kind: FieldKind): string {
  let v: unknown = obj
  for (const part of (FIELD_PATHS[field] ?? field).split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined
  if (kind === 'bool') return v === true ? 'true' : 'false'
  if (kind === 'int') return typeof v === 'number' || typeof v === 'bigint' ? String(v) : '0'
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)
}

/** What a field selector reads: name and namespace and the node directly, anything else from the object. */
export interface Selectable {
  name: string
  namespace: string
  nodeName?: string
  object(): KubeObject
}

export type FieldSelector = (e: Selectable) => boolean

export interface ParsedFieldSelector {
  match: FieldSelector
  /** The value of a `spec.nodeName=X` term, so the store can use its node index. */
  nodeName?: string
}

/** Parses `?fieldSelector=` for one group/resource; 400 BadRequest for a field that kind does not have. */
export function parseFieldSelector(input: string | null | undefined, group: string, resource: string): ParsedFieldSelector | undefined {
  if (!input || input.trim() === '') return undefined
  const terms = parseFieldTerms(input)
  if (terms.length === 0) return undefined
  const table = FIELD_LABELS[`${group}/${resource}`]
  const kinds: FieldKind[] = []
  for (const t of terms) {
    if (group === '' && resource === 'pods' && t.field === 'spec.host') t.field = 'spec.nodeName' // old v1 clients' name, converted upstream
    const meta = t.field === 'metadata.name' || (t.field === 'metadata.namespace' && !table?.noNamespace)
    const kind = meta ? 'string' : table?.fields[t.field]
    if (kind === undefined) {
      throw table
        ? badRequest(`field label not supported: ${t.field}`)
        : badRequest(`${quote(t.field)} is not a known field selector: only "metadata.name", "metadata.namespace"`)
    }
    kinds.push(kind)
  }
  const match: FieldSelector = (e) => {
    let obj: KubeObject | undefined
    const object = () => {
      obj ??= e.object()
      return obj
    }
    return terms.every((t, i) => {
      const v =
        t.field === 'metadata.name'
          ? e.name
          : t.field === 'metadata.namespace'
            ? e.namespace
            : t.field === 'spec.nodeName' && group === '' && resource === 'pods'
              ? (e.nodeName ?? '')
              : fieldValue(object(), t.field, kinds[i])
      return t.op === '!=' ? v !== t.value : v === t.value
    })
  }
  const node = group === '' && resource === 'pods' ? terms.find((t) => t.field === 'spec.nodeName' && t.op !== '!=') : undefined
  return {match, nodeName: node?.value}
}

export {StatusError}
