// The node views' layout: the settings block aligned, summaries and steps wrapped at word boundaries at the width
// given. The explanation is built by hand (values from examples/node-zone-outage.json's settings).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {Explanation} from '../../src/explanation.js'
import {renderExplanations} from '../../src/render/explanation-table.js'
import {renderSettings} from '../../src/render/node.js'
import {withoutColours} from '../support/plain-colours.js'

withoutColours()

const UID = '6f1c2a9e-3b7d-4c8e-9a0f-1d2e3f4a5b6c'
const e: Explanation = {
  subject: {kind: 'Pod', namespace: 'batch', name: 'report-28971234-7xq2m'},
  controller: 'taint-eviction',
  verdict: 'evictAt',
  severity: 'warning',
  summary: `Will be evicted at ≈ 2026-11-29T04:01:22Z, in 51m22s: 1h (the smallest first-match tolerationSeconds when the timer was armed) after the controller first saw it with the taint; owner uid ${UID}.`,
  steps: [
    {
      rule: 'getMinTolerationTime',
      upstream: 'pkg/controller/tainteviction/taint_eviction.go:160',
      result: '3600s',
      why: 'the minimum over the first-match tolerations only; any value ≤ 0 means at once, none set means never',
    },
  ],
  evaluatedAt: '2026-11-29T03:10:00Z',
  source: {
    mode: 'snapshot',
    settings: {
      'node-monitor-period': {value: '5s', from: 'default for Kubernetes 1.33 (the server version)'},
      'node-monitor-grace-period': {value: '50s', from: 'default for Kubernetes 1.33 (the server version)'},
      'k8s-version': {value: '1.33', from: 'the server version'},
      'taint-eviction': {value: true, from: 'taint-eviction-controller in --controllers'},
      'kube-controller-manager': {value: 'kube-system/kube-controller-manager-cp-1', from: 'its static pod command line'},
    },
  },
} as Explanation

describe('renderSettings', () => {
  it('starts every value in one column and every note in the next', () => {
    const lines = renderSettings(e, true, 80).trimEnd().split('\n')
    assert.equal(lines[0], 'Settings used:')
    // the widest key, "node-monitor-grace-period", is 25 columns: after the 2-space indent and 2 spaces, values start
    // at column 2 + 25 + 2 = 29; the values that fit the value column are at most 4 wide ("1.33", "true"), so notes
    // start at 29 + 4 + 2 = 35. The 40-column value has its note on the next line, in that column.
    const row = (k: string) => lines.find((l) => l.startsWith(`  ${k} `))!
    for (const k of ['node-monitor-period', 'node-monitor-grace-period', 'k8s-version', 'taint-eviction']) {
      assert.equal(row(k).indexOf(String(e.source.settings![k].value)), 29, k)
      assert.equal(row(k).indexOf(e.source.settings![k].from.split(' ')[0]), 35, k)
    }
    const kcm = lines.findIndex((l) => l.startsWith('  kube-controller-manager '))
    assert.equal(lines[kcm], '  kube-controller-manager    kube-system/kube-controller-manager-cp-1')
    assert.equal(lines[kcm + 1], `${' '.repeat(35)}its static pod command line`)
  })
})

describe('renderExplanations', () => {
  for (const width of [40, 80, 120]) {
    it(`at ${width} columns no word of the summary or the steps is cut, and the uid stands whole`, () => {
      const lines = renderExplanations([e], false, width).trimEnd().split('\n')
      const words = new Set(`${e.summary} ${e.steps[0].rule}: ${e.steps[0].result} — ${e.steps[0].why}`.split(' '))
      for (const l of lines.slice(1)) {
        if (l.length > width) assert.equal(l.trim(), UID, `only the uid may pass the width: ${JSON.stringify(l)}`)
        for (const piece of l.trim().replace(/^• /, '').split(' ')) assert.ok(words.has(piece), `cut: ${JSON.stringify(piece)} at ${width}`)
      }
      assert.ok(lines.some((l) => l.includes(UID)))
    })
  }
})
