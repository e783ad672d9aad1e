// The workload controllers' hash replays, for `kubectl why hash TYPE/NAME` and `--all` and the audit's hash check:
// what they read through the source (the informer's view — the watch cache — as the controllers see it; pods as
// metadata only) and how it hands that to the pure engines. One driver for three engines (deployment, daemonset,
// statefulset), which do not import each other. Reads that fail become reported problems; a workload whose data
// cannot be replayed is listed as skipped, never guessed.
import {BUILTIN_KINDS} from '../../cluster/builtin-kinds.js'
import {resolveResource} from '../../cluster/resolve.js'
import type {Target} from '../../cluster/target.js'
import {listAll, readProblem} from '../../cluster/read.js'
import type {ClusterSource, KubeObject, ListRequest} from '../../cluster/source.js'
import {explainDaemonSetHash} from '../daemonset/index.js'
import {MissingDataError} from '../deployment/claim.js'
import {checkUnowned, explainDeploymentHash, type UnownedRow, VERDICTS, WorkloadInputError} from '../deployment/index.js'
import type {LabelCheck} from '../history/label-check.js'
import type {PodMeta, ReplicaSet, Workload} from '../deployment/types.js'
import type {ControllerRevision, HashSettings} from '../history/types.js'
import {selectorQuery} from '../../apimachinery/labels.js'
import {explainStatefulSetHash} from '../statefulset/index.js'
import {UserError} from '../../errors.js'
import {EXPLANATION_VERSION, type Explanation, type Problem, type ReportHeader, reportScope, severityRank, type SourceDescription} from '../../explanation.js'
import {HashInputError} from '../../hash/errors.js'
import type {MinorVersion} from '../../util/parse.js'
import {chooseVersion} from '../../cluster/version.js'
import {newestKubelet, resolveHashSettings, resolveHashSettingsFor, type ResolvedHashSettings} from './hash-settings.js'
import {compareStrings} from '../../util/compare.js'

export type WorkloadKind = 'Deployment' | 'DaemonSet' | 'StatefulSet'
const KINDS: WorkloadKind[] = ['Deployment', 'DaemonSet', 'StatefulSet']

/** The object kubectl's argument forms name (src/cluster/target.ts) → a workload kind; anything else is a usage error. */
export function parseHashTarget(t: Target): {kind: WorkloadKind; name: string} {
  const type = resolveResource(BUILTIN_KINDS, t.type)
  if (!KINDS.includes(type.kind as WorkloadKind)) {
    throw new UserError(
      `kubectl why hash explains Deployments, DaemonSets and StatefulSets, not ${type.kind}`,
      "give deployment/NAME, daemonset/NAME or statefulset/NAME (a ReplicaSet's label is checked with --template)",
    )
  }
  return {kind: type.kind as WorkloadKind, name: t.name}
}

export interface HashContext {
  source: ClusterSource
  /** Neither --k8s-version nor a server version: the data has to tell (labels, then the Nodes' kubelets). */
  versionUnknown: boolean
  /** The version and layout: --k8s-version, the server's, else inferred from the labels of these objects. */
  resolve(objects: readonly KubeObject[], kubeletVersion?: string): ResolvedHashSettings
  describe(problems: Problem[]): SourceDescription
}

export async function hashContext(source: ClusterSource, override: MinorVersion | undefined): Promise<HashContext> {
  const server = await source.serverVersion().catch(() => undefined)
  let resolved: ResolvedHashSettings | undefined
  return {
    source,
    versionUnknown: chooseVersion(override, server) === undefined,
    resolve(objects, kubeletVersion) {
      resolved ??= resolveHashSettingsFor(override, server, objects, kubeletVersion)
      return resolved
    },
    describe(problems) {
      const r = resolved ?? resolveHashSettings(override, server)
      const d = source.describe()
      return {...d, k8sVersion: r.describe.value, settings: {...d.settings, k8sVersion: r.describe}, partial: [...(d.partial ?? []), ...problems]}
    },
  }
}

