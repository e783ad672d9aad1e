// `gc KIND/NAME`: every mechanism that deletes the object, has deleted it, or holds its deletion (issue 26), composed
// at the driver level around the collector's own Explanation. It reads what each replay needs through the
// ClusterSource it is given (the whole object, its owner, its namespace's content, APIServices, pods), hands plain
// objects to the pure engines — namespace, ttlafterfinished, historylimits, finalizers — and returns the collector's
// Explanation with `actors` and a headline saying who deletes it and when, or what holds it and what would release
// it. A kind the data does not hold is "not in the data", never "absent".
import {splitApiVersion} from '../../cluster/builtin-kinds.js'
import type {ClusterSource, KubeObject, ResourceType} from '../../cluster/source.js'
import type {Actor, ActorAction, Evidence, NextStep, Severity, Step} from '../../explanation.js'
import {severityRank} from '../../explanation.js'
import {compareStrings} from '../../util/compare.js'
import {pool} from '../../cluster/read.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {JOB_TRACKING, PV_PROTECTION, PVC_PROTECTION, replayFinalizers} from '../finalizers/index.js'
import {replayCronJobHistory, replayDeploymentHistory, replayRevisionHistory} from '../historylimits/index.js'
import {replayCsrCleaner} from '../csrcleaner/cleaner.js'
import {type ContentType, type NamespaceReplay, replayNamespace} from '../namespace/index.js'
import {NODE_LEASE_NAMESPACE, replayNodeLease} from '../nodelease/lease.js'
import {type PvReclaimInput, replayPvReclaim} from '../pvreclaim/reclaim.js'
import {replayTtlAfterFinished} from '../ttlafterfinished/index.js'
import {type GcNode, type GcPod, isPodTerminated, PODGC, podGcDecision} from '../podgc/gc.js'
import {controllerManagerArgs, terminatedPodGcThreshold} from '../../settings/kcm.js'
import type {GcExplanation} from './explain.js'
import type {GcVerdict} from './model.js'
import {LIST_CONCURRENCY} from './read.js'

export interface GcActorsOptions {
  now: Date
  minor?: number
  evidence?: Evidence
}

/** What the collector itself does, as an Actor (its verdict's action; its own next steps). */
const GC_ACTIONS: Record<GcVerdict, ActorAction> = {
  keep: 'none',
  patchRemoveOwnerRefs: 'none',
  delete: 'willDelete',
  noOwners: 'none',
  waitBeingDeleted: 'none',
  removeFinalizer: 'willDelete',
  waitForBlockingDependents: 'blocksDeletion',
  orphanDependentsThenRemoveFinalizer: 'willDelete',
  stuckRestMapping: 'none',
  stuckNamespacedOwnerOfClusterScopedObject: 'none',
  notMonitored: 'none',
  unknown: 'none',
}

export function collectorActor(e: GcExplanation): Actor {
  const evidence = [
    ...e.ownerReferences.map((r) => `ownerReference ${r.kind} ${r.name} uid ${r.uid}: ${r.classification}`),
    ...(e.deletionTimestamp ? [`deletionTimestamp ${e.deletionTimestamp}`] : []),
    ...(e.finalizers ?? []).map((f) => `metadata.finalizers "${f}"`),
  ]
  return {
    actor: 'garbagecollector',
    action: GC_ACTIONS[e.verdict],
    rule: e.steps.at(-1)?.rule ?? 'attemptToDeleteItem',
    evidence: evidence.length > 0 ? evidence : ['no owner references'],
    next: e.next ?? [],
  }
}

/** One mechanism's answer for the composition. */
interface Part {
  actor: Actor
  steps: Step[]
  headline: string
  severity?: Severity
}

type Meta = {
  name?: string
  namespace?: string
  uid?: string
  deletionTimestamp?: string | null
  finalizers?: string[]
  ownerReferences?: {kind: string; name: string; uid: string; controller?: boolean; apiVersion: string}[]
}

function metaOf(o: KubeObject): Meta {
  return (o.metadata ?? {}) as Meta
}

