// The pending-deletions pass (the audit's deleting check and `kubectl why gc --all`'s own section, one driver): every
// object past its deletionTimestamp that the namespace controller or a finalizer's holder keeps, each through its
// holder's replay (the same composition `gc KIND/NAME` makes, garbagecollector/drive-actors.ts), ranked worst first
// (pending.ts). Its only I/O goes through the ClusterSource it is given.
import type {ClusterSource, KubeObject, ResourceType} from '../../cluster/source.js'
import {pool} from '../../cluster/read.js'
import type {Problem} from '../../explanation.js'
import {compareStrings} from '../../util/compare.js'
import {graphTypes} from '../garbagecollector/descriptor.js'
import {
  apiVersion,
  finalizerReplay,
  type GcActorsOptions,
  KNOWN_FINALIZERS,
  ListCache,
  namespaceReplayOf,
  nonGcFinalizers,
  tryList,
} from '../garbagecollector/drive-actors.js'
import {LIST_CONCURRENCY} from '../garbagecollector/read.js'
import type {NamespaceVerdict} from '../namespace/index.js'
import {compareDeletions, type DeletionExplanation, type DeletionVerdict, explainPendingDeletion, type HolderPart, type HolderState} from './pending.js'

type Meta = {name?: string; namespace?: string; uid?: string; deletionTimestamp?: string | null; finalizers?: string[]}
const metaOf = (o: KubeObject): Meta => (o.metadata ?? {}) as Meta

/** The namespace controller's verdict as a holder's state (deletions/pending.ts). */
const NAMESPACE_STATE: Record<NamespaceVerdict, HolderState> = {
  notDeleting: 'releases',
  willFinalize: 'releases',
  waitingForPods: 'waits',
  waitingForContent: 'waits',
  waitingForFinalizers: 'waits',
  // spec.finalizers of another component (the namespace controller has done its part): who that is, the data does not say.
  finalized: 'unknown',
  contentNotInData: 'unknown',
  blockedByDiscovery: 'stuck',
  blockedByGroupVersionParsing: 'stuck',
  blockedByContentFailure: 'stuck',
}

export interface PendingDeletionsResult {
  findings: DeletionExplanation[]
  /** Objects being deleted that something other than the collector holds. */
  evaluated: number
  counts: Partial<Record<DeletionVerdict, number>>
  /** Lists that could not be read: what is being deleted there is not known. */
  problems: Problem[]
}

/**
 * Every object past its deletionTimestamp that the namespace controller or a finalizer's holder keeps (the audit's
 * deletions check and `gc --all`'s own section, one driver): a Terminating Namespace (spec.finalizers "kubernetes", or
 * another component's), any object whose metadata.finalizers holds one that is not the collector's (foregroundDeletion
 * and orphan are the gc check's). Each through its holder's replay, ranked worst first (deletions/pending.ts). Reads the
 * graph's types as metadata, the full Namespaces, Pods and PersistentVolumes, and each candidate's metadata again when
 * a finalizer's writer is asked (managedFields).
 */
export interface PendingDeletionsOptions extends GcActorsOptions {
  /**
   * Why the objects' managedFields (a finalizer's writer) are not read: the audit keeps none (its projections drop them,
   * for memory), so its answers never rest on them, whether its objects are projected or whole. gc --all reads them.
   */
  managedFieldsDropped?: string
}

