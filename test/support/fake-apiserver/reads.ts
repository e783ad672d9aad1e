// GET and LIST semantics: which view answers (etcd at the latest revision, etcd at an older one,
// or the watch cache) and how a page is cut. Follows k8s.io/apiserver's cacher delegation
// (shouldDelegateList) and etcd3 store GetList, for a 1.32 server:
// - resourceVersion unset: a consistent read, the latest revision, limit honoured;
// - resourceVersion=0: the watch cache, whatever it holds; limit ignored (the cache cannot page);
// - continue: etcd at the token's revision (410 once compacted), or the latest for rv -1;
// - resourceVersion=N with limit (legacy match) or match=Exact: etcd exactly at N;
// - resourceVersion=N with match=NotOlderThan and a limit: etcd at the latest, N checked;
// - resourceVersion=N otherwise: the watch cache when it has reached N.
import {decodeContinue, encodeContinue, INCONSISTENT_CONTINUE, LIST_EXPIRED} from './pagination.js'
import type {LabelSelector, ParsedFieldSelector} from './selectors.js'
import {badRequest, invalidListOptions, notFound, resourceExpired, tooLargeResourceVersion} from './status.js'
import {lowerBound, type Entry, type ResourceStore, type Store} from './store.js'
import type {ListMeta} from './serialize.js'

export interface ListQuery {
  namespace?: string
  labelSelector?: LabelSelector
  fieldSelector?: ParsedFieldSelector
  limit: number
  continueToken?: string
  resourceVersion?: string
  resourceVersionMatch?: string
}

export interface ListResult {
  items: Entry[]
  meta: ListMeta
}

