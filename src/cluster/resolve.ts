// Turns what a user types (deploy/web, replicasets.apps/x, Pod/y) and what objects name
// (apiVersion + kind) into served resource types, the way kubectl's RESTMapper does.
import {UserError} from '../errors.js'
import {apiVersionOf, splitApiVersion} from './builtin-kinds.js'
import type {ResourceType, TypeRef} from './source.js'

/** Core and apps first, as kubectl prefers them when a short name is ambiguous. */
function preference(t: ResourceType): number {
  if (t.group === '') return 0
  if (t.group === 'apps') return 1
  return t.group.endsWith('.k8s.io') || !t.group.includes('.') ? 2 : 3
}

/** Resolves "deploy", "deployments", "deployment.apps", "Deployment", "deployments.v1.apps". */
export function resolveResource(types: readonly ResourceType[], typed: string): ResourceType {
  const lower = typed.toLowerCase()
  const dot = lower.indexOf('.')
  const name = dot === -1 ? lower : lower.slice(0, dot)
  const qualifier = dot === -1 ? undefined : lower.slice(dot + 1)
  const matches = types.filter((t) => {
    if (t.resource.includes('/')) return false
    const named = t.resource === name || t.singularName === name || t.kind.toLowerCase() === name || (t.shortNames ?? []).includes(name)
    if (!named) return false
    if (qualifier === undefined) return true
    return t.group === qualifier || `${t.version}.${t.group}` === qualifier
  })
  if (matches.length === 0) {
    throw new UserError(`unknown resource type "${typed}"`, 'run `kubectl api-resources` to see the kinds this cluster serves')
  }
  return [...matches].sort((a, b) => preference(a) - preference(b))[0]
}

/** The served types (not subresources) of each kind, in their order, per list of types: an audit resolves thousands of refs. */
const byKind = new WeakMap<readonly ResourceType[], {length: number; kinds: Map<string, ResourceType[]>}>()

function typesOfKind(types: readonly ResourceType[], kind: string): readonly ResourceType[] {
  let index = byKind.get(types)
  if (index === undefined || index.length !== types.length) {
    const kinds = new Map<string, ResourceType[]>()
    for (const t of types) {
      if (t.resource.includes('/')) continue
      const same = kinds.get(t.kind)
      if (same === undefined) kinds.set(t.kind, [t])
      else same.push(t)
    }
    index = {length: types.length, kinds}
    byKind.set(types, index)
  }
  return index.kinds.get(kind) ?? []
}

/** The first served type (its group's preferred version) of this group and kind, at whatever version. */
export function typeOfGroupKind(types: readonly ResourceType[], group: string, kind: string): ResourceType | undefined {
  return typesOfKind(types, kind).find((t) => t.group === group)
}

/** The served type for an object's apiVersion and kind; undefined when that exact version is not served. */
export function resolveKind(types: readonly ResourceType[], ref: TypeRef): ResourceType | undefined {
  const candidates = typesOfKind(types, ref.kind)
  if (ref.apiVersion === undefined) return [...candidates].sort((a, b) => preference(a) - preference(b))[0]
  const {group, version} = splitApiVersion(ref.apiVersion)
  return candidates.find((t) => t.group === group && t.version === version)
}

/** Splits "kind/name" as kubectl does; a bare word is a kind with no name. */
export function parseTypeName(arg: string): {type: string; name?: string} {
  const slash = arg.indexOf('/')
  if (slash === -1) return {type: arg}
  const type = arg.slice(0, slash)
  const name = arg.slice(slash + 1)
  if (type === '' || name === '' || name.includes('/')) {
    throw new UserError(`"${arg}" is not TYPE/NAME`, 'write it like kubectl does, e.g. deployment/web')
  }
  return {type, name}
}

export {apiVersionOf}