/** Only when no version is known (a plain dump): the Nodes' kubelets bound the control plane's age. */
async function kubeletHint(ctx: HashContext): Promise<string | undefined> {
  if (!ctx.versionUnknown) return undefined
  try {
    return newestKubelet((await ctx.source.list({apiVersion: 'v1', kind: 'Node'})).items)
  } catch {
    return undefined
  }
}

function inputError(err: unknown): string | undefined {
  if (err instanceof WorkloadInputError || err instanceof HashInputError) return err.message
  return undefined
}

function explain(
  kind: WorkloadKind,
  w: Workload,
  rel: {
    replicaSets?: ReplicaSet[]
    revisions?: ControllerRevision[]
    pods?: PodMeta[]
    rsByName?: Map<string, ReplicaSet>
    crByName?: Map<string, ControllerRevision>
  },
  settings: HashSettings,
  now: number,
  source: SourceDescription,
): Explanation {
  const base = {workload: w, settings, now, source, pods: rel.pods}
  if (kind === 'Deployment') return explainDeploymentHash({...base, replicaSets: rel.replicaSets ?? [], ...(rel.rsByName ? {byName: rel.rsByName} : {})})
  if (kind === 'DaemonSet') return explainDaemonSetHash({...base, controllerRevisions: rel.revisions ?? [], ...(rel.crByName ? {byName: rel.crByName} : {})})
  return explainStatefulSetHash({...base, controllerRevisions: rel.revisions ?? [], ...(rel.crByName ? {byName: rel.crByName} : {})})
}

const RESOURCE: Record<WorkloadKind, string> = {Deployment: 'deployments.apps', DaemonSet: 'daemonsets.apps', StatefulSet: 'statefulsets.apps'}
const SHORT: Record<WorkloadKind, string> = {Deployment: 'deploy', DaemonSet: 'ds', StatefulSet: 'sts'}

/** One workload: the object, its namespace's ReplicaSets or ControllerRevisions, and its pods' metadata. */
export async function explainHashTarget(ctx: HashContext, kind: WorkloadKind, namespace: string, name: string): Promise<Explanation> {
  const {source} = ctx
  const w = (await source.get({apiVersion: 'apps/v1', kind, namespace, name, view: 'cached'})) as Workload | undefined
  if (!w)
    throw new UserError(`${RESOURCE[kind]} "${name}" not found in namespace ${namespace}`, `list them with \`kubectl get ${SHORT[kind]} -n ${namespace}\``)
  const problems: Problem[] = []
  const relatedKind = kind === 'Deployment' ? 'ReplicaSet' : 'ControllerRevision'
  // Without the ReplicaSets (or revisions) nothing can be replayed: a failed read is an error, not a guess.
  const related = await listAll<KubeObject>(source, {apiVersion: 'apps/v1', kind: relatedKind, namespace, view: 'cached'})
  let pods: PodMeta[] | undefined
  try {
    const spec = w.spec as {selector?: Parameters<typeof selectorQuery>[0]} | undefined
    pods = await listAll<PodMeta>(source, {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace,
      view: 'cached',
      metadataOnly: true,
      labelSelector: selectorQuery(spec?.selector),
    })
  } catch (err) {
    problems.push(readProblem(`list pods in ${namespace} (metadata only)`, err))
  }
  try {
    const {settings} = ctx.resolve(related, await kubeletHint(ctx))
    return explain(
      kind,
      w,
      {replicaSets: related as ReplicaSet[], revisions: related as ControllerRevision[], pods},
      settings,
      source.now().getTime(),
      ctx.describe(problems),
    )
  } catch (err) {
    // What the data lacks is not a malformed object: say which lists would answer.
    if (err instanceof MissingDataError)
      throw new UserError(
        err.message,
        `add them to the dump: kubectl get ${kind === 'Deployment' ? 'replicasets' : 'controllerrevisions'},pods -n ${namespace} -o yaml`,
      )
    const bad = inputError(err)
    if (bad) throw new UserError(bad, 'the object is not one the API server would return; check the dump')
    throw err
  }
}

export interface SkippedWorkload {
  kind: string
  namespace?: string
  name: string
  reason: string
}