function parseRv(rv: string): number {
  if (!/^\d+$/.test(rv))
    throw badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`,
    )
  return Number(rv)
}

/** metainternalversion validation.ValidateListOptions, for the parameters a reader sends. */
function validate(q: ListQuery): void {
  const match = q.resourceVersionMatch ?? ''
  if (match === '') return
  if (!['Exact', 'NotOlderThan'].includes(match)) {
    throw invalidListOptions('resourceVersionMatch', 'supported values: "Exact", "NotOlderThan", ""', match)
  }
  if (!q.resourceVersion) throw invalidListOptions('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided')
  if (q.continueToken) throw invalidListOptions('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided')
  if (match === 'Exact' && q.resourceVersion === '0')
    throw invalidListOptions('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"')
}

/** The key-ordered slice one list ranges over: a namespace's keys, or all of them. */
function range(entries: readonly Entry[], namespace: string | undefined): {lo: number; hi: number} {
  if (namespace === undefined) return {lo: 0, hi: entries.length}
  // "ns/" .. "ns0": '0' is the byte after '/', so this is exactly the keys under the prefix "ns/"
  return {lo: lowerBound(entries, `${namespace}/`), hi: lowerBound(entries, `${namespace}0`)}
}

function matches(e: Entry, q: ListQuery): boolean {
  if (q.labelSelector && !q.labelSelector(e.labels)) return false
  if (q.fieldSelector && !q.fieldSelector.match(e)) return false
  return true
}

/** The watch cache's answer: everything matching, one page, at the cache's revision. */
function fromCache(s: ResourceStore, store: Store, q: ListQuery): ListResult {
  const entries = s.entriesAt(store.cacheRev)
  const {lo, hi} = range(entries, s.type.namespaced ? q.namespace : undefined)
  const items: Entry[] = []
  for (let i = lo; i < hi; i++) if (matches(entries[i], q)) items.push(entries[i])
  return {items, meta: {resourceVersion: String(store.cacheRev)}}
}

/**
 * etcd3 store GetList at a revision: fill the page from the start key, filtering as it goes; a
 * continue token when any key (matching or not) follows the last one returned; remainingItemCount
 * only without selectors, where it is exact.
 */
function fromEtcd(s: ResourceStore, _store: Store, q: ListQuery, rev: number, start: string | undefined, latest: boolean): ListResult {
  const namespace = s.type.namespaced ? q.namespace : undefined
  const entries = s.entriesAt(rev)
  const {lo, hi} = range(entries, namespace)
  const prefix = namespace === undefined ? '' : `${namespace}/`
  const first = start === undefined ? lo : Math.max(lo, lowerBound(entries, prefix + start))
  const items: Entry[] = []
  const paging = q.limit > 0
  let last = first - 1
  // spec.nodeName=X on the latest pods: walk the node's index instead of every pod
  const indexed = latest && q.fieldSelector?.nodeName !== undefined ? s.onNode(q.fieldSelector.nodeName) : undefined
  if (indexed) {
    const startKey = first < entries.length ? entries[first].key : '\uffff'
    for (let i = lowerBound(indexed, startKey); i < indexed.length; i++) {
      const e = indexed[i]
      if (namespace !== undefined && !e.key.startsWith(prefix)) {
        if (e.key > prefix) break
        continue
      }
      if (!matches(e, q)) continue
      items.push(e)
      if (paging && items.length >= q.limit) break
    }
    last = items.length > 0 && paging && items.length >= q.limit ? lowerBound(entries, items[items.length - 1].key) : hi - 1
  } else {
    for (let i = first; i < hi; i++) {
      last = i
      if (matches(entries[i], q)) items.push(entries[i])
      if (paging && items.length >= q.limit) break
    }
  }
  const meta: ListMeta = {resourceVersion: String(rev)}
  if (paging && last + 1 < hi) {
    const lastKey = entries[last].key
    meta.continue = encodeContinue(`${lastKey.slice(prefix.length)}\u0000`, rev)
    if (!q.labelSelector && !q.fieldSelector) meta.remainingItemCount = hi - last - 1
  }
  return {items, meta}
}

export function list(store: Store, s: ResourceStore, q: ListQuery): ListResult {
  validate(q)
  const rvParam = q.resourceVersion ?? ''
  const match = q.resourceVersionMatch ?? ''
  if (q.continueToken) {
    if (rvParam !== '' && rvParam !== '0') throw badRequest('specifying resource version is not allowed when using continue')
    const token = decodeContinue(q.continueToken)
    if (token.rv > 0 && token.rv < store.compactedRev) {
      // etcd says ErrCompacted; the server offers to go on at the latest revision from the same key
      throw resourceExpired(INCONSISTENT_CONTINUE, encodeContinue(token.start, -1))
    }
    if (token.rv > store.rev) throw tooLargeResourceVersion(token.rv, store.rev)
    const rev = token.rv > 0 ? token.rv : store.rev
    return fromEtcd(s, store, q, rev, token.start, rev === store.rev)
  }
  if (rvParam === '') return fromEtcd(s, store, q, store.rev, undefined, true)
  const n = parseRv(rvParam)
  if (n === 0) return fromCache(s, store, q)
  if (match === 'Exact' || (match === '' && q.limit > 0)) {
    if (n < store.compactedRev) throw resourceExpired(LIST_EXPIRED)
    if (n > store.rev) throw tooLargeResourceVersion(n, store.rev)
    return fromEtcd(s, store, q, n, undefined, n === store.rev)
  }
  if (q.limit > 0) {
    if (n > store.rev) throw tooLargeResourceVersion(n, store.rev)
    return fromEtcd(s, store, q, store.rev, undefined, true)
  }
  // the cache would wait up to 3s for revision n, then give up; it is not going to move here
  if (n > store.cacheRev) throw tooLargeResourceVersion(n, store.cacheRev)
  return fromCache(s, store, q)
}

/** GET: resourceVersion unset reads etcd; anything else is served by the watch cache (not older than it). */
export function get(store: Store, s: ResourceStore, namespace: string, name: string, resourceVersion: string | undefined): Entry {
  const key = s.keyOf(namespace, name)
  let entry: Entry | undefined
  if (!resourceVersion) {
    entry = s.getAt(key, store.rev)
  } else {
    const n = parseRv(resourceVersion)
    if (n > store.cacheRev) throw tooLargeResourceVersion(n, store.cacheRev)
    entry = s.getAt(key, store.cacheRev)
  }
  if (!entry) throw notFound({group: s.type.group, resource: s.type.resource}, name)
  return entry
}
