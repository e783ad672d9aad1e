// Performs the read plan: each planned LIST once, paginated, with bounded concurrency, each page projected to what
// the engines read as it arrives. A list that fails is recorded (the checks that needed it say so) and the others
// go on; only refused credentials or an unreachable server end the audit, as they would every other read.
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import {HeapBudget, HeapBudgetError} from '../cluster/heap-budget.js'
import {PAGE_SIZE, pool} from '../cluster/read.js'
import type {ClusterSource, KubeObject} from '../cluster/source.js'
import {ReadError} from '../errors.js'
import {describeList, itemsFor, type PlannedList, type ReadPlan, type ResolvedNeed} from './plan.js'
import {Interner, type Keep, projector} from './project.js'

/** Lists in flight at once: enough to overlap the server's time with ours, few enough to stay polite. */
export const LIST_CONCURRENCY = 4

export interface ListOutcome {
  list: PlannedList
  items: KubeObject[]
  /** The list's resourceVersion, where the source gives one (unpaged, watch-cache lists). */
  resourceVersion?: string
  error?: Error
  /** 410 Gone met mid-list: the list was read again from the start, once. */
  restarted?: boolean
}

export type NeedRead = {ok: true; items: KubeObject[]; view: 'fresh' | 'cached'; resourceVersion?: string} | {ok: false; error: Error | undefined}

/** Errors no other list would escape: the audit stops (exit 2) rather than report every kind as unreadable. */
function fatal(err: unknown): boolean {
  return (err instanceof ReadError && (err.reason === 'Unauthorized' || err.reason === 'Unreachable')) || err instanceof HeapBudgetError
}

export class Gathered {
  constructor(
    readonly plan: ReadPlan,
    readonly outcomes: ReadonlyMap<number, ListOutcome>,
  ) {}

  /** What a need got: its items (filtered from a wider list when it was merged into one), or why not. */
  read(need: ResolvedNeed): NeedRead {
    if (!need.type || !need.list) return {ok: false, error: undefined}
    const o = this.outcomes.get(need.list.id)
    if (!o || o.error) return {ok: false, error: o?.error}
    return {ok: true, items: itemsFor(need, o.items), view: o.list.view, resourceVersion: o.resourceVersion}
  }

  failed(): ListOutcome[] {
    return [...this.outcomes.values()].filter((o) => o.error !== undefined)
  }

  get objects(): number {
    let n = 0
    for (const o of this.outcomes.values()) n += o.items.length
    return n
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
): Promise<Gathered> {
  const outcomes = new Map<number, ListOutcome>()
  let objects = 0
  let done = 0
  let stop: unknown
  const total = plan.lists.length
  const intern = new Interner()
  const status = (what: string, final = false) => progress?.(`audit: listed ${done}/${total} kinds, ${objects} objects read${what ? ` — ${what}` : ''}`, final)

  await pool(plan.lists, LIST_CONCURRENCY, async (list) => {
    if (stop) return
    const project = projector(list, intern, keep)
    const request = {
      apiVersion: apiVersionOf(list.type),
      kind: list.type.kind,
      namespace: list.namespace,
      labelSelector: list.labelSelector,
      metadataOnly: list.metadataOnly,
      view: list.view,
      pageSize: PAGE_SIZE,
      project,
    }
    const outcome: ListOutcome = {list, items: []}
    for (let attempt = 0; ; attempt++) {
      try {
        if (list.view === 'cached') {
          // The watch cache answers in one piece (it ignores limit) and its resourceVersion is the informer's sync point.
          const r = await source.list(request)
          outcome.items = r.items.map(project)
          outcome.resourceVersion = r.resourceVersion
          objects += outcome.items.length
          budget.check(objects, `listing ${describeList(list)}`)
        } else {
          for await (const page of source.pages(request)) {
            for (const o of page) outcome.items.push(project(o))
            objects += page.length
            budget.check(objects, `listing ${describeList(list)}`)
            status(describeList(list))
          }
        }
        break
      } catch (err) {
        if (fatal(err)) {
          stop ??= err
          return
        }
        // A continue token that expired mid-list (410): what was read is dropped and the list read again, once.
        if (err instanceof ReadError && err.reason === 'Gone' && attempt === 0) {
          objects -= outcome.items.length
          outcome.items = []
          outcome.restarted = true
          continue
        }
        objects -= outcome.items.length
        outcome.items = []
        outcome.error = err as Error
        break
      }
    }
    outcomes.set(list.id, outcome)
    done++
    status(`${describeList(list)}: ${outcome.error ? `not read (${outcome.error.message})` : `${outcome.items.length}`}`, true)
  })
  if (stop) throw stop
  return new Gathered(plan, outcomes)
}