async function tryGet(source: ClusterSource, apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
  try {
    return await source.get({apiVersion, kind, namespace, name, view: 'fresh'})
  } catch {
    return undefined
  }
}

export async function tryList(
  source: ClusterSource,
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  metadataOnly = false,
): Promise<KubeObject[] | undefined> {
  try {
    return (await source.list({apiVersion, kind, namespace, metadataOnly})).items
  } catch {
    return undefined
  }
}

function served(types: readonly ResourceType[], group: string, kind: string): ResourceType | undefined {
  return types.find((t) => t.group === group && t.kind === kind)
}

export function apiVersion(t: {group: string; version: string}): string {
  return t.group === '' ? t.version : `${t.group}/${t.version}`
}

/** The namespace controller's inputs: every namespaced type it deletes (delete and list), as far as the data shows it. */
async function namespaceParts(
  source: ClusterSource,
  ns: KubeObject,
  types: readonly ResourceType[],
  evidence: Evidence | undefined,
  options: GcActorsOptions,
): Promise<Part> {
  const r = await namespaceReplayOf(source, ns, types, evidence, options)
  return {actor: r.actor, steps: r.steps, headline: r.headline, severity: r.severity}
}

/** The namespace controller's replay over the namespace's content as the data holds it (each type's coverage). */
export async function namespaceReplayOf(
  source: ClusterSource,
  ns: KubeObject,
  types: readonly ResourceType[],
  evidence: Evidence | undefined,
  options: GcActorsOptions,
): Promise<NamespaceReplay> {
  const name = metaOf(ns).name ?? ''
  const seen = new Set<string>()
  const deletable = types.filter((t) => {
    const key = `${t.group}/${t.resource}`
    if (!t.namespaced || t.resource.includes('/') || !t.verbs.includes('delete') || !t.verbs.includes('list') || seen.has(key)) return false
    seen.add(key)
    return true
  })
  const content: ContentType[] = []
  await pool(deletable, LIST_CONCURRENCY, async (t) => {
    const c = evidence?.coverage(t.group, t.kind, name)
    const base = {group: t.group, version: t.version, resource: t.resource, kind: t.kind}
    if (c && !c.held) {
      content.push({...base, coverage: 'none', why: c.why, items: []})
      return
    }
    const isPod = t.group === '' && t.resource === 'pods'
    const items = await tryList(source, apiVersion(t), t.kind, name, !isPod)
    if (items === undefined) content.push({...base, coverage: 'none', why: `${t.kind} could not be listed`, items: []})
    else content.push({...base, coverage: !c || c.absenceIsProof ? 'proof' : 'partial', ...(c && !c.absenceIsProof ? {why: c.why} : {}), items})
  })
  content.sort((a, b) => compareStrings(`${a.group}/${a.resource}`, `${b.group}/${b.resource}`))
  const api = served(types, 'apiregistration.k8s.io', 'APIService')
  const apiCoverage = api ? evidence?.coverage(api.group, api.kind) : undefined
  const apiServices = api && (!apiCoverage || apiCoverage.held) ? await tryList(source, apiVersion(api), 'APIService', undefined) : undefined
  return replayNamespace({
    namespace: ns,
    content,
    apiServices: apiServices && apiServices.length === 0 && apiCoverage && !apiCoverage.absenceIsProof ? undefined : apiServices,
    apiServicesWhy: api ? (apiCoverage?.why ?? 'APIServices could not be listed') : 'the data holds no APIService',
    now: options.now,
    minor: options.minor,
  })
}

/** metav1.GetControllerOf, when that controller is of the kind asked. */
function controllerOf(o: KubeObject, kind: string): {name: string; uid: string; apiVersion: string} | undefined {
  const c = getControllerOf(o)
  return c?.kind === kind ? c : undefined
}

/** metadata.finalizers less the collector's own (foregroundDeletion, orphan). */
export function nonGcFinalizers(o: KubeObject): string[] {
  return (metaOf(o).finalizers ?? []).filter((f) => f !== 'foregroundDeletion' && f !== 'orphan')
}

