// Discovery for a snapshot: what it recorded at capture time, else the built-in kinds plus the kinds it
// holds (CustomResourceDefinitions in the dump describe their own kinds; other unknown kinds are guessed
// from their objects and said to be guessed).
import {BUILTIN_KINDS, splitApiVersion} from '../builtin-kinds.js'
import {groupKindKey, type ObjectStore} from '../object-store.js'
import type {KubeObject, ResourceType} from '../source.js'

const ALL_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']

interface CrdSpec {
  group?: string
  scope?: string
  names?: {kind?: string; plural?: string; singular?: string; shortNames?: string[]}
  versions?: {name?: string; served?: boolean}[]
}

function fromCrd(crd: KubeObject): ResourceType[] {
  const spec = crd.spec as CrdSpec | undefined
  if (!spec?.group || !spec.names?.kind || !spec.names.plural) return []
  return (spec.versions ?? [])
    .filter((v) => v.served !== false && v.name)
    .map((v) => ({
      group: spec.group!,
      version: v.name!,
      kind: spec.names!.kind!,
      resource: spec.names!.plural!,
      namespaced: spec.scope !== 'Cluster',
      verbs: ALL_VERBS,
      shortNames: spec.names!.shortNames ?? [],
      singularName: spec.names!.singular ?? spec.names!.kind!.toLowerCase(),
    }))
}

export function snapshotDiscovery(recorded: ResourceType[] | undefined, store: ObjectStore): {types: ResourceType[]; guessed: string[]} {
  if (recorded && recorded.length > 0) return {types: recorded, guessed: []}
  const types = [...BUILTIN_KINDS]
  for (const crd of store.all('apiextensions.k8s.io/CustomResourceDefinition')) types.push(...fromCrd(crd))
  const known = new Set(types.map((t) => `${t.group}/${t.kind}`))
  const guessed: string[] = []
  for (const key of store.kinds()) {
    if (known.has(key) || key.startsWith('extensions/')) continue
    const sample = store.all(key)[0]
    const {group, version} = splitApiVersion(sample.apiVersion ?? 'v1')
    if (groupKindKey(sample.apiVersion, sample.kind!) !== key) continue
    types.push({
      group,
      version,
      kind: sample.kind!,
      resource: `${sample.kind!.toLowerCase()}s`,
      namespaced: sample.metadata?.namespace !== undefined,
      verbs: ALL_VERBS,
      singularName: sample.kind!.toLowerCase(),
    })
    guessed.push(key)
  }
  return {types, guessed}
}
