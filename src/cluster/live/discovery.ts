// API discovery as the garbage collector needs it: every served group/version (not only the preferred
// one), each resource's kind, scope and verbs. A group that fails (an aggregated API that is down is
// common) is reported and skipped, as client-go's discovery does with ErrGroupDiscoveryFailed.
import type {Problem} from '../../explanation.js'
import type {ResourceType} from '../source.js'
import type {ApiClient} from './api-client.js'

interface APIResource {
  name: string
  singularName?: string
  namespaced: boolean
  kind: string
  verbs: string[]
  shortNames?: string[]
  group?: string
  version?: string
}
interface APIResourceList {
  groupVersion: string
  resources: APIResource[]
}
interface APIGroupList {
  groups: {name: string; versions: {groupVersion: string; version: string}[]}[]
}

const CONCURRENCY = 8

export async function discover(client: ApiClient, problems: Problem[]): Promise<ResourceType[]> {
  const core = (await client.get('/api')) as {versions?: string[]}
  const groups = (await client.get('/apis')) as APIGroupList
  const paths = [
    ...(core.versions ?? ['v1']).map((v) => ({path: `/api/${v}`, group: '', version: v})),
    ...groups.groups.flatMap((g) => g.versions.map((v) => ({path: `/apis/${v.groupVersion}`, group: g.name, version: v.version}))),
  ]
  const found: ResourceType[][] = paths.map(() => [])
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const i = next++
      const p = paths[i]
      try {
        const list = (await client.get(p.path)) as APIResourceList
        for (const r of list.resources ?? []) {
          if (r.name.includes('/')) continue
          found[i].push({
            group: r.group ?? p.group,
            version: r.version ?? p.version,
            kind: r.kind,
            resource: r.name,
            namespaced: r.namespaced,
            verbs: r.verbs ?? [],
            shortNames: r.shortNames ?? [],
            singularName: r.singularName || r.kind.toLowerCase(),
          })
        }
      } catch (err) {
        problems.push({what: `discovery of ${p.path.replace(/^\/apis?\//, '')}`, reason: (err as Error).message})
      }
    }
  }
  await Promise.all(Array.from({length: CONCURRENCY}, worker))
  return found.flat()
}