/** Lists read once per run of the pending-deletions pass (the namespace's pods, every workload), by key. */
export class ListCache {
  private readonly lists = new Map<string, Promise<KubeObject[] | undefined>>()
  list(source: ClusterSource, apiVersion: string, kind: string, namespace: string | undefined): Promise<KubeObject[] | undefined> {
    const key = `${apiVersion} ${kind} ${namespace ?? ''}`
    let p = this.lists.get(key)
    if (!p) {
      p = tryList(source, apiVersion, kind, namespace)
      this.lists.set(key, p)
    }
    return p
  }
}

/** Why absence of a kind in a namespace proves nothing, or undefined where it does (a live read: no evidence). */
function incomplete(evidence: Evidence | undefined, group: string, kind: string, namespace?: string): string | undefined {
  const c = evidence?.coverage(group, kind, namespace)
  return c && !c.absenceIsProof ? c.why : undefined
}

/** The finalizers whose holder the finalizer replay knows by name; any other is named with its writer (managedFields). */
export const KNOWN_FINALIZERS: ReadonlySet<string> = new Set([PVC_PROTECTION, PV_PROTECTION, JOB_TRACKING])

/**
 * The finalizers' holders of an object being deleted (finalizers/replay.ts), with what each needs read: a claim's
 * pods, a pod's Job, the workloads that may run a finalizer's writer; each list said incomplete where the data cannot
 * prove absence (issue 27 point 4).
 */
export async function finalizerReplay(
  source: ClusterSource,
  o: KubeObject,
  types: readonly ResourceType[],
  options: GcActorsOptions,
  cache: ListCache,
  managedFieldsDropped?: string,
) {
  const m = metaOf(o)
  const evidence = options.evidence ?? (await source.evidence?.())
  const finalizers = nonGcFinalizers(o)
  const needsPods = o.kind === 'PersistentVolumeClaim' && finalizers.includes(PVC_PROTECTION)
  const pods = needsPods ? await cache.list(source, 'v1', 'Pod', m.namespace) : undefined
  const jobRef = o.kind === 'Pod' && finalizers.includes(JOB_TRACKING) ? controllerOf(o, 'Job') : undefined
  let job: KubeObject | undefined
  let jobRead = true
  let jobReplaced = false
  if (jobRef) {
    try {
      job = await source.get({apiVersion: jobRef.apiVersion, kind: 'Job', namespace: m.namespace, name: jobRef.name, view: 'fresh'})
    } catch {
      jobRead = false
    }
    // resolveControllerRef: a Job of that name with another uid is not the pod's; names are unique in a namespace, so
    // the pod's own Job is gone — proof enough, whatever else the data lacks.
    if (job && metaOf(job).uid !== jobRef.uid) {
      job = undefined
      jobReplaced = true
    }
  }
  let workloads: KubeObject[] | undefined
  let workloadsIncomplete: string | undefined
  if (finalizers.some((f) => !KNOWN_FINALIZERS.has(f))) {
    workloads = []
    for (const kind of ['Deployment', 'DaemonSet', 'StatefulSet']) {
      if (!served(types, 'apps', kind)) continue
      const items = await cache.list(source, 'apps/v1', kind, undefined)
      if (!items) workloadsIncomplete ??= `${kind}s could not be read`
      workloadsIncomplete ??= incomplete(evidence, 'apps', kind)
      workloads.push(...(items ?? []))
    }
  }
  return replayFinalizers(o, {
    pods,
    podsWhy: needsPods && !pods ? 'pods could not be read' : undefined,
    podsIncomplete: pods ? incomplete(evidence, '', 'Pod', m.namespace) : undefined,
    job,
    jobKnown: jobRef && !job && (jobReplaced || (jobRead && !incomplete(evidence, 'batch', 'Job', m.namespace))) ? 'absent' : 'unknown',
    workloads,
    workloadsIncomplete,
    managedFieldsDropped,
  })
}

