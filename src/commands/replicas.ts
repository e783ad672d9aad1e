import {Args, Flags} from '@oclif/core'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import {BUILTIN_KINDS} from '../cluster/builtin-kinds.js'
import {parseTypeName, resolveResource} from '../cluster/resolve.js'
import type {ClusterSource, KubeObject, ListRequest} from '../cluster/source.js'
import {chooseVersion} from '../cluster/version.js'
import {
  claimPods, commonSelector, type CoreEvent, explainReplicaSet, informerView, labelSelectorAsSelector, selectorQuery, slimPod, type Lease, type Pod, type Recheck, type ReplicaSet,
  ReplicaSetInputError, type ReplicaSetReplayInput, replicaSetsOfDeployment, VERDICTS,
} from '../engine/replicaset/index.js'
import {ReadError, UserError} from '../errors.js'
import {type Explanation, type Problem, severityRank, type SourceDescription} from '../explanation.js'
import {sharedFlags} from '../flags.js'
import {formatData} from '../render/output.js'
import {renderReplicas, renderReplicasReport, type ReplicasReport} from '../render/replicas.js'

type ReplicasFlags = CommonFlags & {all: boolean}

const PAGE_SIZE = 500

/** Everything the replays of one scope need, read once through the source. */
interface Reads {
  replicaSets: ReplicaSet[]
  /** The informer's view (watch cache). */
  pods: Pod[]
  /** The quorum view, metadata only; undefined when it equals the cached view or could not be read. */
  freshPods?: Pod[]
  /** undefined when the events could not be read. */
  events?: CoreEvent[]
  lease?: Lease
  problems: Problem[]
}

export default class Replicas extends WhyCommand {
  static override summary = 'Replay the ReplicaSet controller: expectations, claims, slow start, and which pods go first.'
  static override description = `Replays the ReplicaSet controller for one ReplicaSet: the pods it owns, adopts, releases or ignores, the
active pods, what manageReplicas would do now (creates in slow-start batches, or exactly which pods it
deletes first, in upstream's ranking order), and the expectations it is waiting on. Expectations live only
in the controller's memory: they are inferred from its events, the pods' timestamps and the difference
between the watch cache and a quorum read, and the output says how sure the inference is.

deployment/NAME explains each of the Deployment's ReplicaSets, the new one first. --all lists every
ReplicaSet of the namespace (or the cluster, with -A) that is not converged, worst first.

Verdicts: ${VERDICTS.join(', ')}.`

  static override examples = [
    {description: 'Why is my ReplicaSet stuck at 3/5?', command: '<%= config.bin %> replicas replicaset/web-7d9f4b6c8 -n shop'},
    {description: 'Every ReplicaSet of a Deployment, new first', command: '<%= config.bin %> replicas deployment/web -n shop'},
    {description: 'Which pods a scale-down removes, offline', command: '<%= config.bin %> replicas rs/checkout-6b7f9d5c4d -f examples/replicas-deletion-cost.yaml'},
    {description: 'Every ReplicaSet that is not converged, cluster-wide, as JSON', command: '<%= config.bin %> replicas --all -A -o json'},
  ]

  static override args = {
    target: Args.string({description: 'replicaset/NAME or deployment/NAME', required: false, ignoreStdin: true}),
  }

  static override flags = {
    ...sharedFlags,
    all: Flags.boolean({description: 'Replay every ReplicaSet of the namespace (-A: the cluster) and list those that are not converged, worst first.', default: false}),
  }

