// The CSR cleaner (src/engine/csrcleaner/cleaner.ts) against upstream's table: pkg/controller/certificates/cleaner/
// cleaner_test.go TestCleanerWithApprovedExpiredCSR (certificates/v1 copy, k/k@01aa0f3f), each entry's created time,
// certificate and conditions relative to now, and its expected actions ("delete" or none) as the test states them.
// The certificates are this project's own (openssl, EC P-256, CN system:node:n1): one whose NotAfter is
// 2026-12-04T08:09:30Z — expired at NOW — and one valid until 2126, standing for upstream's expiredCert/unexpiredCert.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {certificateNotAfter, DENIED_EXPIRATION_MS, PENDING_EXPIRATION_MS, replayCsrCleaner} from '../../../src/engine/csrcleaner/cleaner.js'

const NOW = new Date('2027-01-01T00:00:00Z')
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString()
const EXPIRED =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJHVENCd0FJQkFqQUtCZ2dxaGtqT1BRUURBakFaTVJjd0ZRWURWUVFEREE1emVYTjBaVzA2Ym05a1pUcHUKTVRBZUZ3MHlOakV5TURNd09EQTVNekJhRncweU5qRXlNRFF3T0RBNU16QmFNQmt4RnpBVkJnTlZCQU1NRG5ONQpjM1JsYlRwdWIyUmxPbTR4TUZrd0V3WUhLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFRUdPaDhtR0U4dHkwCi8wU1VDaVBjNDJhaVB2aHY1bVptdHNxbEpOYTZYRGkyNWt2NlhwNjNyZ2pRazNKVk0rVStnY2hWL0dkc0cvQTMKZzVCeXZHSHRiakFLQmdncWhrak9QUVFEQWdOSUFEQkZBaUFtZ0QvUzhiNHJLY2dJazl0NWRUYjJuUTBrQ21jTQo5UnJNK0JWWDR6NS84UUloQU9zYUE2Nk9tbFVKemk0M1FxU0J6bmV4aEhwa3UyVmN3d3lCU1owSzJmV1YKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo='
const VALID =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJMakNCMVFJVVNiTGJ0V1NZU0xWTU5JYmxtYWxKTFdtdjdpb3dDZ1lJS29aSXpqMEVBd0l3R1RFWE1CVUcKQTFVRUF3d09jM2x6ZEdWdE9tNXZaR1U2YmpFd0lCY05Nall4TWpBek1EZ3dPVE13V2hnUE1qRXlOakV4TURrdwpPREE1TXpCYU1Ca3hGekFWQmdOVkJBTU1Ebk41YzNSbGJUcHViMlJsT200eE1Ga3dFd1lIS29aSXpqMENBUVlJCktvWkl6ajBEQVFjRFFnQUVFR09oOG1HRTh0eTAvMFNVQ2lQYzQyYWlQdmh2NW1abXRzcWxKTmE2WERpMjVrdjYKWHA2M3JnalFrM0pWTStVK2djaFYvR2RzRy9BM2c1Qnl2R0h0YmpBS0JnZ3Foa2pPUFFRREFnTklBREJGQWlFQQp3R3E2MTZ1a0l6VEdSRGFScTlFQTJlSzkzakFyREhwQ3VZTi9iN2QzMVZRQ0lCMlpSKzRKMnBwWWtSS2hDajJNCi9yTmhHazBCVnpsa1hTcFNRVTV5WnZDZgotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg=='
const GARBAGE = Buffer.from('garbage').toString('base64')

const csr = (createdMinutesAgo: number, certificate: string | null, conditions: {type: string; minutesAgo: number}[]) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: {name: 'fake-csr', creationTimestamp: ago(createdMinutesAgo)},
  status: {...(certificate ? {certificate} : {}), conditions: conditions.map((c) => ({type: c.type, status: 'True', lastUpdateTime: ago(c.minutesAgo)}))},
})

