// `kubectl why hash --template`: find the pod templates in documents (a bare PodTemplateSpec, a
// PodTemplate, a Deployment/ReplicaSet/DaemonSet/StatefulSet, Lists of them) and say, for each, the
// hash its controller computes and the name that implies.
import {UserError} from '../errors.js'
import {hashPodTemplate} from './compute-hash.js'
import {ControllerRevisionName, HashControllerRevision, statefulSetPatch} from './controller-revision.js'
import {HashInputError, UnreproducibleHashError} from './errors.js'
import {inferLayouts} from './infer.js'
import {layoutVersions} from './layout-data.js'
import {getLayout} from './layouts.js'
import {daemonSetRevisionName, replicaSetNameFor} from './names.js'
import {describeJson} from './describe.js'
import {DefaultDeploymentUniqueLabelKey} from '../api/apps/v1.js'

/** apps.DefaultDeploymentUniqueLabelKey, defined once in src/api/apps/v1.ts (the name the hash code and its callers use). */
export const POD_TEMPLATE_HASH_LABEL = DefaultDeploymentUniqueLabelKey

const WITH_SPEC_TEMPLATE = new Set(['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet'])

export interface FoundTemplate {
  /** Where it came from: file, document number, list item. */
  source: string
  kind: string
  name?: string
  object: Record<string, unknown>
  template: unknown
  /** Path of the template inside object. */
  templatePath: string[]
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function nameOf(o: Record<string, unknown>): string | undefined {
  const meta = o.metadata
  return isObject(meta) && typeof meta.name === 'string' ? meta.name : undefined
}

/** Every pod template in the documents, in input order. */
export function findTemplates(docs: unknown[], where: string): FoundTemplate[] {
  const out: FoundTemplate[] = []
  const visit = (v: unknown, source: string, defaultKind: string | undefined): void => {
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, `${source} [${i}]`, defaultKind)
      return
    }
    if (!isObject(v)) throw new HashInputError(source, `expected an object (a pod template or an object with one), got ${describeJson(v)}`)
    const kind = typeof v.kind === 'string' && v.kind !== '' ? v.kind : defaultKind
    if (kind?.endsWith('List') && Array.isArray(v.items)) {
      const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length)
      for (const [i, item] of v.items.entries()) visit(item, `${source} items[${i}]`, itemKind)
      return
    }
    const name = nameOf(v)
    if (kind === undefined || kind === 'PodTemplateSpec') {
      out.push({source, kind: 'PodTemplateSpec', name, object: v, template: v, templatePath: []})
    } else if (kind === 'PodTemplate') {
      out.push({source, kind, name, object: v, template: v.template, templatePath: ['template']})
    } else if (WITH_SPEC_TEMPLATE.has(kind)) {
      const spec = v.spec
      out.push({source, kind, name, object: v, template: isObject(spec) ? spec.template : undefined, templatePath: ['spec', 'template']})
    } else {
      throw new UserError(
        `${source}: a ${kind} has no pod template to hash`,
        'give a PodTemplateSpec, PodTemplate, Deployment, ReplicaSet, DaemonSet or StatefulSet, or a List of them',
      )
    }
  }
  for (const [i, d] of docs.entries()) visit(d, docs.length > 1 ? `${where}#${i + 1}` : where, undefined)
  return out
}

export interface ReproducedBy {
  versions: string[]
  collisionCount?: number
}

export interface HashRecord {
  source: string
  kind: string
  name?: string
  version: string
  collisionCount?: number
  hash?: string
  replicaSetName?: string
  revisionName?: string
  label?: string
  matches?: boolean
  reproducedBy?: ReproducedBy[]
  /** Why no hash is given (a non-null timestamp: see UnreproducibleHashError). */
  error?: string
  warnings?: string[]
  /** The exact text hashed (--show-serialization). */
  serialization?: string
}

export interface RecordOptions {
  version: string
  /** --collision-count */
  collisionCount?: number
  showSerialization?: boolean
  /** Highest collision count tried when inferring which layout produced a label (default 10). */
  maxInferredCollisionCount?: number
}

function statusCollisionCount(found: FoundTemplate): number | undefined {
  const status = found.object.status
  if (!isObject(status) || status.collisionCount === undefined || status.collisionCount === null) return undefined
  const c = status.collisionCount
  if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c > 2_147_483_647) {
    throw new HashInputError('status.collisionCount', `expected a non-negative int32, got ${describeJson(c)}`)
  }
  return c
}

/** The template as EqualIgnoreHash compares it: without its own pod-template-hash label. */
function withoutHashLabel(template: unknown): {template: unknown; label?: string} {
  if (!isObject(template) || !isObject(template.metadata) || !isObject(template.metadata.labels)) return {template}
  const labels = template.metadata.labels
  if (!Object.hasOwn(labels, POD_TEMPLATE_HASH_LABEL)) return {template}
  const {[POD_TEMPLATE_HASH_LABEL]: label, ...rest} = labels
  return {template: {...template, metadata: {...template.metadata, labels: rest}}, label: typeof label === 'string' ? label : undefined}
}

