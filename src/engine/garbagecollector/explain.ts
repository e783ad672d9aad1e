// Turns a replay into the Explanation every command prints: verdict, severity, a summary a tired on-call
// engineer can act on, the steps, and the collector-specific fields (documented in schemas/gc.json).
import type {OwnerReference} from '../../cluster/source.js'
import type {Explanation, Severity, SourceDescription, Step, Subject} from '../../explanation.js'
import {describeObject, type GcObject, type GcVerdict, isNamespace} from './model.js'
import {gcNext} from './next.js'
import type {BlockingReport, CollectorRequest, GcEvent, GcReplay, RefOutcome, RefReport} from './replay.js'
import {compareStrings} from '../../util/compare.js'

export interface GcOwnerRefReport extends OwnerReference {
  classification: RefOutcome
  reason?: 'notFound' | 'uidMismatch'
  /**
   * unknown: readError, notInData (absent from data that cannot prove absence), nameOnly (name shown, uid not) or
   * servedUnknown (the data records no discovery that settles whether the ref's version is served).
   */
  unknownReason?: 'readError' | 'notInData' | 'nameOnly' | 'servedUnknown'
  why: string
  get?: string
  status?: number | 'error'
  foundUid?: string
  reachedByCollector: boolean
}

export interface GcBlockingReport {
  subject: Subject
  verdict?: GcVerdict
  severity?: Severity
  summary?: string
  notExplained?: string
  ownerReferences?: GcOwnerRefReport[]
  blockingDependents?: GcBlockingReport[]
}

export interface GcExplanation extends Explanation {
  controller: 'garbagecollector'
  verdict: GcVerdict
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'
  unblockOwnerRefsFirst?: boolean
  removeOwnerUIDs?: string[]
  finalizer?: string
  deletionTimestamp?: string
  finalizers?: string[]
  ownerReferences: GcOwnerRefReport[]
  blockingDependents?: GcBlockingReport[]
  dependentsToOrphan?: Subject[]
  dependentCount?: number
  collectorRequests: CollectorRequest[]
  events?: GcEvent[]
  virtualNode?: boolean
}

export function subjectOf(o: GcObject): Subject {
  return {
    kind: o.kind,
    apiVersion: o.apiVersion,
    ...(o.metadata.namespace ? {namespace: o.metadata.namespace} : {}),
    name: o.metadata.name,
    uid: o.metadata.uid,
  }
}

function blockedForever(r: GcReplay): boolean {
  for (const b of r.blocking ?? []) {
    const v = b.replay?.verdict
    if (v === 'stuckRestMapping' || v === 'stuckNamespacedOwnerOfClusterScopedObject' || v === 'notMonitored') return true
    if (b.replay && blockedForever(b.replay)) return true
  }
  return false
}

export function gcSeverity(r: GcReplay): Severity {
  switch (r.verdict) {
    case 'keep':
    case 'noOwners':
      return 'none'
    case 'notMonitored':
      return r.steps.some((s) => s.result === 'finalizer never removed') ? 'warning' : 'none'
    case 'patchRemoveOwnerRefs':
    case 'waitBeingDeleted':
    case 'orphanDependentsThenRemoveFinalizer':
      return 'info'
    case 'waitForBlockingDependents':
      return blockedForever(r) ? 'critical' : 'warning'
    case 'unknown':
      // No severity above info rests on missing evidence (issue 12): an owner the data cannot show is not a read error.
      // Nor does a dependent kind the data may not hold all of (issue 27 point 4: absence before "unblocked").
      if (r.steps.at(-1)?.rule === 'blockingDependents') return 'info'
      return missingEvidence(r.abortedAt === undefined ? undefined : r.refs[r.abortedAt]) ? 'info' : 'warning'
    default:
      return 'warning'
  }
}

function missingEvidence(x: RefReport | undefined): boolean {
  return x?.unknownReason === 'notInData' || x?.unknownReason === 'nameOnly' || x?.unknownReason === 'servedUnknown'
}

function refsText(r: GcReplay, outcome: RefOutcome): string {
  return r.refs
    .filter((x) => x.outcome === outcome)
    .map((x) => `${x.ref.kind} ${x.ref.name}`)
    .join(', ')
}