async function otherParts(source: ClusterSource, o: KubeObject, types: readonly ResourceType[], options: GcActorsOptions): Promise<Part[]> {
  const m = metaOf(o)
  const parts: Part[] = []
  const {group} = splitApiVersion(o.apiVersion ?? 'v1')
  if (group === 'batch' && o.kind === 'Job') {
    const ttl = replayTtlAfterFinished(o, options.now)
    if (ttl) parts.push(ttl)
    const owner = controllerOf(o, 'CronJob')
    if (owner) {
      const cj = await tryGet(source, owner.apiVersion, 'CronJob', m.namespace, owner.name)
      const jobs = cj && metaOf(cj).uid === owner.uid ? await tryList(source, 'batch/v1', 'Job', m.namespace) : undefined
      if (cj && jobs) parts.push(replayCronJobHistory(o, cj, jobs))
    }
  }
  if (group === 'apps' && o.kind === 'ReplicaSet') {
    const owner = controllerOf(o, 'Deployment')
    if (owner) {
      const d = await tryGet(source, owner.apiVersion, 'Deployment', m.namespace, owner.name)
      const all = d && metaOf(d).uid === owner.uid ? await tryList(source, 'apps/v1', 'ReplicaSet', m.namespace) : undefined
      if (d && all)
        parts.push(
          replayDeploymentHistory(
            o,
            d,
            all.filter((x) => controllerOf(x, 'Deployment')?.uid === owner.uid),
          ),
        )
    }
  }
  if (group === 'apps' && o.kind === 'ControllerRevision') {
    const kind = controllerOf(o, 'DaemonSet') ? 'DaemonSet' : 'StatefulSet'
    const owner = controllerOf(o, kind)
    const w = owner ? await tryGet(source, owner.apiVersion, kind, m.namespace, owner.name) : undefined
    if (owner && w && metaOf(w).uid === owner.uid) {
      const crs = await tryList(source, 'apps/v1', 'ControllerRevision', m.namespace)
      const pods = await tryList(source, 'v1', 'Pod', m.namespace, true)
      const mine = (list: KubeObject[]) => list.filter((x) => controllerOf(x, kind)?.uid === owner.uid)
      // Every pod of the owner counts, terminating and terminal ones too; without the pods nothing is said. A
      // DaemonSet's are the namespace's pods ClaimPods leaves it (orphans it adopts too): the replay picks them.
      const r = crs && pods ? replayRevisionHistory(o, w, mine(crs), kind === 'DaemonSet' ? pods : mine(pods)) : undefined
      if (r) parts.push(r)
    }
  }
  if (group === 'certificates.k8s.io' && o.kind === 'CertificateSigningRequest') parts.push(replayCsrCleaner(o, options.now))
  if (group === '' && o.kind === 'PersistentVolume') {
    // The claim it is bound to, read by name; its absence proves it gone only where the data holds that namespace's claims.
    const ref = (o.spec as {claimRef?: {namespace?: string; name?: string}} | undefined)?.claimRef
    let claim: PvReclaimInput['claim'] = {known: 'unknown'}
    if (ref?.name) {
      try {
        const c = await source.get({apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ref.namespace, name: ref.name, view: 'fresh'})
        const evidence = options.evidence ?? (await source.evidence?.())
        const proof = evidence?.coverage('', 'PersistentVolumeClaim', ref.namespace).absenceIsProof ?? true
        claim = c
          ? {known: 'found', uid: c.metadata?.uid}
          : proof
            ? {known: 'absent'}
            : {known: 'unknown', why: 'the data does not hold the claims of that namespace'}
      } catch {
        claim = {known: 'unknown', why: 'the claim could not be read'}
      }
    }
    parts.push(replayPvReclaim({pv: o, claim}))
  }
  if (group === 'coordination.k8s.io' && o.kind === 'Lease' && m.namespace === NODE_LEASE_NAMESPACE) {
    // The Node of that name, read by name; its absence proves it gone only where the data holds every node.
    let node: KubeObject | undefined
    let read = true
    try {
      node = await source.get({apiVersion: 'v1', kind: 'Node', name: m.name ?? '', view: 'fresh'})
    } catch {
      read = false
    }
    const evidence = options.evidence ?? (await source.evidence?.())
    const proof = read && (evidence?.coverage('', 'Node').absenceIsProof ?? true)
    const r = replayNodeLease({lease: o, node, nodeKnown: node ? 'found' : proof ? 'absent' : 'unknown'})
    if (r) parts.push(r)
  }
  if (group === '' && o.kind === 'Pod') {
    const part = await podGcPart(source, o as KubeObject & GcPod, options)
    if (part) parts.push(part)
  }
  if (m.deletionTimestamp && nonGcFinalizers(o).length > 0) {
    const r = await finalizerReplay(source, o, types, options, new ListCache())
    // One headline for all the finalizers, on the first actor that holds the object (the one the summary leads with).
    const holder = r.actors.findIndex((a) => a.action === 'blocksDeletion')
    for (const [i, actor] of r.actors.entries()) {
      parts.push({actor, steps: i === 0 ? r.steps : [], headline: i === holder && r.holds.length > 0 ? `It is held by ${r.holds.join('; ')}.` : ''})
    }
  }
  return parts
}

