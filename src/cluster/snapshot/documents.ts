// Turns a file's contents into Kubernetes objects: kubectl-why's own snapshot (read a line at a time),
// what `kubectl get -o json|yaml` prints (a List, one object, several YAML documents), bare JSON arrays,
// typed lists whose items lack kind (client-go dumps), and server-version records of support bundles.
import {UserError} from '../../errors.js'
import {apiVersionOf, BUILTIN_KINDS} from '../builtin-kinds.js'
import type {Problem} from '../../explanation.js'
import {parseJson, parseYamlDocuments} from '../../util/json.js'
import type {KubeObject, ServerVersion} from '../source.js'
import {OwnLayoutReader} from './own-layout.js'
import {decodeText} from './read-input.js'

export interface SnapshotHeader {
  format: number
  capturedAt?: string
  serverVersion?: ServerVersion
  context?: string
  namespace?: string
  resources?: unknown[]
  metadataOnly?: string[]
  cached?: KubeObject[]
  problems?: Problem[]
}

export interface FileContents {
  objects: KubeObject[]
  header?: SnapshotHeader
  serverVersion?: ServerVersion
  /** Parts of the file that are not usable objects; `fatal` ones make a single-file snapshot unreadable. */
  problems: (Problem & {fatal?: boolean})[]
  path: string
  /** Kinds taken from selfLink or the path because the items had none. */
  inferredKinds: Set<string>
}

/** kubectl-why's own layout, from a buffer already in memory (stdin, a small file). */
function readOwnLayout(raw: Buffer, where: string): FileContents | undefined {
  const firstEnd = raw.indexOf(10)
  if (firstEnd === -1 || raw[0] !== 0x7b) return undefined
  const reader = OwnLayoutReader.begin(raw.subarray(0, firstEnd).toString('utf8'), where)
  if (!reader) return undefined
  let start = firstEnd + 1
  while (start < raw.length && !reader.closed) {
    let end = raw.indexOf(10, start)
    if (end === -1) end = raw.length
    reader.line(raw.subarray(start, end).toString('utf8'))
    start = end + 1
  }
  return reader.finish()
}

function isServerVersion(v: Record<string, unknown>): v is ServerVersion & Record<string, unknown> {
  return typeof v.gitVersion === 'string' && typeof v.major === 'string' && typeof v.minor === 'string' && v.kind === undefined
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** Adds the objects of one parsed document; what is not an object becomes a problem. */
function collect(doc: unknown, where: string, out: FileContents): void {
  if (Array.isArray(doc)) {
    doc.forEach((item, i) => collectItem(item, `${where}[${i}]`, out))
    return
  }
  if (!isObject(doc)) {
    out.problems.push({what: where, reason: `not a Kubernetes object or list (a ${doc === null ? 'null' : typeof doc})`, fatal: true})
    return
  }
  if (isServerVersion(doc)) {
    out.serverVersion = doc
    return
  }
  // troubleshoot's cluster-info/cluster_version.json: {"info": {major, minor, gitVersion...}, "string": "v1.23.5"}
  if (isObject(doc.info) && isServerVersion(doc.info)) {
    out.serverVersion = doc.info
    return
  }
  // Go writes an empty typed list as "items": null.
  if (typeof doc.kind === 'string' && doc.kind.endsWith('List') && doc.items === null) return
  if (Array.isArray(doc.items) && (doc.kind === undefined || String(doc.kind).endsWith('List'))) {
    if (isObject(doc.kubectlWhy)) out.header = doc.kubectlWhy as unknown as SnapshotHeader
    // A typed list (PodList) written by client-go leaves kind and apiVersion off its items.
    const itemKind = typeof doc.kind === 'string' && doc.kind !== 'List' ? doc.kind.slice(0, -'List'.length) : undefined
    const itemApiVersion = itemKind === undefined ? undefined : (doc.apiVersion as string | undefined)
    doc.items.forEach((item: unknown, i: number) => {
      if (isObject(item) && itemKind !== undefined) {
        if (item.kind === undefined) item.kind = itemKind
        if (item.apiVersion === undefined && itemApiVersion !== undefined) item.apiVersion = itemApiVersion
      }
      collectItem(item, `${where} items[${i}]`, out)
    })
    return
  }
  collectItem(doc, where, out)
}

/**
 * Older dumps (sonobuoy 0.x, early support bundles) hold bare arrays of objects without kind. The
 * object's own selfLink names its resource; failing that, the path does (deployments/ns.json, Pods.json).
 */
function inferType(item: Record<string, unknown>, path: string): {apiVersion: string; kind: string} | undefined {
  const selfLink = (item.metadata as {selfLink?: unknown} | undefined)?.selfLink
  const m = typeof selfLink === 'string' ? /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(?:namespaces\/[^/]+\/)?([a-z0-9]+)\/[^/]+$/.exec(selfLink) : null
  if (m) {
    const group = m[2] ?? ''
    const version = m[1] ?? m[3]
    const t = BUILTIN_KINDS.find((k) => k.resource === m[4] && (k.group === group || (group === 'extensions' && k.group === 'apps')))
    if (t) return {apiVersion: group === '' ? version : `${group}/${version}`, kind: t.kind}
  }
  for (const segment of path.split(/[\\/]/).reverse()) {
    const word = segment.replace(/\.(json|ya?ml)(\.gz)?$/i, '').toLowerCase()
    const t = BUILTIN_KINDS.find((k) => k.resource === word)
    if (t) return {apiVersion: apiVersionOf(t), kind: t.kind}
  }
  return undefined
}

function collectItem(item: unknown, where: string, out: FileContents): void {
  if (!isObject(item)) {
    out.problems.push({what: where, reason: `not an object (a ${item === null ? 'null' : Array.isArray(item) ? 'list' : typeof item})`, fatal: true})
    return
  }
  if (item.kind === undefined && isObject(item.metadata)) {
    const inferred = inferType(item, out.path)
    if (inferred) {
      item.kind = inferred.kind
      item.apiVersion ??= inferred.apiVersion
      out.inferredKinds.add(inferred.kind)
    }
  }
  if (typeof item.kind !== 'string' || item.kind === '' || !isObject(item.metadata)) {
    out.problems.push({what: where, reason: typeof item.kind !== 'string' || item.kind === '' ? 'an object without "kind"' : 'an object without "metadata"'})
    return
  }
  if (typeof item.apiVersion !== 'string') {
    out.problems.push({what: where, reason: `a ${item.kind} without "apiVersion"`})
    return
  }
  out.objects.push(item as KubeObject)
}

/** Reads one file's bytes (already gunzipped). `where` names it in messages. */
export function readContents(raw: Buffer, where: string, nameHint = where): FileContents {
  const own = readOwnLayout(raw, where)
  if (own) return own
  const text = decodeText(raw, where)
  const out: FileContents = {objects: [], problems: [], path: nameHint, inferredKinds: new Set()}
  const first = text.trimStart()[0]
  const json = /\.json(\.gz)?$/i.test(nameHint) || ((first === '{' || first === '[') && !/\.ya?ml(\.gz)?$/i.test(nameHint))
  if (json) collect(parseJson(text, where), where, out)
  else {
    const docs = parseYamlDocuments(text, where)
    docs.forEach((d, i) => collect(d, docs.length > 1 ? `${where} document ${i + 1}` : where, out))
  }
  if (out.inferredKinds.size > 0) out.problems.push({what: where, reason: `items without kind: taken as ${[...out.inferredKinds].join(', ')} from their selfLink or the file's path`})
  return out
}
