// The reads every driver and the audit make through a ClusterSource, written once: the page size, a whole list
// read page by page (restarted on 410 Gone), a bounded pool of reads in flight, and a failed read as one line.
import {ReadError} from '../errors.js'
import type {Problem} from '../explanation.js'
import type {ClusterSource, KubeObject, ListRequest} from './source.js'

/** Items per page of a paginated LIST (limit=): client-go's pager default. */
export const PAGE_SIZE = 500

/**
 * Every page of a list, each item kept as `map` makes it as the page arrives. A continue token that expired mid-list
 * (410 Gone) restarts the list once from the start (the source does it, as client-go's pager: ListRequest.onRestart);
 * what was kept is dropped then, so the list is one consistent read. A second expiry fails the read.
 */
export async function listAll<T extends KubeObject>(source: ClusterSource, request: ListRequest, map?: (o: KubeObject) => T): Promise<T[]> {
  const out: T[] = []
  const pages = source.pages({
    pageSize: PAGE_SIZE,
    ...request,
    project: map,
    onRestart: () => {
      out.length = 0
    },
  })
  for await (const page of pages) for (const o of page) out.push(map ? map(o) : (o as T))
  return out
}

/**
 * Objects that come a chunk at a time (a compressed list, a packed namespace), handed on in pages of `size`, as a
 * server pages a list: each kept (`keep`) and made (`map`) as it goes, no list made whole.
 */
export function* inPages(
  chunks: Iterable<readonly KubeObject[]>,
  size: number,
  keep?: (o: KubeObject) => boolean,
  map?: (o: KubeObject) => KubeObject,
): Generator<KubeObject[]> {
  let page: KubeObject[] = []
  for (const chunk of chunks)
    for (const o of chunk) {
      if (keep && !keep(o)) continue
      page.push(map ? map(o) : o)
      if (page.length === size) {
        yield page
        page = []
      }
    }
  if (page.length > 0) yield page
}

/** Bounded concurrency: at most `width` calls of fn in flight, items taken in order. */
export async function pool<T>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({length: Math.max(0, Math.min(width, items.length))}, worker))
}

/** A failed read in one line: the API's reason and status ("Forbidden (403): ..."), else the error's message. */
export function readFailure(err: unknown): string {
  return err instanceof ReadError ? `${err.reason}${err.status ? ` (${err.status})` : ''}: ${err.message}` : (err as Error).message
}

/** A failed read as the problem an answer reports. */
export function readProblem(what: string, err: unknown): Problem {
  return {what, reason: readFailure(err)}
}
