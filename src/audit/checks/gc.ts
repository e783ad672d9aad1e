// The gc check: every object in scope replayed as `kubectl why gc --all` does (src/commands/gc.ts runAll), from the
// audit's one read of each kind. The collector's graph is rebuilt from the lists of every monitored type (metadata
// only, unless another check read the whole object); owner lookups are answered from the quorum lists just read,
// and every reference that comes out dangling is confirmed with the fresh, metadata-only GET the collector itself
// sends before the audit says the collector deletes or patches anything. Lists read from the watch cache (the node
// Leases, merged with the node check's read) never answer an owner lookup: those owners are read with a GET.
// Secrets are not read at all: the audit's ClusterRole grants nothing on them (RBAC cannot grant metadata alone).
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import type {KubeObject, ResourceType} from '../../cluster/source.js'
import {
  ACTIONABLE_VERDICTS, compareFindings, DependentsIndex, explainGc, GcDiscovery, type GcExplanation, type GcObject, type GcReplay,
  type GcWorld, type OwnerRead, type OwnerReadKey, readKeyString, replayGc, slimObject,
} from '../../engine/garbagecollector/index.js'
import {ReadError} from '../../errors.js'
import type {Problem} from '../../explanation.js'
import {type Check, type CheckContext, type CheckResult, count, describeWith, failureText} from '../context.js'
import type {CheckNeeds, ListNeed} from '../needs.js'
import {describeList, typeKey} from '../plan.js'
import {pool} from '../pool.js'

const GET_CONCURRENCY = 16
const MAX_DEPTH = 3
const MAX_ROUNDS = 20

/** Kinds the audit never reads. */
export const NOT_READ: ReadonlySet<string> = new Set(['/secrets'])

function auditedTypes(types: readonly ResourceType[]): ResourceType[] {
  return new GcDiscovery(types).monitoredTypes().filter((t) => !NOT_READ.has(typeKey(t)))
}

