// Reads a test fixture (the snapshot format, in YAML) into the replay's input the way the command would:
// items are the quorum view, kubectlWhy.cached (when it holds pods) the informer's view.
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import {explainReplicaSet, type ReplicaSetReplayInput} from '../../../src/engine/replicaset/explain.js'
import type {CoreEvent, Pod, ReplicaSet} from '../../../src/engine/replicaset/types.js'
import type {Explanation} from '../../../src/explanation.js'

export const FIXTURES = fileURLToPath(new URL('../../fixtures/replicaset/', import.meta.url))

interface Snapshot {
  kubectlWhy?: {capturedAt?: string; serverVersion?: {minor: string}; cached?: Record<string, unknown>[]}
  items: Record<string, unknown>[]
}

export function loadFixture(file: string): Snapshot {
  return parse(readFileSync(FIXTURES + file, 'utf8')) as Snapshot
}

export function replayInput(file: string, rsName: string, overrides: Partial<ReplicaSetReplayInput> = {}): ReplicaSetReplayInput {
  const s = loadFixture(file)
  const of = <T>(list: Record<string, unknown>[] | undefined, kind: string) => (list ?? []).filter((o) => o.kind === kind) as T[]
  const rs = of<ReplicaSet>(s.items, 'ReplicaSet').find((r) => r.metadata.name === rsName)
  if (!rs) throw new Error(`no ReplicaSet ${rsName} in ${file}`)
  const ns = rs.metadata.namespace
  const inNs = <T extends {metadata?: {namespace?: string}}>(l: T[]) => l.filter((o) => o.metadata?.namespace === ns)
  const freshPods = inNs(of<Pod>(s.items, 'Pod'))
  const cachedPods = inNs(of<Pod>(s.kubectlWhy?.cached, 'Pod'))
  const hasCache = of<Pod>(s.kubectlWhy?.cached, 'Pod').length > 0
  const now = Date.parse(s.kubectlWhy?.capturedAt ?? '2026-11-29T10:00:00Z')
  return {
    replicaSet: rs,
    pods: hasCache ? cachedPods : freshPods,
    freshPods: hasCache ? freshPods : undefined,
    replicaSets: inNs(of<ReplicaSet>(s.items, 'ReplicaSet')),
    events: inNs(of<CoreEvent>(s.items, 'Event')),
    recheck: {read: 'found', replicaSet: rs},
    now,
    settings: {minor: Number(s.kubectlWhy?.serverVersion?.minor ?? 31)},
    source: {mode: 'snapshot', file},
    ...overrides,
  }
}

export function replay(
  file: string,
  rsName: string,
  overrides: Partial<ReplicaSetReplayInput> = {},
): Explanation & {replicaSet: import('../../../src/engine/replicaset/explain.js').ReplicaSetReplay} {
  return explainReplicaSet(replayInput(file, rsName, overrides)) as never
}
