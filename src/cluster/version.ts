// Which Kubernetes minor version's rules apply: --k8s-version, else the server's (live /version or the
// snapshot's record), else one inferred from the data. The explanation says which was used and where it came from.
import type {MinorVersion} from '../util/parse.js'
import {parseMinorVersion} from '../util/parse.js'
import type {KubeObject, ServerVersion} from './source.js'

export interface ChosenVersion extends MinorVersion {
  /** flag: --k8s-version; server: the live /version, or the version a snapshot recorded; inferred: read off the data. */
  from: 'flag' | 'server' | 'inferred'
  text: string
  /** For an inferred version: how, e.g. "image of pod kube-system/kube-apiserver-cp-1 (v1.31.4)". */
  how?: string
  /** Inferred from the kubelets: the control plane is at least this version, maybe newer. */
  lowerBound?: boolean
}

export function chooseVersion(override: MinorVersion | undefined, server: ServerVersion | undefined): ChosenVersion | undefined {
  if (override) return {...override, from: 'flag', text: `${override.major}.${override.minor}`}
  if (!server) return undefined
  // Managed clusters report minor as "31+"; gitVersion is the reliable field.
  const parsed = parseMinorVersion(server.gitVersion || `${server.major}.${String(server.minor).replace(/\D+$/, '')}`, 'server version')
  const how = typeof server.inferredFrom === 'string' ? server.inferredFrom : undefined
  return {
    ...parsed,
    from: how ? 'inferred' : 'server',
    text: `${parsed.major}.${parsed.minor}`,
    ...(how ? {how} : {}),
    ...(server.lowerBound === true ? {lowerBound: true} : {}),
  }
}

/**
 * The control-plane releases (of `releases`, "1.X" strings) a kubelet of this minor may run under: the version skew
 * policy (https://kubernetes.io/releases/version-skew-policy/#kubelet, since 1.28) lets a kubelet be up to three
 * minors older than kube-apiserver, and a kubelet before 1.25 up to two; never newer. The one rule every replay uses
 * when the only version in the data is a kubelet's.
 */
export function controlPlaneCandidates(kubeletMinor: number, releases: readonly string[]): string[] {
  const reach = kubeletMinor >= 25 ? 3 : 2
  return releases.filter((v) => {
    const m = Number(v.split('.')[1])
    return m >= kubeletMinor && m <= kubeletMinor + reach
  })
}

/** Releases ("1.X") as runs: "1.20–1.31, 1.34". */
export function releaseRange(versions: readonly string[]): string {
  const minor = (v: string) => Number(v.split('.')[1])
  const sorted = [...versions].sort((a, b) => minor(a) - minor(b))
  const runs: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && minor(sorted[j + 1]) === minor(sorted[j]) + 1) j++
    runs.push(i === j ? sorted[i] : `${sorted[i]}–${sorted[j]}`)
    i = j + 1
  }
  return runs.join(', ')
}

/** Where a chosen version came from, in words, for settings blocks and explanations. */
export function versionSource(v: ChosenVersion | undefined): string {
  if (!v) return 'default (no server version)'
  if (v.from === 'flag') return '--k8s-version'
  if (v.from === 'inferred') return `inferred from the data: ${v.how}`
  return 'the server version'
}

/** A release tag in any registry's or distribution's naming: v1.31.4, v1.33.5-rke2r1-build2025…, v1.33.5+k3s1, v1.30.4-eks-…, v1.30.5-gke.1. */
const RELEASE = /^v?1\.(\d+)\.(\d+)((?:[-+][0-9A-Za-z.+_-]*)?)$/

/** The version a release tag names, as /version would spell it (RKE2's image suffix -rke2rN-buildX is +rke2rN there). */
export function versionOfTag(tag: string): ServerVersion | undefined {
  const m = RELEASE.exec(tag)
  if (!m) return undefined
  const rke2 = /^-(rke2r\d+)(?:-.*)?$/.exec(m[3])
  return {major: '1', minor: m[1], gitVersion: `v1.${m[1]}.${m[2]}${rke2 ? `+${rke2[1]}` : m[3]}`}
}

