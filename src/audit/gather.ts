// Performs the read plan: each planned LIST once, paginated, with bounded concurrency, each page projected to what
// the engines read as it arrives. A list that fails is recorded (the checks that needed it say so) and the others
// go on; only refused credentials or an unreachable server end the audit, as they would every other read.
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import {HeapBudget, HeapBudgetError} from '../cluster/heap-budget.js'
import {PAGE_SIZE, pool} from '../cluster/read.js'
import type {ClusterSource, KubeObject, ListRequest} from '../cluster/source.js'
import {SpilledObjects} from '../cluster/spill.js'
import {ReadError} from '../errors.js'
import type {CheckName} from './checks.js'
import {describeList, itemsFor, largest, type PlannedList, type ReadPlan, type ResolvedNeed, typeKey} from './plan.js'
import {NoInterner, StringInterner} from '../cluster/projection.js'
import {Interner, type Keep, projector} from './project.js'

/** Lists in flight at once: enough to overlap the server's time with ours, few enough to stay polite. */
export const LIST_CONCURRENCY = 4

export interface ListOutcome {
  list: PlannedList
  /** The list's objects, projected; empty when they are kept compressed (`spilled`). */
  items: KubeObject[]
  /** The list's objects kept compressed (spill.ts), once the audit holds more than SpillPolicy.at objects. */
  spilled?: SpilledObjects
  /** The list's resourceVersion, where the source gives one (unpaged, watch-cache lists). */
  resourceVersion?: string
  error?: Error
  /** 410 Gone met mid-list: the list was read again from the start, once. */
  restarted?: boolean
  /**
   * A compressed list's objects a chunk at a time (each array new, projected as `items` would be), for a reader that
   * goes through them once: it then holds its own copies only, not the list taken back whole beside them (the
   * ReplicaSet driver's slim pods and the pods they were made from were the replicas check's two largest arrays).
   */
  chunks?: () => Iterable<KubeObject[]>
}

export type NeedRead = {ok: true; items: KubeObject[]; view: 'fresh' | 'cached'; resourceVersion?: string} | {ok: false; error: Error | undefined}

/** Errors no other list would escape: the audit stops (exit 2) rather than report every kind as unreadable. */
function fatal(err: unknown): boolean {
  return (err instanceof ReadError && (err.reason === 'Unauthorized' || err.reason === 'Unreachable')) || err instanceof HeapBudgetError
}

/**
 * When the audit keeps its largest lists compressed (issue 29.1): once it holds `at` objects, every list of a
 * namespaced kind over the audit's scope (pods, events, ReplicaSets, ...) is kept compressed from then on, and what
 * it already holds of them is compressed too; each check then takes back the fields it reads (Gathered.forCheck).
 * The same answers either way (test/audit/spill.test.ts); the default is from the heap (spillPolicy).
 */
export interface SpillPolicy {
  at: number
}

/** Spill once a quarter of what the heap holds as objects is read: small clusters never spill (and pay nothing for it). */
export function spillPolicy(budget: HeapBudget): SpillPolicy {
  return {at: Math.floor(budget.fits / 4)}
}

/** The lists that are kept compressed: a namespaced kind over the audit's scope, without a selector of its own. */
export function spillable(list: PlannedList): boolean {
  return list.type.namespaced && list.labelSelector === undefined && list.needs.some((n) => n.scope === 'audit')
}

/** Every object of a compressed list, each projected (`project`: a check's fields; none: as kept). */
function materialize(spilled: SpilledObjects, project?: (o: KubeObject) => KubeObject): KubeObject[] {
  const out: KubeObject[] = []
  for (const chunk of spilled.chunksOf()) for (const o of chunk) out.push(project ? project(o) : o)
  return out
}

/** Each chunk of a compressed list, each object projected (`project`: a check's fields; none: as kept). */
function* projectedChunks(spilled: SpilledObjects, project?: (o: KubeObject) => KubeObject): Generator<KubeObject[]> {
  for (const chunk of spilled.chunksOf()) yield project ? chunk.map(project) : chunk
}