/**
 * PodGC (pkg/controller/podgc/gc_controller.go, gc: gcTerminated, gcTerminating, gcOrphaned, gcUnscheduledTerminating),
 * for a pod it may take: terminated, terminating, or bound to a node. Reads the pod's node by name (not every node) and,
 * for a terminated pod only, every pod of the cluster (gcTerminated counts cluster-wide). Absence of the node proves it
 * gone only where the data holds every node; otherwise the pass says it cannot tell.
 */
async function podGcPart(source: ClusterSource, pod: KubeObject & GcPod, options: GcActorsOptions): Promise<Part | undefined> {
  const terminated = isPodTerminated(pod)
  const nodeName = pod.spec?.nodeName ?? ''
  if (!terminated && !pod.metadata?.deletionTimestamp && !nodeName) return undefined
  const evidence = options.evidence ?? (await source.evidence?.())
  const proves = (kind: string) => evidence?.coverage('', kind).absenceIsProof ?? true
  let node: KubeObject | undefined
  let nodeRead = true
  if (nodeName) {
    try {
      node = await source.get({apiVersion: 'v1', kind: 'Node', name: nodeName, view: 'fresh'})
    } catch {
      nodeRead = false
    }
  }
  const allPods = terminated ? await tryList(source, 'v1', 'Pod', undefined) : undefined
  // gcTerminated's bound from the controller-manager's static pod when the data shows it (the same parse the node
  // lifecycle's settings use), else the default, said as such.
  const gcThreshold = allPods ? terminatedPodGcThreshold(controllerManagerArgs(allPods.filter((p) => metaOf(p).namespace === 'kube-system'))) : undefined
  const d = podGcDecision({
    threshold: gcThreshold?.threshold,
    thresholdFrom: gcThreshold?.from,
    pod,
    nodes: node ? [node as GcNode] : [],
    nodesComplete: nodeRead && proves('Node'),
    allPods: (allPods as GcPod[] | undefined) ?? [pod],
    podsComplete: allPods !== undefined && proves('Pod'),
  })
  if (!d.pass) return undefined
  const m = metaOf(pod)
  const acts = d.action === 'willDelete'
  const actor: Actor = {
    actor: 'podgc',
    action: acts ? 'willDelete' : 'none',
    rule: d.pass,
    evidence: [d.why],
    next: acts ? [{command: `kubectl get pod ${m.name} -n ${m.namespace} -o yaml`, why: 'what PodGC force-deletes: keep what you need from it first'}] : [],
  }
  return {
    actor,
    steps: [{rule: d.pass, upstream: `${PODGC} ${d.pass}`, result: d.action, why: d.why}],
    headline: acts ? `PodGC force-deletes it (${d.pass}): ${d.why}.` : '',
  }
}

