// The namespace controller's deletion pass, replayed from what the data shows (issue 26 item 2; rules in
// ../shared/docs/decisions/cleanups.md §1). Upstream: pkg/controller/namespace/deletion/namespaced_resources_deleter.go
// Delete → deleteAllContent → deleteAllContentForGroupVersionResource → finalizeNamespace. The controller removes its
// spec.finalizers token "kubernetes" only in a pass where discovery returned no error, every GroupVersion parsed,
// every deletable type listed empty, and no pod is still in its grace period (estimate 0). Pure: objects, clock and
// version in; no I/O.
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, NextStep, Severity, Step} from '../../explanation.js'
import {
  CONTENT_FAILURE,
  CONTENT_REMAINING,
  conditionsOf,
  DISCOVERY_FAILURE,
  FINALIZERS_REMAINING,
  failedGroupVersions,
  GV_PARSING_FAILURE,
  NSC,
  type NamespaceCondition,
  remainingFinalizers,
  remainingResources,
  trueCondition,
} from './conditions.js'

export const NSD = 'pkg/controller/namespace/deletion/namespaced_resources_deleter.go'
/** v1.FinalizerKubernetes (k8s.io/api core/v1/types.go). */
export const FINALIZER_KUBERNETES = 'kubernetes'
/** namespaced_resources_deleter.go finalizerEstimateSeconds: the wait assumed for an item held by finalizers. */
export const FINALIZER_ESTIMATE_SECONDS = 15
/** OrderedNamespaceDeletion: beta and on by default from 1.33, GA from 1.34 (cleanups.md §1.8). */
export const ORDERED_DELETION_MINOR = 33

/** One namespaced type the controller deletes (discovery: namespaced, verb delete), and what the data holds of it. */
export interface ContentType {
  group: string
  version: string
  resource: string
  kind: string
  /** proof: the items are all there are; partial: the data shows these, there may be more; none: the data cannot show this type. */
  coverage: 'proof' | 'partial' | 'none'
  /** Why the coverage is what it is, for the explanation. */
  why?: string
  items: KubeObject[]
}

export interface NamespaceInput {
  namespace: KubeObject
  content: ContentType[]
  /** APIService objects (apiregistration.k8s.io); undefined when the data cannot show them. */
  apiServices?: KubeObject[]
  /** Why apiServices is undefined. */
  apiServicesWhy?: string
  now: Date
  minor?: number
}

export type NamespaceVerdict =
  | 'notDeleting'
  | 'finalized'
  | 'blockedByDiscovery'
  | 'blockedByGroupVersionParsing'
  | 'blockedByContentFailure'
  | 'waitingForPods'
  | 'waitingForFinalizers'
  | 'waitingForContent'
  | 'contentNotInData'
  | 'willFinalize'

export interface NamespaceReplay {
  verdict: NamespaceVerdict
  severity: Severity
  headline: string
  actor: Actor
  steps: Step[]
  /** Seconds the controller estimates before the content is gone (deleteAllContent's estimate). */
  estimateSeconds?: number
  /** What holds the namespace, worst first; empty when nothing does. */
  blockers: Blocker[]
}

export interface Blocker {
  kind: NamespaceVerdict
  text: string
  evidence: string[]
  next: NextStep[]
}

interface Meta {
  name: string
  namespace?: string
  deletionTimestamp?: string | null
  finalizers?: string[]
  creationTimestamp?: string | null
}

function meta(o: KubeObject): Meta {
  return (o.metadata ?? {}) as Meta
}

function specFinalizers(ns: KubeObject): string[] {
  const f = (ns.spec as {finalizers?: unknown} | undefined)?.finalizers
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : []
}

/** finalizeNamespace: the spec.finalizers it writes back through the finalize subresource (the set minus "kubernetes", sorted). */
export function finalizedSpec(finalizers: readonly string[]): string[] {
  return [...new Set(finalizers.filter((f) => f !== FINALIZER_KUBERNETES))].sort()
}

