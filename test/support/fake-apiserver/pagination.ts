// Continue tokens exactly as k8s.io/apiserver/pkg/storage/continue.go makes them: base64url (no
// padding) of {"v":"meta.k8s.io/v1","rv":<etcd revision>,"start":<next key relative to the list's
// key prefix>}. A client must treat them as opaque; a test may decode them to check the revision.
import {posix} from 'node:path'
import {badRequest} from './status.js'

export interface ContinueToken {
  /** The revision every page of the list is read at; -1: the latest (after a 410, see errors.go). */
  rv: number
  /** Where the next page starts, relative to the key prefix ("ns/name\u0000" or "name\u0000"). */
  start: string
}

export function encodeContinue(start: string, rv: number): string {
  return Buffer.from(JSON.stringify({v: 'meta.k8s.io/v1', rv, start}), 'utf8').toString('base64url')
}

const invalid = (why: string) => badRequest(`invalid continue token: continue key is not valid: ${why}`)

/** storage.DecodeContinue, with its checks; a 400 BadRequest when the token is not one of ours. */
export function decodeContinue(token: string): ContinueToken {
  const bad = /[^A-Za-z0-9_-]/.exec(token)
  if (bad) throw invalid(`illegal base64 data at input byte ${bad.index}`)
  let c: {v?: unknown; rv?: unknown; start?: unknown}
  try {
    c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
  } catch (e) {
    throw invalid((e as Error).message)
  }
  if (c === null || typeof c !== 'object') throw invalid('json: cannot unmarshal into Go value of type storage.continueToken')
  if (c.v !== 'meta.k8s.io/v1')
    throw badRequest(`invalid continue token: continue key is not valid: server does not recognize this encoded version ${JSON.stringify(String(c.v ?? ''))}`)
  const rv = typeof c.rv === 'number' && Number.isInteger(c.rv) ? c.rv : 0
  if (rv === 0) throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)')
  const start = typeof c.start === 'string' ? c.start : ''
  if (start === '') throw invalid('encoded start key empty (version meta.k8s.io/v1)')
  // upstream defends against path traversal: the key, rooted at "/", must already be path.Clean'ed
  const rooted = start.startsWith('/') ? start : `/${start}`
  let cleaned = posix.normalize(rooted)
  if (cleaned.length > 1 && cleaned.endsWith('/')) cleaned = cleaned.slice(0, -1)
  if (cleaned !== rooted) throw invalid(start)
  return {rv, start: cleaned.slice(1)}
}

/**
 * The two 410 messages of storage/etcd3/errors.go. With a key to resume from, the API server
 * hands back a token at revision -1 that continues at the latest revision ("inconsistent").
 */
export const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'
export const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'
export const LIST_EXPIRED = 'The resourceVersion for the provided list is too old.'
