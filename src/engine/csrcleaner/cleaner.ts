// The CSR cleaner (kube-controller-manager's `csrcleaner`): which CertificateSigningRequests it deletes and when
// (issue 26 item 6; cleanups.md §8.2). Upstream: pkg/controller/certificates/cleaner/cleaner.go (certificates/v1 copy
// with isFailedPastDeadline, index id 410371505; the older v1beta1 copy k/k@045db589 has no Failed rule and skips a
// CSR whose certificate does not parse): handle deletes the CSR when any of isIssuedPastDeadline,
// isDeniedPastDeadline, isFailedPastDeadline, isPendingPastDeadline or isIssuedExpired holds, on its hourly pass
// (pollingInterval) over the informer's CSRs, with no delete options. Pure: the CSR and the clock in.
import {X509Certificate} from 'node:crypto'
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'

export const CLEANER = 'pkg/controller/certificates/cleaner/cleaner.go'
const HOUR = 3_600_000
/** cleaner.go pollingInterval: every CSR is checked once an hour. */
export const POLLING_INTERVAL_MS = HOUR
/** cleaner.go approvedExpiration: an Approved CSR with a certificate goes 1 h after the condition's lastUpdateTime. */
export const APPROVED_EXPIRATION_MS = HOUR
/** cleaner.go deniedExpiration: a Denied (and, in isFailedPastDeadline, a Failed) CSR goes 1 h after lastUpdateTime. */
export const DENIED_EXPIRATION_MS = HOUR
/** cleaner.go pendingExpiration: a CSR with no condition at all goes 24 h after its creationTimestamp. */
export const PENDING_EXPIRATION_MS = 24 * HOUR

interface Condition {
  type?: string
  status?: string
  lastUpdateTime?: string | null
}

interface CsrLike {
  metadata?: {name?: string; creationTimestamp?: string | null}
  status?: {certificate?: string | null; conditions?: Condition[] | null}
}

export type CsrRule = 'isIssuedPastDeadline' | 'isDeniedPastDeadline' | 'isFailedPastDeadline' | 'isPendingPastDeadline' | 'isIssuedExpired'

export interface CsrCleanerReplay {
  /** The rule that holds now (the first in handle's order), or the one that will hold first. */
  rule?: CsrRule
  /** Whether it holds at `now`: the next pass (within the hour) deletes the CSR. */
  due: boolean
  /** The instant the rule starts to hold (the pass that deletes it comes within pollingInterval after). */
  eligibleAt?: string
  actor: Actor
  steps: Step[]
  headline: string
}

const ms = (t: string | null | undefined): number | undefined => {
  if (!t) return undefined
  const v = Date.parse(t)
  return Number.isNaN(v) ? undefined : v
}

/**
 * isExpired's NotAfter: the first PEM block of status.certificate (base64 on the wire), parsed as X.509. undefined
 * when there is no certificate or it does not decode or parse — isExpired is then false (the certificates/v1 copy).
 */
export function certificateNotAfter(certificate: string | null | undefined): number | undefined {
  if (!certificate) return undefined
  const pem = Buffer.from(certificate, 'base64').toString('latin1')
  const m = /-----BEGIN [^-]+-----\r?\n([\s\S]*?)-----END [^-]+-----/.exec(pem)
  if (!m) return undefined
  try {
    return ms(new X509Certificate(Buffer.from(m[1].replace(/\s+/g, ''), 'base64')).validTo)
  } catch {
    return undefined
  }
}

const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')

/**
 * The cleaner's decision for one CSR. isOlderThan(t, d) is `!t.IsZero() && t − now < −d`: a condition without
 * lastUpdateTime is never aged out by its rule, and the instant is strictly after t + d. isIssued is a non-empty
 * status.certificate.
 */
