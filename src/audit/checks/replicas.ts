// The replicas check: every ReplicaSet in scope replayed as `kubectl why replicas --all` does (src/commands/replicas.ts),
// from the audit's one read of each kind. Each ReplicaSet gets the pods FilterPodsByOwner would give it (its own and
// its namespace's orphans) plus those of its siblings (the co-location rank), its own events, the uncached recheck
// GET only when an adoption would be attempted (claimPods), and whether its namespace is terminating.
// The audit reads pods once, by quorum: the informer is taken to have caught up. The watch-cache lag that
// `kubectl why replicas` finds with a second read of every pod (unobserved creations and deletions) is not looked for.
import type {KubeObject, ResourceType} from '../../cluster/source.js'
import {
  claimPods, type CoreEvent, explainReplicaSet, labelSelectorAsSelector, type Lease, type Pod, type Recheck, type ReplicaSet,
  ReplicaSetInputError, VERDICTS,
} from '../../engine/replicaset/index.js'
import type {Explanation, Problem} from '../../explanation.js'
import {type Check, type CheckContext, type CheckResult, count, describeWith, failureText, notRun, readNeed} from '../context.js'
import type {CheckNeeds} from '../needs.js'
import {typeKey} from '../plan.js'

/** The Kubernetes minor whose rules apply when the version is unknown (as `kubectl why replicas`). */
const DEFAULT_MINOR = 31

const controllerRef = (o: {metadata?: {ownerReferences?: {controller?: boolean; uid: string}[]}}) => (o.metadata?.ownerReferences ?? []).find((r) => r?.controller === true)

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const l = m.get(k)
  if (l) l.push(v)
  else m.set(k, [v])
}

/** indexScope of src/commands/replicas.ts: each ReplicaSet's pods (its own, its siblings', its namespace's orphans) and events. */
function indexScope(replicaSets: readonly ReplicaSet[], pods: readonly Pod[], events: readonly CoreEvent[] | undefined) {
  const byOwner = new Map<string, Pod[]>()
  const orphans = new Map<string, Pod[]>()
  for (const p of pods) {
    const ref = controllerRef(p)
    if (ref) push(byOwner, ref.uid, p)
    else push(orphans, p.metadata.namespace ?? '', p)
  }
  const siblings = new Map<string, ReplicaSet[]>()
  for (const rs of replicaSets) {
    const ref = controllerRef(rs)
    if (ref) push(siblings, ref.uid, rs)
  }
  const eventsByUid = new Map<string, CoreEvent[]>()
  for (const e of events ?? []) if (e.involvedObject?.kind === 'ReplicaSet') push(eventsByUid, e.involvedObject.uid ?? '', e)
  const familyOf = (rs: ReplicaSet): ReplicaSet[] => {
    const ref = controllerRef(rs)
    return ref ? siblings.get(ref.uid) ?? [rs] : [rs]
  }
  return {
    podsFor(rs: ReplicaSet): Pod[] {
      const out = [...(orphans.get(rs.metadata.namespace ?? '') ?? [])]
      for (const r of familyOf(rs)) out.push(...(byOwner.get(r.metadata.uid ?? '') ?? []))
      return out
    },
    /** getIndirectlyRelatedPods reads only the ReplicaSets under the same controller: those, not the whole scope. */
    familyOf,
    eventsFor(rs: ReplicaSet): CoreEvent[] | undefined {
      return events ? eventsByUid.get(rs.metadata.uid ?? '') ?? [] : undefined
    },
  }
}