  async run(): Promise<void> {
    const parsed = await this.parse(Replicas)
    const flags = parsed.flags as ReplicasFlags
    const target = parsed.args.target
    this.setupOutput(flags)
    if (flags.all && target) throw new UserError('give either replicaset/NAME (or deployment/NAME) or --all, not both', 'e.g. kubectl why replicas --all -n shop')
    if (!flags.all && !target) throw new UserError('which ReplicaSet? give replicaset/NAME or deployment/NAME, or --all', 'e.g. kubectl why replicas replicaset/web-7d9f4b6c8 -n shop')
    let kind: 'ReplicaSet' | 'Deployment' | undefined
    let name: string | undefined
    if (target) {
      const t = parseTypeName(target)
      if (!t.name) throw new UserError(`"${target}" names no object`, 'write replicaset/NAME or deployment/NAME')
      const type = resolveResource(BUILTIN_KINDS, t.type)
      if (type.kind !== 'ReplicaSet' && type.kind !== 'Deployment') {
        throw new UserError(`kubectl why replicas explains ReplicaSets, not ${type.kind}`, 'give replicaset/NAME or deployment/NAME')
      }
      if (flags['all-namespaces']) throw new UserError('a resource cannot be retrieved by name across all namespaces', 'use -n NAMESPACE')
      kind = type.kind
      name = t.name
    }

    const source = await this.openSource(flags)
    try {
      const version = chooseVersion(this.versionOverride(flags), await source.serverVersion().catch(() => undefined))
      const minor = version?.minor ?? 31
      const describe = (problems: Problem[]): SourceDescription => {
        const d = source.describe()
        const settings = {...d.settings, k8sVersion: {value: `1.${minor}`, from: version ? (version.from === 'flag' ? '--k8s-version' : 'server') : 'default (no server version)'}}
        return {...d, k8sVersion: `1.${minor}`, settings, partial: [...(d.partial ?? []), ...problems]}
      }
      if (flags.all) {
        await this.runAll(source, flags, minor, describe)
        return
      }
      const namespace = this.namespace(flags, source)!
      const explanations = kind === 'ReplicaSet'
        ? [await this.explainOne(source, namespace, name!, minor, describe)]
        : await this.explainDeployment(source, namespace, name!, minor, describe)
      this.print(explanations, flags, kind === 'Deployment')
    } catch (err) {
      if (err instanceof ReplicaSetInputError) throw new UserError(err.message, 'the object is not one the API server would accept; check the dump')
      throw err
    } finally {
      if (process.stderr.isTTY) process.stderr.write('\r\u001B[2K')
      await source.close?.()
    }
  }

  /** One ReplicaSet prints an object; a Deployment's ReplicaSets always print as an array, new first. */
  private print(explanations: Explanation[], flags: ReplicasFlags, asList: boolean): void {
    const format = flags.output ?? 'table'
    if (format === 'json' || format === 'yaml') this.write(formatData(asList ? explanations : explanations[0], format))
    else this.write(renderReplicas(explanations, format === 'wide'))
    this.failOnFindings(explanations, flags)
  }

  private async explainOne(source: ClusterSource, namespace: string, name: string, minor: number, describe: (p: Problem[]) => SourceDescription): Promise<Explanation> {
    // The controller acts on its informer's view: the watch cache.
    const rs = await source.get({apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace, name, view: 'cached'}) as ReplicaSet | undefined
    if (!rs) {
      throw new UserError(`replicasets.apps "${name}" not found in namespace ${namespace}`,
        `list them with \`kubectl get rs -n ${namespace}\`; a deleted one leaves events: \`kubectl get events -n ${namespace} --field-selector involvedObject.name=${name}\``)
    }
    const reads = await readScope(source, namespace, {replicaSet: rs})
    return this.replay(source, rs, reads, reads.pods, minor, describe)
  }

  private async explainDeployment(source: ClusterSource, namespace: string, name: string, minor: number, describe: (p: Problem[]) => SourceDescription): Promise<Explanation[]> {
    const deployment = await source.get({apiVersion: 'apps/v1', kind: 'Deployment', namespace, name, view: 'cached'})
    if (!deployment) throw new UserError(`deployments.apps "${name}" not found in namespace ${namespace}`, `list them with \`kubectl get deploy -n ${namespace}\``)
    const reads = await readScope(source, namespace, {deployment})
    const {ordered} = replicaSetsOfDeployment(deployment, reads.replicaSets)
    if (ordered.length === 0) {
      throw new UserError(`deployment ${namespace}/${name} controls no ReplicaSet`, 'the Deployment controller creates one at its next sync; `kubectl why hash deployment/' + name + '` predicts its name')
    }
    const out: Explanation[] = []
    for (const rs of ordered) out.push(await this.replay(source, rs, reads, reads.pods, minor, describe))
    return out
  }

