import {Args, Flags} from '@oclif/core'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import {parseTypeName, resolveResource} from '../cluster/resolve.js'
import type {ClusterSource, GetRequest, KubeObject, ResourceType} from '../cluster/source.js'
import {chooseVersion} from '../cluster/version.js'
import {
  ACTIONABLE_VERDICTS, compareFindings, DependentsIndex, explainGc, GC_VERDICTS, GcDiscovery, type GcExplanation, type GcObject,
  type GcReplay, type GcVerdict, type GcWorld, isBeingDeleted, isDeletingDependents, type OwnerRead, type OwnerReadKey,
  readKeyString, replayGc, slimObject, subjectOf,
} from '../engine/garbagecollector/index.js'
import {ReadError, UserError} from '../errors.js'
import {type Problem, type SourceDescription} from '../explanation.js'
import {type GcReport, type GcTree, type GcTreeNode, renderGcReport, renderGcTree} from '../render/gc.js'
import {renderExplanations} from '../render/explanation-table.js'
import {formatData} from '../render/output.js'
import {sharedFlags} from '../flags.js'

type GcFlags = CommonFlags & {all: boolean; tree: boolean; 'max-depth': number}

/** Owner GETs in flight at once. */
const READ_CONCURRENCY = 16
/** Monitored types listed at once while building the dependents index. */
const LIST_CONCURRENCY = 6
const PAGE_SIZE = 500

async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++])
  }
  await Promise.all(Array.from({length: Math.min(width, items.length)}, worker))
}

/** The owners a replay reads, the way the collector reads them: fresh (quorum) and metadata-only, by exact version. */
class OwnerReader {
  readonly reads = new Map<string, OwnerRead>()
  gets = 0
  constructor(private readonly source: ClusterSource, private readonly snapshotGaps: readonly Problem[]) {}

  async read(keys: readonly OwnerReadKey[]): Promise<void> {
    const todo = new Map<string, OwnerReadKey>()
    for (const k of keys) {
      const s = readKeyString(k)
      if (!this.reads.has(s)) todo.set(s, k)
    }
    await pool([...todo], READ_CONCURRENCY, async ([s, k]) => {
      this.reads.set(s, await this.readOne(k))
    })
  }

  /** A reset connection (a stale keep-alive socket) is retried, as client-go retries GETs on connection resets. */
  private async readOne(k: OwnerReadKey): Promise<OwnerRead> {
    let r = await this.readOnce(k)
    for (let attempt = 1; attempt <= 2 && r.outcome === 'error' && r.reason === 'Unreachable' && /reset|socket hang up|EPIPE/i.test(r.message); attempt++) {
      r = await this.readOnce(k)
    }
    return r
  }

