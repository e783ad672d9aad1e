// Fail early and clearly when the data cannot fit the heap (issue 29): the audit holds every object it reads (projected
// to what the checks read; compressed, in a large live audit, but each check takes back its own fields of all of
// them), so the heap it needs grows with the count of objects. Counted as they arrive — a snapshot's items, a live
// list's pages — and, live, before they do (what the API server counts for the largest lists: src/audit/gather.ts),
// and compared with the heap this process has, it stops the run with one line (exit 2) as soon as the count passes
// what the heap can hold, instead of V8's "heap out of memory" dump and exit 134 minutes later, near the end, with no
// report.
//
// The figures are measured on the benchmark's cluster (bench/audit.ts: 30 pods per node, 58,500 objects per 1,000
// nodes), not derived, as the smallest --max-old-space-size that finishes (V8 needs room over the live heap to collect
// in, so this is more than the heap's peak). What one object costs at the peak differs by source:
//
// - Live (issue 29, after the audit kept its largest lists compressed and each check took back only its own fields):
//   5,000 nodes (292,500 objects) died with 360 and finished with 400, compressing from the start or not at all (each
//   check takes back its projection of every pod, and the collector's graph holds every object's metadata, either
//   way): 1.22-1.36 KB an object over 20 MiB; 10,000 nodes (585,000 objects) finished in a 1 GiB memory cgroup
//   (783 MiB of old space counted as this file counted it then: at most 1.37 KB). Then each check took its compressed
//   lists back a chunk at a time (a spread read had taken the pods back whole for the replicas check): 2,000 nodes die
//   with 130 and finish with 150, 5,000 nodes with 300 and 340: 0.97-1.15 KB. 1,200 bytes. At 20,000 nodes in 1 GiB
//   the audit stops within a minute, with one line (it died with V8's dump after 257 s).
// - A snapshot holds every object it read, projected, to the end of the run (the checks' GETs are answered from it),
//   and each check's work on top. Held whole, with the projection's interner, 1,000 nodes died with 140 and finished
//   with 160, 3,000 nodes (175,500 objects) died with 370 and finished with 400 (2.15-2.27 KB; at the 1,700 then
//   assumed, a 3,000-node snapshot in 300 MiB died with V8's dump near the end of its read instead of stopping).
//   Packed once past a quarter of the heap (ObjectStore.compact, packBehind; the projection then shares nothing) and
//   paged a namespace at a time: 1,000 nodes die with 100 and finish with 110, 3,000 with 240 and 280: 1.40-1.52 KB.
//   1,600 bytes.
//
// A cluster whose objects are larger than these (more labels, longer names) needs more: the message says the figure is
// an estimate. What is held grows linearly with the objects (the heap after a snapshot read, v8 heapUsed after a
// forced gc: 1.13 KB an object at 1,000 nodes and 1.05 KB at 4,000, the same mix in V8 heap snapshots of both), so
// these hold at larger sizes; the RSS beside the heap is collectable garbage and freed pages V8 keeps while the limit
// lets it, not data held: a memory cgroup's limit (bin/heap.js) makes V8 collect sooner.
import {getHeapStatistics} from 'node:v8'
import {UserError} from '../errors.js'

/** Old space per object a live audit reads, compressed or not, with V8's room to collect in (measured, above). */
export const HEAP_PER_OBJECT = 1200
/** Old space per object a snapshot audit reads: the snapshot holds them all (packed) to the end, the checks work on top. */
export const HEAP_PER_SNAPSHOT_OBJECT = 1600
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
  /** `more`: objects the server counts still to be read (remainingItemCount), counted before they are. */
  constructor(objects: number, where: string, limit: number, perObject = HEAP_PER_OBJECT, more = 0) {
    const need = HEAP_FIXED + (objects + more) * perObject
    const count =
      more > 0
        ? `${objects.toLocaleString('en-US')} objects read and ${more.toLocaleString('en-US')} more to read (as the API server counts them: remainingItemCount)`
        : `${objects.toLocaleString('en-US')} objects read so far`
    super(
      `the data will not fit in memory: ${count} (${where}) need about ${mib(need)} MiB of heap ` +
        `(an estimate: ${mib(HEAP_FIXED)} MiB and about ${perObject.toLocaleString('en-US')} bytes per object, as the audit holds them), and this process has ${mib(oldSpace(limit))} MiB`,
      'give it more memory (a higher container memory limit: the heap is sized from it; or NODE_OPTIONS=--max-old-space-size=MiB), or audit fewer namespaces at a time (-n NAME)',
    )
    this.name = 'HeapBudgetError'
  }
}

/**
 * This process's heap limit as oldSpace reads it. Where bin/heap.js sized the heap from a memory limit it says what
 * it gave (KUBECTL_WHY_HEAP_SIZED, in MiB): V8 then takes a smaller young generation than YOUNG_GENERATION (12 MiB in
 * a 1 GiB cgroup: heap_size_limit 831 MiB for --max-old-space-size=819), and the limit less 48 MiB would miss 36 MiB of
 * old space. Elsewhere V8's own limit, read as above (the young generation at most: never more old space than there is).
 */
export function processHeapLimit(env: NodeJS.ProcessEnv = process.env): number {
  const sized = Number(env.KUBECTL_WHY_HEAP_SIZED)
  return Number.isFinite(sized) && sized > 0 ? sized * 2 ** 20 + YOUNG_GENERATION : getHeapStatistics().heap_size_limit
}

/** The old space of a heap of `limit` bytes (v8 heap_size_limit): what --max-old-space-size gave, or bin/heap.js. */
export function oldSpace(limit: number): number {
  return Math.max(0, limit - YOUNG_GENERATION)
}

/** The largest object count the heap can hold, for a heap of `limit` bytes (v8 heap_size_limit), at `perObject` bytes each. */
export function objectsThatFit(limit: number, perObject = HEAP_PER_OBJECT): number {
  return Math.max(0, Math.floor((oldSpace(limit) - HEAP_FIXED) / perObject))
}

/** Counts objects as they are kept; throws HeapBudgetError once they cannot fit `limit` bytes of heap. */
export class HeapBudget {
  private next = EVERY
  readonly fits: number

  constructor(
    readonly limit = processHeapLimit(),
    private readonly where = 'so far',
    readonly perObject = HEAP_PER_OBJECT,
  ) {
    this.fits = objectsThatFit(limit, perObject)
  }

  /**
   * `objects`: how many are held now; `more`: how many the server said are still to come. Cheap: a comparison, the
   * real test every EVERY objects.
   */
  check(objects: number, where = this.where, more = 0): void {
    const all = objects + more
    if (all < this.next) return
    this.next = all + EVERY
    if (all > this.fits) throw new HeapBudgetError(objects, where, this.limit, this.perObject, more)
  }
}
