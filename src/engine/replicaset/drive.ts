// The ReplicaSet controller's reads, and its replays over them: one driver for `kubectl why replicas` and for the
// audit's replicas check (which hands it the audit's gathered lists through src/audit/gathered-source.ts). I/O only
// through the ClusterSource it is given; the decisions stay in the pure files beside it.
//
// How the controller reads, and so how this reads (replica_set.go NewBaseController, syncReplicaSet RS:755):
//  - ReplicaSets and pods from its informers: the watch cache (`view: 'cached'`);
//  - one uncached GET of the ReplicaSet before its first adoption (claimPods' canAdoptFunc, RS:859): `view: 'fresh'`;
//  - for one ReplicaSet, also a metadata-only quorum list of its namespace's pods: where it differs from the cache,
//    the operations the informer has not yet delivered are named with the quorum read as evidence;
//  - its events, the namespace (creates fail while it terminates) and the leader Lease (a new leader forgets every
//    expectation), as evidence for what lives only in its memory.
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {listAll, readProblem} from '../../cluster/read.js'
import type {ClusterSource, KubeObject} from '../../cluster/source.js'
import {type ChosenVersion, versionSource} from '../../cluster/version.js'
import {ReadError, UserError} from '../../errors.js'
import {type Explanation, type Problem, severityRank, type SourceDescription} from '../../explanation.js'
import {type Recheck, claimPods} from './claim.js'
import {replicaSetsOfDeployment} from './deployment.js'
import {explainReplicaSet, ReplicaSetInputError} from './explain.js'
import {getReplicaSetsWithSameController, indexScope} from './family.js'
import {labelSelectorAsSelector, selectorQuery} from '../../apimachinery/labels.js'
import {slimPod} from './slim.js'
import {type CoreEvent, type LabelSelector, type Lease, type Pod, type ReplicaSet, VERDICTS} from './types.js'

export interface DriveOptions {
  /** The Kubernetes minor whose rules apply. */
  minor: number
  /** The source's description for an explanation, with this run's problems (the result is partial with any). */
  describe(problems: readonly Problem[]): SourceDescription
  progress?: (line: string) => void
}

/** What one scope's replay found: every ReplicaSet replayed, and the findings in their one order. */
export interface ReplicasScan {
  replicaSets: number
  pods: number
  evaluated: number
  counts: Record<string, number>
  findings: Explanation[]
  problems: Problem[]
  rechecks: number
  source: SourceDescription
}

/** A finding is a ReplicaSet whose replay is above severity none (not converged, or converged while releasing pods). */
export function isFinding(e: Explanation): boolean {
  return e.severity !== 'none'
}

/** Worst first, then in the order of VERDICTS, then by namespace/name. */
export function sortFindings(findings: Explanation[]): Explanation[] {
  const key = (e: Explanation) => `${e.subject.namespace ?? ''}/${e.subject.name}`
  return findings.sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      VERDICTS.indexOf(a.verdict as never) - VERDICTS.indexOf(b.verdict as never) ||
      (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0),
  )
}

/** Events of ReplicaSets, filtered by the API server where it can (field selectors), else here. */
async function readEvents(source: ClusterSource, namespace: string | undefined, rs: ReplicaSet | undefined): Promise<CoreEvent[]> {
  const fields = [
    'involvedObject.kind=ReplicaSet',
    ...(rs ? [`involvedObject.name=${rs.metadata.name}`, ...(rs.metadata.uid ? [`involvedObject.uid=${rs.metadata.uid}`] : [])] : []),
  ]
  try {
    return await listAll<CoreEvent>(source, {apiVersion: 'v1', kind: 'Event', namespace, fieldSelector: fields.join(',')})
  } catch (err) {
    // A source that cannot filter events by field (a snapshot reader) gets the plain list; access errors are real.
    if (err instanceof ReadError && err.reason !== 'BadResponse') throw err
    if (!(err instanceof UserError) || !/field selector/i.test(err.message)) throw err
    const all = await listAll<CoreEvent>(source, {apiVersion: 'v1', kind: 'Event', namespace})
    return all.filter((e) => e.involvedObject?.kind === 'ReplicaSet' && (!rs || e.involvedObject?.name === rs.metadata.name))
  }
}