  /** One replay: the uncached recheck is read only when an adoption would be attempted, as claimPods does. */
  private async replay(source: ClusterSource, rs: ReplicaSet, reads: Reads, pods: Pod[], minor: number, describe: (p: Problem[]) => SourceDescription,
    namespaces?: Map<string, Promise<boolean | undefined>>): Promise<Explanation> {
    const problems = [...reads.problems]
    const namespace = rs.metadata.namespace ?? ''
    let recheck: Recheck | undefined
    let selectorOk = true
    try {
      labelSelectorAsSelector(rs.spec?.selector)
    } catch {
      selectorOk = false
    }
    if (selectorOk && claimPods(rs, labelSelectorAsSelector(rs.spec?.selector), pods).adoptionAttempted) {
      recheck = await readRecheck(source, rs)
    }
    const cache = namespaces ?? new Map<string, Promise<boolean | undefined>>()
    if (!cache.has(namespace)) cache.set(namespace, namespaceTerminating(source, namespace, problems))
    const terminating = await cache.get(namespace)
    const input: ReplicaSetReplayInput = {
      replicaSet: rs,
      pods,
      freshPods: reads.freshPods,
      replicaSets: reads.replicaSets,
      events: reads.events,
      recheck,
      namespaceTerminating: terminating,
      leaderLease: reads.lease,
      now: source.now().getTime(),
      settings: {minor},
      source: describe(problems),
    }
    return explainReplicaSet(input)
  }

  private async runAll(source: ClusterSource, flags: ReplicasFlags, minor: number, describe: (p: Problem[]) => SourceDescription): Promise<void> {
    const namespace = this.namespace(flags, source)
    const progress = this.sourceOptions(flags).progress
    progress?.('replicas: reading ReplicaSets, pods and events')
    const reads = await readScope(source, namespace, {})
    const index = indexScope(reads)
    const findings: Explanation[] = []
    const counts: Record<string, number> = {}
    const namespaces = new Map<string, Promise<boolean | undefined>>()
    let done = 0
    for (const rs of reads.replicaSets) {
      const scoped: Reads = {...reads, freshPods: reads.freshPods && index.freshFor(rs), events: reads.events && index.eventsFor(rs)}
      const e = await this.replay(source, rs, scoped, index.podsFor(rs), minor, describe, namespaces)
      counts[e.verdict] = (counts[e.verdict] ?? 0) + 1
      if (e.verdict !== 'converged') findings.push(e)
      if (++done % 100 === 0) progress?.(`replicas: replayed ${done}/${reads.replicaSets.length} ReplicaSets`)
    }
    findings.sort((a, b) => severityRank(b.severity) - severityRank(a.severity)
      || VERDICTS.indexOf(a.verdict as never) - VERDICTS.indexOf(b.verdict as never)
      || `${a.subject.namespace}/${a.subject.name}`.localeCompare(`${b.subject.namespace}/${b.subject.name}`))
    const description = describe(reads.problems)
    for (const f of findings) f.source = description
    const report: ReplicasReport = {
      apiVersion: 'kubectl-why/v1',
      kind: 'ReplicasReport',
      scope: namespace === undefined ? {allNamespaces: true} : {namespace},
      evaluatedAt: source.now().toISOString(),
      source: description,
      replicaSets: reads.replicaSets.length,
      pods: reads.pods.length,
      counts: Object.fromEntries(VERDICTS.filter((v) => counts[v]).map((v) => [v, counts[v]])),
      findings,
    }
    const format = flags.output ?? 'table'
    if (format === 'json' || format === 'yaml') this.write(formatData(report, format))
    else this.write(renderReplicasReport(report))
    this.failOnFindings(findings, flags)
  }
}

function problemOf(what: string, err: unknown): Problem {
  if (err instanceof ReadError) return {what, reason: `${err.reason}${err.status ? ` (${err.status})` : ''}: ${err.message}`}
  return {what, reason: (err as Error).message}
}

async function listAll<T extends KubeObject>(source: ClusterSource, request: ListRequest, map?: (o: KubeObject) => T): Promise<T[]> {
  const out: T[] = []
  for await (const page of source.pages({pageSize: PAGE_SIZE, ...request})) for (const o of page) out.push(map ? map(o) : (o as T))
  return out
}