/** An outcome whose items are taken back from the compressed list when first read, and not before. */
function lazyOutcome(o: ListOutcome, project?: (o: KubeObject) => KubeObject): ListOutcome {
  let items: KubeObject[] | undefined
  const spilled = o.spilled!
  return {
    list: o.list,
    ...(o.resourceVersion !== undefined ? {resourceVersion: o.resourceVersion} : {}),
    ...(o.restarted ? {restarted: true} : {}),
    get items() {
      items ??= materialize(spilled, project)
      return items
    },
    // Taken back whole already: the same objects, not a second copy.
    chunks: () => (items ? [items] : projectedChunks(spilled, project)),
  }
}

export class Gathered {
  constructor(
    readonly plan: ReadPlan,
    readonly outcomes: ReadonlyMap<number, ListOutcome>,
    private readonly keep: Keep = {},
  ) {}

  /** What a need got: its items (filtered from a wider list when it was merged into one), or why not. */
  read(need: ResolvedNeed): NeedRead {
    if (!need.type || !need.list) return {ok: false, error: undefined}
    const o = this.outcomes.get(need.list.id)
    if (!o || o.error) return {ok: false, error: o?.error}
    const outcome = o.spilled ? lazyOutcome(o) : o
    let items: KubeObject[] | undefined
    // The items only when asked for: whether a read succeeded is asked of a compressed list too.
    return {
      ok: true,
      get items() {
        items ??= itemsFor(need, outcome.items)
        return items
      },
      view: o.list.view,
      resourceVersion: o.resourceVersion,
    }
  }

  /**
   * What one check is given: the same lists, the compressed ones taken back (when the check reads them) with only the
   * fields that check's reads name, so that one check's projection of the cluster is in the heap at a time.
   */
  forCheck(check: CheckName): Gathered {
    if (![...this.outcomes.values()].some((o) => o.spilled)) return this
    // Held while the check runs only: strings are shared, structures not (StringInterner).
    const intern = new StringInterner()
    const view = new Map<number, ListOutcome>()
    for (const [id, o] of this.outcomes) {
      const needs = o.list.needs.filter((n) => n.check === check)
      if (!o.spilled || o.error) {
        view.set(id, o)
        continue
      }
      // A list the check reads without declaring it (the leader Lease looked for in the audit's Lease list before a
      // GET) is taken back as kept, if it is read at all.
      if (needs.length === 0) {
        view.set(id, lazyOutcome(o))
        continue
      }
      // A full list's metadata reads name their fields as its full reads do (plan.ts): projected the same way. Every
      // object of the list gets the check's fields, also those outside a need's own namespace or selector: a check
      // whose lists are the union of every list of a kind (CheckContext.wholeGathered) sees them all, as it would have.
      const list = {...o.list, needs: needs.map((n) => ({...n, namespace: o.list.namespace, labelSelector: o.list.labelSelector}))}
      view.set(id, lazyOutcome(o, projector(list, intern, this.keep)))
    }
    return new Gathered(this.plan, view, this.keep)
  }

  /** Each object of every list, as kept, a list (or a compressed chunk) at a time: no list is taken back whole. */
  *each(): Generator<{list: PlannedList; items: readonly KubeObject[]}> {
    for (const o of this.outcomes.values()) {
      if (o.error) continue
      if (o.spilled) for (const chunk of o.spilled.chunksOf()) yield {list: o.list, items: chunk}
      else yield {list: o.list, items: o.items}
    }
  }

  failed(): ListOutcome[] {
    return [...this.outcomes.values()].filter((o) => o.error !== undefined)
  }

  get objects(): number {
    let n = 0
    for (const o of this.outcomes.values()) n += o.spilled ? o.spilled.count : o.items.length
    return n
  }

  /** Whether any list is kept compressed. */
  get spilled(): boolean {
    return [...this.outcomes.values()].some((o) => o.spilled)
  }
}

export type {Keep}

