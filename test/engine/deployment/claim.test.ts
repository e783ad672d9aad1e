// ClaimObject as the workload controllers run it (ClaimReplicaSets, ClaimControllerRevisions): the example of issue
// 18.4 worked by hand, and a property test (fast-check, fixed seed, bounded runs) against the upstream rule
// re-stated below from its source, over owner/object deletion (absent, null, set), selectors that match or not,
// and controller references to the owner, to another object, or none.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import fc from 'fast-check'
import type {KubeObject} from '../../../src/cluster/source.js'
import {claimObjects} from '../../../src/engine/deployment/claim.js'
import type {Workload} from '../../../src/engine/deployment/types.js'

const SEED = 1804
const RUNS = 300

// ---- upstream, re-stated ----

type Outcome = 'owned' | 'adopt' | 'release' | 'ignore'

/**
 * claimObject (pkg/controller/controller_ref_manager.go; read at commit b4d1ea12, L80-131 — ClaimObject at CRM:69 in
 * current releases, same branches): with a controllerRef — another UID: ignore (L83-86); the selector matches: claimed
 * (L87-93, "before checking deletion timestamp"); else "Try to release, unless we're being deleted" where *we* is
 * m.controller, the owner (L94-98), then release (L99-110). An orphan: ignored when the owner is being deleted or the
 * selector does not match (L113-116), ignored when the object itself is being deleted (L117-120), else adopted.
 * A Go nil *Time is `deletionTimestamp` absent or null; only a set one counts.
 */
function refClaim(ownerUid: string, ownerDeleting: boolean, refUid: string | undefined, match: boolean, objDeleting: boolean): Outcome {
  if (refUid !== undefined) {
    if (refUid !== ownerUid) return 'ignore'
    if (match) return 'owned'
    if (ownerDeleting) return 'ignore'
    return 'release'
  }
  if (ownerDeleting || !match) return 'ignore'
  if (objDeleting) return 'ignore'
  return 'adopt'
}

// ---- builders ----

type Stamp = 'absent' | 'null' | 'set'
const stamp = (s: Stamp) => (s === 'absent' ? {} : {deletionTimestamp: s === 'null' ? null : '2026-11-29T09:00:00Z'})

function deployment(deleting: Stamp): Workload {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', namespace: 'shop', uid: 'dep-web', ...stamp(deleting)},
    spec: {selector: {matchLabels: {app: 'web'}}},
  } as unknown as Workload
}

function rs(name: string, labels: Record<string, string>, ref: string | undefined, deleting: Stamp): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'shop',
      uid: `rs-${name}`,
      labels,
      ...stamp(deleting),
      ...(ref ? {ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: ref === 'dep-web' ? 'web' : 'other', uid: ref, controller: true}]} : {}),
    },
  } as unknown as KubeObject
}

describe('ClaimObject release (issue 18.4)', () => {
  it('an owned ReplicaSet that left the selector is released even while it is itself being deleted', () => {
    // By hand: controllerRef = the Deployment, labels app=old do not match app=web, the Deployment is alive → L94-98
    // does not return, release runs. The ReplicaSet's own deletionTimestamp is read nowhere on this branch.
    const [c] = claimObjects(deployment('absent'), [rs('web-1', {app: 'old'}, 'dep-web', 'set')])
    assert.equal(c.result, 'release')
  })

  it('not released while the Deployment is being deleted', () => {
    const [c] = claimObjects(deployment('set'), [rs('web-1', {app: 'old'}, 'dep-web', 'absent')])
    assert.equal(c.result, 'ignore')
  })

  it('agrees with the re-stated rule on random objects', () => {
    const stamps = fc.constantFrom<Stamp>('absent', 'null', 'set')
    fc.assert(
      fc.property(
        stamps,
        fc.array(
          fc.record({
            ref: fc.constantFrom<string | undefined>(undefined, 'dep-web', 'dep-other'),
            labels: fc.constantFrom<Record<string, string>>({app: 'web'}, {app: 'web', extra: 'x'}, {app: 'old'}, {}),
            deleting: stamps,
          }),
          {maxLength: 6},
        ),
        (ownerDeleting, objects) => {
          const input = objects.map((o, i) => rs(`rs-${i}`, o.labels, o.ref, o.deleting))
          const got = claimObjects(deployment(ownerDeleting), input).map((c) => c.result)
          const want = objects.map((o) => refClaim('dep-web', ownerDeleting === 'set', o.ref, o.labels.app === 'web', o.deleting === 'set'))
          assert.deepEqual(got, want)
        },
      ),
      {seed: SEED, numRuns: RUNS},
    )
  })
})
