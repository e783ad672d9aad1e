// The resource types the server serves: the built-in kinds plus any extra ones (CRDs). One storage
// per group+resource, shared by every version of that group that serves it, as in a real server
// where one etcd key holds the object whatever version it is read at.
import {BUILTIN_KINDS, apiVersionOf, splitApiVersion} from '../../../src/cluster/builtin-kinds.js'
import type {ResourceType} from '../../../src/cluster/source.js'

export interface ServedResource extends ResourceType {
  /** `kubectl get all` resolves the "all" category from discovery. */
  categories?: string[]
  /** A custom resource (given in extraResources): served unstructured, as stored. */
  custom?: boolean
}

/** The resources kube-apiserver puts in the "all" category (their REST storage's Categories()). */
const ALL_CATEGORY = new Set([
  '/pods',
  '/replicationcontrollers',
  '/services',
  'apps/daemonsets',
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'autoscaling/horizontalpodautoscalers',
  'batch/cronjobs',
  'batch/jobs',
])

/**
 * Group order as kube-apiserver lists them in /apis: by the aggregator's group priority
 * (cmd/kube-apiserver/app/aggregator.go apiVersionPriorities), highest first. Groups it does not
 * know (CRDs) come after, by name.
 */
const GROUP_PRIORITY = [
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
]

/**
 * version.CompareKubeAwareVersionStrings: GA before beta before alpha before anything else; within
 * one stability, higher major then higher minor first. Decides a group's preferred version.
 */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v)
    if (!m) return {rank: 3, major: 0, minor: 0, v}
    return {rank: m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2, major: Number(m[1]), minor: Number(m[3] ?? 0), v}
  }
  const x = parse(a)
  const y = parse(b)
  if (x.rank !== y.rank) return x.rank - y.rank
  if (x.rank === 3) return x.v < y.v ? -1 : x.v > y.v ? 1 : 0
  return y.major - x.major || y.minor - x.minor
}

export interface ServedGroup {
  name: string
  /** Preferred first. */
  versions: string[]
}

export class ResourceRegistry {
  readonly all: ServedResource[]

  constructor(extra: readonly ResourceType[] = []) {
    const byKey = new Map<string, ServedResource>()
    for (const t of BUILTIN_KINDS) {
      const categories = ALL_CATEGORY.has(`${t.group}/${t.resource}`) ? ['all'] : undefined
      byKey.set(`${t.group}/${t.version}/${t.resource}`, {singularName: t.kind.toLowerCase(), ...t, ...(categories ? {categories} : {})})
    }
    for (const t of extra) byKey.set(`${t.group}/${t.version}/${t.resource}`, {singularName: t.kind.toLowerCase(), ...t, custom: true})
    this.all = [...byKey.values()]
  }

  find(group: string, version: string, resource: string): ServedResource | undefined {
    return this.all.find((t) => t.group === group && t.version === version && t.resource === resource)
  }

  servesGroupVersion(group: string, version: string): boolean {
    return this.all.some((t) => t.group === group && t.version === version)
  }

  /** The type an object is stored as: same group and kind, its own version when served, else any. */
  forObject(apiVersion: string, kind: string): ServedResource | undefined {
    const {group, version} = splitApiVersion(apiVersion)
    const candidates = this.all.filter((t) => t.group === group && t.kind === kind)
    return candidates.find((t) => t.version === version) ?? candidates[0]
  }

  groups(): ServedGroup[] {
    const versions = new Map<string, Set<string>>()
    for (const t of this.all) {
      if (t.group === '') continue
      if (!versions.has(t.group)) versions.set(t.group, new Set())
      versions.get(t.group)!.add(t.version)
    }
    const rank = (g: string) => {
      const i = GROUP_PRIORITY.indexOf(g)
      return i === -1 ? GROUP_PRIORITY.length : i
    }
    return [...versions.keys()]
      .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => ({name, versions: [...versions.get(name)!].sort(compareKubeVersions)}))
  }

  inGroupVersion(group: string, version: string): ServedResource[] {
    return this.all.filter((t) => t.group === group && t.version === version)
  }
}

export {apiVersionOf}
