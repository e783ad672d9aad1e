// The one duration formatter for people. Expected values worked by hand from the rules in src/util/duration.ts and,
// for kubectlAge, from kubectl's duration.HumanDuration (k8s.io/apimachinery/pkg/util/duration/duration.go).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {formatGoDuration} from '../../src/settings/go-duration.js'
import {humanDuration, kubectlAge, relativeTime, shortDuration} from '../../src/util/duration.js'

const S = 1000
const M = 60 * S
const H = 60 * M
const D = 24 * H

describe("humanDuration (precise: engines' summaries)", () => {
  it('every unit down to tenths of a second, hours the largest', () => {
    assert.equal(humanDuration(115 * S), '1m55s')
    assert.equal(humanDuration(1500), '1.5s')
    assert.equal(humanDuration(H), '1h')
    // 25 h 1 m 1 s: no days in this form, so summaries about grace periods read in hours
    assert.equal(humanDuration(25 * H + M + S), '25h1m1s')
    assert.equal(humanDuration(H + 5 * S), '1h5s')
  })
  it('milliseconds below a second, a sign for negative, forever for infinite', () => {
    assert.equal(humanDuration(500), '500ms')
    assert.equal(humanDuration(0), '0ms')
    assert.equal(humanDuration(-5 * S), '-5s')
    assert.equal(humanDuration(Number.POSITIVE_INFINITY), 'forever')
  })
})

describe('shortDuration (two adjacent units, whole seconds)', () => {
  it('keeps the two largest adjacent units', () => {
    assert.equal(shortDuration(115 * S), '1m55s')
    assert.equal(shortDuration(H + 2 * M + 5 * S), '1h2m') // 5 s dropped: three units
    assert.equal(shortDuration(D + 2 * H + 3 * M + 4 * S), '1d2h')
    assert.equal(shortDuration(D + 5 * M), '1d') // minutes are not adjacent to days
    assert.equal(shortDuration(H + 5 * S), '1h') // seconds are not adjacent to hours
  })
  it('rounds to whole seconds first', () => {
    assert.equal(shortDuration(1499), '1s')
    assert.equal(shortDuration(59_600), '1m') // 59.6 s rounds to 60 s
    assert.equal(shortDuration(0), '0s')
    assert.equal(shortDuration(-90 * S), '-1m30s')
  })
})

describe('relativeTime (the tense)', () => {
  const now = Date.parse('2026-11-29T10:00:00Z')
  it('future instants read "in …", past ones "… ago", the same second "now"', () => {
    assert.equal(relativeTime(now + 115 * S, now), 'in 1m55s')
    assert.equal(relativeTime(now - 2 * M, now), '2m ago')
    assert.equal(relativeTime(now, now), 'now')
    assert.equal(relativeTime(now + 400, now), 'now') // rounds to 0 s
    // the old node table printed a future 1 h 2 m 5 s as "in 3725s"
    assert.equal(relativeTime(now + H + 2 * M + 5 * S, now), 'in 1h2m')
  })
})

describe("kubectlAge (kubectl's AGE column)", () => {
  const cases: [number, string][] = [
    [119 * S, '119s'], // seconds up to 2 minutes
    [2 * M, '2m'],
    [5 * M + 30 * S, '5m30s'], // minutes and seconds under 10 minutes
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'], // minutes under 3 hours
    [3 * H, '3h'],
    [5 * H + 3 * M, '5h3m'], // hours and minutes under 8 hours
    [47 * H + 59 * M, '47h'],
    [48 * H, '2d'],
    [3 * D + 4 * H, '3d4h'], // days and hours under 8 days
    [8 * D + 5 * H, '8d'],
    [729 * D, '729d'],
    [730 * D, '2y'],
    [740 * D, '2y10d'],
    [8 * 365 * D, '8y'],
    [-1500, '0s'], // within a second of now: clock skew
    [-2 * S, '<invalid>'],
  ]
  for (const [ms, want] of cases) it(`${ms} ms → ${want}`, () => assert.equal(kubectlAge(ms), want))
})

describe('formatGoDuration stays for Go duration flags', () => {
  it('prints as Go does, unlike the forms for people', () => {
    assert.equal(formatGoDuration(M), '1m0s')
    assert.equal(shortDuration(M), '1m')
  })
})