  private async readOnce(k: OwnerReadKey): Promise<OwnerRead> {
    this.gets++
    const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`
    const request: GetRequest = {apiVersion, kind: k.kind, namespace: k.namespace, name: k.name, view: 'fresh', metadataOnly: true}
    try {
      const o = await this.source.get(request)
      if (!o) {
        // A snapshot that could not list this kind cannot say the owner is absent.
        const gap = this.snapshotGaps.find((p) => p.what.includes(k.kind) || p.what.includes(k.resource))
        if (gap) return {outcome: 'error', reason: 'NotCaptured', message: `the snapshot did not capture ${apiVersion} ${k.kind} (${gap.what}: ${gap.reason})`}
        return {outcome: 'notFound'}
      }
      const slim = slimObject(o, {apiVersion, kind: k.kind})
      if (!slim) return {outcome: 'error', reason: 'BadResponse', message: 'the answer has no metadata.uid'}
      return {outcome: 'found', object: slim}
    } catch (err) {
      if (err instanceof ReadError) return {outcome: 'error', reason: err.reason, status: err.status, message: err.message}
      return {outcome: 'error', reason: 'Error', message: (err as Error).message}
    }
  }
}

interface IndexResult {
  index: DependentsIndex
  gaps: string[]
  /** group/resource → listed namespace ('' = all) for answering owner reads from the lists. */
  listed: Map<string, string>
  types: number
}

/**
 * The collector's graph, rebuilt: metadata-only lists of every monitored type (across namespaces unless `namespace`
 * limits the namespaced ones), indexed by owner UID.
 */
async function buildIndex(source: ClusterSource, discovery: GcDiscovery, namespace: string | undefined, progress?: (line: string) => void): Promise<IndexResult> {
  const index = new DependentsIndex()
  const gaps: string[] = []
  const listed = new Map<string, string>()
  const types = discovery.monitoredTypes()
  let done = 0
  await pool(types, LIST_CONCURRENCY, async (t: ResourceType) => {
    const apiVersion = apiVersionOf(t)
    const ns = t.namespaced ? namespace : undefined
    const gr = `${t.group}/${t.resource}`
    try {
      for await (const page of source.pages({apiVersion, kind: t.kind, namespace: ns, metadataOnly: true, view: 'fresh', pageSize: PAGE_SIZE})) {
        for (const o of page) {
          const slim = slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, {apiVersion, kind: t.kind})
          if (slim) index.add(slim, gr)
        }
      }
      listed.set(gr, ns ?? '')
    } catch (err) {
      gaps.push(`list ${apiVersion} ${t.kind}${ns ? ` in ${ns}` : ''}: ${(err as Error).message}`)
    }
    done++
    progress?.(`gc: listed ${done}/${types.length} monitored types, ${index.size} objects`)
  })
  return {index, gaps, listed, types: types.length}
}

export default class Gc extends WhyCommand {
  static override summary = 'Replay the garbage collector for one object: why it was (or will be) deleted, or why it stays.'
  static override description = `Classifies every owner reference the way the garbage collector does (solid, dangling, waiting for
dependents deletion) using fresh, uncached, metadata-only reads and UID comparison, and says which branch the
collector takes: keep, patch the owner references, delete (with which propagation), wait, or why it is stuck.
Objects being deleted in the foreground are explained from the owner's side: which dependents still block
it (blockOwnerDeletion), and why each of them is still there.

With --all, every object in the namespace (or the cluster, with -A) is replayed and those the collector would
act on — delete, patch, remove a finalizer — or is stuck on are listed, worst first, with counts.

Verdicts: keep, patchRemoveOwnerRefs, delete, noOwners, waitBeingDeleted, removeFinalizer,
waitForBlockingDependents, orphanDependentsThenRemoveFinalizer, stuckRestMapping,
stuckNamespacedOwnerOfClusterScopedObject, notMonitored, unknown.`

  static override examples = [
    {description: 'Why was this ReplicaSet deleted (or why is it still here)?', command: '<%= config.bin %> gc replicaset/web-7d9f4b6c8 -n shop'},
    {description: 'Why is this Deployment stuck deleting (foregroundDeletion)? Show the ownership tree', command: '<%= config.bin %> gc deployment/web -n shop --tree'},
    {description: 'A custom resource, by its plural and group', command: '<%= config.bin %> gc widgets.example.com/foo -n shop'},
    {description: 'Everything the collector would delete, patch or is stuck on, cluster-wide, as JSON', command: '<%= config.bin %> gc --all -A -o json'},
    {description: 'The same, offline, on a saved dump', command: '<%= config.bin %> gc --all -A -f examples/gc-recreated-deployment.json'},
  ]

  static override args = {
    target: Args.string({description: 'KIND/NAME of the object, e.g. replicaset/web-7d9f4b6c8 or widgets.example.com/foo', required: false, ignoreStdin: true}),
  }

  static override flags = {
    ...sharedFlags,
    all: Flags.boolean({description: 'Replay every object in the namespace (-A: the cluster) and list those the collector acts on or is stuck on.', default: false}),
    tree: Flags.boolean({description: 'Show the owner/dependent graph around the object, each edge marked with its classification and blockOwnerDeletion.', default: false}),
    'max-depth': Flags.integer({description: 'How deep blocking dependents (and --tree dependents) are followed.', default: 3, min: 1, max: 10}),
  }

  async run(): Promise<void> {
    const parsed = await this.parse(Gc)
    const args = parsed.args
    const flags = parsed.flags as GcFlags
    this.setupOutput(flags)
    if (flags.all && args.target) throw new UserError('give either KIND/NAME or --all, not both', 'e.g. kubectl why gc --all -n shop')
    if (!flags.all && !args.target) throw new UserError('which object? give KIND/NAME, or --all for every object', 'e.g. kubectl why gc replicaset/web-7d9f4b6c8 -n shop')
    if (flags.all && flags.tree) throw new UserError('--tree shows the graph around one object', 'drop --tree, or give KIND/NAME')
    if (flags.output === 'wide' && flags.all) flags.output = 'table'

    const source = await this.openSource(flags)
    try {
      const types = await source.discovery()
      const discovery = new GcDiscovery(types)
      const version = chooseVersion(this.versionOverride(flags), await source.serverVersion().catch(() => undefined))
      const snapshotGaps = source.describe().mode === 'snapshot' ? source.problems() : []
      const reader = new OwnerReader(source, snapshotGaps)
      const progress = this.sourceOptions(flags).progress
      if (flags.all) await this.runAll(source, discovery, reader, flags, version?.minor, progress)
      else await this.runOne(source, types, discovery, reader, args.target!, flags, version?.minor, progress)
    } finally {
      if (process.stderr.isTTY) process.stderr.write('\r\u001B[2K')
      await source.close?.()
    }
  }

  private sourceDescription(source: ClusterSource, minor: number | undefined, gaps: readonly string[] = []): SourceDescription {
    const d = source.describe()
    const partial = [...(d.partial ?? []), ...gaps.map((g) => ({what: g.split(':')[0], reason: g.slice(g.indexOf(':') + 1).trim()}))]
    return {...d, ...(minor !== undefined ? {k8sVersion: `1.${minor}`} : {}), partial}
  }

  private async runOne(source: ClusterSource, types: ResourceType[], discovery: GcDiscovery, reader: OwnerReader, target: string,
    flags: GcFlags, minor: number | undefined, progress?: (line: string) => void): Promise<void> {
    const {type, name} = parseTypeName(target)
    if (!name) throw new UserError(`"${target}" names no object`, 'write KIND/NAME, e.g. replicaset/web-7d9f4b6c8')
    const t = resolveResource(types, type)
    if (t.namespaced && flags['all-namespaces']) throw new UserError('a resource cannot be retrieved by name across all namespaces', 'use -n NAMESPACE')
    const namespace = t.namespaced ? this.namespace(flags, source) : undefined
    const apiVersion = apiVersionOf(t)
    const request: GetRequest = {apiVersion, kind: t.kind, namespace, name, view: 'fresh', metadataOnly: true}
    const raw = await source.get(request)
    if (!raw) {
      throw new UserError(`${t.resource}${t.group ? `.${t.group}` : ''} "${name}" not found${namespace ? ` in namespace ${namespace}` : ''}`,
        'if it was garbage-collected, its owners were gone or being deleted; look for it with `kubectl get events --field-selector involvedObject.name=' + name + '`')
    }
    const item = slimObject(raw as KubeObject & {metadata?: Record<string, unknown>}, {apiVersion, kind: t.kind})
    if (!item) throw new UserError(`${t.kind} "${name}": the answer has no metadata.uid`)

    let built: IndexResult | undefined
    if (flags.tree) built = await buildIndex(source, discovery, undefined, progress)
    const world = (): GcWorld => ({discovery, reads: reader.reads, dependents: built?.index, indexGaps: built?.gaps, now: source.now(), minor})
    let replay: GcReplay = replayGc(item, world(), {maxDepth: flags['max-depth']})
    for (let round = 0; round < 20 && (replay.needs.reads.length > 0 || replay.needs.dependents); round++) {
      if (replay.needs.dependents && !built) built = await buildIndex(source, discovery, undefined, progress)
      await reader.read(replay.needs.reads)
      replay = replayGc(item, world(), {maxDepth: flags['max-depth']})
    }
    const explanation = explainGc(replay, source.now(), this.sourceDescription(source, minor, built?.gaps))

    if (flags.tree && built) {
      const tree = await buildGcTree(item, replay, world, reader, flags['max-depth'])
      const format = flags.output ?? 'table'
      this.write(format === 'json' || format === 'yaml' ? formatData({...explanation, tree}, format) : renderGcTree(tree, explanation))
      this.failOnFindings([explanation], flags)
      return
    }
    const format = flags.output ?? 'table'
    this.write(format === 'json' || format === 'yaml' ? formatData(explanation, format) : renderExplanations([explanation], format === 'wide'))
    this.failOnFindings([explanation], flags)
  }

  private async runAll(source: ClusterSource, discovery: GcDiscovery, reader: OwnerReader,
    flags: GcFlags, minor: number | undefined, progress?: (line: string) => void): Promise<void> {
    const namespace = this.namespace(flags, source)
    const built = await buildIndex(source, discovery, namespace, progress)
    const {index, listed} = built
    const now = source.now()

    // Owner reads are first answered from the fresh lists just read (the same quorum view a GET gives). Owners of types
    // that were not listed are read with a GET, and every ref that comes out dangling from the lists is confirmed with a
    // fresh metadata-only GET before the tool says the collector deletes or patches anything.
    const fromLists = new Map<string, OwnerRead>()
    const answerFromLists = (k: OwnerReadKey): OwnerRead | undefined => {
      const scope = listed.get(`${k.group}/${k.resource}`)
      if (scope === undefined || (scope !== '' && scope !== (k.namespace ?? ''))) return undefined
      const o = index.named(`${k.group}/${k.resource}`, k.namespace, k.name)
      return o ? {outcome: 'found', object: o} : {outcome: 'notFound'}
    }
    const world: GcWorld = {
      discovery, dependents: index, indexGaps: built.gaps, now, minor,
      reads: {get: (s: string) => reader.reads.get(s) ?? fromLists.get(s)},
    }
    const options = {maxDepth: flags['max-depth']}
    /** Replays with list answers only; undefined when a GET is needed. */
    const fromListsOnly = (o: GcObject): GcReplay | undefined => {
      for (let round = 0; round < 20; round++) {
        const r = replayGc(o, world, options)
        if (r.needs.reads.length === 0) return r
        for (const k of r.needs.reads) {
          const a = answerFromLists(k)
          if (!a) return undefined
          fromLists.set(readKeyString(k), a)
        }
      }
      return undefined
    }
    const unconfirmed = (r: GcReplay): OwnerReadKey[] =>
      r.refs.filter((x) => x.outcome === 'dangling' && x.lookup && !reader.reads.get(readKeyString(x.lookup.key))).map((x) => x.lookup!.key)

    const counts: Partial<Record<GcVerdict, number>> = {}
    const findings: GcExplanation[] = []
    let evaluated = 0
    const record = (r: GcReplay): void => {
      evaluated++
      counts[r.verdict] = (counts[r.verdict] ?? 0) + 1
      if (ACTIONABLE_VERDICTS.has(r.verdict)) findings.push(explainGc(r, now, {mode: source.describe().mode}))
    }

    const needGets: GcObject[] = []
    for (const o of index.objects()) {
      if (namespace !== undefined && o.metadata.namespace !== namespace) continue
      const r = fromListsOnly(o)
      if (!r || unconfirmed(r).length > 0) needGets.push(o)
      else record(r)
    }
    if (needGets.length > 0) {
      progress?.(`gc: reading the owners of ${needGets.length} objects`)
      for (let round = 0; round < 20; round++) {
        const keys = new Map<string, OwnerReadKey>()
        for (const o of needGets) {
          const r = replayGc(o, world, options)
          for (const k of [...r.needs.reads, ...unconfirmed(r)]) keys.set(readKeyString(k), k)
        }
        if (keys.size === 0) break
        await reader.read([...keys.values()])
      }
      for (const o of needGets) record(replayGc(o, world, options))
    }

    findings.sort(compareFindings)
    const description = this.sourceDescription(source, minor, built.gaps)
    for (const f of findings) f.source = description
    const report: GcReport = {
      apiVersion: 'kubectl-why/v1',
      kind: 'GcReport',
      scope: namespace === undefined ? {allNamespaces: true} : {namespace},
      evaluatedAt: now.toISOString(),
      source: description,
      objects: evaluated,
      monitoredTypes: built.types,
      ownerGets: reader.gets,
      counts: Object.fromEntries(GC_VERDICTS.filter((v) => counts[v]).map((v) => [v, counts[v]])),
      findings,
    }
    const format = flags.output ?? 'table'
    this.write(format === 'json' || format === 'yaml' ? formatData(report, format) : renderGcReport(report))
    this.failOnFindings(findings, flags)
  }
}


/** Replays one object, reading what it needs, until nothing is missing. */
async function settle(o: GcObject, world: () => GcWorld, reader: OwnerReader, maxDepth: number): Promise<GcReplay> {
  let r = replayGc(o, world(), {maxDepth})
  for (let round = 0; round < 20 && r.needs.reads.length > 0; round++) {
    await reader.read(r.needs.reads)
    r = replayGc(o, world(), {maxDepth})
  }
  return r
}

const TREE_CHILDREN = 50

/** The owner/dependent graph around one object, each node replayed, each edge classified as the collector would. */
async function buildGcTree(item: GcObject, replay: GcReplay, world: () => GcWorld, reader: OwnerReader, maxDepth: number): Promise<GcTree> {
  const seen = new Set<string>([item.metadata.uid])
  const state = (o: GcObject): Partial<GcTreeNode> => isBeingDeleted(o) ? {deleting: true, ...(o.metadata.finalizers ? {finalizers: o.metadata.finalizers} : {})} : {}

  const owners = async (r: GcReplay, depth: number): Promise<GcTreeNode[]> => {
    const nodes: GcTreeNode[] = []
    for (const x of r.refs) {
      const read = x.lookup ? world().reads.get(readKeyString(x.lookup.key)) : undefined
      const found = read?.outcome === 'found' && read.object.metadata.uid === x.ref.uid ? read.object : undefined
      const node: GcTreeNode = {
        subject: found ? subjectOf(found) : {kind: x.ref.kind, apiVersion: x.ref.apiVersion, ...(x.lookup?.namespace ? {namespace: x.lookup.namespace} : {}), name: x.ref.name, uid: x.ref.uid},
        exists: found !== undefined,
        edge: {classification: x.outcome, ...(x.danglingReason ? {reason: x.danglingReason} : {}), blockOwnerDeletion: x.ref.blockOwnerDeletion === true, controller: x.ref.controller === true},
        children: [],
      }
      if (found) {
        Object.assign(node, state(found))
        if (seen.has(found.metadata.uid)) node.cycle = true
        else if (depth < maxDepth) {
          seen.add(found.metadata.uid)
          const or = await settle(found, world, reader, maxDepth)
          node.verdict = or.verdict
          if (or.propagationPolicy) node.propagationPolicy = or.propagationPolicy
          node.children = await owners(or, depth + 1)
        }
      }
      nodes.push(node)
    }
    return nodes
  }

  const dependents = async (o: GcObject, depth: number): Promise<{children: GcTreeNode[]; more?: number}> => {
    const all = world().dependents?.dependentsOf(o.metadata.uid) ?? []
    const om = world().discovery.restMapping(o.apiVersion, o.kind)
    const children: GcTreeNode[] = []
    for (const d of all.slice(0, TREE_CHILDREN)) {
      const ref = (d.metadata.ownerReferences ?? []).find((x) => x.uid === o.metadata.uid)!
      const m = world().discovery.restMapping(ref.apiVersion, ref.kind)
      let classification: string
      let reason: string | undefined
      if (!m) classification = 'unresolvable'
      else if (!d.metadata.namespace && m.namespaced) classification = 'invalidScope'
      else if (om && m.group === om.group && m.resource === om.resource && ref.name === o.metadata.name && (!m.namespaced || d.metadata.namespace === o.metadata.namespace)) {
        classification = isDeletingDependents(o) ? 'waitingForDependentsDeletion' : 'solid'
      } else {
        classification = 'dangling'
        reason = 'the ref\'s kind, name or namespace do not name this object'
      }
      const node: GcTreeNode = {subject: subjectOf(d), exists: true, ...state(d),
        edge: {classification, ...(reason ? {reason} : {}), blockOwnerDeletion: ref.blockOwnerDeletion === true, controller: ref.controller === true}, children: []}
      const dr = await settle(d, world, reader, maxDepth)
      node.verdict = dr.verdict
      if (dr.propagationPolicy) node.propagationPolicy = dr.propagationPolicy
      if (seen.has(d.metadata.uid)) node.cycle = true
      else if (depth < maxDepth) {
        seen.add(d.metadata.uid)
        const sub = await dependents(d, depth + 1)
        node.children = sub.children
        if (sub.more) node.more = sub.more
      } else if (world().dependents?.dependentsOf(d.metadata.uid).length) node.more = world().dependents!.dependentsOf(d.metadata.uid).length
      children.push(node)
    }
    return {children, ...(all.length > TREE_CHILDREN ? {more: all.length - TREE_CHILDREN} : {})}
  }

  const top = await dependents(item, 1)
  const object: GcTreeNode = {subject: subjectOf(item), exists: true, ...state(item), verdict: replay.verdict,
    ...(replay.propagationPolicy ? {propagationPolicy: replay.propagationPolicy} : {}), children: top.children, ...(top.more ? {more: top.more} : {})}
  return {owners: await owners(replay, 1), object}
}
