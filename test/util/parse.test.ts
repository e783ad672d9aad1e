// --now and the timestamps inside objects: RFC 3339 instants that are real, as Go's time.Parse checks them
// (time/format.go range errors: "day out of range", "hour out of range"...). JavaScript's Date rolls 2026-02-30 over to
// March 2 and 24:00:00 to the next midnight; both must be refused. Expected instants are worked out by hand.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {UserError} from '../../src/errors.js'
import {parseInstant, rfc3339Millis} from '../../src/util/parse.js'
import {runCli} from '../support/cli.js'

test('real instants: leap days, offsets, fractions to the nanosecond (cut to the millisecond)', () => {
  assert.equal(rfc3339Millis('2024-02-29T00:00:00Z'), Date.UTC(2024, 1, 29))
  assert.equal(rfc3339Millis('2000-02-29T23:59:59Z'), Date.UTC(2000, 1, 29, 23, 59, 59))
  // 12:00 at +05:30 is 06:30 UTC.
  assert.equal(rfc3339Millis('2026-11-29T12:00:00.123456789+05:30'), Date.UTC(2026, 10, 29, 6, 30, 0, 123))
  assert.equal(rfc3339Millis('2026-12-31T23:59:59-00:00'), Date.UTC(2026, 11, 31, 23, 59, 59))
})

test('calendar-invalid or out-of-range fields are not instants', () => {
  for (const v of [
    '2026-02-30T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-01-00T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-01-01T23:59:60Z',
    '2026-01-01T00:00:00+24:00',
    '2026-01-01T00:00:00+05:60',
    '2026-01-01',
    '2026-01-01T00:00:00',
    'not-a-time',
    '+275760-09-13T00:00:00Z',
  ]) {
    assert.equal(rfc3339Millis(v), undefined, v)
  }
})

test('--now: a calendar-invalid instant is a usage error naming the flag', () => {
  assert.throws(
    () => parseInstant('2026-02-30T10:00:00Z', 'now'),
    (e: unknown) => e instanceof UserError && /--now: "2026-02-30T10:00:00Z" is not an RFC 3339 time/.test(e.message),
  )
  assert.throws(() => parseInstant('2026-11-29T24:00:00Z', 'now'), UserError)
  assert.equal(parseInstant('2026-11-29T03:00:00Z', 'now').toISOString(), '2026-11-29T03:00:00.000Z')
})

test('kubectl why … --now 2026-02-30T10:00:00Z exits 2 with one line (needs npm run build)', async () => {
  const r = await runCli(['node', '-f', fileURLToPath(new URL('../../examples/node-zone-outage.json', import.meta.url)), '--now', '2026-02-30T10:00:00Z'])
  assert.equal(r.code, 2)
  assert.equal(r.stdout, '')
  assert.match(r.stderr, /^error: --now: "2026-02-30T10:00:00Z" is not an RFC 3339 time; write it like 2026-11-29T03:00:00Z/)
  assert.equal(r.stderr.trim().split('\n').length, 1)
})