function typeName(t: {resource: string; group: string}): string {
  return `${t.resource}.${t.group}`
}

function kubectlType(t: {resource: string; group: string}): string {
  return t.group === '' ? t.resource : `${t.resource}.${t.group}`
}

function seconds(a: string, b: Date): number {
  return (b.getTime() - Date.parse(a)) / 1000
}

/**
 * estimateGracefulTerminationForPods (namespaced_resources_deleter.go): the largest terminationGracePeriodSeconds of
 * the pods not Succeeded or Failed; then deleteAllContentForGroupVersionResource drops it to 0 once that long has
 * passed since the namespace's deletionTimestamp.
 */
export function podEstimate(pods: readonly KubeObject[], deletionTimestamp: string, now: Date): number {
  let estimate = 0
  for (const p of pods) {
    const phase = (p.status as {phase?: string} | undefined)?.phase
    if (phase === 'Succeeded' || phase === 'Failed') continue
    const g = (p.spec as {terminationGracePeriodSeconds?: number} | undefined)?.terminationGracePeriodSeconds
    if (typeof g === 'number' && g > estimate) estimate = g
  }
  if (seconds(deletionTimestamp, now) >= estimate) return 0
  return estimate
}

function availableOf(a: KubeObject): NamespaceCondition | undefined {
  return conditionsOf(a.status).find((c) => c.type === 'Available')
}

