// Fail early and clearly when the data cannot fit the heap (issue 29): the audit holds every object it reads (projected
// to what the checks read), so the heap it needs grows with the count of objects. Counted as they arrive — a
// snapshot's items, a live list's pages — and compared with the heap this process has, it stops the run with one line
// (exit 2) as soon as the count passes what the heap can hold, instead of V8's "heap out of memory" dump and exit 134
// minutes later, near the end, with no report.
//
// The figures are measured on the benchmark's cluster (bench/audit.ts: 30 pods per node, 58,500 objects per 1,000
// nodes, read from a snapshot), not derived: at 1,000 nodes the live heap peaks at about 93 MiB, in the replicas check
// after the others (V8's --trace-gc), and V8 needs room over the live heap to collect in: with --max-old-space-size=110
// the run died there, with 130 it finished; at 300 nodes (17,564 objects) 40 died and 48 finished. Old space needed ≈
// 20 MiB (code, start-up, the read's buffers) + 1.7 KB per object fits both. A cluster whose objects are larger than
// these (more labels, longer names) needs more: the message says the figure is an estimate.
//
// What the snapshot read holds grows linearly, not faster (issue 29: the heap after the read, v8 heapUsed after a
// forced gc, with the audit's projections): 64.7 MiB for 58,514 objects at 1,000 nodes (1.13 KB each), 233.4 MiB for
// 234,014 at 4,000 (1.05 KB); V8 heap snapshots of the two show the same mix at both sizes (JS objects 36 %, strings
// 31 %, element arrays 21 %; pods 63 % of the projected bytes, about 1 KB of JSON each). The RSS beside it (280 and 617
// MiB) is collectable garbage and freed pages V8 keeps while the heap limit lets it, not data held: a memory cgroup's
// limit (bin/heap.js) makes V8 collect sooner. At 20,000 nodes the held data alone is about 1.2 GiB, so no heap flag
// fits that audit in 1 GiB: what is held across objects has to shrink (issue 29.1), not the garbage.
import {getHeapStatistics} from 'node:v8'
import {UserError} from '../errors.js'

/** Old space per object the audit holds, with V8's room to collect in (measured on the benchmark's cluster, above). */
export const HEAP_PER_OBJECT = 1700
/**
 * Old space per object the audit keeps compressed (src/cluster/spill.ts): its share of the deflated text, and what the
 * check that reads most of it takes back while it runs (the collector's graph holds every object's metadata).
 */
export const HEAP_PER_SPILLED_OBJECT = 500
/** Old space the run needs whatever the data: code, start-up, the read's buffers (measured, above). */
export const HEAP_FIXED = 20 * 2 ** 20
/**
 * V8's young generation, which heap_size_limit counts on top of --max-old-space-size (three 16 MiB semi-spaces on
 * x64: 64, 80, 96 MiB for --max-old-space-size=16, 32, 48, read from v8.getHeapStatistics()): no room for objects
 * that live to the end.
 */
export const YOUNG_GENERATION = 48 * 2 ** 20
/** How often the count is compared (objects): often enough to stop within a page, rarely enough to cost nothing. */
const EVERY = 1024

const mib = (bytes: number) => Math.round(bytes / 2 ** 20)

export class HeapBudgetError extends UserError {
  constructor(objects: number, where: string, limit: number) {
    const need = HEAP_FIXED + objects * HEAP_PER_OBJECT
    super(
      `the data will not fit in memory: ${objects.toLocaleString('en-US')} objects read so far (${where}) need about ${mib(need)} MiB of heap ` +
        `(an estimate: ${mib(HEAP_FIXED)} MiB and about ${HEAP_PER_OBJECT} bytes per object, as the audit holds them), and this process has ${mib(oldSpace(limit))} MiB`,
      'give it more memory (a higher container memory limit: the heap is sized from it; or NODE_OPTIONS=--max-old-space-size=MiB), or audit fewer namespaces at a time (-n NAME)',
    )
    this.name = 'HeapBudgetError'
  }
}

/** The old space of a heap of `limit` bytes (v8 heap_size_limit): what --max-old-space-size gave, or bin/heap.js. */
export function oldSpace(limit: number): number {
  return Math.max(0, limit - YOUNG_GENERATION)
}

/** The largest object count the heap can hold, for a heap of `limit` bytes (v8 heap_size_limit). */
export function objectsThatFit(limit: number): number {
  return Math.max(0, Math.floor((oldSpace(limit) - HEAP_FIXED) / HEAP_PER_OBJECT))
}

/** Counts objects as they are kept; throws HeapBudgetError once they cannot fit `limit` bytes of heap. */
export class HeapBudget {
  private next = EVERY
  readonly fits: number

  constructor(
    readonly limit = getHeapStatistics().heap_size_limit,
    private readonly where = 'so far',
  ) {
    this.fits = objectsThatFit(limit)
  }

  /** `objects`: how many are held now. Cheap: a comparison, the real test every EVERY objects. */
  check(objects: number, where = this.where): void {
    if (objects < this.next) return
    this.next = objects + EVERY
    if (objects > this.fits) throw new HeapBudgetError(objects, where, this.limit)
  }
}
