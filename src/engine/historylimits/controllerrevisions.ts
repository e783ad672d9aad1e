// DaemonSet and StatefulSet history limits over ControllerRevisions (issue 26 item 3; cleanups.md §4). Upstream:
// pkg/controller/daemon/update.go (stored copy, index id 39107969) cleanupHistory (revisions not matching the current
// template, oldest .revision first, skipping those a pod's controller-revision-hash still names, until len(old) − limit
// are gone; the pods from getNodesToDaemonPods(ctx, ds, true): deleted terminal pods count too), constructHistory's
// current/old split by Match and dedupCurHistories (the highest revision of several current ones stays, `>=`);
// pkg/controller/statefulset/stateful_set_control.go truncateHistory (live = current, update and every pod's revision;
// the non-live rest in SortControllerRevisions order loses its first len − limit). Pure.
import {isDeepStrictEqual} from 'node:util'
import {labelSelectorAsSelector} from '../../apimachinery/labels.js'
import type {LabelSelector} from '../../cluster/kube-types.js'
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'
import {revOf, SortControllerRevisions} from '../history/controller-history.js'
import {revisionNumber, templateOfRevision} from '../history/revision-data.js'
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

/** apps/v1 SetDefaults_DaemonSet / SetDefaults_StatefulSet: revisionHistoryLimit defaults to 10. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10

function limitOf(owner: KubeObject): {limit: number; defaulted: boolean} {
  const l = (owner.spec as {revisionHistoryLimit?: unknown} | undefined)?.revisionHistoryLimit
  return typeof l === 'number' ? {limit: l, defaulted: false} : {limit: DEFAULT_REVISION_HISTORY_LIMIT, defaulted: true}
}

function controllerUid(o: KubeObject): string | undefined {
  return o.metadata?.ownerReferences?.find((r) => r.controller === true)?.uid
}

/**
 * The pods whose hashes cleanupHistory keeps: getNodesToDaemonPods(ctx, ds, true) — the pods ClaimPods leaves with
 * the DaemonSet (controller_ref_manager.go ClaimObject: its own pods that match the selector, orphans that match and
 * are not being deleted while the DaemonSet is not either; its own that no longer match are released), every phase,
 * deleted terminal pods included ("Include deleted terminal pods when maintaining history"). Upstream groups them by
 * node and drops a pod with no node to name (GetTargetNodeName); that drop is not replayed.
 */
export function daemonPodsForHistory(ds: KubeObject, pods: readonly KubeObject[]): KubeObject[] {
  const selector = labelSelectorAsSelector((ds.spec as {selector?: LabelSelector} | undefined)?.selector)
  const uid = ds.metadata?.uid
  const dsDeleting = !!ds.metadata?.deletionTimestamp
  return pods.filter((p) => {
    if (p.metadata?.namespace !== ds.metadata?.namespace) return false
    const owner = controllerUid(p)
    const matches = selector(p.metadata?.labels)
    if (owner) return owner === uid && matches
    return matches && !dsDeleting && !p.metadata?.deletionTimestamp
  })
}

export interface DaemonSetHistorySplit {
  /** The revision constructHistory keeps as current (dedupCurHistories' keeper); undefined: none matches, snapshot makes one. */
  current?: KubeObject
  /** Other revisions matching the template: dedupCurHistories deletes them. */
  duplicates: KubeObject[]
  old: KubeObject[]
  /** How current was found: the stored template equals the DaemonSet's; or, with no template in the data, the highest revision. */
  by: 'template' | 'highestRevision' | 'noneMatches'
}

/**
 * constructHistory's split (update.go): Match compares the revision's Data.Raw with getPatch(ds) byte for byte; here
 * the stored template is compared with the DaemonSet's as JSON values (the bytes depend on the serializer of the
 * cluster's version, which src/engine/daemonset replays for `hash`). Several matches: dedupCurHistories keeps the
 * highest revision (`>=`: the last of equal maxima in list order) and deletes the others. None: snapshot creates the
 * current one and every existing revision is old. Without the DaemonSet's template: the highest revision is taken.
 */