/**
 * Whether another mechanism may act, from what the collector's metadata view already shows: a Namespace, a Job (TTL,
 * CronJob history), a ReplicaSet whose controlling Deployment is solid (cleanupDeployment runs only for a Deployment
 * that exists with that uid and is not being deleted), or an object being deleted with finalizers not the collector's.
 * Nothing else is read, so the collector's own reads stay what they were (fresh, metadata-only).
 */
function needsWholeObject(e: GcExplanation): boolean {
  const s = e.subject
  const {group} = splitApiVersion(s.apiVersion ?? 'v1')
  if (s.kind === 'Namespace' && group === '') return true
  // PodGC may take any pod (terminated, terminating, orphaned): whether it does is in the pod's spec and status.
  if (s.kind === 'Pod' && group === '') return true
  if (s.kind === 'Job' && group === 'batch') return true
  // A PersistentVolume: its reclaim policy, once its claim is gone.
  if (s.kind === 'PersistentVolume' && group === '') return true
  // A node Lease: whether the kubelet's ownerReference lets the collector delete it with its Node.
  if (s.kind === 'Lease' && group === 'coordination.k8s.io' && s.namespace === 'kube-node-lease') return true
  // The CSR cleaner may take any CSR: its conditions, certificate and age decide.
  if (s.kind === 'CertificateSigningRequest' && group === 'certificates.k8s.io') return true
  if (
    s.kind === 'ReplicaSet' &&
    group === 'apps' &&
    e.ownerReferences.some((r) => r.controller === true && r.kind === 'Deployment' && r.classification === 'solid')
  )
    return true
  if (
    s.kind === 'ControllerRevision' &&
    group === 'apps' &&
    e.ownerReferences.some((r) => r.controller === true && (r.kind === 'DaemonSet' || r.kind === 'StatefulSet') && r.classification === 'solid')
  )
    return true
  return e.deletionTimestamp !== undefined && (e.finalizers ?? []).some((f) => f !== 'foregroundDeletion' && f !== 'orphan')
}

const ACTING: ReadonlySet<ActorAction> = new Set(['willDelete', 'deleted', 'blocksDeletion'])

/** The collector's Explanation with every mechanism's actor, and a headline from the first that acts. */
export async function driveGcActors(source: ClusterSource, e: GcExplanation, options: GcActorsOptions): Promise<GcExplanation> {
  const s = e.subject
  const gc = collectorActor(e)
  if (!needsWholeObject(e)) return {...e, actors: [gc]}
  const full = await tryGet(source, s.apiVersion ?? 'v1', s.kind, s.namespace, s.name)
  if (!full || (s.uid && metaOf(full).uid !== s.uid)) return {...e, actors: [gc]}
  const types = await source.discovery()
  const evidence = options.evidence ?? (await source.evidence?.())
  const parts: Part[] = []
  if (s.kind === 'Namespace' && (s.apiVersion ?? 'v1') === 'v1') parts.push(await namespaceParts(source, full, types, evidence, options))
  parts.push(...(await otherParts(source, full, types, options)))
  if (parts.length === 0) return {...e, actors: [gc]}
  const lead = parts.find((p) => ACTING.has(p.actor.action) && p.headline) ?? (gc.action === 'none' ? parts.find((p) => p.headline) : undefined)
  const severity = parts.reduce<Severity>((worst, p) => (p.severity && severityRank(p.severity) > severityRank(worst) ? p.severity : worst), e.severity)
  const next: NextStep[] = [...(lead?.actor.next ?? []), ...(e.next ?? [])]
  return {
    ...e,
    severity,
    summary: lead ? `${lead.headline} Garbage collector: ${e.summary}` : e.summary,
    steps: [...e.steps, ...parts.flatMap((p) => p.steps)],
    ...(next.length > 0 ? {next} : {}),
    actors: [...parts.filter((p) => p === lead).map((p) => p.actor), gc, ...parts.filter((p) => p !== lead).map((p) => p.actor)],
  }
}