function conditionText(c: NamespaceCondition | undefined): string {
  if (!c) return 'no Available condition'
  return `Available=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${c.message}` : ''}`
}

function objectText(o: KubeObject, t: ContentType): string {
  const m = meta(o)
  const f = m.finalizers ?? []
  return `${t.kind} ${m.name}${f.length > 0 ? ` (${f.map((x) => `"${x}"`).join(', ')})` : ''}${m.deletionTimestamp ? ', being deleted' : ''}`
}

function whyGc(t: ContentType, o: KubeObject, ns: string): string {
  return `kubectl why gc ${kubectlType(t)}/${meta(o).name} -n ${ns}`
}

export function replayNamespace(input: NamespaceInput): NamespaceReplay {
  const ns = input.namespace
  const m = meta(ns)
  const name = m.name
  const steps: Step[] = []
  const spec = specFinalizers(ns)
  const actor = (action: Actor['action'], rule: string, evidence: string[], next: NextStep[], at?: string): Actor => ({
    actor: 'namespace',
    action,
    ...(at ? {at} : {}),
    rule,
    evidence,
    next,
  })

  if (!m.deletionTimestamp) {
    steps.push({rule: 'Delete', upstream: `${NSD} Delete`, result: 'not deleting', why: 'no deletionTimestamp: the namespace controller does nothing'})
    return {
      verdict: 'notDeleting',
      severity: 'none',
      headline: `Namespace ${name} is not being deleted.`,
      actor: actor('none', 'Delete', ['no metadata.deletionTimestamp'], []),
      steps,
      blockers: [],
    }
  }
  const since = m.deletionTimestamp
  const others = spec.filter((f) => f !== FINALIZER_KUBERNETES)
  if (!spec.includes(FINALIZER_KUBERNETES)) {
    steps.push({
      rule: 'finalized',
      upstream: `${NSD} Delete, finalized`,
      inputs: {specFinalizers: spec},
      result: 'finalized',
      why:
        others.length === 0
          ? (m.finalizers ?? []).length > 0
            ? `spec.finalizers is empty: the namespace controller has finished; metadata.finalizers still holds ${(m.finalizers ?? []).map((f) => `"${f}"`).join(', ')}, and the API server removes the namespace once their holders remove them`
            : 'spec.finalizers is empty: the namespace controller has finished; the API server removes the namespace once metadata.finalizers is empty too'
          : `the namespace controller has removed "kubernetes"; spec.finalizers still holds ${others.map((f) => `"${f}"`).join(', ')}, which belong to other controllers`,
    })
    const blockers: Blocker[] = others.map((f) => ({
      kind: 'finalized' as const,
      text: `spec.finalizers "${f}" (not the namespace controller's: the component that added it removes it)`,
      evidence: [`spec.finalizers: ${JSON.stringify(spec)}`],
      next: [
        {
          change: `Namespace ${name}: spec.finalizers "${f}"`,
          why: `find the component that added "${f}" (often a platform's own namespace controller) and why it has not finished`,
        },
      ],
    }))
    return {
      verdict: 'finalized',
      severity: others.length > 0 ? 'warning' : 'info',
      headline:
        others.length > 0
          ? `Namespace ${name} is held by spec.finalizers ${others.map((f) => `"${f}"`).join(', ')}: the namespace controller has done its part.`
          : `Namespace ${name}: the namespace controller has finished (spec.finalizers is empty); the API server removes it once metadata.finalizers is empty.`,
      actor: actor('none', 'finalizeNamespace', [`spec.finalizers: ${JSON.stringify(spec)}`], []),
      steps,
      blockers,
    }
  }

  const conditions = conditionsOf(ns.status)
  const blockers: Blocker[] = []
  const evidence: string[] = [`deletionTimestamp ${since}`, `spec.finalizers: ${JSON.stringify(spec)}`]
  const ordered = input.minor === undefined || input.minor >= ORDERED_DELETION_MINOR

  // 1. Discovery: any error from discoverResourcesFn is kept (deleteAllContent) and returned, so finalizeNamespace is
  // never reached while one GroupVersion fails, however empty the namespace is.
  const discovery = trueCondition(conditions, DISCOVERY_FAILURE)
  const apiServices = input.apiServices
  const unavailable = (apiServices ?? []).filter((a) => availableOf(a)?.status !== 'True')
  if (discovery) {
    const gvs = failedGroupVersions(discovery.message ?? '')
    const named = gvs.map((gv) => {
      const apiName = `${gv.version}.${gv.group}`
      const a = apiServices?.find((x) => meta(x).name === apiName)
      return {gv, apiName, a}
    })
    const lines = named.map(({gv, apiName, a}) =>
      a
        ? `APIService ${apiName}: ${conditionText(availableOf(a))}`
        : apiServices === undefined
          ? `${gv.group}/${gv.version} (${gv.error}): APIService ${apiName} is not in the data (${input.apiServicesWhy ?? 'no APIService was read'})`
          : `${gv.group}/${gv.version} (${gv.error}): no APIService ${apiName} in the data`,
    )
    const next: NextStep[] = named.map(({apiName, a}) => ({
      command: `kubectl get apiservice ${apiName} -o yaml`,
      why: `${a ? `its ${conditionText(availableOf(a))}` : 'discovery of its GroupVersion fails'}: fix the service behind it (or delete the APIService if that API is no longer needed); until discovery succeeds the namespace controller never removes "kubernetes"`,
    }))
    if (named.length === 0)
      next.push({command: 'kubectl get apiservices', why: 'discovery fails for some GroupVersion: look for an APIService that is not Available'})
    steps.push({
      rule: 'deleteAllContent: discovery',
      upstream: `${NSD} deleteAllContent; ${NSC} updateConditions`,
      inputs: {condition: discovery},
      result: 'discovery failed',
      why: `${DISCOVERY_FAILURE}=True (${discovery.reason ?? ''}): ${named.length > 0 ? named.map((x) => `${x.gv.group}/${x.gv.version}`).join(', ') : 'some GroupVersion'} could not be discovered. A discovery error is not fatal to the deletion of the rest, but it is returned, so the pass never reaches finalizeNamespace`,
    })
    blockers.push({
      kind: 'blockedByDiscovery',
      text: `discovery fails for ${named.length > 0 ? named.map((x) => `${x.gv.group}/${x.gv.version}`).join(', ') : 'some groups'}${
        named.some((x) => x.a)
          ? ` (${named
              .filter((x) => x.a)
              .map((x) => `APIService ${x.apiName} ${conditionText(availableOf(x.a!)).split(':')[0]}`)
              .join(', ')})`
          : ''
      }`,
      evidence: [`${DISCOVERY_FAILURE}=True: ${discovery.message ?? ''}`, ...lines],
      next,
    })
  } else if (unavailable.length > 0) {
    // No condition says so (the last pass may predate it), but discovery of an unavailable APIService's GroupVersion
    // fails or comes back stale, which deleteAllContent returns as an error on the next pass.
    steps.push({
      rule: 'deleteAllContent: discovery',
      upstream: `${NSD} deleteAllContent; client-go discovery/aggregated_discovery.go StaleGroupVersionError`,
      result: 'discovery will fail',
      why: `${unavailable.map((a) => `APIService ${meta(a).name} ${conditionText(availableOf(a))}`).join('; ')}: discovery of ${unavailable.length === 1 ? 'its GroupVersion' : 'their GroupVersions'} fails, and the namespace controller does not finalize while it does (the namespace's conditions do not show it yet)`,
      inferred: {evidence: 'the APIService status, not the namespace condition', confidence: 'likely'},
    })
    blockers.push({
      kind: 'blockedByDiscovery',
      text: `APIService ${unavailable.map((a) => meta(a).name).join(', ')} ${unavailable.length === 1 ? 'is' : 'are'} not Available, so discovery fails`,
      evidence: unavailable.map((a) => `APIService ${meta(a).name}: ${conditionText(availableOf(a))}`),
      next: unavailable.map((a) => ({
        command: `kubectl get apiservice ${meta(a).name} -o yaml`,
        why: 'fix the service behind it, or delete the APIService if that API is no longer needed',
      })),
    })
  } else {
    steps.push({
      rule: 'deleteAllContent: discovery',
      upstream: `${NSD} deleteAllContent`,
      result: 'no discovery failure shown',
      why: `${conditions.length === 0 ? 'the namespace has no conditions yet' : `${DISCOVERY_FAILURE} is not True`}${apiServices === undefined ? `; ${input.apiServicesWhy ?? 'the data holds no APIService'}, so an unavailable one cannot be ruled out` : '; every APIService in the data is Available'}`,
    })
  }

  // 2. GroupVersion parsing and content-deletion failures: errors too, so no finalize.
  const parsing = trueCondition(conditions, GV_PARSING_FAILURE)
  if (parsing) {
    steps.push({rule: 'deleteAllContent: GroupVersionResources', upstream: `${NSD} deleteAllContent`, result: 'parse error', why: parsing.message ?? ''})
    blockers.push({
      kind: 'blockedByGroupVersionParsing',
      text: `a GroupVersion in discovery does not parse: ${parsing.message ?? ''}`,
      evidence: [`${GV_PARSING_FAILURE}=True: ${parsing.message ?? ''}`],
      next: [{command: 'kubectl api-versions', why: 'find the malformed group/version an aggregated API or CRD serves'}],
    })
  }
  const contentFailure = trueCondition(conditions, CONTENT_FAILURE)
  if (contentFailure) {
    steps.push({
      rule: 'deleteAllContentForGroupVersionResource',
      upstream: `${NSD} deleteAllContentForGroupVersionResource`,
      result: 'delete failed',
      why: `${CONTENT_FAILURE}=True: ${contentFailure.message ?? ''} (RBAC of the namespace controller, a webhook refusing DELETE, a CRD whose LIST fails, or items that remain without finalizers)`,
    })
    blockers.push({
      kind: 'blockedByContentFailure',
      text: `deleting some content fails: ${contentFailure.message ?? ''}`,
      evidence: [`${CONTENT_FAILURE}=True: ${contentFailure.message ?? ''}`],
      next: [
        {
          command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 | grep -i namespace',
          why: 'the controller log names the failing delete or list',
        },
      ],
    })
  }

  // 3. Content in the data, pods first when deletion is ordered.
  const pods = input.content.find((t) => t.group === '' && t.resource === 'pods')
  const estimate = pods ? podEstimate(pods.items, since, input.now) : 0
  const present = input.content.filter((t) => t.items.length > 0)
  const waitingPods = ordered && pods !== undefined && pods.items.length > 0
  const remaining = waitingPods ? [pods] : present
  const withFinalizers: {t: ContentType; o: KubeObject}[] = []
  const plain: {t: ContentType; o: KubeObject}[] = []
  for (const t of remaining) for (const o of t.items) ((meta(o).finalizers ?? []).length > 0 ? withFinalizers : plain).push({t, o})
  if (present.length > 0) {
    steps.push({
      rule: 'deleteAllContent',
      upstream: `${NSD} deleteAllContent, deleteAllContentForGroupVersionResource`,
      inputs: {remaining: Object.fromEntries(present.map((t) => [typeName(t), t.items.length]))},
      result: waitingPods ? 'waiting for pods' : 'content remains',
      why: `${present.map((t) => `${kubectlType(t)}: ${t.items.length}`).join(', ')} in the data${
        waitingPods
          ? `; with ordered deletion (${input.minor === undefined ? 'assumed: the version is not known' : `1.${input.minor}`}) pods go first: while any pod remains no other type is deleted in the pass`
          : ''
      }`,
    })
  }
  if (pods && pods.items.length > 0) {
    steps.push({
      rule: 'estimateGracefulTerminationForPods',
      upstream: `${NSD} estimateGracefulTerminationForPods, deleteAllContentForGroupVersionResource`,
      inputs: {pods: pods.items.length, deletionTimestamp: since},
      result: `estimate ${estimate}s`,
      why:
        estimate > 0
          ? `the longest terminationGracePeriodSeconds of the pods not Succeeded or Failed is ${estimate}s, not yet passed since the namespace's deletionTimestamp`
          : "the pods' grace periods have passed since the namespace's deletionTimestamp (or they are Succeeded/Failed): estimate 0",
    })
  }
  if (withFinalizers.length > 0) {
    const byFinalizer = new Map<string, number>()
    for (const {o} of withFinalizers) for (const f of meta(o).finalizers ?? []) byFinalizer.set(f, (byFinalizer.get(f) ?? 0) + 1)
    blockers.push({
      kind: 'waitingForFinalizers',
      text: `${withFinalizers.length} object(s) held by finalizers: ${withFinalizers
        .slice(0, 3)
        .map(({t, o}) => objectText(o, t))
        .join('; ')}${withFinalizers.length > 3 ? '; …' : ''}`,
      evidence: [...byFinalizer].map(([f, n]) => `${f} in ${n} resource instances (in the data)`),
      next: withFinalizers.slice(0, 5).map(({t, o}) => ({
        command: whyGc(t, o, name),
        why: `${objectText(o, t)}: who holds ${(meta(o).finalizers ?? []).length === 1 ? 'its finalizer' : 'its finalizers'} and what would release ${(meta(o).finalizers ?? []).length === 1 ? 'it' : 'them'}`,
      })),
    })
  }
  if (waitingPods && estimate > 0) {
    const at = new Date(Date.parse(since) + estimate * 1000).toISOString()
    blockers.push({
      kind: 'waitingForPods',
      text: `${pods.items.length} pod(s) still in their grace period (estimate ${estimate}s, until ${at})`,
      evidence: pods.items.slice(0, 5).map((o) => objectText(o, pods)),
      next: [
        {
          command: `kubectl get pods -n ${name}`,
          why: 'the pods end when their containers stop; the namespace controller requeues after estimate/2 + 1 seconds',
        },
      ],
    })
  } else if (plain.length > 0) {
    blockers.push({
      kind: waitingPods ? 'waitingForPods' : 'waitingForContent',
      text: `${plain.length} object(s) without finalizers remain: ${plain
        .slice(0, 3)
        .map(({t, o}) => objectText(o, t))
        .join('; ')}${plain.length > 3 ? '; …' : ''}`,
      evidence: [`deleted on the controller's next pass (DELETE with propagationPolicy Background); one that stays becomes a ${CONTENT_FAILURE} entry`],
      next: plain.slice(0, 3).map(({t, o}) => ({command: whyGc(t, o, name), why: `${objectText(o, t)}: why it is still there`})),
    })
  }

  // 4. The namespace's own counts, checked against the data: a type the data cannot show is not proved empty.
  const contentCond = trueCondition(conditions, CONTENT_REMAINING)
  const finalizersCond = trueCondition(conditions, FINALIZERS_REMAINING)
  const unchecked: string[] = []
  if (contentCond) {
    const checks: string[] = []
    for (const r of remainingResources(contentCond.message ?? '')) {
      const t = input.content.find((c) => c.resource === r.resource && c.group === r.group)
      if (!t || t.coverage === 'none') {
        unchecked.push(`${r.resource}.${r.group} has ${r.count} resource instances`)
        checks.push(`${r.resource}.${r.group}: the condition counts ${r.count}; ${t?.why ?? 'the data cannot show this type'}`)
      } else if (t.items.length !== r.count) {
        checks.push(
          `${r.resource}.${r.group}: the condition counts ${r.count}, the data holds ${t.items.length} (the condition is from the controller's last pass)`,
        )
      } else checks.push(`${r.resource}.${r.group}: ${r.count}, as in the data`)
    }
    steps.push({
      rule: 'ProcessContentTotals',
      upstream: `${NSC} ProcessContentTotals, updateConditions`,
      inputs: {condition: contentCond},
      result: unchecked.length > 0 ? 'not all in the data' : 'checked',
      why: checks.join('; ') || (contentCond.message ?? ''),
    })
  }
  if (finalizersCond) {
    steps.push({
      rule: 'ProcessContentTotals',
      upstream: `${NSC} ProcessContentTotals, updateConditions`,
      inputs: {condition: finalizersCond},
      result: 'finalizers remaining',
      why: remainingFinalizers(finalizersCond.message ?? '')
        .map((f) => `${f.finalizer} in ${f.count} resource instances`)
        .join(', '),
    })
  }
  if (ordered && waitingPods && !contentCond) {
    steps.push({
      rule: 'deleteAllContent: ordered',
      upstream: `${NSD} deleteAllContent (OrderedNamespaceDeletion)`,
      result: 'conditions not trusted',
      why: `during the pods-first phase the controller updates the conditions without ProcessContentTotals, so ${CONTENT_REMAINING}/${FINALIZERS_REMAINING} show their OK variants while pods remain (kubernetes/kubernetes#138208)`,
    })
  }
  if (unchecked.length > 0 && blockers.every((b) => b.kind === 'blockedByDiscovery' || b.kind === 'blockedByGroupVersionParsing')) {
    blockers.push({
      kind: 'contentNotInData',
      text: `the namespace's own condition says ${unchecked.join(', ')}, which the data does not hold`,
      evidence: [`${CONTENT_REMAINING}=True: ${contentCond?.message ?? ''}`],
      next: [
        {
          command: `kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n ${name}`,
          why: 'lists what is left in the namespace, every type',
        },
      ],
    })
  }
  if (others.length > 0) evidence.push(`spec.finalizers also holds ${others.map((f) => `"${f}"`).join(', ')}: other controllers remove those`)
  // "Nothing holds it" rests on absence (issue 27 point 4): a type the data lacks, or holds only in part, shows none of
  // its objects without proving there are none.
  const unproven = input.content.filter((t) => t.items.length === 0 && t.coverage !== 'proof')
  const unseenText =
    unproven.length > 0
      ? `the data cannot show every object of ${unproven.length} deletable type(s) (${unproven.slice(0, 4).map(typeName).join(', ')}${unproven.length > 4 ? ', …' : ''})`
      : ''

  if (blockers.length === 0) {
    // Nothing shown holds it: the next pass deletes nothing, lists everything empty and calls finalize.
    const sure = unproven.length === 0 && apiServices !== undefined
    steps.push({
      rule: 'finalizeNamespace',
      upstream: `${NSD} Delete, finalizeNamespace`,
      inputs: {specFinalizers: spec, after: finalizedSpec(spec)},
      result: 'finalize',
      why: `nothing in the data holds it: the next pass lists every type empty and removes "kubernetes" with PUT /api/v1/namespaces/${name}/finalize${sure ? '' : ` (${[unseenText, apiServices === undefined ? (input.apiServicesWhy ?? 'no APIService in the data') : ''].filter(Boolean).join('; ')}: not certain)`}`,
      ...(sure ? {} : {inferred: {evidence: 'the data does not show every type', confidence: 'possible' as const}}),
    })
    if (!sure) {
      // Unknown, not "will finalize": what the data lacks may hold it. The lists that settle it are named.
      const lacks = [unseenText, apiServices === undefined ? (input.apiServicesWhy ?? 'the data holds no APIService') : ''].filter(Boolean).join('; ')
      return {
        verdict: 'contentNotInData',
        severity: 'info',
        headline: `Namespace ${name} is Terminating since ${since}: nothing in the data holds it, but ${lacks}, so whether the namespace controller removes its "kubernetes" finalizer on its next pass cannot be told.`,
        actor: actor(
          'none',
          'finalizeNamespace',
          [...evidence, lacks],
          [
            {
              command: `kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n ${name}`,
              why: 'lists what is left in the namespace, every type: the content the data lacks',
            },
            ...(apiServices === undefined
              ? [{command: 'kubectl get apiservices', why: 'an APIService that is not Available fails discovery and holds the namespace'}]
              : []),
          ],
        ),
        steps,
        estimateSeconds: estimate,
        blockers,
      }
    }
    return {
      verdict: 'willFinalize',
      severity: 'info',
      headline: `The namespace controller removes its "kubernetes" finalizer from Namespace ${name} on its next pass (at most 5 minutes, the namespace-sync-period): nothing in the data holds it.`,
      actor: actor('willDelete', 'finalizeNamespace', evidence, [
        {command: `kubectl get namespace ${name} -o yaml`, why: 'if it stays Terminating, its conditions name what the controller found'},
      ]),
      steps,
      estimateSeconds: estimate,
      blockers,
    }
  }
  const first = blockers[0]
  const severity: Severity = blockers.some((b) =>
    ['blockedByDiscovery', 'blockedByGroupVersionParsing', 'blockedByContentFailure', 'waitingForFinalizers', 'contentNotInData'].includes(b.kind),
  )
    ? 'warning'
    : 'info'
  const release =
    first.kind === 'blockedByDiscovery'
      ? 'it is released when discovery succeeds again'
      : first.kind === 'waitingForFinalizers'
        ? "it is released when those objects' finalizers are removed by their holders"
        : first.kind === 'waitingForPods'
          ? 'it is released when the pods are gone'
          : 'it is released when that content is gone'
  const headline = `Namespace ${name} is Terminating since ${since}, held by the namespace controller's "kubernetes" finalizer: ${first.text}; ${release}${
    blockers.length > 1
      ? `. Also: ${blockers
          .slice(1)
          .map((b) => b.text)
          .join('; ')}`
      : ''
  }.`
  return {
    verdict: first.kind,
    severity,
    headline,
    actor: actor(
      'blocksDeletion',
      first.kind === 'blockedByDiscovery' ? 'deleteAllContent' : 'deleteAllContentForGroupVersionResource',
      [...evidence, ...blockers.flatMap((b) => b.evidence), ...(unseenText ? [unseenText] : [])],
      blockers.flatMap((b) => b.next),
    ),
    steps,
    estimateSeconds: estimate,
    blockers,
  }
}