const LEADER = {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-system'}
const LEADER_NAME = 'kube-controller-manager'

/** The kube-controller-manager leader Lease; a scan looks in a Lease list first (the audit may hold one), else one GET. */
async function readLease(source: ClusterSource, fromList = false): Promise<Lease | undefined> {
  if (fromList) {
    const listed = await source.list({...LEADER, view: 'cached'}).catch(() => undefined)
    const found = listed?.items.find((l) => l.metadata?.namespace === LEADER.namespace && l.metadata?.name === LEADER_NAME)
    if (found) return found as Lease
  }
  return source.get({...LEADER, name: LEADER_NAME, view: 'cached'}).catch(() => undefined) as Promise<Lease | undefined>
}

/** The uncached GET claimPods makes before its first adoption (replica_set.go claimPods, canAdoptFunc). */
async function readRecheck(source: ClusterSource, rs: ReplicaSet): Promise<Recheck> {
  try {
    const fresh = await source.get({apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: rs.metadata.namespace, name: rs.metadata.name, view: 'fresh'})
    return fresh ? {read: 'found', replicaSet: fresh as ReplicaSet} : {read: 'notFound'}
  } catch (err) {
    return {read: 'failed', reason: readProblem('', err).reason}
  }
}

function adoptionAttempted(rs: ReplicaSet, pods: readonly Pod[]): boolean {
  try {
    return claimPods(rs, labelSelectorAsSelector(rs.spec?.selector), pods).adoptionAttempted
  } catch {
    return false // An invalid selector: the replay refuses the ReplicaSet.
  }
}

/** What a replay of one ReplicaSet is handed besides the ReplicaSet. */
interface Handed {
  pods: Pod[]
  freshPods?: Pod[]
  family: ReplicaSet[]
  events?: CoreEvent[]
  lease?: Lease
  namespaceTerminating?: boolean
}

async function replay(
  source: ClusterSource,
  rs: ReplicaSet,
  h: Handed,
  problems: readonly Problem[],
  options: DriveOptions,
  onRecheck?: () => void,
): Promise<Explanation> {
  let recheck: Recheck | undefined
  if (adoptionAttempted(rs, h.pods)) {
    onRecheck?.()
    recheck = await readRecheck(source, rs)
  }
  return explainReplicaSet({
    replicaSet: rs,
    pods: h.pods,
    freshPods: h.freshPods,
    replicaSets: h.family,
    events: h.events,
    recheck,
    namespaceTerminating: h.namespaceTerminating,
    leaderLease: h.lease,
    now: source.now().getTime(),
    settings: {minor: options.minor},
    source: options.describe(problems),
  })
}

function terminatingOf(ns: KubeObject | undefined): boolean | undefined {
  if (!ns) return undefined
  return Boolean(ns.metadata?.deletionTimestamp) || (ns.status as {phase?: string} | undefined)?.phase === 'Terminating'
}

async function namespaceTerminating(source: ClusterSource, namespace: string, problems: Problem[]): Promise<boolean | undefined> {
  try {
    return terminatingOf(await source.get({apiVersion: 'v1', kind: 'Namespace', name: namespace, view: 'cached'}))
  } catch (err) {
    if (!(err instanceof ReadError && err.reason === 'Forbidden')) problems.push(readProblem(`get namespace ${namespace}`, err))
    return undefined
  }
}

/** Whether the quorum read shows pods the watch cache does not (or not yet) show the same way. */
function differs(cached: readonly Pod[], fresh: readonly Pod[]): boolean {
  if (cached.length !== fresh.length) return true
  const byKey = new Map(cached.map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, p]))
  return fresh.some((f) => {
    const c = byKey.get(`${f.metadata.namespace}/${f.metadata.name}`)
    return (
      !c ||
      c.metadata.uid !== f.metadata.uid ||
      Boolean(c.metadata.deletionTimestamp) !== Boolean(f.metadata.deletionTimestamp) ||
      JSON.stringify(c.metadata.ownerReferences ?? []) !== JSON.stringify(f.metadata.ownerReferences ?? [])
    )
  })
}

/**
 * The reads for some ReplicaSets of one namespace (one, or a Deployment's): full pods from the watch cache only where
 * the family's selectors can match, and the namespace's pods as quorum metadata, which finds the pods a ReplicaSet
 * would release (their labels left every selector) and the cache's lag.
 */