/** Events of ReplicaSets, filtered by the API server where it can (field selectors), else here. */
async function readEvents(source: ClusterSource, namespace: string | undefined, rs: ReplicaSet | undefined): Promise<CoreEvent[]> {
  const fields = ['involvedObject.kind=ReplicaSet', ...(rs ? [`involvedObject.name=${rs.metadata.name}`, ...(rs.metadata.uid ? [`involvedObject.uid=${rs.metadata.uid}`] : [])] : [])]
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

/** What to read: one ReplicaSet (and its siblings), a Deployment's ReplicaSets, or (neither) every ReplicaSet in scope. */
interface Scope {
  replicaSet?: ReplicaSet
  deployment?: KubeObject
}

async function readScope(source: ClusterSource, namespace: string | undefined, only: Scope): Promise<Reads> {
  const problems: Problem[] = []
  const where = namespace === undefined ? 'in all namespaces' : `in ${namespace}`
  const lease = source.get({apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-system', name: 'kube-controller-manager', view: 'cached'}).catch(() => undefined)
  const events = readEvents(source, namespace, only.replicaSet).catch((err) => {
    problems.push(problemOf(`list ReplicaSet events ${where}`, err))
    return undefined
  })
  const replicaSets = await listAll<ReplicaSet>(source, {apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace, view: 'cached'})
  // One ReplicaSet needs full pods only where its selector (or its siblings', for the co-location rank) can match;
  // the rest of the namespace is read as metadata, which is enough to find the pods it would release.
  const rs = only.replicaSet
  const deploymentUid = only.deployment?.metadata?.uid
  const owned = deploymentUid ? replicaSets.filter((r) => (r.metadata.ownerReferences ?? []).some((x) => x?.controller === true && x.uid === deploymentUid)) : []
  const family = rs ? familyOf(rs, replicaSets) : owned.length > 0 ? owned : undefined
  const labelSelector = family ? selectorQuery(commonSelector(family.map((r) => r.spec?.selector))) : undefined
  let pods: Pod[]
  let fresh: Pod[] | undefined
  if (family) {
    ;[pods, fresh] = await Promise.all([
      listAll<Pod>(source, {apiVersion: 'v1', kind: 'Pod', namespace, view: 'cached', labelSelector}, slimPod),
      listAll<Pod>(source, {apiVersion: 'v1', kind: 'Pod', namespace, view: 'fresh', metadataOnly: true}).catch((err) => {
        problems.push(problemOf(`list pods ${where} (quorum read, metadata only: cache lag, pods to release)`, err))
        return undefined
      }),
    ])
  } else {
    // Every pod in scope: full pods page by page from a quorum read (kept slim), and the watch cache's metadata
    // for what the informer sees exist, owned and deleting. A watch-cache list is not paginated, so it stays metadata.
    const [full, cachedMetadata] = await Promise.all([
      listAll<Pod>(source, {apiVersion: 'v1', kind: 'Pod', namespace, view: 'fresh'}, slimPod),
      listAll<KubeObject>(source, {apiVersion: 'v1', kind: 'Pod', namespace, view: 'cached', metadataOnly: true}).catch((err) => {
        problems.push(problemOf(`list pods ${where} (watch cache, metadata only: what the informer sees)`, err))
        return undefined
      }),
    ])
    fresh = full
    pods = cachedMetadata ? informerView(cachedMetadata, full) : full
  }
  let relevantFresh = fresh
  if (family && fresh) {
    const matches = labelSelector === undefined ? () => true : labelSelectorAsSelector(commonSelector(family!.map((r) => r.spec?.selector)))
    const familyUids = new Set(family!.map((r) => r.metadata.uid))
    const controllerUid = (p: Pod) => (p.metadata.ownerReferences ?? []).find((r) => r?.controller === true)?.uid
    relevantFresh = fresh.filter((p) => matches(p.metadata.labels) || familyUids.has(controllerUid(p) ?? ''))
    const listed = new Set(pods.map((p) => p.metadata.name))
    // Owned pods whose labels left the selector: ClaimPods releases them. Read each as the informer sees it.
    for (const p of relevantFresh) {
      if (listed.has(p.metadata.name) || !familyUids.has(controllerUid(p) ?? '')) continue
      const full = await source.get({apiVersion: 'v1', kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name, view: 'cached'}).catch(() => undefined)
      if (full) pods.push(slimPod(full))
    }
  }
  return {replicaSets, pods, freshPods: relevantFresh && differs(pods, relevantFresh) ? relevantFresh : undefined, events: await events, lease: (await lease) as Lease | undefined, problems}
}

/** The ReplicaSets under the same controller as `rs` (itself included), as getReplicaSetsWithSameController finds them. */
function familyOf(rs: ReplicaSet, all: readonly ReplicaSet[]): ReplicaSet[] {
  const ref = (rs.metadata.ownerReferences ?? []).find((r) => r?.controller === true)
  if (!ref) return [rs]
  const siblings = all.filter((r) => (r.metadata.ownerReferences ?? []).some((x) => x?.controller === true && x.uid === ref.uid))
  return siblings.some((r) => r.metadata.uid === rs.metadata.uid) ? siblings : [rs, ...siblings]
}

/** Whether the quorum read shows pods the watch cache does not (or not yet) show the same way. */
function differs(cached: readonly Pod[], fresh: readonly Pod[]): boolean {
  if (cached.length !== fresh.length) return true
  const byKey = new Map(cached.map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, p]))
  return fresh.some((f) => {
    const c = byKey.get(`${f.metadata.namespace}/${f.metadata.name}`)
    return !c || c.metadata.uid !== f.metadata.uid || Boolean(c.metadata.deletionTimestamp) !== Boolean(f.metadata.deletionTimestamp)
      || JSON.stringify(c.metadata.ownerReferences ?? []) !== JSON.stringify(f.metadata.ownerReferences ?? [])
  })
}

/** The uncached GET claimPods makes before its first adoption (replica_set.go claimPods, canAdoptFunc). */
async function readRecheck(source: ClusterSource, rs: ReplicaSet): Promise<Recheck> {
  try {
    const fresh = await source.get({apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: rs.metadata.namespace, name: rs.metadata.name, view: 'fresh'})
    return fresh ? {read: 'found', replicaSet: fresh as ReplicaSet} : {read: 'notFound'}
  } catch (err) {
    return {read: 'failed', reason: (err as Error).message}
  }
}

async function namespaceTerminating(source: ClusterSource, namespace: string, problems: Problem[]): Promise<boolean | undefined> {
  try {
    const ns = await source.get({apiVersion: 'v1', kind: 'Namespace', name: namespace, view: 'cached'})
    if (!ns) return undefined
    return Boolean(ns.metadata?.deletionTimestamp) || (ns.status as {phase?: string} | undefined)?.phase === 'Terminating'
  } catch (err) {
    if (!(err instanceof ReadError && err.reason === 'Forbidden')) problems.push(problemOf(`get namespace ${namespace}`, err))
    return undefined
  }
}

/**
 * For --all: each ReplicaSet gets the pods FilterPodsByOwner would give it (its own and the namespace's orphans)
 * plus those of the ReplicaSets under the same controller (the co-location rank), instead of every pod.
 */
function indexScope(reads: Reads) {
  const byOwner = new Map<string, Pod[]>()
  const orphans = new Map<string, Pod[]>()
  const push = <T>(m: Map<string, T[]>, k: string, v: T) => {
    const l = m.get(k)
    if (l) l.push(v)
    else m.set(k, [v])
  }
  for (const p of reads.pods) {
    const ref = (p.metadata.ownerReferences ?? []).find((r) => r?.controller === true)
    if (ref) push(byOwner, ref.uid, p)
    else push(orphans, p.metadata.namespace ?? '', p)
  }
  const freshByOwner = new Map<string, Pod[]>()
  for (const p of reads.freshPods ?? []) {
    const ref = (p.metadata.ownerReferences ?? []).find((r) => r?.controller === true)
    push(freshByOwner, ref ? ref.uid : `orphan/${p.metadata.namespace ?? ''}`, p)
  }
  const siblings = new Map<string, ReplicaSet[]>()
  for (const rs of reads.replicaSets) {
    const ref = (rs.metadata.ownerReferences ?? []).find((r) => r?.controller === true)
    if (ref) push(siblings, ref.uid, rs)
  }
  const eventsByUid = new Map<string, CoreEvent[]>()
  for (const e of reads.events ?? []) push(eventsByUid, e.involvedObject?.uid ?? '', e)
  const familyOf = (rs: ReplicaSet): ReplicaSet[] => {
    const ref = (rs.metadata.ownerReferences ?? []).find((r) => r?.controller === true)
    return ref ? siblings.get(ref.uid) ?? [rs] : [rs]
  }
  return {
    podsFor(rs: ReplicaSet): Pod[] {
      const out = [...(orphans.get(rs.metadata.namespace ?? '') ?? [])]
      for (const r of familyOf(rs)) out.push(...(byOwner.get(r.metadata.uid ?? '') ?? []))
      return out
    },
    freshFor(rs: ReplicaSet): Pod[] {
      const out = [...(freshByOwner.get(`orphan/${rs.metadata.namespace ?? ''}`) ?? [])]
      for (const r of familyOf(rs)) out.push(...(freshByOwner.get(r.metadata.uid ?? '') ?? []))
      return out
    },
    eventsFor(rs: ReplicaSet): CoreEvent[] {
      return eventsByUid.get(rs.metadata.uid ?? '') ?? []
    },
  }
}