const decoder = new TextDecoder()

function ignoredFields(version: string, paths: string[]): string {
  return `ignored fields the ${version} structs do not have (the controller's decoder drops them): ${paths.join(', ')}`
}

function record(found: FoundTemplate, opts: RecordOptions): HashRecord {
  const minor = Number(opts.version.split('.')[1])
  const rec: HashRecord = {source: found.source, kind: found.kind, name: found.name, version: opts.version}
  const warnings: string[] = []
  const fromStatus = statusCollisionCount(found)
  const basePath = found.templatePath

  if (found.kind === 'StatefulSet') {
    // The StatefulSet controller always passes a collision count: status.collisionCount, 0 when unset.
    const probe = opts.collisionCount ?? fromStatus ?? 0
    rec.collisionCount = probe
    const unknownFields: string[] = []
    const raw = statefulSetPatch(getLayout(opts.version), found.template, basePath, unknownFields)
    rec.hash = HashControllerRevision(raw, probe)
    if (unknownFields.length > 0) warnings.push(ignoredFields(opts.version, unknownFields))
    if (found.name !== undefined) rec.revisionName = ControllerRevisionName(found.name, rec.hash)
    if (opts.showSerialization) rec.serialization = decoder.decode(raw) + String(probe)
    return finish(rec, warnings)
  }

  const collisionCount = opts.collisionCount ?? (found.kind === 'Deployment' || found.kind === 'DaemonSet' ? fromStatus : undefined)
  if (collisionCount !== undefined) rec.collisionCount = collisionCount
  let template = found.template
  let label: string | undefined
  if (found.kind === 'ReplicaSet') {
    ;({template, label} = withoutHashLabel(found.template))
    if (label === undefined) {
      const meta = found.object.metadata
      const own = isObject(meta) && isObject(meta.labels) ? meta.labels[POD_TEMPLATE_HASH_LABEL] : undefined
      label = typeof own === 'string' ? own : undefined
    }
    if (label === undefined) warnings.push(`no ${POD_TEMPLATE_HASH_LABEL} label to compare with`)
  }

  let hashed: ReturnType<typeof hashPodTemplate>
  try {
    hashed = hashPodTemplate(template, {version: opts.version, collisionCount, text: opts.showSerialization, basePath})
  } catch (err) {
    if (!(err instanceof UnreproducibleHashError)) throw err
    rec.error = err.message
    if (label !== undefined) rec.label = label
    return finish(rec, warnings)
  }
  rec.hash = hashed.hash
  if (hashed.text) rec.serialization = decoder.decode(hashed.text)
  if (hashed.unknownFields.length > 0) warnings.push(ignoredFields(opts.version, hashed.unknownFields))
  if (found.kind === 'Deployment' && found.name !== undefined) {
    const rs = replicaSetNameFor(minor, found.name, rec.hash)
    rec.replicaSetName = rs.name
    if (rs.warning) warnings.push(rs.warning)
  }
  if (found.kind === 'DaemonSet' && found.name !== undefined) rec.revisionName = daemonSetRevisionName(found.name, rec.hash)
  if (label !== undefined) {
    rec.label = label
    rec.matches = label === rec.hash
    if (!rec.matches) {
      const max = Math.max(opts.maxInferredCollisionCount ?? 10, collisionCount ?? 0)
      const {matches} = inferLayouts(template, label, {maxCollisionCount: max})
      rec.reproducedBy = matches.map((m) => (m.collisionCount === null ? {versions: m.versions} : {versions: m.versions, collisionCount: m.collisionCount}))
      if (matches.length === 0) {
        const all = layoutVersions()
        warnings.push(
          `no known layout (${all[0]}–${all[all.length - 1]}) with collisionCount unset or 0–${max} reproduces the label: the template changed after the ReplicaSet was created, or another version or tool wrote it`,
        )
      }
    }
  }
  return finish(rec, warnings)
}

/** The documented order of a record's fields; fields that do not apply are left out. */
const FIELD_ORDER: (keyof HashRecord)[] = [
  'source',
  'kind',
  'name',
  'version',
  'collisionCount',
  'hash',
  'replicaSetName',
  'revisionName',
  'label',
  'matches',
  'reproducedBy',
  'error',
  'warnings',
  'serialization',
]

function finish(rec: HashRecord, warnings: string[]): HashRecord {
  if (warnings.length > 0) rec.warnings = warnings
  const out: Record<string, unknown> = {}
  for (const k of FIELD_ORDER) if (rec[k] !== undefined) out[k] = rec[k]
  return out as unknown as HashRecord
}

/** One record per template, in input order. Input errors name the source and the field path. */
export function hashRecords(found: FoundTemplate[], opts: RecordOptions): HashRecord[] {
  return found.map((f) => {
    try {
      return record(f, opts)
    } catch (err) {
      if (err instanceof HashInputError) throw new UserError(`${f.source}: ${err.message}`, err.hint)
      throw err
    }
  })
}