async function readFamily(
  source: ClusterSource,
  namespace: string,
  family: ReplicaSet[],
  all: ReplicaSet[],
  only?: ReplicaSet,
): Promise<{replays: (rs: ReplicaSet) => Promise<Handed>; problems: Problem[]}> {
  const problems: Problem[] = []
  const events = readEvents(source, namespace, only).catch((err) => {
    problems.push(readProblem(`list ReplicaSet events in ${namespace}`, err))
    return undefined
  })
  const lease = readLease(source)
  const labelSelector = selectorQuery(commonSelector(family.map((r) => r.spec?.selector)))
  const [pods, fresh] = await Promise.all([
    listAll<Pod>(source, {apiVersion: 'v1', kind: 'Pod', namespace, view: 'cached', labelSelector}, slimPod),
    listAll<Pod>(source, {apiVersion: 'v1', kind: 'Pod', namespace, view: 'fresh', metadataOnly: true}).catch((err) => {
      problems.push(readProblem(`list pods in ${namespace} (quorum read, metadata only: cache lag, pods to release)`, err))
      return undefined
    }),
  ])
  const familyUids = new Set(family.map((r) => r.metadata.uid))
  const controllerUid = (p: Pod) => getControllerOf(p)?.uid ?? ''
  const listed = new Set(pods.map((p) => p.metadata.name))
  // Owned pods whose labels left the selector: ClaimPods releases them. Read each as the informer sees it.
  for (const p of fresh ?? []) {
    if (listed.has(p.metadata.name) || !familyUids.has(controllerUid(p))) continue
    const full = await source
      .get({apiVersion: 'v1', kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name, view: 'cached'})
      .catch(() => undefined)
    if (full) pods.push(slimPod(full))
  }
  const cachedIndex = indexScope(all, pods)
  const freshIndex = fresh ? indexScope(all, fresh) : undefined
  const terminating = namespaceTerminating(source, namespace, problems)
  // One ReplicaSet's events were read for it alone (by name and uid where the server filters them; by name where it
  // cannot, so that events of an earlier incarnation are counted as such); a Deployment's, per ReplicaSet uid.
  const evs = await events
  const evIndex = evs && !only ? indexScope(all, [], evs) : undefined
  return {
    problems,
    replays: async (rs) => {
      const handed = cachedIndex.podsFor(rs)
      const freshFor = freshIndex?.podsFor(rs)
      return {
        pods: handed,
        freshPods: freshFor && differs(handed, freshFor) ? freshFor : undefined,
        family: cachedIndex.familyOf(rs),
        events: only ? evs : evIndex?.eventsFor(rs),
        lease: await lease,
        namespaceTerminating: await terminating,
      }
    },
  }
}

function listReplicaSets(source: ClusterSource, namespace: string | undefined): Promise<ReplicaSet[]> {
  return listAll<ReplicaSet>(source, {apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace, view: 'cached'})
}

/** `kubectl why replicas replicaset/NAME`: the ReplicaSet as the controller's informer sees it, replayed. */
export async function driveReplicaSet(source: ClusterSource, namespace: string, name: string, options: DriveOptions): Promise<Explanation> {
  const rs = (await source.get({apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace, name, view: 'cached'})) as ReplicaSet | undefined
  if (!rs) {
    throw new UserError(
      `replicasets.apps "${name}" not found in namespace ${namespace}`,
      `list them with \`kubectl get rs -n ${namespace}\`; a deleted one leaves events: \`kubectl get events -n ${namespace} --field-selector involvedObject.name=${name}\``,
    )
  }
  const all = await listReplicaSets(source, namespace)
  const read = await readFamily(source, namespace, getReplicaSetsWithSameController(rs, all), all, rs)
  return replay(source, rs, await read.replays(rs), read.problems, options)
}

/** `kubectl why replicas deployment/NAME`: each of the Deployment's ReplicaSets, the new one first. */
export async function driveDeployment(source: ClusterSource, namespace: string, name: string, options: DriveOptions): Promise<Explanation[]> {
  const deployment = await source.get({apiVersion: 'apps/v1', kind: 'Deployment', namespace, name, view: 'cached'})
  if (!deployment)
    throw new UserError(`deployments.apps "${name}" not found in namespace ${namespace}`, `list them with \`kubectl get deploy -n ${namespace}\``)
  const all = await listReplicaSets(source, namespace)
  const {ordered} = replicaSetsOfDeployment(deployment, all)
  if (ordered.length === 0) {
    throw new UserError(
      `deployment ${namespace}/${name} controls no ReplicaSet`,
      `the Deployment controller creates one at its next sync; \`kubectl why hash deployment/${name}\` predicts its name`,
    )
  }
  const read = await readFamily(source, namespace, ordered, all)
  const out: Explanation[] = []
  for (const rs of ordered) out.push(await replay(source, rs, await read.replays(rs), read.problems, options))
  return out
}

/**
 * Every ReplicaSet of a namespace (undefined: the cluster), replayed over one read of each kind from the informers'
 * view. A ReplicaSet the replay refuses (an invalid selector, a count that is not one) is a problem, not a crash.
 * ReplicaSets or pods that cannot be listed fail the whole scan (nothing can be replayed without them).
 */
