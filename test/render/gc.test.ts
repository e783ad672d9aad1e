// gc --tree's layout: kubectl-tree's columns, kubectl's AGE, and on a narrow terminal the REASON column wrapped at
// word boundaries while NAME and the columns after REASON stay whole and aligned. The tree is built by hand.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {GcExplanation, GcTree} from '../../src/engine/garbagecollector/index.js'
import {renderGcTree} from '../../src/render/gc.js'
import {withoutColours} from '../support/plain-colours.js'

withoutColours()

const now = new Date('2026-11-29T10:00:00Z')
const tree: GcTree = {
  owners: [],
  object: {
    subject: {kind: 'Deployment', namespace: 'fg', name: 'api', uid: 'dep-api'},
    exists: true,
    verdict: 'waitForBlockingDependents',
    deleting: true,
    finalizers: ['foregroundDeletion'],
    creationTimestamp: '2026-11-26T09:00:00Z', // 3 d 1 h old
    children: [
      {
        subject: {kind: 'ReplicaSet', namespace: 'fg', name: 'api-1', uid: 'rs-api'},
        exists: true,
        verdict: 'delete',
        propagationPolicy: 'Foreground',
        creationTimestamp: '2026-11-29T09:54:30Z', // 5 m 30 s old
        edge: {classification: 'waitingForDependentsDeletion', blockOwnerDeletion: true, controller: true},
        children: [],
      },
    ],
  },
}
const e = {
  subject: tree.object.subject,
  verdict: 'waitForBlockingDependents',
  severity: 'warning',
  summary: 'Waits for its blocking dependents.',
  steps: [],
  evaluatedAt: now.toISOString(),
  source: {mode: 'snapshot'},
} as unknown as GcExplanation

describe('renderGcTree', () => {
  it("one row per object, kubectl's AGE, no uids without -o wide", () => {
    const lines = renderGcTree(tree, e, {now, width: 200}).split('\n')
    // column widths: NAMESPACE 9, NAME 18 ("└─ReplicaSet/api-1"), VERDICT 25, REASON 28 ("deleting(foregroundDeletion)")
    assert.equal(lines[0], 'NAMESPACE  NAME                VERDICT                    REASON                        AGE')
    assert.equal(lines[1], 'fg         Deployment/api      waitForBlockingDependents  deleting(foregroundDeletion)  3d1h')
    assert.equal(lines[2], 'fg         └─ReplicaSet/api-1  delete Foreground          waiting ctrl block            5m30s')
    assert.ok(!lines.join('\n').includes('rs-api'))
  })

  it('on a narrow terminal REASON wraps at word boundaries; AGE stays in its column', () => {
    const lines = renderGcTree(tree, e, {now, width: 80}).split('\n')
    // 9 + 18 + 25 + 28 + 5 + 4 × 2 = 93 > 80, but REASON cannot go below its longest word (28): rows keep their
    // width and "waiting ctrl block" (18) still fits in 28, so nothing wraps — the longest word wins over the width
    assert.equal(lines[2], 'fg         └─ReplicaSet/api-1  delete Foreground          waiting ctrl block            5m30s')
    const narrow = renderGcTree({...tree, object: {...tree.object, deleting: false, finalizers: []}}, e, {now, width: 80}).split('\n')
    // without the 28-column word, REASON's longest word is "waiting" (7) and "REASON" (6): it narrows to
    // max(12, 18 - (9 + 18 + 25 + 18 + 5 + 8 - 80)) = max(12, 15) = 15, so "waiting ctrl" (12) and "block" split;
    // the continuation starts at REASON's column, 9 + 2 + 18 + 2 + 25 + 2 = 58
    assert.equal(narrow[0], `NAMESPACE  NAME                VERDICT                    REASON${' '.repeat(9 + 2)}AGE`)
    assert.equal(narrow[2], `fg         └─ReplicaSet/api-1  delete Foreground          waiting ctrl${' '.repeat(3 + 2)}5m30s`)
    assert.equal(narrow[3], `${' '.repeat(58)}block`)
    assert.equal(narrow[2].indexOf('5m30s'), narrow[0].indexOf('AGE'))
  })

  it('-o wide adds the uids', () => {
    const lines = renderGcTree(tree, e, {now, width: 200, wide: true}).split('\n')
    assert.match(lines[0], /AGE {2,}UID$/)
    assert.match(lines[2], /5m30s {2,}rs-api$/)
  })
})