function danglingText(r: GcReplay): string {
  return r.refs
    .filter((x) => x.outcome === 'dangling')
    .map((x) =>
      x.danglingReason === 'uidMismatch'
        ? `${x.ref.kind} ${x.ref.name} uid ${x.ref.uid} no longer exists (a ${x.ref.kind} of that name exists with uid ${x.lookup?.foundUid})`
        : `${x.ref.kind} ${x.ref.name} uid ${x.ref.uid} no longer exists${x.lookup?.namespace ? ` in ${x.lookup.namespace}` : ''}`,
    )
    .join('; ')
}

export function gcSummary(r: GcReplay): string {
  const n = r.refs.length
  const aborted = r.abortedAt === undefined ? undefined : r.refs[r.abortedAt]
  switch (r.verdict) {
    case 'keep':
      return `Kept: ${n === 1 ? 'its owner' : `all ${n} owners`} (${refsText(r, 'solid')}) ${n === 1 ? 'exists' : 'exist'} with the uids it names; the garbage collector keeps it.`
    case 'patchRemoveOwnerRefs':
      return `Kept, because ${refsText(r, 'solid')} is a solid owner; the collector patches off the other reference(s) (uids ${r.removeOwnerUIDs?.join(', ')}): ${[danglingText(r), refsText(r, 'waitingForDependentsDeletion') ? `${refsText(r, 'waitingForDependentsDeletion')} is being deleted in the foreground` : ''].filter(Boolean).join('; ')}.`
    case 'delete': {
      const dangling = r.refs.filter((x) => x.outcome === 'dangling').length
      const waiting = r.refs.filter((x) => x.outcome === 'waitingForDependentsDeletion').length
      const why =
        dangling === n
          ? `All ${n} owner reference${n === 1 ? ' is' : 's are'} dangling: ${danglingText(r)}.`
          : `No solid owner: ${[danglingText(r), waiting > 0 ? `${refsText(r, 'waitingForDependentsDeletion')} ${waiting === 1 ? 'is' : 'are'} being deleted in the foreground and waiting for dependents` : ''].filter(Boolean).join('; ')}.`
      const how = r.unblockOwnerRefsFirst
        ? ' The collector first sets blockOwnerDeletion=false on its blocking refs (a dependent of it is itself deleting dependents: a possible cycle), then deletes it with Foreground propagation.'
        : r.propagationPolicy === 'Foreground' && waiting > 0 && (r.dependentCount ?? 0) > 0
          ? ` It has ${r.dependentCount} dependent(s) of its own, so the collector deletes it with Foreground propagation.`
          : ` The collector deletes it with ${r.propagationPolicy} propagation.`
      return why + how + (r.virtual ? ' (Evaluated as a virtual node: its type is not monitored, but monitored objects name it as an owner.)' : '')
    }
    case 'noOwners':
      return 'No owner references: the garbage collector has nothing to collect and does not delete it.'
    case 'waitBeingDeleted': {
      const f = r.item.metadata.finalizers ?? []
      return `Being deleted (since ${r.item.metadata.deletionTimestamp}) without foregroundDeletion: the collector waits. ${f.length === 0 ? (isNamespace(r.item) ? 'No metadata finalizer is left; a Namespace also waits for spec.finalizers ("kubernetes"), which the namespace controller removes once all its content is deleted.' : 'No finalizer is left, so the API server should remove it shortly.') : `It is held by ${f.map((x) => `"${x}"`).join(', ')}, which the collector does not handle: the controller owning ${f.length === 1 ? 'that finalizer' : 'those finalizers'} must remove ${f.length === 1 ? 'it' : 'them'}.`}`
    }
    case 'removeFinalizer':
      return `Being deleted in the foreground (since ${r.item.metadata.deletionTimestamp}) and no dependent blocks it any more: the collector should remove foregroundDeletion now${
        (r.item.metadata.finalizers ?? []).length > 1
          ? ` (it then still waits for ${(r.item.metadata.finalizers ?? [])
              .filter((f) => f !== 'foregroundDeletion')
              .map((x) => `"${x}"`)
              .join(', ')})`
          : ''
      }. If it stays, suspect the collector (down or lagging), a rejected finalizer patch, or a blocking dependent you cannot see.`
    case 'waitForBlockingDependents': {
      const b = r.blocking ?? []
      const first = b
        .slice(0, 3)
        .map(
          (x) =>
            `${describeObject(x.dependent)}${x.replay ? ` (${x.replay.verdict}${x.replay.propagationPolicy ? ` ${x.replay.propagationPolicy}` : ''})` : ''}`,
        )
        .join(', ')
      return `Being deleted in the foreground (since ${r.item.metadata.deletionTimestamp}): ${b.length} dependent(s) with blockOwnerDeletion=true still hold it: ${first}${b.length > 3 ? ', …' : ''}.${blockedForever(r) ? ' At least one of them is never going to be removed by the collector: this deletion will not finish on its own.' : ''}`
    }
    case 'orphanDependentsThenRemoveFinalizer':
      return `Being deleted with the orphan finalizer: the collector removes this owner from the owner references of its ${r.dependentCount ?? 'graph'} dependent(s), then removes "orphan"; the dependents stay.`
    case 'stuckRestMapping':
      return `Stuck: owner reference #${(r.abortedAt ?? 0) + 1} names ${aborted?.ref.apiVersion}/${aborted?.ref.kind}, which this API server does not serve. The collector retries it forever and deletes nothing — even if every other owner is gone.`
    case 'stuckNamespacedOwnerOfClusterScopedObject':
      return `Stuck: this cluster-scoped object names a namespaced owner kind (${aborted?.ref.kind} ${aborted?.ref.name}), which is invalid. The collector gives up on it: it is never deleted or patched.`
    case 'notMonitored':
      return `Not monitored: ${r.steps[0]?.why ?? 'the collector does not watch this type'}.`
    case 'unknown':
      if (aborted?.unknownReason === 'servedUnknown')
        return `Unknown: owner reference #${(r.abortedAt ?? 0) + 1} names ${aborted.ref.apiVersion}/${aborted.ref.kind}, and the data records no API discovery to show whether the server serves that version. If it does, the collector reads ${aborted.ref.kind} ${aborted.ref.name} at it (kept if it exists with uid ${aborted.ref.uid}); if not, the REST mapping fails and the collector retries forever (stuck). Which one this data cannot tell.`
      if (aborted && missingEvidence(aborted)) {
        const solidBefore = r.refs.slice(0, r.abortedAt).some((x) => x.outcome === 'solid')
        return `Unknown: ${aborted.why.split('. ')[0]}. ${
          solidBefore
            ? `It stays either way (an earlier owner is solid); whether the collector patches off the reference to ${aborted.ref.kind} ${aborted.ref.name}`
            : `The collector keeps it if its owner ${aborted.ref.kind} ${aborted.ref.name} exists with uid ${aborted.ref.uid}, and deletes it otherwise; which one`
        } this data cannot tell.`
      }
      if (r.verdict === 'unknown' && r.steps.at(-1)?.rule === 'blockingDependents')
        return `Unknown: being deleted in the foreground (since ${r.item.metadata.deletionTimestamp}) and no dependent in the data blocks it, but the data may not hold every dependent: whether one still blocks it is not in the data. ${r.steps.at(-1)?.why.split('; the list that settles it: ')[1] ? `The list that settles it: ${r.steps.at(-1)?.why.split('; the list that settles it: ')[1]}.` : ''}`
      return aborted
        ? `Unknown: owner ${aborted.ref.kind} ${aborted.ref.name} could not be read (${typeof aborted.lookup?.status === 'number' ? aborted.lookup.status : (aborted.lookup?.error ?? 'error')}). The collector would read it (it may get every type) and retries on errors; this tool does not guess it is dangling.`
        : 'Unknown: the replay is incomplete (reads it needs were not done).'
  }
}

