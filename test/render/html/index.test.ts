// The HTML report of a large audit: the first 25 findings of each check and verdict as cards, the rest of each group
// as rows of one table (every finding is still in -o json), written in pieces.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {Explanation} from '../../../src/explanation.js'
import {CARDS_PER_GROUP, renderHtml, renderHtmlChunks} from '../../../src/render/html/index.js'

function finding(controller: string, verdict: string, name: string): Explanation {
  return {
    subject: {kind: 'Node', name},
    controller,
    verdict,
    severity: 'warning',
    summary: `${name} <needs> a look`,
    steps: [],
    evaluatedAt: '2026-11-29T10:00:00Z',
    source: {mode: 'snapshot'},
  }
}

describe('renderHtml of a large report', () => {
  // 30 nodelifecycle/unhealthy findings and 2 garbagecollector/delete ones: 25 + 2 cards, one table of 30 - 25 = 5 rows.
  const findings = [
    ...Array.from({length: 30}, (_, i) => finding('nodelifecycle', 'unhealthy', `n${i}`)),
    finding('garbagecollector', 'delete', 'a'),
    finding('garbagecollector', 'delete', 'b'),
  ]
  const report = {kind: 'AuditReport', evaluatedAt: '2026-11-29T10:00:00Z', source: {mode: 'snapshot'}, findings}

  it('draws 25 cards per check and verdict and lists the rest in one table', () => {
    assert.equal(CARDS_PER_GROUP, 25)
    const html = renderHtml(report, 'audit')
    assert.equal(html.match(/<article class="finding/g)?.length, 27)
    assert.match(html, /<table class="compact" data-compact="5">/)
    assert.equal(html.match(/<tr data-subject="Node n(2[5-9])">/g)?.length, 5)
    assert.doesNotMatch(html, /<needs>/, 'text from the cluster is escaped')
  })

  it('is written in pieces that make the same document', () => {
    const pieces = [...renderHtmlChunks(report, 'audit')]
    assert.ok(pieces.length >= 30, `${pieces.length} pieces`)
    assert.equal(pieces.join(''), renderHtml(report, 'audit'))
    assert.match(pieces[0], /^<!DOCTYPE html>/)
    assert.match(pieces.at(-1)!, /<\/html>\n$/)
  })
})