export interface LabelTally {
  checked: number
  matches: number
  otherLayout: number
  unreproducible: number
  noLabel: number
}

export interface HashReport extends ReportHeader<'HashReport'> {
  workloads: Record<WorkloadKind, number>
  counts: Record<string, number>
  /** Every ReplicaSet and revision label checked, the workloads' and the unowned ones. */
  labels: LabelTally
  results: Explanation[]
  unowned?: UnownedRow[]
  skipped?: SkippedWorkload[]
  /**
   * The data does not settle the controller's release: the releases it leaves possible and why. Label checks compare
   * with source.k8sVersion; an answer that depends on the release is given for each in its workload's result.
   */
  releases?: {versions: string[]; why: string}
}

function byKey<T extends KubeObject>(list: readonly T[], key: (o: T) => string | undefined): Map<string, T[]> {
  const m = new Map<string, T[]>()
  for (const o of list) {
    const k = key(o)
    if (k === undefined) continue
    const l = m.get(k)
    if (l) l.push(o)
    else m.set(k, [o])
  }
  return m
}

const controllerUid = (o: KubeObject) => (o.metadata?.ownerReferences ?? []).find((r) => r?.controller === true)?.uid
const namespaceOf = (o: KubeObject) => o.metadata?.namespace ?? ''

/** ReplicaSets or revisions by their controller's uid; those without one (orphans) by namespace; all by namespace and name. */
function indexByOwner<T extends ReplicaSet | ControllerRevision>(list: readonly T[]) {
  const byName = new Map<string, Map<string, T>>()
  for (const r of list) {
    let m = byName.get(namespaceOf(r))
    if (!m) {
      m = new Map()
      byName.set(namespaceOf(r), m)
    }
    m.set(r.metadata.name, r)
  }
  return {
    byOwner: byKey(list, controllerUid),
    orphans: byKey(
      list.filter((r) => !controllerUid(r)),
      namespaceOf,
    ),
    byName,
  }
}

/** Label checks of a result: the Deployment's ReplicaSets, the DaemonSet's or StatefulSet's revisions. */
export function labelsOf(e: Explanation): LabelCheck[] {
  const d = e.deployment as {replicaSets: {label: LabelCheck}[]} | undefined
  const ds = e.daemonSet as {revisions: {label: LabelCheck}[]} | undefined
  const sts = e.statefulSet as {revisions: {label: LabelCheck}[]} | undefined
  return [...(d?.replicaSets ?? []), ...(ds?.revisions ?? []), ...(sts?.revisions ?? [])].map((r) => r.label)
}

function tally(labels: readonly LabelCheck[]): LabelTally {
  const t: LabelTally = {checked: labels.length, matches: 0, otherLayout: 0, unreproducible: 0, noLabel: 0}
  for (const l of labels) t[l.result]++
  return t
}