function refReports(r: GcReplay): GcOwnerRefReport[] {
  return r.refs.map((x) => ({
    apiVersion: x.ref.apiVersion,
    kind: x.ref.kind,
    name: x.ref.name,
    uid: x.ref.uid,
    ...(x.ref.controller !== undefined ? {controller: x.ref.controller} : {}),
    ...(x.ref.blockOwnerDeletion !== undefined ? {blockOwnerDeletion: x.ref.blockOwnerDeletion} : {}),
    classification: x.outcome,
    ...(x.danglingReason ? {reason: x.danglingReason} : {}),
    ...(x.unknownReason ? {unknownReason: x.unknownReason} : {}),
    why: x.why,
    ...(x.lookup ? {get: x.lookup.path} : {}),
    ...(x.lookup?.status !== undefined ? {status: x.lookup.status} : {}),
    ...(x.lookup?.foundUid ? {foundUid: x.lookup.foundUid} : {}),
    reachedByCollector: x.reachedByCollector,
  }))
}

function blockingReports(list: readonly BlockingReport[]): GcBlockingReport[] {
  return list.map((b) =>
    b.replay
      ? {
          subject: subjectOf(b.dependent),
          verdict: b.replay.verdict,
          severity: gcSeverity(b.replay),
          summary: gcSummary(b.replay),
          ownerReferences: refReports(b.replay),
          ...(b.replay.blocking ? {blockingDependents: blockingReports(b.replay.blocking)} : {}),
        }
      : {subject: subjectOf(b.dependent), notExplained: b.notExplained},
  )
}

