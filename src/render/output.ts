// Writes results in the chosen format. JSON keeps int64 values exact (bigint-aware writer).
// -o name and -o jsonpath=TEMPLATE are kubectl's (cli-runtime printers/name.go, printers/jsonpath.go), over the same
// document -o json prints.
import {BUILTIN_KINDS, splitApiVersion} from '../cluster/builtin-kinds.js'
import {UserError} from '../errors.js'
import {JsonPathError, parseJsonPath} from '../util/jsonpath.js'
import {stringifyJson} from '../util/json.js'
import {yamlLib} from '../util/yaml-lib.js'

/** -o: kubectl's jsonpath forms carry their template after the first '=' (jsonpath-file= is read into jsonpath= at parse). */
export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml' | 'html' | 'name' | `jsonpath=${string}` | `jsonpath-as-json=${string}`

/** The formats that print the data itself (the HTML report, -o name and -o jsonpath are drawn from the same data as JSON). */
export type DataFormat = Exclude<OutputFormat, 'table' | 'wide'>

export function isDataFormat(format: string | undefined): format is DataFormat {
  return (
    format === 'json' ||
    format === 'yaml' ||
    format === 'html' ||
    format === 'name' ||
    format?.startsWith('jsonpath=') === true ||
    format?.startsWith('jsonpath-as-json=') === true
  )
}

/** The data formats whose output is the data's own strings as text, not a format with its own escapes (JSON, YAML, HTML). */
export function isTextData(format: DataFormat): boolean {
  return format === 'name' || format.startsWith('jsonpath=')
}

export interface DataOptions {
  /** kubectl's --allow-missing-template-keys (default true): a missing field prints nothing instead of failing. */
  allowMissingTemplateKeys?: boolean
}

/** Plain data for -o json / -o yaml (a trailing newline), -o name (a line per object), -o jsonpath (as the template says). */
export function formatData(value: unknown, format: Exclude<DataFormat, 'html'>, options: DataOptions = {}): string {
  if (format === 'json') return `${stringifyJson(value, 2)}\n`
  if (format === 'yaml') return yamlLib().stringify(value, {lineWidth: 0, aliasDuplicateObjects: false})
  if (format === 'name')
    return namesOf(value)
      .map((n) => `${n}\n`)
      .join('')
  const eq = format.indexOf('=')
  return executeTemplate(format.slice(eq + 1), value, options.allowMissingTemplateKeys ?? true, format.startsWith('jsonpath-as-json='))
}

/**
 * cli-runtime v0.34.0 pkg/printers/jsonpath.go:118 PrintObj: the template over the document. kubectl prints no newline of its own (a
 * template that wants one says {"\n"}). An error is one line here (kubectl's adds the template and a %#v dump of the
 * whole object), exit 2 as every input error.
 */
function executeTemplate(template: string, value: unknown, allowMissingKeys: boolean, outputJSON: boolean): string {
  const j = parseJsonPath(template, allowMissingKeys, outputJSON)
  try {
    return j.execute(value)
  } catch (err) {
    if (err instanceof JsonPathError) throw new UserError(`error executing jsonpath ${JSON.stringify(template)}: ${err.message}`)
    throw err
  }
}

/**
 * The template of a jsonpath -o value, parsed as kubectl parses it before anything is read (cli-runtime v0.34.0
 * pkg/genericclioptions/jsonpath_flags.go:101: `error parsing jsonpath %s, %v`); nothing for other formats.
 * Throws the message (kubectl's words) when the template does not parse.
 */
export function checkTemplate(format: string): void {
  const m = /^(jsonpath|jsonpath-as-json)=(.*)$/s.exec(format)
  if (!m) return
  try {
    parseJsonPath(m[2])
  } catch (err) {
    if (err instanceof JsonPathError) throw new UserError(`error parsing jsonpath ${m[2]}, ${err.message}`)
    throw err
  }
}

interface Named {
  kind?: unknown
  apiVersion?: unknown
  name?: unknown
}

/**
 * What -o name names (kubectl's NamePrinter: `kind.group/name`, in lower case, core kinds without a group; no
 * namespace): the subject of the answer. An answer about one object names it; a report (--all, audit) names each
 * object it has a finding or a result for, once, in its order; the node replay of the whole cluster (its subject is
 * the Cluster, no API object) names each node it evaluated; hash --template names each template's object.
 */
export function namesOf(data: unknown): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  const add = (s: Named | undefined) => {
    const n = s && nameOf(s)
    if (n !== undefined && !seen.has(n)) {
      seen.add(n)
      out.push(n)
    }
  }
  const d = data as {subject?: Named; findings?: {subject?: Named}[]; results?: {subject?: Named}[]; nodes?: {name?: unknown}[]}
  if (Array.isArray(data)) for (const r of data as Named[]) add(r)
  else if (Array.isArray(d.findings)) for (const f of d.findings) add(f.subject)
  else if (Array.isArray(d.results)) for (const r of d.results) add(r.subject)
  else if (d.subject?.kind === 'Cluster' && Array.isArray(d.nodes)) for (const n of d.nodes) add({kind: 'Node', apiVersion: 'v1', name: n.name})
  else add(d.subject)
  return out
}

function nameOf(s: Named): string | undefined {
  if (typeof s.kind !== 'string' || typeof s.name !== 'string' || s.kind === 'Cluster') return undefined
  // A record without apiVersion (hash --template) takes the built-in kind's group.
  const group = typeof s.apiVersion === 'string' ? splitApiVersion(s.apiVersion).group : (BUILTIN_KINDS.find((k) => k.kind === s.kind)?.group ?? '')
  // cli-runtime v0.34.0 pkg/printers/name.go:125, :129: the kind in lower case, then .group unless the group is core.
  return `${(group === '' ? s.kind : `${s.kind}.${group}`).toLowerCase()}/${s.name}`
}