export async function driveScope(source: ClusterSource, namespace: string | undefined, options: DriveOptions): Promise<ReplicasScan> {
  const problems: Problem[] = []
  const where = namespace === undefined ? 'in all namespaces' : `in ${namespace}`
  options.progress?.('replicas: reading ReplicaSets, pods and events')
  const events = readEvents(source, namespace, undefined).catch((err) => {
    problems.push(readProblem(`list ReplicaSet events ${where}`, err))
    return undefined
  })
  // Whether a namespace is terminating: from one metadata list, else (a user who may not list namespaces) a GET each.
  const namespaces = listAll(source, {apiVersion: 'v1', kind: 'Namespace', metadataOnly: true}).catch((err) => {
    if (namespace === undefined) problems.push(readProblem('list namespaces (metadata only: whether one is terminating)', err))
    return undefined
  })
  const gotNamespace = new Map<string, Promise<boolean | undefined>>()
  const terminatingByGet = (ns: string) => {
    if (!gotNamespace.has(ns)) gotNamespace.set(ns, namespaceTerminating(source, ns, problems))
    return gotNamespace.get(ns)!
  }
  const lease = readLease(source, true)
  const [replicaSets, pods] = await Promise.all([
    listReplicaSets(source, namespace),
    listAll<Pod>(source, {apiVersion: 'v1', kind: 'Pod', namespace, view: 'cached'}, slimPod),
  ])
  const index = indexScope(replicaSets, pods, await events)
  const terminating = new Map<string, boolean | undefined>()
  const nsList = await namespaces
  for (const n of nsList ?? []) terminating.set(n.metadata?.name ?? '', terminatingOf(n))
  const counts: Record<string, number> = {}
  // Only the findings are kept: every ReplicaSet's replay held to the end (a converged one's steps too) was the audit's
  // largest heap at 20,000 ReplicaSets and more (issue 29).
  const kept: Explanation[] = []
  let evaluated = 0
  let rechecks = 0
  for (const rs of replicaSets) {
    let e: Explanation
    try {
      e = await replay(
        source,
        rs,
        {
          pods: index.podsFor(rs),
          family: index.familyOf(rs),
          events: index.eventsFor(rs),
          lease: await lease,
          namespaceTerminating: nsList ? terminating.get(rs.metadata.namespace ?? '') : await terminatingByGet(rs.metadata.namespace ?? ''),
        },
        problems,
        options,
        () => rechecks++,
      )
    } catch (err) {
      if (!(err instanceof ReplicaSetInputError)) throw err
      problems.push({what: `ReplicaSet ${rs.metadata?.namespace ?? ''}/${rs.metadata?.name ?? ''}`, reason: `not replayed: ${err.message}`})
      continue
    }
    counts[e.verdict] = (counts[e.verdict] ?? 0) + 1
    evaluated++
    if (isFinding(e)) kept.push(e)
    if (evaluated % 500 === 0) options.progress?.(`replicas: replayed ${evaluated}/${replicaSets.length} ReplicaSets`)
  }
  // One description for the whole scan: the problems met on the way make every explanation partial.
  const source_ = options.describe(problems)
  const findings = sortFindings(kept)
  for (const f of findings) f.source = source_
  return {
    replicaSets: replicaSets.length,
    pods: pods.length,
    evaluated,
    counts: Object.fromEntries(VERDICTS.filter((v) => counts[v]).map((v) => [v, counts[v]])),
    findings,
    problems,
    rechecks,
    source: source_,
  }
}

/** The requirements every selector of `list` shares (equal matchLabels entries, identical expressions). */
function commonSelector(list: readonly (LabelSelector | null | undefined)[]): LabelSelector {
  if (list.length === 0 || list.some((s) => !s)) return {}
  const [first, ...rest] = list as LabelSelector[]
  const matchLabels: Record<string, string> = {}
  for (const [k, v] of Object.entries(first.matchLabels ?? {})) if (rest.every((s) => s.matchLabels?.[k] === v)) matchLabels[k] = v
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  const matchExpressions = (first.matchExpressions ?? []).filter((e) => rest.every((s) => (s.matchExpressions ?? []).some((x) => same(x, e))))
  return {matchLabels, matchExpressions}
}

/** The Kubernetes minor whose rules apply when the version is unknown. */
export const DEFAULT_MINOR = 31

/** Settings and version of a replicas replay, shown in every explanation's source. */
export function describeReplicas(base: SourceDescription, version: ChosenVersion | undefined, problems: readonly Problem[]): SourceDescription {
  const minor = version?.minor ?? DEFAULT_MINOR
  return {
    ...base,
    k8sVersion: `1.${minor}`,
    settings: {...base.settings, k8sVersion: {value: `1.${minor}`, from: versionSource(version)}},
    partial: [...(base.partial ?? []), ...problems],
  }
}

/**
 * `kubectl why replicas --all`: driveScope over the source itself — its lists read page by page (pods slimmed as
 * each page arrives, events filtered by the server to ReplicaSets), a 410 mid-list read again from the start once.
 */
export async function replicasScan(
  source: ClusterSource,
  namespace: string | undefined,
  version: ChosenVersion | undefined,
  progress?: (line: string) => void,
): Promise<ReplicasScan> {
  const base = {...source.describe(), ...(version ? {k8sVersion: version.text} : {})}
  return driveScope(source, namespace, {minor: version?.minor ?? DEFAULT_MINOR, describe: (p) => describeReplicas(base, version, p), progress})
}
