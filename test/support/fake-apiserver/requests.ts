// What tests ask of the requests the fake server recorded (FakeApiServer's log): that a run only read, and its lists.
import assert from 'node:assert/strict'
import type {RequestRecord} from './index.js'

/** Every request was a GET; the message names the others. */
export const onlyGets = (reqs: RequestRecord[]) =>
  assert.ok(
    reqs.every((r) => r.method === 'GET'),
    reqs
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`)
      .join(', '),
  )

/** The requests to a resource's collection (its LISTs). */
export const lists = (reqs: RequestRecord[], resource: string) => reqs.filter((r) => r.path.endsWith(`/${resource}`))