// [name, created (minutes ago), certificate, conditions, deleted?, the rule that deletes]
const TABLE: [string, number, string | null, {type: string; minutesAgo: number}[], boolean, string?][] = [
  ['no delete approved not passed deadline', 1, VALID, [{type: 'Approved', minutesAgo: 50}], false],
  ['no delete approved passed deadline not issued', 1, null, [{type: 'Approved', minutesAgo: 50}], false],
  ['delete approved passed deadline', 1, VALID, [{type: 'Approved', minutesAgo: 120}], true, 'isIssuedPastDeadline'],
  ['no delete denied not passed deadline', 1, null, [{type: 'Denied', minutesAgo: 50}], false],
  ['delete denied passed deadline', 1, null, [{type: 'Denied', minutesAgo: 120}], true, 'isDeniedPastDeadline'],
  [
    'no delete failed not passed deadline',
    1,
    null,
    [
      {type: 'Approved', minutesAgo: 120},
      {type: 'Failed', minutesAgo: 50},
    ],
    false,
  ],
  [
    'delete failed passed deadline',
    1,
    null,
    [
      {type: 'Approved', minutesAgo: 120},
      {type: 'Failed', minutesAgo: 120},
    ],
    true,
    'isFailedPastDeadline',
  ],
  ['no delete pending not passed deadline', 5 * 60, null, [], false],
  ['delete pending passed deadline', 25 * 60, null, [], true, 'isPendingPastDeadline'],
  ['no delete approved not passed deadline unexpired', 1, VALID, [{type: 'Approved', minutesAgo: 50}], false],
  ['delete approved not passed deadline expired', 1, EXPIRED, [{type: 'Approved', minutesAgo: 50}], true, 'isIssuedExpired'],
  ['delete approved passed deadline unparseable', 1, GARBAGE, [{type: 'Approved', minutesAgo: 120}], true, 'isIssuedPastDeadline'],
]

describe('TestCleanerWithApprovedExpiredCSR (cleaner_test.go)', () => {
  for (const [name, created, cert, conditions, deleted, rule] of TABLE) {
    test(name, () => {
      const r = replayCsrCleaner(csr(created, cert, conditions), NOW)
      assert.equal(r.due, deleted)
      if (deleted) {
        assert.equal(r.rule, rule)
        assert.equal(r.actor.action, 'willDelete')
        assert.equal(r.actor.actor, 'csrcleaner')
      }
    })
  }
})

describe('when the cleaner will act, worked by hand', () => {
  test("the certificates' NotAfter as openssl printed them", () => {
    assert.equal(certificateNotAfter(EXPIRED), Date.parse('2026-12-04T08:09:30Z'))
    assert.equal(certificateNotAfter(VALID), Date.parse('2126-11-09T08:09:30Z'))
    assert.equal(certificateNotAfter(GARBAGE), undefined)
  })
  test('Denied 50 min ago: due 1 h after lastUpdateTime, 10 min from now', () => {
    const r = replayCsrCleaner(csr(60, null, [{type: 'Denied', minutesAgo: 50}]), NOW)
    assert.equal(r.due, false)
    assert.equal(Date.parse(r.eligibleAt ?? ''), NOW.getTime() - 50 * 60_000 + DENIED_EXPIRATION_MS)
    assert.equal(r.eligibleAt, '2027-01-01T00:10:00Z')
  })
  test('Pending 5 h: due 24 h after creation, 19 h from now', () => {
    const r = replayCsrCleaner(csr(5 * 60, null, []), NOW)
    assert.equal(r.rule, 'isPendingPastDeadline')
    assert.equal(Date.parse(r.eligibleAt ?? ''), NOW.getTime() - 5 * 3_600_000 + PENDING_EXPIRATION_MS)
  })
  test('Approved without a certificate: no rule ever applies (the pending rule needs no condition at all)', () => {
    const r = replayCsrCleaner(csr(48 * 60, null, [{type: 'Approved', minutesAgo: 47 * 60}]), NOW)
    assert.equal(r.due, false)
    assert.equal(r.rule, undefined)
    assert.equal(r.actor.action, 'none')
    assert.match(r.headline, /never deletes/)
  })
  test('a condition without lastUpdateTime is never aged out (isOlderThan is false for a zero time)', () => {
    const o = csr(48 * 60, null, [])
    o.status.conditions = [{type: 'Denied', status: 'True'} as never]
    const r = replayCsrCleaner(o, NOW)
    assert.equal(r.due, false)
    assert.equal(r.actor.action, 'none')
  })
  test('exactly at the deadline it does not hold yet (strict: t − now < −d)', () => {
    const r = replayCsrCleaner(csr(60, null, [{type: 'Denied', minutesAgo: 60}]), NOW)
    assert.equal(r.due, false)
  })
})

describe('never more certain than the data', () => {
  test('a CSR kept as metadata only (no status) is not taken for Pending', () => {
    const r = replayCsrCleaner(
      {apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: {name: 'm', creationTimestamp: ago(48 * 60)}},
      NOW,
    )
    assert.equal(r.due, false)
    assert.equal(r.rule, undefined)
    assert.equal(r.steps[0].result, 'unknown')
  })
})