export function replayCsrCleaner(o: KubeObject, now: Date): CsrCleanerReplay {
  const csr = o as CsrLike
  const name = csr.metadata?.name ?? ''
  // The API server always writes status (an empty one while Pending): without it the data holds only the metadata,
  // and a missing condition list must not be read as Pending.
  if (!csr.status || typeof csr.status !== 'object')
    return {
      due: false,
      steps: [
        {
          rule: 'handle',
          upstream: `${CLEANER} (handle)`,
          result: 'unknown',
          why: "the data holds only the CSR's metadata: its conditions and certificate, which decide, are not there",
        },
      ],
      actor: {
        actor: 'csrcleaner',
        action: 'none',
        rule: 'handle',
        evidence: ['status not in the data'],
        next: [{command: `kubectl get csr ${name} -o yaml`, why: 'the conditions and their lastUpdateTime decide when the cleaner deletes it'}],
      },
      headline: '',
    }
  const conditions = csr.status?.conditions ?? []
  const issued = !!csr.status?.certificate
  const notAfter = certificateNotAfter(csr.status?.certificate)
  const t = now.getTime()
  // Each rule with the instant it starts to hold (undefined: never, from this data).
  const candidates: {rule: CsrRule; from?: number; why: string}[] = []
  for (const c of conditions) {
    const u = ms(c.lastUpdateTime)
    if (c.type === 'Approved' && issued)
      candidates.push({
        rule: 'isIssuedPastDeadline',
        from: u === undefined ? undefined : u + APPROVED_EXPIRATION_MS,
        why: `Approved${u === undefined ? ' without lastUpdateTime (never aged out)' : ` at ${c.lastUpdateTime}`} with a certificate: approvedExpiration 1h`,
      })
    if (c.type === 'Denied')
      candidates.push({
        rule: 'isDeniedPastDeadline',
        from: u === undefined ? undefined : u + DENIED_EXPIRATION_MS,
        why: `Denied${u === undefined ? ' without lastUpdateTime (never aged out)' : ` at ${c.lastUpdateTime}`}: deniedExpiration 1h`,
      })
    if (c.type === 'Failed')
      candidates.push({
        rule: 'isFailedPastDeadline',
        from: u === undefined ? undefined : u + DENIED_EXPIRATION_MS,
        why: `Failed${u === undefined ? ' without lastUpdateTime (never aged out)' : ` at ${c.lastUpdateTime}`}: deniedExpiration 1h (isFailedPastDeadline uses it)`,
      })
  }
  if (conditions.length === 0) {
    const created = ms(csr.metadata?.creationTimestamp)
    candidates.push({
      rule: 'isPendingPastDeadline',
      from: created === undefined ? undefined : created + PENDING_EXPIRATION_MS,
      why: `no condition (Pending) since ${csr.metadata?.creationTimestamp ?? '(no creationTimestamp)'}: pendingExpiration 24h`,
    })
  }
  if (issued && conditions.some((c) => c.type === 'Approved'))
    candidates.push({
      rule: 'isIssuedExpired',
      // time.Now().After(NotAfter): strictly after.
      from: notAfter,
      why: notAfter === undefined ? 'the certificate does not parse: isExpired is false' : `the certificate's NotAfter is ${iso(notAfter)}`,
    })
  // isOlderThan and After are strict: the rule holds once now is past the instant.
  const holding = candidates.find((c) => c.from !== undefined && t > c.from)
  const upcoming = candidates.filter((c) => c.from !== undefined).sort((a, b) => (a.from as number) - (b.from as number))[0]
  const chosen = holding ?? upcoming
  const steps: Step[] = [
    {
      rule: 'handle',
      upstream: `${CLEANER} (handle: isIssuedPastDeadline, isDeniedPastDeadline, isFailedPastDeadline, isPendingPastDeadline, isIssuedExpired; isOlderThan, isIssued, isExpired)`,
      inputs: {
        conditions: conditions.map((c) => `${c.type}${c.lastUpdateTime ? ` ${c.lastUpdateTime}` : ''}`),
        certificate: issued,
        notAfter: notAfter === undefined ? null : iso(notAfter),
      },
      result: holding ? holding.rule : chosen ? 'notYet' : 'never',
      why: candidates.length
        ? candidates.map((c) => `${c.rule}: ${c.why}${c.from !== undefined ? ` → from ${iso(c.from)}` : ''}`).join('; ')
        : 'Approved without a certificate (no signer issued one): no rule applies, the cleaner never deletes it',
    },
  ]
  const ref = `CertificateSigningRequest ${name}`
  if (chosen) {
    // One rule already holds (due: the next hourly pass takes it), or the earliest one to come.
    const due = chosen === holding
    const at = iso(chosen.from as number)
    return {
      rule: chosen.rule,
      due,
      eligibleAt: at,
      steps,
      actor: {
        actor: 'csrcleaner',
        action: 'willDelete',
        at,
        rule: chosen.rule,
        evidence: [chosen.why],
        next: due
          ? [{command: `kubectl get csr ${name} -o yaml`, why: 'what the cleaner deletes on its next hourly pass: keep the certificate if it is still needed'}]
          : [],
      },
      headline: due
        ? `The CSR cleaner deletes ${ref} on its next hourly pass (${chosen.rule}: ${chosen.why}; due since ${at}).`
        : `The CSR cleaner deletes ${ref} on its first hourly pass after ${at} (${chosen.rule}: ${chosen.why}).`,
    }
  }
  return {
    due: false,
    steps,
    actor: {
      actor: 'csrcleaner',
      action: 'none',
      rule: 'handle',
      evidence: [steps[0].why],
      next: [{command: `kubectl delete csr ${name}`, why: 'the cleaner never removes it: delete it by hand if it is no longer wanted'}],
    },
    headline: `The CSR cleaner never deletes ${ref}: ${steps[0].why}.`,
  }
}