function tagOf(image: unknown): string | undefined {
  if (typeof image !== 'string') return undefined
  const name = image.split('@')[0]
  const last = name.slice(name.lastIndexOf('/') + 1)
  const colon = last.lastIndexOf(':')
  return colon === -1 ? undefined : last.slice(colon + 1)
}

type Obj = Record<string, unknown>

/** The component a kube-system static pod runs: its label, its container's name, or its image (hyperkube runs any). */
function containerOf(pod: KubeObject, component: string): {image?: unknown} | undefined {
  const containers = (pod.spec as {containers?: unknown} | undefined)?.containers
  if (!Array.isArray(containers)) return undefined
  const labels = (pod.metadata?.labels ?? {}) as Record<string, unknown>
  const byName = (containers as Obj[]).find((c) => c?.name === component)
  if (byName) return byName
  const byImage = (containers as Obj[]).find((c) => typeof c?.image === 'string' && new RegExp(`/${component}(?:-[a-z0-9]+)?:`).test(c.image))
  if (byImage) return byImage
  if (
    labels.component === component ||
    labels['k8s-app'] === component ||
    (typeof pod.metadata?.name === 'string' && pod.metadata.name.startsWith(`${component}-`))
  )
    return (containers as Obj[])[0]
  return undefined
}

/**
 * The control plane's version from the data, gathered as objects arrive (before any slimming): the image of a
 * kube-apiserver static pod (then of a kube-controller-manager one), under any registry and distribution naming;
 * failing that, the newest kubelet's version from the Nodes, as a lower bound — a control plane is never older than
 * its kubelets (version skew policy).
 */
export class VersionClues {
  private readonly images: Record<string, ServerVersion | undefined> = {}
  private newest: {v: ServerVersion; node: string; patch: number} | undefined

  add(o: KubeObject): void {
    if (o.kind === 'Pod' && o.metadata?.namespace === 'kube-system') {
      for (const component of ['kube-apiserver', 'kube-controller-manager']) {
        if (this.images[component]) continue
        const c = containerOf(o, component)
        const tag = tagOf(c?.image)
        const v = tag === undefined ? undefined : versionOfTag(tag)
        if (v) this.images[component] = {...v, inferredFrom: `image of ${component} pod kube-system/${o.metadata?.name} (${String(c?.image)})`}
      }
    } else if (o.kind === 'Node') {
      const kubelet = (o.status as {nodeInfo?: {kubeletVersion?: unknown}} | undefined)?.nodeInfo?.kubeletVersion
      const v = typeof kubelet === 'string' ? versionOfTag(kubelet) : undefined
      if (!v) return
      const patch = Number(/^v1\.\d+\.(\d+)/.exec(v.gitVersion)?.[1] ?? 0)
      const n = this.newest
      if (!n || Number(v.minor) > Number(n.v.minor) || (v.minor === n.v.minor && patch > n.patch)) this.newest = {v, node: o.metadata?.name ?? '', patch}
    }
  }

  result(): ServerVersion | undefined {
    const image = this.images['kube-apiserver'] ?? this.images['kube-controller-manager']
    if (image) return image
    const n = this.newest
    return n
      ? {
          ...n.v,
          lowerBound: true,
          inferredFrom: `at least the newest kubelet's: node ${n.node} runs ${n.v.gitVersion} (a control plane is never older than its kubelets)`,
        }
      : undefined
  }
}

export function inferServerVersion(pods: Iterable<KubeObject>, nodes: Iterable<KubeObject>): ServerVersion | undefined {
  const clues = new VersionClues()
  for (const p of pods) clues.add(p)
  for (const n of nodes) clues.add(n)
  return clues.result()
}
