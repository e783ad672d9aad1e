// Issue 18.5: Lt/Gt tolerations match only with TaintTolerationComparisonOperators on (alpha from 1.35, off by
// default in every release modelled). The gate follows kube-controller-manager's --feature-gates when its command
// line is visible (the taint-eviction controller runs there), else the release default; the output says which.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {explainEvicted} from '../../../src/engine/tainteviction/explain.js'
import type {PodLike} from '../../../src/engine/tainteviction/types.js'
import {controllerManagerArgs} from '../../../src/settings/kcm.js'
import {resolveSettings} from '../../../src/engine/nodelifecycle/settings.js'

const v = (minor: number) => ({major: 1, minor, from: 'server' as const, text: `1.${minor}`})
const kcm = (gates: string) =>
  controllerManagerArgs([
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'kube-controller-manager-cp', namespace: 'kube-system', labels: {component: 'kube-controller-manager'}},
      spec: {containers: [{name: 'kube-controller-manager', command: ['kube-controller-manager', `--feature-gates=${gates}`]}]},
    },
  ])

describe('TaintTolerationComparisonOperators', () => {
  it('off by default at 1.34, 1.36 and 1.37, and said so', () => {
    for (const minor of [34, 36, 37]) {
      const r = resolveSettings({version: v(minor), overrides: {}})
      assert.equal(r.settings.taintTolerationComparisonOperators, false)
      assert.equal(r.described.TaintTolerationComparisonOperators.value, false)
    }
    assert.match(
      resolveSettings({version: v(36), overrides: {}}).described.TaintTolerationComparisonOperators.from,
      /alpha, off by default.*Lt\/Gt tolerations match nothing/,
    )
    assert.match(resolveSettings({version: v(34), overrides: {}}).described.TaintTolerationComparisonOperators.from, /does not exist before 1\.35/)
  })
  it("on when the controller-manager's --feature-gates turns it on; our --feature-gates overrides that", () => {
    const on = resolveSettings({version: v(36), kcm: kcm('TaintTolerationComparisonOperators=true'), overrides: {}})
    assert.equal(on.settings.taintTolerationComparisonOperators, true)
    assert.match(on.described.TaintTolerationComparisonOperators.from, /kube-controller-manager pod kube-system\/kube-controller-manager-cp --feature-gates/)
    const ours = resolveSettings({
      version: v(36),
      kcm: kcm('TaintTolerationComparisonOperators=true'),
      overrides: {'feature-gates': 'TaintTolerationComparisonOperators=false'},
    })
    assert.equal(ours.settings.taintTolerationComparisonOperators, false)
    assert.equal(ours.described.TaintTolerationComparisonOperators.from, '--feature-gates (our flag)')
  })
  it('a pod tolerating sla=950 with Gt 900 only: gate off → not tolerated, deleted at once; gate on → stays', () => {
    // Taint sla=950:NoExecute; toleration {sla, Gt, 900} with no tolerationSeconds. Gate on: 950 > 900 tolerates,
    // no seconds → forever. Gate off: ToleratesTaint matches nothing for Gt → not all tolerated → at once.
    const pod: PodLike = {
      metadata: {name: 'p', namespace: 'ns', creationTimestamp: '2026-05-01T08:00:00Z'},
      spec: {nodeName: 'n1', tolerations: [{key: 'sla', operator: 'Gt', value: '900', effect: 'NoExecute'}]},
    }
    const node = {
      metadata: {name: 'n1'},
      spec: {taints: [{key: 'sla', value: '950', effect: 'NoExecute', timeAdded: '2026-05-01T09:00:00Z'}]},
      status: {conditions: [{type: 'Ready', status: 'True'}]},
    }
    const run = (gate: boolean) =>
      explainEvicted({
        namespace: 'ns',
        name: 'p',
        pod,
        events: [],
        node,
        now: Date.parse('2026-05-01T09:10:00Z'),
        settings: {...resolveSettings({version: v(36), overrides: {}}).settings, taintTolerationComparisonOperators: gate},
        source: {mode: 'snapshot'},
      })
    assert.equal(run(false).verdict, 'evictedImmediately')
    assert.equal(run(true).verdict, 'toleratedForever')
  })
})