/** One step per blocking dependent (recursively), so every renderer shows why each is still there. */
function blockingSteps(list: readonly BlockingReport[] | undefined, depth = 1): Step[] {
  const out: Step[] = []
  for (const b of list ?? []) {
    const who = `${'  '.repeat(depth - 1)}${describeObject(b.dependent)}`
    if (!b.replay) {
      out.push({
        rule: 'blocking dependent',
        upstream: 'pkg/controller/garbagecollector/garbagecollector.go:697-713',
        result: 'not explained',
        why: `${who}: ${b.notExplained}`,
      })
      continue
    }
    out.push({
      rule: 'blocking dependent',
      upstream: 'pkg/controller/garbagecollector/garbagecollector.go:697-713',
      result: `${b.replay.verdict}${b.replay.propagationPolicy ? ` ${b.replay.propagationPolicy}` : ''}`,
      inputs: {dependent: subjectOf(b.dependent), depth},
      why: `${who}: ${gcSummary(b.replay)}`,
    })
    out.push(...blockingSteps(b.replay.blocking, depth + 1))
  }
  return out
}

export function explainGc(r: GcReplay, evaluatedAt: Date, source: SourceDescription): GcExplanation {
  const m = r.item.metadata
  const e: GcExplanation = {
    subject: subjectOf(r.item),
    controller: 'garbagecollector',
    verdict: r.verdict,
    severity: gcSeverity(r),
    summary: gcSummary(r),
    steps: [...r.steps, ...blockingSteps(r.blocking)],
    evaluatedAt: evaluatedAt.toISOString(),
    source,
    ownerReferences: refReports(r),
    collectorRequests: r.collectorRequests,
  }
  if (r.propagationPolicy) e.propagationPolicy = r.propagationPolicy
  if (r.unblockOwnerRefsFirst !== undefined) e.unblockOwnerRefsFirst = r.unblockOwnerRefsFirst
  if (r.removeOwnerUIDs) e.removeOwnerUIDs = r.removeOwnerUIDs
  if (r.finalizer) e.finalizer = r.finalizer
  if (m.deletionTimestamp) e.deletionTimestamp = m.deletionTimestamp
  if (m.finalizers && m.finalizers.length > 0) e.finalizers = m.finalizers
  if (r.blocking) e.blockingDependents = blockingReports(r.blocking)
  if (r.dependentsToOrphan) e.dependentsToOrphan = r.dependentsToOrphan.map(subjectOf)
  if (r.dependentCount !== undefined) e.dependentCount = r.dependentCount
  if (r.events.length > 0) e.events = r.events
  if (r.virtual) e.virtualNode = true
  const next = gcNext(r)
  if (next) e.next = next
  return e
}

/** --all: how bad each verdict is, for sorting (worst first), then by namespace/kind/name. */
const VERDICT_ORDER: GcVerdict[] = [
  'waitForBlockingDependents',
  'stuckRestMapping',
  'stuckNamespacedOwnerOfClusterScopedObject',
  'delete',
  'removeFinalizer',
  'unknown',
  'patchRemoveOwnerRefs',
  'orphanDependentsThenRemoveFinalizer',
  'waitBeingDeleted',
  'notMonitored',
  'keep',
  'noOwners',
]
const SEVERITY_ORDER: Severity[] = ['critical', 'warning', 'info', 'none']

export function compareFindings(a: GcExplanation, b: GcExplanation): number {
  return (
    SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
    VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) ||
    compareStrings(a.subject.namespace ?? '', b.subject.namespace ?? '') ||
    compareStrings(a.subject.kind, b.subject.kind) ||
    compareStrings(a.subject.name, b.subject.name)
  )
}

/** The verdicts `gc --all` lists: everything the collector would act on, or is stuck on. */
export const ACTIONABLE_VERDICTS: ReadonlySet<GcVerdict> = new Set<GcVerdict>([
  'delete',
  'patchRemoveOwnerRefs',
  'removeFinalizer',
  'waitForBlockingDependents',
  'orphanDependentsThenRemoveFinalizer',
  'stuckRestMapping',
  'stuckNamespacedOwnerOfClusterScopedObject',
  'unknown',
])