export const gcCheck: Check = {
  name: 'gc',
  needs(types: readonly ResourceType[]): CheckNeeds {
    const monitored = auditedTypes(types)
    return {
      lists: monitored.map((t): ListNeed => ({
        check: 'gc', key: typeKey(t), ref: {apiVersion: apiVersionOf(t), kind: t.kind}, scope: 'audit', detail: 'metadata', view: 'fresh', required: false,
        why: 'the collector\'s graph: every object of every monitored type and its owner references',
      })),
      gets: monitored.map((t) => ({check: 'gc', ref: {apiVersion: apiVersionOf(t), kind: t.kind}, why: 'owner lookups (fresh, metadata-only), as attemptToDeleteItem makes them'})),
    }
  },

  async run(ctx: CheckContext): Promise<CheckResult> {
    const discovery = new GcDiscovery(ctx.types)
    const problems: Problem[] = []
    const gaps: string[] = []
    const index = new DependentsIndex()
    /** group/resource → the namespace its fresh list covers ('' = all), for answering owner lookups from the lists. */
    const listed = new Map<string, string>()
    const needs = ctx.gathered.plan.needs.filter((n) => n.check === 'gc')
    for (const need of needs) {
      const r = ctx.gathered.read(need)
      const t = need.type
      if (!r.ok || !t) {
        const what = need.list ? `list ${describeList(need.list)}` : `list ${need.ref.apiVersion} ${need.ref.kind}`
        gaps.push(`${what}: ${failureText(r.ok ? undefined : r.error)}`)
        problems.push({what, reason: `${failureText(r.ok ? undefined : r.error)}; its objects are not replayed and are missing from the collector's graph`})
        continue
      }
      const fallback = {apiVersion: apiVersionOf(t), kind: t.kind}
      // Metadata-only lists are projected to the graph's own shape already (project.ts projectMetadataOnly).
      const asIs = need.list?.metadataOnly === true
      for (const o of r.items) {
        const slim = asIs && typeof o.metadata?.uid === 'string' ? o as unknown as GcObject : slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, fallback)
        if (slim) index.add(slim, typeKey(t))
      }
      if (r.view === 'fresh') listed.set(typeKey(t), need.namespace ?? '')
    }
    gaps.push('/secrets: not read by the audit (no access to Secrets)')
    const snapshotGaps = ctx.base.mode === 'snapshot' ? ctx.base.partial ?? [] : []
    const reads = new Map<string, OwnerRead>()
    let gets = 0
    const readOwner = async (k: OwnerReadKey): Promise<OwnerRead> => {
      if (NOT_READ.has(`${k.group}/${k.resource}`)) return {outcome: 'error', reason: 'NotRead', message: 'the audit does not read Secrets; `kubectl why gc` does, as metadata'}
      gets++
      const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`
      try {
        const o = await ctx.get({apiVersion, kind: k.kind, namespace: k.namespace, name: k.name, view: 'fresh', metadataOnly: true})
        if (!o) {
          // A snapshot that could not list this kind cannot say the owner is absent.
          const gap = snapshotGaps.find((p) => p.what.includes(k.kind) || p.what.includes(k.resource))
          if (gap) return {outcome: 'error', reason: 'NotCaptured', message: `the snapshot did not capture ${apiVersion} ${k.kind} (${gap.what}: ${gap.reason})`}
          return {outcome: 'notFound'}
        }
        const slim = slimObject(o as KubeObject & {metadata?: Record<string, unknown>}, {apiVersion, kind: k.kind})
        return slim ? {outcome: 'found', object: slim} : {outcome: 'error', reason: 'BadResponse', message: 'the answer has no metadata.uid'}
      } catch (err) {
        if (err instanceof ReadError) return {outcome: 'error', reason: err.reason, status: err.status, message: err.message}
        return {outcome: 'error', reason: 'Error', message: (err as Error).message}
      }
    }

    const fromLists = new Map<string, OwnerRead>()
    const answerFromLists = (k: OwnerReadKey): OwnerRead | undefined => {
      const scope = listed.get(`${k.group}/${k.resource}`)
      if (scope === undefined || (scope !== '' && scope !== (k.namespace ?? ''))) return undefined
      const o = index.named(`${k.group}/${k.resource}`, k.namespace, k.name)
      return o ? {outcome: 'found', object: o} : {outcome: 'notFound'}
    }
    const world: GcWorld = {discovery, dependents: index, indexGaps: gaps, now: ctx.now, minor: ctx.version?.minor,
      reads: {get: (s: string) => reads.get(s) ?? fromLists.get(s)}}
    const options = {maxDepth: MAX_DEPTH}
    const fromListsOnly = (o: GcObject): GcReplay | undefined => {
      for (let round = 0; round < MAX_ROUNDS; round++) {
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
      r.refs.filter((x) => x.outcome === 'dangling' && x.lookup && !reads.get(readKeyString(x.lookup.key))).map((x) => x.lookup!.key)

    const source = describeWith(ctx.base, problems, ctx.version ? {k8sVersion: `1.${ctx.version.minor}`} : {})
    const verdicts: Record<string, number> = {}
    const findings: GcExplanation[] = []
    let evaluated = 0
    const record = (r: GcReplay): void => {
      evaluated++
      count(verdicts, r.verdict)
      if (ACTIONABLE_VERDICTS.has(r.verdict)) findings.push(explainGc(r, ctx.now, source))
    }
    const needGets: GcObject[] = []
    for (const o of index.objects()) {
      if (ctx.namespace !== undefined && o.metadata.namespace !== ctx.namespace) continue
      const r = fromListsOnly(o)
      if (!r || unconfirmed(r).length > 0) needGets.push(o)
      else record(r)
    }
    if (needGets.length > 0) {
      ctx.progress?.(`audit: gc: reading the owners of ${needGets.length} objects`)
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const keys = new Map<string, OwnerReadKey>()
        for (const o of needGets) {
          const r = replayGc(o, world, options)
          for (const k of [...r.needs.reads, ...unconfirmed(r)]) keys.set(readKeyString(k), k)
        }
        if (keys.size === 0) break
        await pool([...keys.values()], GET_CONCURRENCY, async (k) => {
          reads.set(readKeyString(k), await readOwner(k))
        })
      }
      for (const o of needGets) record(replayGc(o, world, options))
    }
    findings.sort(compareFindings)
    const notes = [`${index.size} objects of ${needs.length} monitored types in the graph; ${gets} owner GET(s)`, 'Secrets are not read (the audit has no access to them): run `kubectl why gc --all` for them']
    return {check: 'gc', status: problems.length > 0 ? 'partial' : 'complete', evaluated, verdicts, findings, problems, notes}
  },
}