/** --all: every Deployment, DaemonSet and StatefulSet in scope, problems first, and the labels of objects whose owner is missing. */
export async function hashReport(ctx: HashContext, namespace: string | undefined, progress?: (line: string) => void): Promise<HashReport> {
  const {source} = ctx
  const problems: Problem[] = []
  const where = namespace === undefined ? 'in all namespaces' : `in ${namespace}`
  const read = async <T extends KubeObject>(kind: string, apiVersion: string, extra: Partial<ListRequest> = {}): Promise<T[] | undefined> => {
    try {
      return await listAll<T>(source, {apiVersion, kind, namespace, view: 'cached', ...extra})
    } catch (err) {
      problems.push(readProblem(`list ${apiVersion} ${kind} ${where}${extra.metadataOnly ? ' (metadata only)' : ''}`, err))
      return undefined
    }
  }
  progress?.('hash: reading workloads, ReplicaSets and ControllerRevisions')
  const [deployments, daemonSets, statefulSets, replicaSets, revisions] = await Promise.all([
    read<Workload>('Deployment', 'apps/v1'),
    read<Workload>('DaemonSet', 'apps/v1'),
    read<Workload>('StatefulSet', 'apps/v1'),
    read<ReplicaSet>('ReplicaSet', 'apps/v1'),
    read<ControllerRevision>('ControllerRevision', 'apps/v1'),
  ])
  const {settings} = ctx.resolve([...(replicaSets ?? []), ...(revisions ?? [])], await kubeletHint(ctx))
  const now = source.now().getTime()
  const ns = namespaceOf
  const rs = indexByOwner(replicaSets ?? [])
  const cr = indexByOwner(revisions ?? [])
  let pods: PodMeta[] | undefined
  let podsRead = false
  const readPods = async () => {
    if (!podsRead) {
      podsRead = true
      progress?.('hash: reading pods (metadata only)')
      pods = await read<PodMeta>('Pod', 'v1', {metadataOnly: true})
    }
    return pods
  }
  if ((daemonSets ?? []).length + (statefulSets ?? []).length > 0) await readPods()
  const podsByOwner = () => byKey(pods ?? [], controllerUid)
  let podIndex = podsRead ? podsByOwner() : undefined

  const results: Explanation[] = []
  const skipped: SkippedWorkload[] = []
  const description = ctx.describe(problems)
  const total = (deployments?.length ?? 0) + (daemonSets?.length ?? 0) + (statefulSets?.length ?? 0)
  let done = 0
  const run = (kind: WorkloadKind, w: Workload, withPods?: PodMeta[]): Explanation | 'needsPods' | undefined => {
    const uid = w.metadata.uid ?? ''
    const n = ns(w)
    try {
      if (kind === 'Deployment') {
        return explain(
          kind,
          w,
          {replicaSets: [...(rs.byOwner.get(uid) ?? []), ...(rs.orphans.get(n) ?? [])], rsByName: rs.byName.get(n) ?? new Map(), pods: withPods},
          settings,
          now,
          description,
        )
      }
      return explain(
        kind,
        w,
        {
          revisions: [...(cr.byOwner.get(uid) ?? []), ...(cr.orphans.get(n) ?? [])],
          crByName: cr.byName.get(n) ?? new Map(),
          pods: podIndex?.get(uid) ?? (pods ? [] : undefined),
        },
        settings,
        now,
        description,
      )
    } catch (err) {
      // A Deployment whose ReplicaSets the data lacks may be explained by its pods: read them (once) and try again.
      if (err instanceof MissingDataError && kind === 'Deployment' && withPods === undefined) return 'needsPods'
      const bad = inputError(err)
      if (!bad) throw err
      skipped.push({kind, namespace: w.metadata.namespace, name: w.metadata.name, reason: bad})
      return undefined
    }
  }
  const needPods: Workload[] = []
  for (const [kind, list, needs] of [
    ['Deployment', deployments, replicaSets],
    ['DaemonSet', daemonSets, revisions],
    ['StatefulSet', statefulSets, revisions],
  ] as const) {
    for (const w of list ?? []) {
      if (++done % 200 === 0) progress?.(`hash: replayed ${done}/${total} workloads`)
      if (needs === undefined) {
        skipped.push({
          kind,
          namespace: w.metadata.namespace,
          name: w.metadata.name,
          reason: `its ${kind === 'Deployment' ? 'ReplicaSets' : 'ControllerRevisions'} could not be read`,
        })
        continue
      }
      const e = run(kind, w)
      if (!e) continue
      // A Deployment without a new ReplicaSet may have one the data lacks: its pods tell (read once, only then).
      if (e === 'needsPods' || (kind === 'Deployment' && (e.verdict === 'rolloutPending' || e.verdict === 'collision'))) needPods.push(w)
      else results.push(e)
    }
  }
  if (needPods.length > 0) {
    await readPods()
    podIndex = podsByOwner()
    const byNs = byKey(pods ?? [], ns)
    for (const w of needPods) {
      const e = run('Deployment', w, pods ? (byNs.get(ns(w)) ?? []) : undefined)
      if (e === 'needsPods')
        skipped.push({
          kind: 'Deployment',
          namespace: w.metadata.namespace,
          name: w.metadata.name,
          reason: 'its ReplicaSets are not in the data and its pods could not be read',
        })
      else if (e) results.push(e)
    }
  }
  const owners = new Set([...(deployments ?? []), ...(daemonSets ?? []), ...(statefulSets ?? [])].map((w) => w.metadata.uid ?? ''))
  const unowned = checkUnowned(replicaSets ?? [], revisions ?? [], owners, settings)

  results.sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      VERDICTS.indexOf(a.verdict as never) - VERDICTS.indexOf(b.verdict as never) ||
      compareStrings(`${a.subject.namespace}/${a.subject.name}`, `${b.subject.namespace}/${b.subject.name}`),
  )
  unowned.sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || compareStrings(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`))
  const counts: Record<string, number> = {}
  for (const e of results) counts[e.verdict] = (counts[e.verdict] ?? 0) + 1
  // Problems met after the shared description was built (pods read late) belong in every result's source.
  const finalSource = ctx.describe(problems)
  for (const e of results) e.source = finalSource
  return {
    apiVersion: EXPLANATION_VERSION,
    kind: 'HashReport',
    scope: reportScope(namespace),
    evaluatedAt: new Date(now).toISOString(),
    source: finalSource,
    workloads: {Deployment: deployments?.length ?? 0, DaemonSet: daemonSets?.length ?? 0, StatefulSet: statefulSets?.length ?? 0},
    counts: Object.fromEntries(VERDICTS.filter((v) => counts[v]).map((v) => [v, counts[v]])),
    labels: tally([...results.flatMap(labelsOf), ...unowned.map((u) => u.label)]),
    results,
    ...(unowned.length > 0 ? {unowned} : {}),
    ...(skipped.length > 0 ? {skipped} : {}),
    ...(settings.candidates && settings.candidates.versions.length > 1 ? {releases: settings.candidates} : {}),
  }
}

export interface HashWorkloadRequest {
  target?: Target
  all: boolean
  allNamespaces: boolean
  /** Flags that only --template takes, refused here. */
  collisionCount?: number
  showSerialization?: boolean
}

/** Flags → what to read; usage errors before anything is opened. */
export function planHashWorkload(req: HashWorkloadRequest): {kind?: WorkloadKind; name?: string; all: boolean} {
  const templateOnly = [...(req.collisionCount !== undefined ? ['--collision-count'] : []), ...(req.showSerialization ? ['--show-serialization'] : [])]
  if (templateOnly.length > 0)
    throw new UserError(
      `${templateOnly.join(', ')} ${templateOnly.length === 1 ? 'applies' : 'apply'} to --template only`,
      'drop it, or hash a file with --template',
    )
  if (req.all && req.target) throw new UserError('give either TYPE/NAME or --all, not both', 'e.g. kubectl why hash --all -n shop')
  if (!req.all && !req.target)
    throw new UserError(
      'which workload? give deployment/NAME, daemonset/NAME or statefulset/NAME, --all, or --template FILE',
      'e.g. kubectl why hash deployment/web -n shop',
    )
  if (req.all) return {all: true}
  if (req.allNamespaces) throw new UserError('a resource cannot be retrieved by name across all namespaces', 'use -n NAMESPACE')
  return {...parseHashTarget(req.target!), all: false}
}

export interface HashWorkloadResult {
  /** One explanation (TYPE/NAME) or the report (--all): what -o json prints. */
  data: Explanation | HashReport
  /** Severities that decide the exit code against --fail-on. */
  severities: Explanation['severity'][]
}

export async function runHashWorkload(
  source: ClusterSource,
  plan: ReturnType<typeof planHashWorkload>,
  opts: {namespace: string | undefined; override?: MinorVersion; progress?: (line: string) => void},
): Promise<HashWorkloadResult> {
  const ctx = await hashContext(source, opts.override)
  if (!plan.all) {
    const e = await explainHashTarget(ctx, plan.kind!, opts.namespace!, plan.name!)
    return {data: e, severities: [e.severity]}
  }
  const report = await hashReport(ctx, opts.namespace, opts.progress)
  return {data: report, severities: [...report.results.map((e) => e.severity), ...(report.unowned ?? []).map((u) => u.severity)]}
}

export function isHashReport(data: Explanation | HashReport): data is HashReport {
  return data.kind === 'HashReport'
}
