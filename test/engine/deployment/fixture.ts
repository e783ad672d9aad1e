// Reads a workload fixture (the snapshot format, in YAML) into a replay input the way the command does: the
// workload by kind and name, every object of its namespace, and the hash settings of the recorded server version.
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import type {KubeObject} from '../../../src/cluster/source.js'
import type {DaemonSetHashInput} from '../../../src/engine/daemonset/explain.js'
import type {DeploymentHashInput} from '../../../src/engine/deployment/explain.js'
import type {PodMeta, ReplicaSet, Workload} from '../../../src/engine/deployment/types.js'
import type {ControllerRevision, HashSettings} from '../../../src/engine/history/types.js'
import type {StatefulSetHashInput} from '../../../src/engine/statefulset/explain.js'

export interface Loaded {
  workload: Workload
  items: KubeObject[]
  settings: HashSettings
  now: number
}

export function load(
  engine: 'deployment' | 'daemonset' | 'statefulset',
  file: string,
  kind: string,
  name?: string,
  version?: {minor: number; patch?: number},
): Loaded {
  const doc = parse(readFileSync(fileURLToPath(new URL(`../../fixtures/${engine}/${file}`, import.meta.url)), 'utf8')) as {
    kubectlWhy?: {capturedAt?: string; serverVersion?: {minor: string; gitVersion?: string}}
    items: KubeObject[]
  }
  const workload = doc.items.find((o) => o.kind === kind && (name === undefined || o.metadata?.name === name)) as Workload | undefined
  if (!workload) throw new Error(`no ${kind} ${name ?? ''} in ${file}`)
  const items = doc.items.filter((o) => o.metadata?.namespace === workload.metadata.namespace)
  const minor = version?.minor ?? Number(doc.kubectlWhy?.serverVersion?.minor ?? 31)
  const patch = version ? version.patch : Number(/v1\.\d+\.(\d+)/.exec(doc.kubectlWhy?.serverVersion?.gitVersion ?? '')?.[1] ?? Number.NaN)
  // A cluster older than every layout (1.20) has none to compute with, as the command's settings say.
  const layout = minor < 20 ? {versionNote: `the cluster runs 1.${minor}, older than every known layout`} : {version: `1.${minor}`}
  return {
    workload,
    items,
    settings: {...layout, minor, ...(patch !== undefined && !Number.isNaN(patch) ? {patch} : {}), maxInferredCollisionCount: 10},
    now: Date.parse(doc.kubectlWhy?.capturedAt ?? '2026-11-29T10:00:00Z'),
  }
}

export const SOURCE = {mode: 'snapshot' as const}

export function ofKind<T>(items: KubeObject[], kind: string): T[] {
  return items.filter((o) => o.kind === kind) as T[]
}

// Each engine's replay input from a loaded fixture, as the command builds it from the workload's namespace.
const common = (l: Loaded) => ({workload: l.workload, pods: ofKind<PodMeta>(l.items, 'Pod'), settings: l.settings, now: l.now, source: SOURCE})

export function deploymentInput(l: Loaded): DeploymentHashInput {
  return {...common(l), replicaSets: ofKind<ReplicaSet>(l.items, 'ReplicaSet')}
}

export function daemonSetInput(l: Loaded): DaemonSetHashInput {
  return {...common(l), controllerRevisions: ofKind<ControllerRevision>(l.items, 'ControllerRevision')}
}

export function statefulSetInput(l: Loaded): StatefulSetHashInput {
  return {...common(l), controllerRevisions: ofKind<ControllerRevision>(l.items, 'ControllerRevision')}
}