export async function drivePendingDeletions(
  source: ClusterSource,
  namespace: string | undefined,
  options: PendingDeletionsOptions,
): Promise<PendingDeletionsResult> {
  const types = await source.discovery()
  const evidence = options.evidence ?? (await source.evidence?.())
  const problems: Problem[] = []
  const cache = new ListCache()
  const candidates: {o: KubeObject; t: ResourceType}[] = []
  const graph = graphTypes(types)
  await pool(graph, LIST_CONCURRENCY, async (t) => {
    const isNamespace = t.group === '' && t.kind === 'Namespace'
    // Pods and PersistentVolumes whole: their holders read the phase and the volumes.
    const whole = isNamespace || (t.group === '' && (t.kind === 'Pod' || t.kind === 'PersistentVolume'))
    const items = whole
      ? await cache.list(source, apiVersion(t), t.kind, t.namespaced ? namespace : undefined)
      : await tryList(source, apiVersion(t), t.kind, t.namespaced ? namespace : undefined, true)
    if (!items) {
      problems.push({what: `list ${apiVersion(t)} ${t.kind}`, reason: 'could not be read: what is being deleted there is not known'})
      return
    }
    for (const o of items) {
      const m = metaOf(o)
      if (!m.deletionTimestamp) continue
      if (isNamespace ? namespace !== undefined && m.name !== namespace : nonGcFinalizers(o).length === 0) continue
      candidates.push({o, t})
    }
  })
  const findings: DeletionExplanation[] = []
  for (const {o, t} of candidates) {
    const m = metaOf(o)
    const subject = {
      kind: t.kind,
      apiVersion: apiVersion(t),
      ...(m.namespace ? {namespace: m.namespace} : {}),
      name: m.name ?? '',
      ...(m.uid ? {uid: m.uid} : {}),
    }
    const parts: HolderPart[] = []
    const isNamespace = t.group === '' && t.kind === 'Namespace'
    const spec = isNamespace ? ((o.spec as {finalizers?: string[]} | undefined)?.finalizers ?? []) : []
    if (isNamespace) {
      const r = await namespaceReplayOf(source, o, types, evidence, options)
      parts.push({
        actor: r.actor,
        // finalized with spec.finalizers empty: the API server removes it once metadata.finalizers is empty too.
        state: r.verdict === 'finalized' && r.blockers.length === 0 ? 'releases' : NAMESPACE_STATE[r.verdict],
        text: r.blockers[0]?.text ?? r.headline,
        steps: r.steps,
        severity: r.severity,
        finalizer: spec.includes('kubernetes') ? 'kubernetes' : (spec[0] ?? ''),
      })
    }
    if (nonGcFinalizers(o).length > 0) {
      // managedFields name a finalizer's writer: the list's metadata may not keep them, the object's own GET does.
      let full = o
      if (options.managedFieldsDropped) {
        const {managedFields: _dropped, ...rest} = (o.metadata ?? {}) as Record<string, unknown>
        full = {...o, metadata: rest as KubeObject['metadata']}
      } else if (nonGcFinalizers(o).some((f) => !KNOWN_FINALIZERS.has(f)) && !(o.metadata as {managedFields?: unknown}).managedFields) {
        const got = await tryGetMeta(source, apiVersion(t), t.kind, m.namespace, m.name ?? '')
        if (got && metaOf(got).uid === m.uid) full = {...o, metadata: {...o.metadata, ...got.metadata}}
      }
      const r = await finalizerReplay(source, full, types, options, cache, options.managedFieldsDropped)
      for (const [i, actor] of r.actors.entries()) {
        const st = r.states[i]
        const text = r.holds.find((h) => h.startsWith(`"${st.finalizer}"`)) ?? `"${st.finalizer}": ${actor.evidence[0] ?? actor.rule}`
        parts.push({actor, state: st.state, text, steps: i === 0 ? r.steps : [], finalizer: st.finalizer})
      }
    }
    if (parts.length === 0) continue
    findings.push(explainPendingDeletion(subject, m.deletionTimestamp ?? '', m.finalizers ?? [], parts, options.now, isNamespace ? spec : undefined))
  }
  findings.sort(compareDeletions)
  const counts: Partial<Record<DeletionVerdict, number>> = {}
  for (const f of findings) counts[f.verdict] = (counts[f.verdict] ?? 0) + 1
  problems.sort((a, b) => compareStrings(a.what, b.what))
  return {findings, evaluated: findings.length, counts, problems}
}

async function tryGetMeta(
  source: ClusterSource,
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
): Promise<KubeObject | undefined> {
  try {
    return await source.get({apiVersion, kind, namespace, name, view: 'fresh', metadataOnly: true})
  } catch {
    return undefined
  }
}
