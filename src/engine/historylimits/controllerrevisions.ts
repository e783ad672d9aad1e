// DaemonSet and StatefulSet history limits over ControllerRevisions (issue 26 item 3; cleanups.md §4). Upstream:
// pkg/controller/daemon/update.go cleanupHistory (revisions not matching the current template, oldest .revision
// first, skipping those a pod's controller-revision-hash still names, until len(old) − limit are gone);
// pkg/controller/statefulset/stateful_set_control.go truncateHistory (live = current, update and every pod's revision;
// the non-live rest in SortControllerRevisions order loses its first len − limit). Pure.
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'
import {revOf, SortControllerRevisions} from '../history/controller-history.js'
import type {ControllerRevision} from '../history/types.js'

export const DSU = 'pkg/controller/daemon/update.go'
export const SSC = 'pkg/controller/statefulset/stateful_set_control.go'
/** apps.DefaultDaemonSetUniqueLabelKey / ControllerRevisionHashLabelKey. */
const HASH_LABEL = 'controller-revision-hash'

function labelOf(o: KubeObject): string | undefined {
  return o.metadata?.labels?.[HASH_LABEL]
}

function sorted(crs: readonly KubeObject[]): KubeObject[] {
  return SortControllerRevisions(crs.map((c) => revOf(c as unknown as ControllerRevision))).map((r) => r.object as unknown as KubeObject)
}

function limitOf(owner: KubeObject): number | undefined {
  const l = (owner.spec as {revisionHistoryLimit?: unknown} | undefined)?.revisionHistoryLimit
  return typeof l === 'number' ? l : undefined
}

/** DaemonSet cleanupHistory: the old revisions it deletes, given every daemon pod's hash label. */
export function cleanupHistory(old: readonly KubeObject[], pods: readonly KubeObject[], limit: number): KubeObject[] {
  let toKill = old.length - limit
  if (toKill <= 0) return []
  const live = new Set(pods.map(labelOf).filter((h): h is string => !!h))
  const out: KubeObject[] = []
  for (const cr of sorted(old)) {
    if (toKill <= 0) break
    if (live.has(labelOf(cr) ?? '')) continue
    out.push(cr)
    toKill--
  }
  return out
}

/** StatefulSet truncateHistory: the revisions it deletes (StatefulSet pods' hash label is the full revision name). */
export function truncateHistory(
  revisions: readonly KubeObject[],
  pods: readonly KubeObject[],
  current: string | undefined,
  update: string | undefined,
  limit: number,
): KubeObject[] {
  const live = new Set<string>([...(current ? [current] : []), ...(update ? [update] : []), ...pods.map((p) => labelOf(p) ?? '')])
  const history = sorted(revisions).filter((r) => !live.has(r.metadata?.name ?? ''))
  if (limit < 0 || history.length <= limit) return []
  return history.slice(0, history.length - limit)
}

export interface RevisionHistoryReplay {
  actor: Actor
  steps: Step[]
  headline: string
}

/** For one ControllerRevision owned by a DaemonSet or a StatefulSet: will the owner's history limit delete it? */
export function replayRevisionHistory(
  cr: KubeObject,
  owner: KubeObject,
  owned: readonly KubeObject[],
  pods: readonly KubeObject[],
): RevisionHistoryReplay | undefined {
  const limit = limitOf(owner)
  if (limit === undefined) return undefined
  const name = cr.metadata?.name
  const who = `${owner.kind} ${owner.metadata?.namespace}/${owner.metadata?.name}`
  const ds = owner.kind === 'DaemonSet'
  const actorName = ds ? 'daemonset' : 'statefulset'
  const steps: Step[] = []
  let deleted: KubeObject[]
  let current: string | undefined
  if (ds) {
    // The current revision matches the DaemonSet's template; from the data, the one with the highest .revision.
    const all = sorted(owned)
    current = all.at(-1)?.metadata?.name
    deleted = cleanupHistory(
      all.filter((r) => r.metadata?.name !== current),
      pods,
      limit,
    )
    steps.push({
      rule: 'cleanupHistory',
      upstream: `${DSU} cleanupHistory`,
      inputs: {revisionHistoryLimit: limit, revisions: all.map((r) => r.metadata?.name), current},
      result: deleted.some((r) => r.metadata?.name === name) ? 'delete' : 'kept',
      why: `${all.length - 1} old revision(s), limit ${limit}: oldest first, those no daemon pod's controller-revision-hash names are deleted until ${Math.max(0, all.length - 1 - limit)} are gone`,
      inferred: {evidence: 'the current revision is taken as the highest .revision (the template comparison is not replayed here)', confidence: 'likely'},
    })
  } else {
    const st = (owner.status ?? {}) as {currentRevision?: string; updateRevision?: string}
    current = st.currentRevision
    deleted = truncateHistory(owned, pods, st.currentRevision, st.updateRevision, limit)
    steps.push({
      rule: 'truncateHistory',
      upstream: `${SSC} truncateHistory`,
      inputs: {revisionHistoryLimit: limit, currentRevision: st.currentRevision ?? null, updateRevision: st.updateRevision ?? null},
      result: deleted.some((r) => r.metadata?.name === name) ? 'delete' : 'kept',
      why: `live: the current and update revisions and every pod's revision; the ${owned.length} revision(s) less the live ones are trimmed to ${limit}, oldest first`,
    })
  }
  const base = (action: Actor['action'], evidence: string[], next: Actor['next'] = []): Actor => ({
    actor: actorName,
    action,
    rule: ds ? 'cleanupHistory' : 'truncateHistory',
    evidence,
    next,
  })
  if (deleted.some((r) => r.metadata?.name === name))
    return {
      actor: base(
        'willDelete',
        [`revisionHistoryLimit ${limit}`, `${owned.length} revisions`],
        [{change: `${who}: spec.revisionHistoryLimit`, why: `raise it above ${limit} to keep this revision`}],
      ),
      steps,
      headline: `The ${actorName} controller deletes it on its next sync: beyond ${who}'s revisionHistoryLimit ${limit}, and no pod runs it.`,
    }
  const livePod = pods.find((p) => labelOf(p) === (ds ? labelOf(cr) : name))
  const why = name === current ? 'the current revision' : livePod ? `pod ${livePod.metadata?.name} still runs it` : `within revisionHistoryLimit ${limit}`
  return {actor: base('none', [why]), steps, headline: `${who} keeps it: ${why}.`}
}