export function splitDaemonSetHistory(ds: KubeObject, owned: readonly KubeObject[]): DaemonSetHistorySplit {
  const template = (ds.spec as {template?: unknown} | undefined)?.template
  if (template === undefined) {
    const all = sorted(owned)
    const current = all.at(-1)
    return {current, duplicates: [], old: all.filter((r) => r !== current), by: 'highestRevision'}
  }
  const matching = owned.filter((cr) => isDeepStrictEqual(templateOfRevision(cr as never), template))
  if (matching.length === 0) return {duplicates: [], old: [...owned], by: 'noneMatches'}
  let keeper = matching[0]
  let top = -1
  for (const c of matching) {
    const r = revisionNumber(c as never)
    if (r >= top) {
      keeper = c
      top = r
    }
  }
  return {
    current: keeper,
    duplicates: matching.filter((c) => c !== keeper),
    old: owned.filter((c) => !matching.includes(c)),
    by: 'template',
  }
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
  const {limit, defaulted} = limitOf(owner)
  const limitText = `revisionHistoryLimit ${limit}${defaulted ? ' (unset in the data: the API default)' : ''}`
  const name = cr.metadata?.name
  const who = `${owner.kind} ${owner.metadata?.namespace}/${owner.metadata?.name}`
  const ds = owner.kind === 'DaemonSet'
  const actorName = ds ? 'daemonset' : 'statefulset'
  const steps: Step[] = []
  let deleted: KubeObject[]
  let current: string | undefined
  let duplicate = false
  let livePods = pods
  if (ds) {
    const split = splitDaemonSetHistory(owner, owned)
    current = split.current?.metadata?.name
    duplicate = split.duplicates.some((r) => r.metadata?.name === name)
    steps.push({
      rule: split.by === 'noneMatches' ? 'snapshot' : 'dedupCurHistories',
      upstream: `${DSU} constructHistory, Match, dedupCurHistories`,
      inputs: {revisions: sorted(owned).map((r) => r.metadata?.name), current: current ?? null},
      result: current ?? 'a new revision',
      why:
        split.by === 'template'
          ? `${current} holds the DaemonSet's template${split.duplicates.length ? `; dedupCurHistories keeps it (highest revision) and deletes ${split.duplicates.map((r) => r.metadata?.name).join(', ')}` : ''}`
          : split.by === 'noneMatches'
            ? "no revision holds the DaemonSet's template: snapshot creates the current one, and every existing revision is old"
            : "the DaemonSet's template is not in the data: the highest .revision is taken as current",
      ...(split.by === 'template'
        ? {
            inferred: {
              evidence: "the stored template equals the DaemonSet's as JSON (Match compares the bytes the cluster's serializer wrote)",
              confidence: 'likely' as const,
            },
          }
        : split.by === 'highestRevision'
          ? {
              inferred: {
                evidence: 'the highest .revision is taken as current (the template comparison needs the DaemonSet read whole)',
                confidence: 'likely' as const,
              },
            }
          : {}),
    })
    const daemonPods = daemonPodsForHistory(owner, pods)
    deleted = [...split.duplicates, ...cleanupHistory(split.old, daemonPods, limit)]
    livePods = daemonPods
    steps.push({
      rule: 'cleanupHistory',
      upstream: `${DSU} cleanupHistory`,
      inputs: {
        revisionHistoryLimit: limit,
        old: sorted(split.old).map((r) => r.metadata?.name),
        liveHashes: [...new Set(daemonPods.map(labelOf).filter(Boolean))],
      },
      result: deleted.some((r) => r.metadata?.name === name) ? 'delete' : 'kept',
      why: `${split.old.length} old revision(s), ${limitText}: oldest .revision first, those no daemon pod's controller-revision-hash names (terminal and deleted pods count) are deleted until ${Math.max(0, split.old.length - limit)} are gone`,
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
      why: `live: the current and update revisions and every pod's revision; the ${owned.length} revision(s) less the live ones are trimmed to ${limitText}, oldest first`,
    })
  }
  const base = (action: Actor['action'], evidence: string[], next: Actor['next'] = []): Actor => ({
    actor: actorName,
    action,
    rule: duplicate ? 'dedupCurHistories' : ds ? 'cleanupHistory' : 'truncateHistory',
    evidence,
    next,
  })
  if (duplicate)
    return {
      actor: base('willDelete', [`it holds the same template as ${current}, a higher revision`], []),
      steps,
      headline: `The ${actorName} controller deletes it on its next sync: a duplicate of the current revision ${current} (dedupCurHistories keeps the highest).`,
    }
  if (deleted.some((r) => r.metadata?.name === name))
    return {
      actor: base(
        'willDelete',
        [limitText, `${owned.length} revisions`],
        [{change: `${who}: spec.revisionHistoryLimit`, why: `raise it above ${limit} to keep this revision`}],
      ),
      steps,
      headline: `The ${actorName} controller deletes it on its next sync: beyond ${who}'s revisionHistoryLimit ${limit}, and no pod runs it.`,
    }
  const livePod = livePods.find((p) => labelOf(p) === (ds ? labelOf(cr) : name))
  const why = name === current ? 'the current revision' : livePod ? `pod ${livePod.metadata?.name} still runs it` : `within ${limitText}`
  return {actor: base('none', [why]), steps, headline: `${who} keeps it: ${why}.`}
}