export async function gather(
  source: ClusterSource,
  plan: ReadPlan,
  progress?: (line: string, final?: boolean) => void,
  keep: Keep = {},
  // Every object read is held to the end: the run stops with one line once they cannot fit (heap-budget.ts).
  budget = new HeapBudget(),
  // None: every object is held as an object (runAudit gives the heap's spillPolicy).
  spill?: SpillPolicy,
): Promise<Gathered> {
  const outcomes = new Map<number, ListOutcome>()
  /** Objects read, kept compressed or not: a compressed one weighs as much (budget.check below). */
  let objects = 0
  let spilling = false
  /** The outcomes of spillable lists, read or being read: compressed when spilling starts. */
  const open = new Set<ListOutcome>()
  let done = 0
  let stop: unknown
  const total = plan.lists.length
  const intern = new Interner()
  const status = (what: string, final = false) => progress?.(`audit: listed ${done}/${total} kinds, ${objects} objects read${what ? ` — ${what}` : ''}`, final)
  const compress = (o: ListOutcome) => {
    o.spilled ??= new SpilledObjects()
    for (const item of o.items) o.spilled.add(item)
    o.items = []
  }
  const keepItem = (o: ListOutcome, item: KubeObject) => {
    if (o.spilled) o.spilled.add(item)
    else o.items.push(item)
    objects++
  }
  /** Objects a source has projected but not yet handed back (a watch-cache list comes in one piece). */
  let inFlight = 0
  /**
   * How many objects of a kind there are, in a scope, as a paged list's server counted them (what that list has read
   * and its remainingItemCount): every list of that kind and scope reads as many (the watch cache's pods and their
   * metadata are the same pods), so what they have still to read is counted before it is (toCome).
   */
  const counted = new Map<string, number>()
  /** What each list holds now, once it is being read; the lists read to the end, or failed. */
  const readSoFar = new Map<number, () => number>()
  const finished = new Set<number>()
  const scopeOf = (l: PlannedList) => (l.labelSelector === undefined ? `${typeKey(l.type)} ${l.namespace ?? ''}` : '')
  const toCome = (): number => {
    if (counted.size === 0) return 0
    let n = 0
    for (const l of plan.lists) {
      const total = finished.has(l.id) ? undefined : counted.get(scopeOf(l))
      if (total !== undefined) n += Math.max(0, total - (readSoFar.get(l.id)?.() ?? 0))
    }
    return n
  }
  const check = (where: string) => {
    if (spill && !spilling && objects + inFlight >= spill.at) {
      spilling = true
      progress?.(`audit: ${objects} objects read: the largest lists are kept compressed from here on`, true)
      for (const o of open) compress(o)
    }
    // A compressed object weighs as much as one kept whole: at the run's peak a check holds its fields of every one of
    // them (heap-budget.ts, measured both ways).
    budget.check(objects + inFlight, where, toCome())
  }
  const drop = (o: ListOutcome) => {
    objects -= o.items.length + (o.spilled?.count ?? 0)
    o.items = []
    o.spilled = spilling ? new SpilledObjects() : undefined
  }

  // A cluster too large is refused before anything is read: the largest kinds, and every watch-cache list (it comes in
  // one piece and says nothing of its size until it is read), are counted first, each by a quorum page of one object's
  // metadata, whose remainingItemCount counts the rest (the API server's, on a paged list without selectors).
  const toCount = new Map<string, PlannedList>()
  for (const l of plan.lists) if (l.labelSelector === undefined && (l.view === 'cached' || largest(l))) toCount.set(scopeOf(l), l)
  await pool([...toCount.values()], LIST_CONCURRENCY, async (l) => {
    const probe: ListRequest = {
      apiVersion: apiVersionOf(l.type),
      kind: l.type.kind,
      namespace: l.namespace,
      metadataOnly: true,
      view: 'fresh',
      pageSize: 1,
      onRemaining: (n) => counted.set(scopeOf(l), n),
    }
    try {
      for await (const _ of source.pages(probe)) break
    } catch {
      // The list itself says what went wrong with it, when it is read.
    }
  })
  if (counted.size > 0) check(`counted before reading: a page of one object of each of ${toCount.size} lists`)

  await pool(plan.lists, LIST_CONCURRENCY, async (list) => {
    if (stop) return
    const project = projector(list, intern, keep)
    const compressible = spill !== undefined && spillable(list)
    const where = `listing ${describeList(list)}`
    // Kept compressed as the source reads it, once spilling: the source's own array then holds only this stand-in (it
    // validates what the projection gives: an object of the list's kind with a name), not a projected copy of every pod.
    const aside: KubeObject = {apiVersion: apiVersionOf(list.type), kind: list.type.kind, metadata: {name: 'kept-compressed'}}
    let listInFlight = 0
    /** Compressed as read while objects handed to the reader before spilling began are still to come back. */
    let later: SpilledObjects | undefined
    let tick = 0
    // What is compressed shares nothing by reference (it is written out as text), so it is projected without an
    // interner: the audit's would keep every name and uid of every compressed object as a key (2/3 of a compressing
    // read's heap), and finding shared parts would only cost time.
    const spillProject = projector(list, new NoInterner(), keep)
    const projectForSpill = spillProject
    const readerProject = !compressible
      ? project
      : (o: KubeObject): KubeObject => {
          const p = outcome.spilled ? projectForSpill(o) : project(o)
          let back = p
          if (outcome.spilled) {
            // The objects this read handed back before spilling began are kept when it returns, first: what is
            // compressed meanwhile waits behind them, so that the list keeps its order.
            if (listInFlight > 0) {
              later ??= new SpilledObjects()
              later.add(p)
            } else outcome.spilled.add(p)
            objects++
            back = aside
          } else {
            inFlight++
            listInFlight++
          }
          if (++tick % 1024 === 0) check(where)
          return back
        }
    const handedBack = () => {
      inFlight -= listInFlight
      listInFlight = 0
    }
    const keepAll = (items: readonly KubeObject[]) => {
      handedBack()
      for (const o of items) if (o !== aside) keepItem(outcome, outcome.spilled ? projectForSpill(o) : project(o))
      if (later) {
        outcome.spilled!.append(later)
        later = undefined
      }
    }
    const request = {
      apiVersion: apiVersionOf(list.type),
      kind: list.type.kind,
      namespace: list.namespace,
      labelSelector: list.labelSelector,
      metadataOnly: list.metadataOnly,
      view: list.view,
      pageSize: PAGE_SIZE,
      project: readerProject,
      // The kind counted from each page (this page and those after it), before they are read.
      onRemaining: (n: number) => {
        if (list.labelSelector === undefined) counted.set(scopeOf(list), readSoFar.get(list.id)!() + n)
        check(where)
      },
    }
    const outcome: ListOutcome = {list, items: []}
    readSoFar.set(list.id, () => outcome.items.length + (outcome.spilled?.count ?? 0) + (later?.count ?? 0) + listInFlight)
    if (compressible) {
      open.add(outcome)
      if (spilling) outcome.spilled = new SpilledObjects()
    }
    for (let attempt = 0; ; attempt++) {
      try {
        if (list.view === 'cached') {
          // The watch cache answers in one piece (it ignores limit) and its resourceVersion is the informer's sync point.
          const r = await source.list(request)
          keepAll(r.items)
          outcome.resourceVersion = r.resourceVersion
          check(where)
        } else {
          for await (const page of source.pages(request)) {
            keepAll(page)
            check(where)
            status(describeList(list))
          }
        }
        break
      } catch (err) {
        handedBack()
        if (later) {
          objects -= later.count
          later = undefined
        }
        if (fatal(err)) {
          stop ??= err
          return
        }
        // A continue token that expired mid-list (410): what was read is dropped and the list read again, once.
        if (err instanceof ReadError && err.reason === 'Gone' && attempt === 0) {
          drop(outcome)
          outcome.restarted = true
          continue
        }
        drop(outcome)
        outcome.spilled = undefined
        outcome.error = err as Error
        break
      }
    }
    outcomes.set(list.id, outcome)
    finished.add(list.id)
    done++
    const n = outcome.items.length + (outcome.spilled?.count ?? 0)
    status(`${describeList(list)}: ${outcome.error ? `not read (${outcome.error.message})` : `${n}`}`, true)
  })
  if (stop) throw stop
  return new Gathered(plan, outcomes, keep)
}