export const replicasCheck: Check = {
  name: 'replicas',
  needs(_types: readonly ResourceType[]): CheckNeeds {
    return {
      lists: [
        {check: 'replicas', key: 'replicasets', ref: {apiVersion: 'apps/v1', kind: 'ReplicaSet'}, scope: 'audit', detail: 'full', view: 'fresh', required: true, why: 'every ReplicaSet to replay'},
        {check: 'replicas', key: 'pods', ref: {apiVersion: 'v1', kind: 'Pod'}, scope: 'audit', detail: 'full', view: 'fresh', required: true, why: 'claims, active pods and the deletion ranking'},
        {check: 'replicas', key: 'events', ref: {apiVersion: 'v1', kind: 'Event'}, scope: 'audit', detail: 'full', view: 'fresh', required: false, why: 'the controller\'s create/delete events (expectations, failures)'},
        {check: 'replicas', key: 'namespaces', ref: {apiVersion: 'v1', kind: 'Namespace'}, scope: 'cluster', detail: 'metadata', view: 'fresh', required: false, why: 'whether the namespace is terminating (creates are refused)'},
      ],
      gets: [
        {check: 'replicas', ref: {apiVersion: 'apps/v1', kind: 'ReplicaSet'}, why: 'the uncached recheck claimPods makes before its first adoption'},
        {check: 'replicas', ref: {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'}, why: 'the kube-controller-manager leader lease (controller restarts reset expectations)'},
      ],
    }
  },

  async run(ctx: CheckContext): Promise<CheckResult> {
    const problems: Problem[] = []
    const rsRead = readNeed(ctx, 'replicas', 'replicasets', problems, 'no ReplicaSet can be replayed')
    const podsRead = readNeed(ctx, 'replicas', 'pods', problems, 'no ReplicaSet can be replayed')
    if (!rsRead.ok || !podsRead.ok) return notRun('replicas', problems, 'ReplicaSets and pods are both needed')
    const eventsRead = readNeed(ctx, 'replicas', 'events', problems, 'expectations and create failures are inferred without the controller\'s events')
    const nsRead = readNeed(ctx, 'replicas', 'namespaces', problems, 'whether a namespace is terminating is unknown')
    const terminating = new Map<string, boolean>()
    if (nsRead.ok) for (const n of nsRead.items) terminating.set(n.metadata?.name ?? '', Boolean(n.metadata?.deletionTimestamp))

    const replicaSets = rsRead.items as ReplicaSet[]
    const index = indexScope(replicaSets, podsRead.items as Pod[], eventsRead.ok ? eventsRead.items as CoreEvent[] : undefined)
    const lease = await leaderLease(ctx)
    const minor = ctx.version?.minor ?? DEFAULT_MINOR
    const source = describeWith(ctx.base, problems, {
      k8sVersion: `1.${minor}`,
      settings: {...ctx.base.settings, k8sVersion: {value: `1.${minor}`, from: ctx.version ? (ctx.version.from === 'flag' ? '--k8s-version' : 'server') : 'default (no server version)'}},
    })

    const verdicts: Record<string, number> = {}
    const findings: Explanation[] = []
    let rechecks = 0
    let done = 0
    for (const rs of replicaSets) {
      const pods = index.podsFor(rs)
      let recheck: Recheck | undefined
      let selectorOk = true
      try {
        labelSelectorAsSelector(rs.spec?.selector)
      } catch {
        selectorOk = false
      }
      if (selectorOk && claimPods(rs, labelSelectorAsSelector(rs.spec?.selector), pods).adoptionAttempted) {
        rechecks++
        recheck = await readRecheck(ctx, rs)
      }
      const namespace = rs.metadata.namespace ?? ''
      let e: Explanation
      try {
        e = explainReplicaSet({
          replicaSet: rs, pods, replicaSets: index.familyOf(rs), events: index.eventsFor(rs), recheck,
          namespaceTerminating: nsRead.ok ? terminating.get(namespace) : undefined, leaderLease: lease,
          now: ctx.now.getTime(), settings: {minor}, source,
        })
      } catch (err) {
        if (!(err instanceof ReplicaSetInputError)) throw err
        problems.push({what: `ReplicaSet ${namespace}/${rs.metadata.name}`, reason: `not replayed: ${err.message}`})
        continue
      }
      count(verdicts, e.verdict)
      if (e.verdict !== 'converged' || e.severity !== 'none') findings.push(e)
      if (++done % 500 === 0) ctx.progress?.(`audit: replicas: replayed ${done}/${replicaSets.length} ReplicaSets`)
    }
    findings.sort((a, b) => VERDICTS.indexOf(a.verdict as never) - VERDICTS.indexOf(b.verdict as never)
      || `${a.subject.namespace}/${a.subject.name}`.localeCompare(`${b.subject.namespace}/${b.subject.name}`))
    const notes = ['pods are read once, by quorum: the informer is taken to have caught up (`kubectl why replicas` also reads the watch cache to find unobserved creations and deletions)']
    if (rechecks > 0) notes.push(`${rechecks} uncached recheck GET(s) before adoption`)
    return {check: 'replicas', status: problems.length > 0 ? 'partial' : 'complete', evaluated: done, verdicts, findings, problems, notes}
  },
}

/**
 * The kube-controller-manager leader lease, from a gathered Lease list that covers kube-system, else one GET (also when
 * the list lacks it: a snapshot's recorded watch-cache view holds the node Leases only).
 */
async function leaderLease(ctx: CheckContext): Promise<Lease | undefined> {
  for (const o of ctx.gathered.outcomes.values()) {
    if (typeKey(o.list.type) !== 'coordination.k8s.io/leases' || o.error) continue
    if (o.list.namespace !== undefined && o.list.namespace !== 'kube-system') continue
    const found = o.items.find((l) => l.metadata?.namespace === 'kube-system' && l.metadata?.name === 'kube-controller-manager') as Lease | undefined
    if (found) return found
  }
  return (await ctx.get({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-system', name: 'kube-controller-manager', view: 'cached'}).catch(() => undefined)) as Lease | undefined
}

/** The uncached GET claimPods makes before its first adoption (replica_set.go claimPods, canAdoptFunc). */
async function readRecheck(ctx: CheckContext, rs: ReplicaSet): Promise<Recheck> {
  try {
    const fresh = await ctx.get({apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: rs.metadata.namespace, name: rs.metadata.name, view: 'fresh'})
    return fresh ? {read: 'found', replicaSet: fresh as ReplicaSet} : {read: 'notFound'}
  } catch (err) {
    return {read: 'failed', reason: failureText(err as Error)}
  }
}

export type {KubeObject}
